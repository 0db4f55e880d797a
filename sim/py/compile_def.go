package py

import (
	"github.com/gpumem/playground/sim/py/syntax"
)

// childQual returns the qualname of a definition named name inside fc.
func (fc *fnCompiler) childQual(name string) string {
	switch fc.sc.kind {
	case scopeFunction:
		return fc.code.qualname + ".<locals>." + name
	case scopeClass:
		return fc.code.qualname + "." + name
	}
	return name
}

// funcMaker compiles the parts shared by def and lambda.
type funcMaker struct {
	code     *code
	defaults []exprFn
	kwDefs   []exprFn // per keyword-only parameter; nil when no default
	closure  []varRef // where each free variable's cell comes from
	params   []*syntax.Param
	annNames []Value  // annotated parameters ("return" last), in 3.12's order
	anns     []exprFn // their annotations
}

func (fc *fnCompiler) compileFunc(node syntax.Node, name string, params []*syntax.Param, returns syntax.Expr, body []syntax.Stmt, bodyExpr syntax.Expr, firstLine int) (*funcMaker, error) {
	sc := fc.c.scopes[node]
	child := fc.c.newFn(sc, name, fc.childQual(name))
	co := child.code
	co.firstLine = firstLine
	co.isGen = sc.generator
	fm := &funcMaker{code: co, params: params}
	for _, p := range params {
		switch p.Kind {
		case syntax.ParamPositional, syntax.ParamPosOnly:
			co.npos++
			if p.Kind == syntax.ParamPosOnly {
				co.nposonly++
			}
			if p.Default != nil {
				f, err := fc.expr(p.Default)
				if err != nil {
					return nil, err
				}
				fm.defaults = append(fm.defaults, f)
			}
		case syntax.ParamKwOnly:
			co.nkwonly++
			var f exprFn
			if p.Default != nil {
				var err error
				if f, err = fc.expr(p.Default); err != nil {
					return nil, err
				}
			}
			fm.kwDefs = append(fm.kwDefs, f)
		case syntax.ParamVarArgs:
			co.varargs = true
		case syntax.ParamKwArgs:
			co.varkw = true
		}
	}
	if err := fm.annotations(fc, params, returns); err != nil {
		return nil, err
	}
	// In multi-line mode: BUILD_TUPLE, BUILD_MAP, the names of keyword
	// defaults and annotations, MAKE_FUNCTION are at the def (lambda) line.
	fm.markGroups(fc, firstLine)
	if bodyExpr != nil {
		co.isLambda = true
		// The lambda's frame starts at its body's first instruction and
		// returns at the lambda's line: a body on other lines is compiled
		// in multi-line mode.
		co.lambdaLine = fc.exprLine(bodyExpr)
		child.ml = spansLines(firstLine, bodyExpr)
		co.lambdaML = child.ml
		f, err := child.expr(bodyExpr)
		if err != nil {
			return nil, err
		}
		co.bodyExpr = child.post(firstLine, f)
	} else {
		b, err := child.stmts(body)
		if err != nil {
			return nil, err
		}
		co.body = b
	}
	for i, n := range co.cellNames {
		if co.paramCell[i] <= -2 {
			fm.closure = append(fm.closure, fc.ref(n))
		}
	}
	return fm, nil
}

// markGroups marks ln (in multi-line mode) where CPython runs an
// instruction of the def line between the defaults and annotations: after
// the positional defaults (BUILD_TUPLE), before each keyword default and
// annotation (the LOAD_CONST of its name), after the keyword defaults
// (BUILD_MAP) and the annotations (BUILD_TUPLE).
func (fm *funcMaker) markGroups(fc *fnCompiler, ln int) {
	if n := len(fm.defaults); n > 0 {
		fm.defaults[n-1] = fc.post(ln, fm.defaults[n-1])
	}
	last := -1
	for i, d := range fm.kwDefs {
		if d != nil {
			fm.kwDefs[i] = fc.pre(ln, d)
			last = i
		}
	}
	if last >= 0 {
		fm.kwDefs[last] = fc.post(ln, fm.kwDefs[last])
	}
	for i, a := range fm.anns {
		fm.anns[i] = fc.pre(ln, a)
	}
	if n := len(fm.anns); n > 0 {
		fm.anns[n-1] = fc.post(ln, fm.anns[n-1])
	}
}

// annotations compiles the parameters' and return annotations in the order
// of 3.12's compiler_visit_annotations: the positional parameters after
// '/', those before it, *args, keyword-only, **kwargs, return.
func (fm *funcMaker) annotations(fc *fnCompiler, params []*syntax.Param, returns syntax.Expr) error {
	add := func(name string, x syntax.Expr) error {
		if x == nil {
			return nil
		}
		f, err := fc.expr(x)
		if err != nil {
			return err
		}
		fm.annNames = append(fm.annNames, Str(name))
		fm.anns = append(fm.anns, f)
		return nil
	}
	for _, kind := range []syntax.ParamKind{syntax.ParamPositional, syntax.ParamPosOnly, syntax.ParamVarArgs, syntax.ParamKwOnly, syntax.ParamKwArgs} {
		for _, p := range params {
			if p.Kind == kind {
				if err := add(p.Name.Name, p.Annotation); err != nil {
					return err
				}
			}
		}
	}
	return add("return", returns)
}

// hasDefaults reports whether making the function evaluates defaults.
func (fm *funcMaker) hasDefaults() bool {
	for _, d := range fm.kwDefs {
		if d != nil {
			return true
		}
	}
	return len(fm.defaults) > 0
}

// make builds the function object (new reference).
func (fm *funcMaker) make(fr *frame) (*Function, error) {
	it := fr.it
	fn := &Function{code: fm.code, globals: fr.globals}
	IncRef(fr.globals)
	if len(fm.defaults) > 0 {
		fn.defaults = make([]Value, 0, len(fm.defaults))
		for _, d := range fm.defaults {
			v, err := d(fr)
			if err != nil {
				err = fr.raising(err)
				it.DecRef(fn)
				return nil, err
			}
			fn.defaults = append(fn.defaults, v)
		}
	}
	if len(fm.kwDefs) > 0 {
		fn.kwdefaults = make([]Value, len(fm.kwDefs))
		for i, d := range fm.kwDefs {
			if d == nil {
				continue
			}
			v, err := d(fr)
			if err != nil {
				err = fr.raising(err)
				it.DecRef(fn)
				return nil, err
			}
			fn.kwdefaults[i] = v
		}
	}
	if len(fm.anns) > 0 {
		vs := make([]Value, 0, 2*len(fm.anns))
		for i, a := range fm.anns {
			v, err := a(fr)
			if err != nil {
				err = fr.raising(err)
				it.popAll(vs)
				it.DecRef(fn)
				return nil, err
			}
			vs = append(vs, fm.annNames[i], v)
		}
		fn.annotations = it.NewTuple(vs)
	}
	for _, r := range fm.closure {
		c := fr.cells[r.idx]
		fn.closure = append(fn.closure, IncRef(c).(*Cell))
	}
	if m, ok := fr.globals.getStr("__name__"); ok {
		if s, ok := m.(Str); ok {
			fn.module = string(s)
		}
	}
	it.newGC(fn, true)
	return fn, nil
}

// decorators compiles decorator expressions; each marks its lines (the
// first is also the statement's line).
func (fc *fnCompiler) decorators(ds []*syntax.Decorator) ([]exprFn, error) {
	var out []exprFn
	err := fc.multiLine(fc.code.traced, func() error {
		for _, d := range ds {
			f, err := fc.expr(d.X)
			if err != nil {
				return err
			}
			out = append(out, f)
		}
		return nil
	})
	return out, err
}

// decoLineInfo holds the lines of a decorated definition for line events:
// CPython evaluates decorators at their lines, creates the function at the
// def line, calls the decorators (bottom-up) at their lines and stores the
// result at the def line.
type decoLineInfo struct {
	traced bool
	deco   []int
	pos    []*srcPos // each decorator call's range: the decorator expression's
	def    int
}

func decoLines(fc *fnCompiler, ds []*syntax.Decorator, def int) *decoLineInfo {
	d := &decoLineInfo{traced: fc.code.traced && len(ds) > 0, def: def}
	for _, x := range ds {
		d.deco = append(d.deco, line(x.At))
		d.pos = append(d.pos, fc.c.at(x.X))
	}
	return d
}

// at fires a line event for ln when it differs from the frame's last line.
func (d *decoLineInfo) at(fr *frame, ln int) {
	if d.traced && fr.lastLine != ln {
		fr.line = ln
		fr.it.lineEvent(fr, ln)
	}
}

// applyDecoratorsAt is applyDecorators with line events.
func (it *Interp) applyDecoratorsAt(fr *frame, d *decoLineInfo, decs []Value, v Value) (Value, error) {
	for i := len(decs) - 1; i >= 0; i-- {
		d.at(fr, d.deco[i])
		r, err := it.callSteal(decs[i], []Value{v}, nil, false)
		if err != nil {
			fr.notePos(d.pos[i])
			err = fr.raising(err)
			it.popAll(decs[:i])
			return nil, err
		}
		v = r
	}
	return v, nil
}

func evalAll(fr *frame, fs []exprFn) ([]Value, error) {
	var out []Value
	for _, f := range fs {
		v, err := f(fr)
		if err != nil {
			err = fr.raising(err)
			fr.it.popAll(out)
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func (fc *fnCompiler) defStmt(s *syntax.DefStmt) (stmtFn, error) {
	decs, err := fc.decorators(s.Decorators)
	if err != nil {
		return nil, err
	}
	// Defaults on other lines than def's mark their lines, then MAKE_FUNCTION
	// marks the def line.
	var defaults []syntax.Node
	for _, p := range s.Params {
		if p.Default != nil {
			defaults = append(defaults, p.Default)
		}
		if p.Annotation != nil {
			defaults = append(defaults, p.Annotation)
		}
	}
	if s.Returns != nil {
		defaults = append(defaults, s.Returns)
	}
	ml := spansLines(line(s.Def), defaults...)
	fc.ml = ml
	fm, err := fc.compileFunc(s, s.Name.Written(), s.Params, s.Returns, s.Body, nil, line(s.Def))
	if err != nil {
		return nil, err
	}
	if ml && len(s.Decorators) == 0 {
		fc.ml = true // the statement's wrapper fires nothing
	} else {
		fc.ml = false
	}
	st := fc.storeName(s.Name.Name)
	lines := decoLines(fc, s.Decorators, line(s.Def))
	return func(fr *frame) (ctl, error) {
		dv, err := evalAll(fr, decs)
		if err != nil {
			return 0, err
		}
		if !ml {
			lines.at(fr, lines.def)
		}
		fn, err := fm.make(fr)
		if err != nil {
			err = fr.raising(err)
			fr.it.popAll(dv)
			return 0, err
		}
		v, err := fr.it.applyDecoratorsAt(fr, lines, dv, fn)
		if err != nil {
			return 0, err
		}
		lines.at(fr, lines.def)
		return ctlNext, st(fr, v)
	}, nil
}

func (fc *fnCompiler) lambda(x *syntax.LambdaExpr) (exprFn, error) {
	fm, err := fc.compileFunc(x, "<lambda>", x.Params, nil, nil, x.Body, line(x.Lambda))
	if err != nil {
		return nil, err
	}
	f := func(fr *frame) (Value, error) {
		fn, err := fm.make(fr)
		if err != nil {
			return nil, err
		}
		return fn, nil
	}
	if fc.ml && !fm.hasDefaults() {
		return preMark(line(x.Lambda), f), nil // MAKE_FUNCTION
	}
	return f, nil
}

func (fc *fnCompiler) classStmt(s *syntax.ClassStmt) (stmtFn, error) {
	decs, err := fc.decorators(s.Decorators)
	if err != nil {
		return nil, err
	}
	// LOAD_BUILD_CLASS at the class line, the bases, CALL at the class line.
	classLine := line(s.Class)
	var bases []syntax.Node
	for _, b := range s.Bases {
		bases = append(bases, b)
	}
	fc.ml = spansLines(classLine, bases...)
	as, err := fc.args(s.Bases, classLine)
	if err != nil {
		return nil, err
	}
	fc.ml = false
	sc := fc.c.scopes[s]
	name := s.Name.Written() // the class's __name__; bound under s.Name.Name
	child := fc.c.newFn(sc, name, fc.childQual(name))
	co := child.code
	co.firstLine = stmtLine(s) // the first decorator's line, if any
	body, err := child.stmts(s.Body)
	if err != nil {
		return nil, err
	}
	co.body = withSetupAnnotations(body, s.Body, co.firstLine)
	var closure []varRef
	for i, n := range co.cellNames {
		if co.paramCell[i] <= -2 {
			closure = append(closure, fc.ref(n))
		}
	}
	st := fc.storeName(s.Name.Name)
	qual := co.qualname
	lines := decoLines(fc, s.Decorators, classLine)
	return func(fr *frame) (ctl, error) {
		it := fr.it
		dv, err := evalAll(fr, decs)
		if err != nil {
			return 0, err
		}
		lines.at(fr, lines.def) // LOAD_BUILD_CLASS
		bases, kws, err := as.eval(fr, nil, nil)
		if err != nil {
			err = fr.raising(err)
			it.popAll(dv)
			return 0, err
		}
		var cells []*Cell
		for _, r := range closure {
			cells = append(cells, IncRef(fr.cells[r.idx]).(*Cell))
		}
		ns := it.NewDict()
		if m, ok := fr.globals.getStr("__name__"); ok {
			ns.SetStr(it, "__module__", m)
		}
		ns.SetStr(it, "__qualname__", Str(qual))
		cellv, err := it.runClassBody(co, fr, ns, cells)
		release := func() {
			it.decRefAll(bases)
			for _, k := range kws {
				it.DecRef(k.Value)
			}
		}
		if err != nil {
			it.DecRef(ns)
			release()
			err = fr.raising(err)
			it.popAll(dv)
			return 0, err
		}
		cls, err := it.buildClass(name, bases, ns, kws)
		it.DecRef(ns)
		release()
		if err != nil {
			if cellv != nil {
				it.DecRef(cellv)
			}
			err = fr.raising(err)
			it.popAll(dv)
			return 0, err
		}
		if cellv != nil {
			cellv.v = IncRef(cls)
			it.DecRef(cellv)
		}
		v, err := it.applyDecoratorsAt(fr, lines, dv, cls)
		if err != nil {
			return 0, err
		}
		lines.at(fr, lines.def)
		return ctlNext, st(fr, v)
	}, nil
}

// runClassBody executes a class body in namespace ns; it returns the
// __class__ cell (owned) when methods use super().
func (it *Interp) runClassBody(co *code, parent *frame, ns *Dict, closure []*Cell) (*Cell, error) {
	fr := &frame{it: it, code: co, globals: parent.globals, ns: ns, back: it.frame, lastLine: -1}
	fr.slots = make([]Value, len(co.varnames))
	fr.cells = make([]*Cell, len(co.cellNames))
	k := 0
	for i := range co.cellNames {
		if co.paramCell[i] <= -2 {
			fr.cells[i] = closure[k]
			k++
		} else {
			c := &Cell{}
			it.newGC(c, true)
			fr.cells[i] = c
		}
	}
	if err := it.enter(fr); err != nil {
		clearVars(it, fr.code, fr.slots, fr.cells)
		return nil, err
	}
	if co.traced {
		fr.line = co.firstLine
		it.lineEvent(fr, co.firstLine)
	}
	_, err := execStmts(fr, co.body)
	var cell *Cell
	if err == nil && co.classCell >= 0 {
		cell = IncRef(fr.cells[co.classCell]).(*Cell)
	}
	it.leave(fr)
	return cell, err
}

func (fc *fnCompiler) importStmt(s *syntax.ImportStmt) (stmtFn, error) {
	type imp struct {
		path  string
		leaf  bool
		store storeFn
	}
	var imps []imp
	for _, a := range s.Names {
		p := ""
		for i, id := range a.Path {
			if i > 0 {
				p += "."
			}
			p += id.Name
		}
		if a.As != nil {
			imps = append(imps, imp{p, true, fc.storeName(a.As.Name)})
		} else {
			imps = append(imps, imp{p, false, fc.storeName(a.Path[0].Name)})
		}
	}
	return func(fr *frame) (ctl, error) {
		it := fr.it
		for _, im := range imps {
			m, err := it.Import(im.path)
			if err != nil {
				return 0, err
			}
			if im.leaf {
				if err := im.store(fr, m); err != nil {
					return 0, err
				}
				continue
			}
			top := im.path
			for i := 0; i < len(top); i++ {
				if top[i] == '.' {
					top = top[:i]
					break
				}
			}
			it.DecRef(m)
			tm := it.modules[top]
			if err := im.store(fr, IncRef(tm)); err != nil {
				return 0, err
			}
		}
		return ctlNext, nil
	}, nil
}

func (fc *fnCompiler) importFrom(s *syntax.ImportFromStmt) (stmtFn, error) {
	p := ""
	for i, id := range s.Module {
		if i > 0 {
			p += "."
		}
		p += id.Name
	}
	if s.Star {
		return func(fr *frame) (ctl, error) {
			it := fr.it
			m, err := it.Import(p)
			if err != nil {
				return 0, err
			}
			defer it.DecRef(m)
			mod := m.(*Module)
			for _, e := range mod.Dict.entries {
				if e.key == nil {
					continue
				}
				k := string(e.key.(Str))
				if len(k) > 0 && k[0] == '_' {
					continue
				}
				fr.ns.SetStr(it, k, e.value)
			}
			return ctlNext, nil
		}, nil
	}
	type item struct {
		name  string
		store storeFn
	}
	var items []item
	for _, a := range s.Names {
		n := a.Path[0].Name
		as := n
		if a.As != nil {
			as = a.As.Name
		}
		items = append(items, item{n, fc.storeName(as)})
	}
	return func(fr *frame) (ctl, error) {
		it := fr.it
		m, err := it.Import(p)
		if err != nil {
			return 0, err
		}
		for _, im := range items {
			v, err := it.importFromName(m.(*Module), p, im.name)
			if err != nil {
				err = fr.raising(err)
				it.DecRef(m)
				return 0, err
			}
			if err := im.store(fr, v); err != nil {
				err = fr.raising(err)
				it.DecRef(m)
				return 0, err
			}
		}
		it.DecRef(m)
		return ctlNext, nil
	}, nil
}
