package py

import (
	"fmt"
	"strings"

	"github.com/gpumem/playground/sim/py/syntax"
)

func (fc *fnCompiler) exprs(xs []syntax.Expr) ([]exprFn, error) {
	out := make([]exprFn, len(xs))
	for i, x := range xs {
		f, err := fc.expr(x)
		if err != nil {
			return nil, err
		}
		out[i] = f
	}
	return out, nil
}

// expr compiles an expression (with line marks in multi-line mode).
func (fc *fnCompiler) expr(x syntax.Expr) (exprFn, error) {
	var f exprFn
	var err error
	if fc.ml {
		f, err = fc.exprML(x)
	} else {
		f, err = fc.exprNode(x)
	}
	if err != nil || f == nil || !raises(x) || notesOwnPos(x) {
		return f, err
	}
	return withPos(fc.c.at(x), f), nil
}

// noted notes *p (when p is not nil) as the range of err.
func noted(fr *frame, p *srcPos, err error) error {
	if p != nil {
		fr.notePos(p)
	}
	return err
}

// notesOwnPos reports whether the compiled node notes its own range when
// its instruction raises (the frequent kinds, to spare the wrapper's call;
// the others are wrapped by withPos). Its operands note theirs.
func notesOwnPos(x syntax.Expr) bool {
	switch x := x.(type) {
	case *syntax.Ident, *syntax.CallExpr, *syntax.DotExpr, *syntax.IndexExpr:
		return true
	case *syntax.BinaryExpr:
		return x.Op != syntax.AND && x.Op != syntax.OR
	}
	return false
}

// exprNode compiles an expression node by kind.
func (fc *fnCompiler) exprNode(x syntax.Expr) (exprFn, error) {
	switch x := x.(type) {
	case *syntax.Ident:
		return fc.loadNameAt(x.Name, fc.c.at(x)), nil
	case *syntax.Literal:
		return fc.literal(x)
	case *syntax.FString:
		return fc.fstring(x, false)
	case *syntax.UnaryExpr:
		return fc.unary(x)
	case *syntax.BinaryExpr:
		return fc.binary(x)
	case *syntax.CompareExpr:
		return fc.compare(x)
	case *syntax.CondExpr:
		cond, err := fc.test(x.Cond)
		if err != nil {
			return nil, err
		}
		then, err := fc.expr(x.Then)
		if err != nil {
			return nil, err
		}
		els, err := fc.expr(x.Else)
		if err != nil {
			return nil, err
		}
		return func(fr *frame) (Value, error) {
			t, err := cond(fr)
			if err != nil {
				return nil, err
			}
			if t {
				return then(fr)
			}
			return els(fr)
		}, nil
	case *syntax.YieldExpr:
		return fc.yieldExpr(x)
	case *syntax.NamedExpr:
		val, err := fc.expr(x.Value)
		if err != nil {
			return nil, err
		}
		val = fc.post(fc.exprLine(x), val)
		// The target binds in the owner scope, not the comprehension.
		saved := fc.comps
		fc.comps = nil
		st := fc.storeName(x.Target.Name)
		fc.comps = saved
		return func(fr *frame) (Value, error) {
			v, err := val(fr)
			if err != nil {
				return nil, err
			}
			IncRef(v)
			if err := st(fr, v); err != nil {
				err = fr.raising(err)
				fr.it.DecRef(v)
				return nil, err
			}
			return v, nil
		}, nil
	case *syntax.LambdaExpr:
		return fc.lambda(x)
	case *syntax.CallExpr:
		return fc.call(x)
	case *syntax.DotExpr:
		obj, err := fc.expr(x.X)
		if err != nil {
			return nil, err
		}
		obj = fc.post(attrLine(x), obj)
		name := x.Name.Name
		at := fc.c.at(x)
		return func(fr *frame) (Value, error) {
			o, err := obj(fr)
			if err != nil {
				return nil, err
			}
			v, err := fr.it.GetAttr(o, name)
			fr.it.DecRef(o)
			if err != nil {
				fr.notePos(at)
			}
			return v, err
		}, nil
	case *syntax.IndexExpr:
		obj, err := fc.expr(x.X)
		if err != nil {
			return nil, err
		}
		key, err := fc.subscript(x.Index)
		if err != nil {
			return nil, err
		}
		key = fc.post(fc.exprLine(x), key)
		at := fc.c.at(x)
		return func(fr *frame) (Value, error) {
			o, err := obj(fr)
			if err != nil {
				return nil, err
			}
			k, err := key(fr)
			if err != nil {
				err = fr.raising(err)
				fr.it.DecRef(o)
				return nil, err
			}
			v, err := fr.it.GetItem(o, k)
			fr.it.DecRef(o)
			fr.it.DecRef(k)
			if err != nil {
				fr.notePos(at)
			}
			return v, err
		}, nil
	case *syntax.SliceExpr:
		return fc.slice(x)
	case *syntax.TupleExpr:
		elems, err := fc.starredList(x.Elts, fc.exprLine(x))
		if err != nil {
			return nil, err
		}
		return func(fr *frame) (Value, error) {
			vs, err := elems(fr)
			if err != nil {
				return nil, err
			}
			return fr.it.NewTuple(vs), nil
		}, nil
	case *syntax.ListExpr:
		elems, err := fc.starredList(x.Elts, fc.exprLine(x))
		if err != nil {
			return nil, err
		}
		return func(fr *frame) (Value, error) {
			vs, err := elems(fr)
			if err != nil {
				return nil, err
			}
			return fr.it.NewList(vs), nil
		}, nil
	case *syntax.SetExpr:
		return fc.setDisplay(x, false)
	case *syntax.DictExpr:
		return fc.dict(x)
	case *syntax.Comprehension:
		if x.Kind == syntax.GenExp {
			return fc.genexp(x)
		}
		return fc.comprehension(x)
	case *syntax.StarredExpr:
		return nil, fmt.Errorf("can't use starred expression here")
	}
	return nil, fmt.Errorf("unsupported expression %T", x)
}

// loadNameAt is loadName noting p as the range of a NameError or
// UnboundLocalError.
func (fc *fnCompiler) loadNameAt(name string, p *srcPos) exprFn {
	return fc.loadNameP(name, p)
}

func (fc *fnCompiler) loadName(name string) exprFn { return fc.loadNameP(name, nil) }

// loadNameP compiles a name load; p, when not nil, is noted on errors.
func (fc *fnCompiler) loadNameP(name string, p *srcPos) exprFn {
	r := fc.ref(name)
	switch r.kind {
	case refFast:
		i := r.idx
		return func(fr *frame) (Value, error) {
			v := fr.slots[i]
			if v == nil {
				return nil, noted(fr, p, unboundLocal(name))
			}
			return IncRef(v), nil
		}
	case refCell:
		i := r.idx
		free := fc.isFreeCell(i)
		return func(fr *frame) (Value, error) {
			v := fr.cells[i].v
			if v == nil {
				if free {
					return nil, noted(fr, p, NewException(NameError, "cannot access free variable '"+name+"' where it is not associated with a value in enclosing scope"))
				}
				return nil, noted(fr, p, unboundLocal(name))
			}
			return IncRef(v), nil
		}
	case refClassDeref:
		i := r.idx
		return func(fr *frame) (Value, error) {
			if v, ok := fr.ns.getStr(name); ok {
				return IncRef(v), nil
			}
			v := fr.cells[i].v
			if v == nil {
				return nil, noted(fr, p, nameError(name))
			}
			return IncRef(v), nil
		}
	case refGlobal:
		return func(fr *frame) (Value, error) {
			if v, ok := fr.globals.getStr(name); ok {
				return IncRef(v), nil
			}
			if v, ok := fr.it.builtins.getStr(name); ok {
				return IncRef(v), nil
			}
			return nil, noted(fr, p, nameError(name))
		}
	}
	return func(fr *frame) (Value, error) {
		if v, ok := fr.ns.getStr(name); ok {
			return IncRef(v), nil
		}
		if fr.ns != fr.globals {
			if v, ok := fr.globals.getStr(name); ok {
				return IncRef(v), nil
			}
		}
		if v, ok := fr.it.builtins.getStr(name); ok {
			return IncRef(v), nil
		}
		return nil, noted(fr, p, nameError(name))
	}
}

func (fc *fnCompiler) isFreeCell(i int) bool {
	return fc.code.paramCell[i] <= -2
}

func (fc *fnCompiler) literal(x *syntax.Literal) (exprFn, error) {
	var v Value
	switch x.Token {
	case syntax.INT:
		if x.BigInt != nil {
			v = MakeInt(x.BigInt)
		} else {
			v = Int(x.Int)
		}
	case syntax.FLOAT:
		v = Float(x.Float)
	case syntax.STRING:
		v = Str(x.Str)
	case syntax.BYTES:
		v = Bytes(x.Str)
	case syntax.NONE:
		v = None
	case syntax.TRUE:
		v = True
	case syntax.FALSE:
		v = False
	case syntax.ELLIPSIS:
		v = Ellipsis
	case syntax.IMAG:
		return func(fr *frame) (Value, error) {
			return nil, NewException(NotImplementedError, "complex numbers are not supported in the playground")
		}, nil
	default:
		return nil, fmt.Errorf("unsupported literal %v", x.Token)
	}
	return func(fr *frame) (Value, error) { return v, nil }, nil
}

// fstring compiles an f-string, or the format spec of a field (spec): as
// CPython 3.12's parser, a spec ending with a field ends with an empty
// constant at the field's closing '}'.
func (fc *fnCompiler) fstring(x *syntax.FString, spec bool) (exprFn, error) {
	type part struct {
		lit  string
		x    exprFn
		conv byte
		spec exprFn
		line int     // multi-line mode: LOAD_CONST of the text, FORMAT_VALUE of a field
		at   *srcPos // a field's range: FORMAT_VALUE
	}
	var parts []part
	for _, p := range x.Parts {
		ln := 0
		if fc.ml {
			ln = int(p.Pos.Line)
		}
		if p.Expr == nil {
			parts = append(parts, part{lit: p.Lit, line: ln})
			continue
		}
		e, err := fc.expr(p.Expr)
		if err != nil {
			return nil, err
		}
		pp := part{x: e, conv: p.Conversion, line: ln, at: fc.c.fieldPos(p)}
		if p.Spec != nil {
			if pp.spec, err = fc.fstring(p.Spec, true); err != nil {
				return nil, err
			}
		}
		parts = append(parts, pp)
	}
	if n := len(x.Parts); spec && n > 0 && x.Parts[n-1].Expr != nil {
		ln := 0
		if fc.ml {
			ln = int(x.Parts[n-1].End.Line)
		}
		parts = append(parts, part{line: ln})
	}
	build := 0 // multi-line mode: BUILD_STRING's line (none for one part)
	if fc.ml && len(parts) != 1 {
		build = fc.exprLine(x)
	}
	return func(fr *frame) (Value, error) {
		it := fr.it
		var sb strings.Builder
		for _, p := range parts {
			if p.x == nil {
				if p.line > 0 {
					markLine(fr, p.line)
				}
				sb.WriteString(p.lit)
				continue
			}
			v, err := p.x(fr)
			if err != nil {
				return nil, err
			}
			spec := "" // FORMAT_VALUE converts after the spec is built
			if p.spec != nil {
				sv, err := p.spec(fr)
				if err != nil {
					err = fr.raising(err)
					it.DecRef(v)
					return nil, err
				}
				spec = string(sv.(Str))
			}
			switch p.conv {
			case 'r', 'a':
				s, err := it.Repr(v)
				it.DecRef(v)
				if err != nil {
					fr.notePos(p.at)
					return nil, err
				}
				if p.conv == 'a' {
					s = asciiOf(s)
				}
				v = Str(s)
			case 's':
				s, err := it.Str(v)
				it.DecRef(v)
				if err != nil {
					fr.notePos(p.at)
					return nil, err
				}
				v = Str(s)
			}
			if p.line > 0 {
				markLine(fr, p.line)
			}
			s, err := it.Format(v, spec)
			it.DecRef(v)
			if err != nil {
				fr.notePos(p.at)
				return nil, err
			}
			sb.WriteString(s)
		}
		if build > 0 {
			markLine(fr, build)
		}
		if err := it.checkSize(sb.Len()); err != nil {
			return nil, err
		}
		return Str(sb.String()), nil
	}, nil
}

func (fc *fnCompiler) unary(x *syntax.UnaryExpr) (exprFn, error) {
	v, err := fc.expr(x.X)
	if err != nil {
		return nil, err
	}
	v = fc.post(fc.exprLine(x), v)
	if x.Op == syntax.NOT {
		return func(fr *frame) (Value, error) {
			a, err := v(fr)
			if err != nil {
				return nil, err
			}
			t, err := fr.it.Truth(a)
			fr.it.DecRef(a)
			if err != nil {
				return nil, err
			}
			return boolOf(!t), nil
		}, nil
	}
	var op Op
	switch x.Op {
	case syntax.MINUS:
		op = OpNeg
	case syntax.PLUS:
		op = OpPos
	case syntax.TILDE:
		op = OpInvert
	}
	return func(fr *frame) (Value, error) {
		a, err := v(fr)
		if err != nil {
			return nil, err
		}
		r, err := fr.it.unaryOp(op, a)
		fr.it.DecRef(a)
		return r, err
	}, nil
}

func binOpOf(t syntax.Token) Op {
	switch t {
	case syntax.PLUS:
		return OpAdd
	case syntax.MINUS:
		return OpSub
	case syntax.STAR:
		return OpMul
	case syntax.AT:
		return OpMatMul
	case syntax.SLASH:
		return OpTrueDiv
	case syntax.SLASHSLASH:
		return OpFloorDiv
	case syntax.PERCENT:
		return OpMod
	case syntax.STARSTAR:
		return OpPow
	case syntax.LTLT:
		return OpLShift
	case syntax.GTGT:
		return OpRShift
	case syntax.AMP:
		return OpAnd
	case syntax.PIPE:
		return OpOr
	case syntax.CIRCUMFLEX:
		return OpXor
	}
	return OpAdd
}

func (fc *fnCompiler) binary(x *syntax.BinaryExpr) (exprFn, error) {
	a, err := fc.expr(x.X)
	if err != nil {
		return nil, err
	}
	b, err := fc.expr(x.Y)
	if err != nil {
		return nil, err
	}
	switch x.Op {
	case syntax.AND, syntax.OR:
		// The jump after the left operand is at the expression's line.
		return fc.boolOp(x.Op == syntax.AND, fc.post(fc.exprLine(x), a), b), nil
	}
	b = fc.post(fc.exprLine(x), b)
	op := binOpOf(x.Op)
	at := fc.c.at(x)
	return func(fr *frame) (Value, error) {
		l, err := a(fr)
		if err != nil {
			return nil, err
		}
		r, err := b(fr)
		if err != nil {
			err = fr.raising(err)
			fr.it.DecRef(l)
			return nil, err
		}
		if li, ok := l.(Int); ok {
			if ri, ok := r.(Int); ok {
				if v, ok := fastIntOp(op, li, ri); ok {
					return v, nil
				}
			}
		}
		v, err := fr.it.binaryOp(op, l, r)
		fr.it.DecRef(l)
		fr.it.DecRef(r)
		if err != nil {
			fr.notePos(at)
		}
		return v, err
	}, nil
}

// boolOp evaluates `a and b` (isAnd) or `a or b`.
func (fc *fnCompiler) boolOp(isAnd bool, a, b exprFn) exprFn {
	return func(fr *frame) (Value, error) {
		v, err := a(fr)
		if err != nil {
			return nil, err
		}
		t, err := fr.it.Truth(v)
		if err != nil { // the COPY stays on the stack
			err = fr.raising(err)
			fr.it.DecRef(v)
			return nil, err
		}
		if t != isAnd {
			return v, nil
		}
		fr.it.DecRef(v)
		return b(fr)
	}
}

// fastIntOp computes small-int + - * < without overflow.
func fastIntOp(op Op, a, b Int) (Value, bool) {
	switch op {
	case OpAdd:
		r := a + b
		if (r > a) == (b > 0) {
			return r, true
		}
	case OpSub:
		r := a - b
		if (r < a) == (b > 0) {
			return r, true
		}
	case OpMul:
		if a > -(1<<31) && a < 1<<31 && b > -(1<<31) && b < 1<<31 {
			return a * b, true
		}
	}
	return nil, false
}

func cmpOpOf(t syntax.Token) Op {
	switch t {
	case syntax.LT:
		return OpLt
	case syntax.GT:
		return OpGt
	case syntax.LE:
		return OpLe
	case syntax.GE:
		return OpGe
	case syntax.EQL:
		return OpEq
	}
	return OpNe
}

func (fc *fnCompiler) compare(x *syntax.CompareExpr) (exprFn, error) {
	first, err := fc.expr(x.X)
	if err != nil {
		return nil, err
	}
	type link struct {
		tok syntax.Token
		y   exprFn
	}
	var links []link
	for _, c := range x.Ops {
		y, err := fc.expr(c.Y)
		if err != nil {
			return nil, err
		}
		links = append(links, link{c.Op, fc.post(fc.exprLine(x), y)})
	}
	return func(fr *frame) (Value, error) {
		it := fr.it
		l, err := first(fr)
		if err != nil {
			return nil, err
		}
		for i, lk := range links {
			r, err := lk.y(fr)
			if err != nil {
				err = fr.raising(err)
				it.DecRef(l)
				return nil, err
			}
			res, err := it.compareTok(lk.tok, l, r)
			it.DecRef(l)
			if err != nil {
				if i < len(links)-1 { // the COPY of r stays on the stack
					err = fr.raising(err)
				}
				it.DecRef(r)
				return nil, err
			}
			if i == len(links)-1 {
				it.DecRef(r)
				return res, nil
			}
			t, err := it.Truth(res)
			if err != nil { // r and the COPY of res stay on the stack
				err = fr.raising(err)
				it.DecRef(res)
				it.DecRef(r)
				return nil, err
			}
			if !t {
				it.DecRef(r)
				return res, nil
			}
			it.DecRef(res)
			l = r
		}
		return l, nil
	}, nil
}

// compareTok evaluates one comparison link (new reference).
func (it *Interp) compareTok(tok syntax.Token, l, r Value) (Value, error) {
	switch tok {
	case syntax.IS:
		return boolOf(isSame(l, r)), nil
	case syntax.IS_NOT:
		return boolOf(!isSame(l, r)), nil
	case syntax.IN, syntax.NOT_IN:
		ok, err := it.Contains(r, l)
		if err != nil {
			return nil, err
		}
		if tok == syntax.NOT_IN {
			ok = !ok
		}
		return boolOf(ok), nil
	}
	if li, ok := l.(Int); ok {
		if ri, ok := r.(Int); ok {
			switch tok {
			case syntax.LT:
				return boolOf(li < ri), nil
			case syntax.GT:
				return boolOf(li > ri), nil
			case syntax.LE:
				return boolOf(li <= ri), nil
			case syntax.GE:
				return boolOf(li >= ri), nil
			case syntax.EQL:
				return boolOf(li == ri), nil
			case syntax.NEQ:
				return boolOf(li != ri), nil
			}
		}
	}
	return it.richCompare(cmpOpOf(tok), l, r)
}

// isSame implements the is operator.
func isSame(a, b Value) bool {
	if ao, ok := a.(Object); ok {
		bo, ok := b.(Object)
		return ok && ao == bo
	}
	switch x := a.(type) {
	case Float:
		y, ok := b.(Float)
		return ok && (x == y)
	case Str:
		y, ok := b.(Str)
		return ok && x == y
	}
	return a == b
}

func (fc *fnCompiler) subscript(x syntax.Expr) (exprFn, error) {
	return fc.expr(x)
}

func (fc *fnCompiler) slice(x *syntax.SliceExpr) (exprFn, error) {
	parts := []syntax.Expr{x.Lo, x.Hi, x.Step}
	var fs [3]exprFn
	for i, p := range parts {
		if p != nil {
			f, err := fc.expr(p)
			if err != nil {
				return nil, err
			}
			fs[i] = f
		}
	}
	if x.Step != nil {
		fs[2] = fc.post(fc.exprLine(x), fs[2]) // BUILD_SLICE
	}
	return func(fr *frame) (Value, error) {
		var vs [3]Value
		for i, f := range fs {
			if f == nil {
				vs[i] = None
				continue
			}
			v, err := f(fr)
			if err != nil {
				err = fr.raising(err)
				for j := 0; j < i; j++ {
					fr.it.DecRef(vs[j])
				}
				return nil, err
			}
			vs[i] = v
		}
		return fr.it.newSlice(vs[0], vs[1], vs[2]), nil
	}, nil
}

// starredList compiles display elements, expanding *x.
// In multi-line mode the display's build instruction (at line ln) follows
// its last element.
// starredEl is one compiled element of a display or call: *x or a value.
type starredEl struct {
	f    exprFn
	star bool
}

func (fc *fnCompiler) starredList(xs []syntax.Expr, ln int) (func(fr *frame) ([]Value, error), error) {
	els, hasStar, err := fc.starredEls(xs, ln)
	if err != nil {
		return nil, err
	}
	n := len(els)
	return func(fr *frame) ([]Value, error) {
		var out []Value
		if !hasStar {
			out = make([]Value, 0, n)
		}
		for _, e := range els {
			v, err := e.f(fr)
			if err != nil {
				err = fr.raising(err)
				fr.it.popAll(out)
				return nil, err
			}
			if !e.star {
				out = append(out, v)
				continue
			}
			items, err := fr.it.iterToSlice(v)
			fr.it.DecRef(v)
			if err != nil {
				err = fr.raising(err)
				fr.it.popAll(out)
				return nil, err
			}
			out = append(out, items...)
		}
		return out, nil
	}, nil
}

// starredEls compiles the elements of a display with the line marks of
// its build.
func (fc *fnCompiler) starredEls(xs []syntax.Expr, ln int) ([]starredEl, bool, error) {
	type el = starredEl
	var els []el
	hasStar := false
	for _, x := range xs {
		if s, ok := x.(*syntax.StarredExpr); ok {
			f, err := fc.expr(s.X)
			if err != nil {
				return nil, false, err
			}
			els = append(els, el{f, true})
			hasStar = true
			continue
		}
		f, err := fc.expr(x)
		if err != nil {
			return nil, false, err
		}
		els = append(els, el{f, false})
	}
	// Line marks of the build (starunpack_helper): BUILD_LIST n after the
	// elements; with a *x or more than 30 elements the sequence is built
	// first (BUILD_LIST i before the first *x, or BUILD_LIST 0 before all
	// elements of a long one) and each later element is added by
	// LIST_APPEND/LIST_EXTEND, all at the display's line.
	firstStar := -1
	for i, e := range els {
		if e.star {
			firstStar = i
			break
		}
	}
	switch {
	case len(els) == 0:
	case len(els) > stackUseGuideline:
		els[0].f = fc.pre(ln, els[0].f)
		for i := range els {
			els[i].f = fc.post(ln, els[i].f)
		}
	case firstStar >= 0:
		if firstStar == 0 {
			els[0].f = fc.pre(ln, els[0].f)
		} else {
			els[firstStar-1].f = fc.post(ln, els[firstStar-1].f)
		}
		for i := firstStar; i < len(els); i++ {
			els[i].f = fc.post(ln, els[i].f)
		}
	default:
		els[len(els)-1].f = fc.post(ln, els[len(els)-1].f)
	}
	return els, hasStar, nil
}

// setDisplay compiles a set display. CPython folds constant elements into a
// frozenset constant: built by adding them in order, then rebuilt by the
// compiler's constant merging (merge_consts_recursive) from its own
// iteration order. A display of more than two constants builds its set
// from that constant (BUILD_SET 0, SET_UPDATE: set_merge); the iterable of
// a for loop or comprehension (iter=true) is the constant itself, whatever
// the number of elements. Otherwise elements are added in order.
func (fc *fnCompiler) setDisplay(x *syntax.SetExpr, iter bool) (exprFn, error) {
	if hasStarred(x.Elts) || (len(x.Elts) > stackUseGuideline && !allConst(x.Elts)) {
		return fc.setDisplayIncr(x)
	}
	elems, err := fc.starredList(x.Elts, fc.exprLine(x))
	if err != nil {
		return nil, err
	}
	folded := len(x.Elts) > 0 && (iter || len(x.Elts) > 2)
	for _, e := range x.Elts {
		if !isConstExpr(e) {
			folded = false
		}
	}
	return func(fr *frame) (Value, error) {
		it := fr.it
		vs, err := elems(fr)
		if err != nil {
			return nil, err
		}
		s := it.NewSet()
		for i, v := range vs {
			if err := s.Add(it, v); err != nil {
				it.decRefAll(vs[i:])
				it.DecRef(s)
				return nil, err
			}
			it.DecRef(v)
		}
		if folded {
			r, err := it.setFrom(s.ordered(), iter) // the merged constant
			it.DecRef(s)
			if err != nil {
				return nil, err
			}
			s = r.(*Set)
			if !iter {
				r := it.NewSet()
				err := it.setMerge(r, s)
				it.DecRef(s)
				if err != nil {
					it.DecRef(r)
					return nil, err
				}
				s = r
			}
		}
		return s, nil
	}, nil
}

// iterable compiles the iterable of a for loop or comprehension (a set
// display of constants is iterated as CPython's frozenset constant).
func (fc *fnCompiler) iterable(x syntax.Expr) (exprFn, error) {
	sx, ok := x.(*syntax.SetExpr)
	if !ok || len(sx.Elts) == 0 {
		return fc.expr(x)
	}
	for _, e := range sx.Elts {
		if !isConstExpr(e) {
			return fc.expr(x)
		}
	}
	ml := fc.ml
	var f exprFn
	err := fc.multiLine(false, func() (err error) {
		f, err = fc.setDisplay(sx, true)
		return err
	})
	if err != nil {
		return nil, err
	}
	if ml { // one LOAD_CONST at the display's line
		f = preMark(fc.exprLine(x), f)
	}
	return withPos(fc.c.at(x), f), nil
}

func (fc *fnCompiler) dict(x *syntax.DictExpr) (exprFn, error) {
	// CPython 3.12's compiler_dict: entries up to a ** are one group
	// (BUILD_MAP of the keys and values pushed on the stack); a group of
	// more than 16 entries is cut after 17 and built item by item (MAP_ADD);
	// groups and **x are merged into the first dict (DICT_UPDATE).
	n := len(x.Entries)
	big := make([]bool, n)      // entry i starts a MAP_ADD group
	last := make([]bool, n)     // entry i ends its group
	start := make([]int, n)     // first entry of entry i's group
	constK := make([]bool, n)   // entry i's group loads its keys as one constant
	group := func(end, k int) { // entries end-k+1..end
		s := end - k + 1
		last[end] = true
		big[s] = k*2 > stackUseGuideline
		allConst := k > 1 && !big[s]
		for i := s; i <= end; i++ {
			start[i] = s
			if !isConstExpr(x.Entries[i].Key) {
				allConst = false
			}
		}
		for i := s; i <= end; i++ {
			constK[i] = allConst
		}
	}
	elements := 0
	for i, e := range x.Entries {
		switch {
		case e.Key == nil:
			if elements > 0 {
				group(i-1, elements)
			}
			elements = 0
		case elements*2 > stackUseGuideline:
			group(i, elements+1)
			elements = 0
		default:
			elements++
		}
	}
	if elements > 0 {
		group(n-1, elements)
	}
	// Line marks, at the display's line: BUILD_MAP 0 before a MAP_ADD group
	// or a leading **x, MAP_ADD after each entry of such a group,
	// BUILD_MAP n (or BUILD_CONST_KEY_MAP, whose constant keys mark no
	// line) after a group, DICT_UPDATE after **x.
	ln := fc.exprLine(x)
	var ents []dictEnt
	haveDict := false
	for i, e := range x.Entries {
		var k exprFn
		var err error
		if e.Key != nil {
			err = fc.multiLine(fc.ml && !constK[i], func() (err error) {
				k, err = fc.expr(e.Key)
				return err
			})
			if err != nil {
				return nil, err
			}
			if big[i] {
				k = fc.pre(ln, k)
			}
		}
		v, err := fc.expr(e.Value)
		if err != nil {
			return nil, err
		}
		switch {
		case e.Key == nil:
			if !haveDict {
				v = fc.pre(ln, v)
			}
			v = fc.post(ln, v)
			haveDict = true
		case big[start[i]] || last[i]:
			v = fc.post(ln, v)
			if last[i] {
				haveDict = true
			}
		}
		ents = append(ents, dictEnt{k, v})
	}
	return func(fr *frame) (Value, error) {
		return buildDict(fr, ents, big, last)
	}, nil
}

// stackUseGuideline is CPython's STACK_USE_GUIDELINE: longer displays are
// built incrementally.
const stackUseGuideline = 30

// dictEnt is one entry of a dict display (k nil: **v).
type dictEnt struct {
	k, v exprFn
}

// buildDict evaluates a dict display as CPython 3.12's bytecode does (see
// fnCompiler.dict): a group's keys and values are inserted when the group
// ends, and when an entry raises, the pending keys and values are popped
// last first, then the group being built and the result dict are released.
func buildDict(fr *frame, ents []dictEnt, big, last []bool) (Value, error) {
	it := fr.it
	var acc, grp *Dict
	var stack []Value
	fail := func(err error) (Value, error) {
		err = fr.raising(err)
		it.popAll(stack)
		if grp != nil {
			it.DecRef(grp)
		}
		if acc != nil {
			it.DecRef(acc)
		}
		return nil, err
	}
	merge := func(g *Dict) error {
		if acc == nil {
			acc = g
			return nil
		}
		err := it.dictUpdate(acc, g, true)
		it.DecRef(g)
		return err
	}
	for i, e := range ents {
		if e.k == nil {
			if acc == nil {
				acc = it.NewDict()
			}
			m, err := e.v(fr)
			if err != nil {
				return fail(err)
			}
			err = it.dictUpdate(acc, m, true)
			it.DecRef(m)
			if err != nil {
				return fail(err)
			}
			continue
		}
		if big[i] {
			grp = it.NewDict()
		}
		k, err := e.k(fr)
		if err != nil {
			return fail(err)
		}
		stack = append(stack, k)
		v, err := e.v(fr)
		if err != nil {
			return fail(err)
		}
		stack = append(stack, v)
		if grp != nil { // MAP_ADD
			err := grp.SetItem(it, k, v)
			it.DecRef(k)
			it.DecRef(v)
			stack = stack[:0]
			if err != nil {
				return fail(err)
			}
		}
		if !last[i] {
			continue
		}
		g := grp
		grp = nil
		if g == nil { // BUILD_MAP n
			g = it.NewDict()
			var err error
			for j := 0; j < len(stack); j += 2 {
				if err == nil {
					err = g.SetItem(it, stack[j], stack[j+1])
				}
				it.DecRef(stack[j])
				it.DecRef(stack[j+1])
			}
			stack = stack[:0]
			if err != nil {
				it.DecRef(g)
				return fail(err)
			}
		}
		if err := merge(g); err != nil {
			return fail(err)
		}
	}
	if acc == nil {
		acc = it.NewDict()
	}
	return acc, nil
}
