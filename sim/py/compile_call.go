package py

import (
	"github.com/gpumem/playground/sim/py/syntax"
)

type argSpec struct {
	pos     []exprFn
	kwNames []string
	kw      []exprFn
	general bool // has *args or **kwargs
	// singleStar: the positional arguments are one *x (CALL_FUNCTION_EX
	// takes x itself; otherwise a list is built with LIST_EXTEND).
	singleStar bool
	items      []argItem
}

type argItem struct {
	kind int // 0 positional, 1 *x, 2 k=v, 3 **x
	name string
	f    exprFn
}

// args compiles call arguments; in multi-line mode the call instruction
// (at line ln) follows the last one.
func (fc *fnCompiler) args(xs []syntax.Expr, ln int) (*argSpec, error) {
	as := &argSpec{}
	for _, a := range xs {
		var item argItem
		var err error
		switch a := a.(type) {
		case *syntax.StarredExpr:
			item.kind = 1
			item.f, err = fc.expr(a.X)
			as.general = true
		case *syntax.KeywordArg:
			item.kind = 2
			item.name = a.Name.Name
			item.f, err = fc.expr(a.Value)
		case *syntax.DoubleStarredExpr:
			item.kind = 3
			item.f, err = fc.expr(a.X)
			as.general = true
		default:
			item.f, err = fc.expr(a)
		}
		if err != nil {
			return nil, err
		}
		as.items = append(as.items, item)
	}
	as.singleStar = npos(xs) == 1 && len(as.items) > 0 && as.items[0].kind == 1
	switch {
	case len(as.items) == 0:
	case as.general:
		fc.exCallMarks(as, ln)
	default:
		last := &as.items[len(as.items)-1]
		last.f = fc.post(ln, last.f)
	}
	for _, item := range as.items {
		switch item.kind {
		case 0:
			as.pos = append(as.pos, item.f)
		case 2:
			as.kwNames = append(as.kwNames, item.name)
			as.kw = append(as.kw, item.f)
		}
	}
	return as, nil
}

// exCallMarks places the line marks of a CALL_FUNCTION_EX's argument
// building (multi-line mode), all at the call's line ln: the positional
// arguments as a display (starunpack_helper: BUILD_LIST before the first
// *x, LIST_EXTEND/LIST_APPEND after each later one; a lone *x is passed
// as is), then the keywords (BUILD_MAP 0 before a leading **x,
// DICT_MERGE after each **x, and per group of k=v (compiler_subkwargs):
// a lone one loads its key first, a group is built after its last value,
// a long group item by item).
func (fc *fnCompiler) exCallMarks(as *argSpec, ln int) {
	if !fc.ml {
		return
	}
	its := as.items
	var pos []int
	for i, it := range its {
		if it.kind <= 1 {
			pos = append(pos, i)
		}
	}
	if !as.singleStar && len(pos) > 0 {
		firstStar := -1
		for j, i := range pos {
			if its[i].kind == 1 {
				firstStar = j
				break
			}
		}
		if len(pos) > stackUseGuideline {
			firstStar = 0
		}
		if firstStar == 0 {
			its[pos[0]].f = fc.pre(ln, its[pos[0]].f)
		} else {
			its[pos[firstStar-1]].f = fc.post(ln, its[pos[firstStar-1]].f)
		}
		for _, i := range pos[firstStar:] {
			its[i].f = fc.post(ln, its[i].f)
		}
	}
	haveDict := false
	var group []int // k=v since the last **x
	flush := func() {
		if len(group) == 0 {
			return
		}
		big := len(group)*2 > stackUseGuideline
		switch {
		case big:
			for _, i := range group {
				its[i].f = fc.post(ln, fc.pre(ln, its[i].f))
			}
		case len(group) == 1:
			its[group[0]].f = fc.post(ln, fc.pre(ln, its[group[0]].f))
		default:
			last := group[len(group)-1]
			its[last].f = fc.post(ln, its[last].f)
		}
		haveDict = true
		group = group[:0]
	}
	for i, it := range its {
		switch it.kind {
		case 2:
			group = append(group, i)
		case 3:
			flush()
			if !haveDict {
				its[i].f = fc.pre(ln, its[i].f)
			}
			its[i].f = fc.post(ln, its[i].f)
			haveDict = true
		}
	}
	flush()
}

// funcStr names a callable in call errors (CPython's _PyObject_FunctionStr:
// "module.qualname()", "qualname()" for builtins, else str()).
func (it *Interp) funcStr(fn Value) string {
	switch f := fn.(type) {
	case nil: // a class statement's bases
		return "__build_class__()"
	case *Function:
		if f.module != "" && f.module != "builtins" {
			return f.module + "." + f.code.qualname + "()"
		}
		return f.code.qualname + "()"
	case *BoundMethod:
		return it.funcStr(f.fn)
	case *Builtin:
		if f.self != nil {
			return f.self.Type().Name + "." + f.Name + "()"
		}
		return f.Name + "()"
	case *Method:
		return f.Owner.Name + "." + f.Name + "()"
	case *Class:
		return it.className(f) + "()"
	}
	s, err := it.Str(fn)
	if err != nil {
		if e, ok := err.(*Instance); ok {
			it.DecRef(e)
		}
		return "<" + fn.Type().Name + " object>"
	}
	return s
}

// eval evaluates the arguments (new references); prefix is prepended (self).
// When an argument raises, the values evaluated so far are released as
// CPython 3.12 pops its value stack (unwindArgs).
func (as *argSpec) eval(fr *frame, fn, prefix Value) ([]Value, []Kwarg, error) {
	it := fr.it
	n := len(as.pos)
	if prefix != nil {
		n++
	}
	args := make([]Value, 0, n)
	if prefix != nil {
		args = append(args, prefix)
	}
	var kws []Kwarg
	if !as.general {
		for _, f := range as.pos {
			v, err := f(fr)
			if err != nil {
				it.unwindArgs(args, kws, 0)
				return nil, nil, err
			}
			args = append(args, v)
		}
		if len(as.kw) > 0 {
			kws = make([]Kwarg, 0, len(as.kw))
			for i, f := range as.kw {
				v, err := f(fr)
				if err != nil {
					it.unwindArgs(args, kws, 0)
					return nil, nil, err
				}
				kws = append(kws, Kwarg{as.kwNames[i], v})
			}
		}
		return args, kws, nil
	}
	merged := 0 // kws[:merged] are in CALL_FUNCTION_EX's keyword dict
	for _, item := range as.items {
		if item.kind == 3 {
			merged = len(kws)
		}
		v, err := item.f(fr)
		if err != nil {
			it.unwindArgs(args, kws, merged)
			return nil, nil, err
		}
		switch item.kind {
		case 0:
			args = append(args, v)
		case 1:
			vs, err := it.iterToSlice(v)
			if err != nil {
				it.DecRef(v)
				if e, ok := err.(*Instance); ok && e.cls == TypeError {
					it.DecRef(e)
					if as.singleStar {
						err = newTypeError(it.funcStr(fn) + " argument after * must be an iterable, not " + v.Type().Name)
					} else {
						err = newTypeError("Value after * must be an iterable, not " + v.Type().Name)
					}
				}
				it.unwindArgs(args, kws, merged)
				return nil, nil, err
			}
			it.DecRef(v)
			args = append(args, vs...)
		case 2:
			kws = append(kws, Kwarg{item.name, v})
		case 3:
			d, ok := v.(*Dict)
			if !ok {
				it.DecRef(v)
				it.unwindArgs(args, kws, merged)
				return nil, nil, newTypeError(it.funcStr(fn) + " argument after ** must be a mapping, not " + v.Type().Name)
			}
			for _, e := range d.entries {
				if e.key == nil {
					continue
				}
				k, ok := e.key.(Str)
				if !ok {
					it.DecRef(v)
					it.unwindArgs(args, kws, len(kws))
					return nil, nil, newTypeError("keywords must be strings")
				}
				if hasKeyword(kws, string(k)) {
					it.DecRef(v)
					it.unwindArgs(args, kws, len(kws))
					return nil, nil, newTypeError(it.funcStr(fn) + " got multiple values for keyword argument '" + string(k) + "'")
				}
				kws = append(kws, Kwarg{string(k), IncRef(e.value)})
			}
			it.DecRef(v)
			merged = len(kws)
		}
	}
	if merged > 0 { // keywords after the last **x are merged at the end
		for i := merged; i < len(kws); i++ {
			if hasKeyword(kws[:i], kws[i].Name) {
				name := kws[i].Name
				it.unwindArgs(args, kws, len(kws))
				return nil, nil, newTypeError(it.funcStr(fn) + " got multiple values for keyword argument '" + name + "'")
			}
		}
	}
	return args, kws, nil
}

func hasKeyword(kws []Kwarg, name string) bool {
	for _, k := range kws {
		if k.Name == name {
			return true
		}
	}
	return false
}

// unwindArgs releases the arguments of a call whose argument evaluation
// raised, as CPython pops the value stack from the top: the keyword values
// pushed one by one (kws[merged:], last first), the keyword dict of a
// CALL_FUNCTION_EX (kws[:merged], its entries in order), then the
// positional values last first (the stack slots of CALL, or the list or
// tuple of CALL_FUNCTION_EX, which releases its items last first too).
func (it *Interp) unwindArgs(args []Value, kws []Kwarg, merged int) {
	for i := len(kws) - 1; i >= merged; i-- {
		it.DecRef(kws[i].Value)
	}
	for _, k := range kws[:merged] {
		it.DecRef(k.Value)
	}
	for i := len(args) - 1; i >= 0; i-- {
		it.DecRef(args[i])
	}
}

func (fc *fnCompiler) call(x *syntax.CallExpr) (exprFn, error) {
	if dot, ok := x.Fn.(*syntax.DotExpr); ok {
		// CPython 3.12 loads the method and calls it at the attribute's line
		// (CALL_FUNCTION_EX of a call with *args or **kwargs: the call's).
		obj, err := fc.expr(dot.X)
		if err != nil {
			return nil, err
		}
		obj = fc.post(attrLine(dot), obj)
		callLine := attrLine(dot)
		if hasStarArgs(x.Args) {
			callLine = fc.exprLine(x)
		}
		as, err := fc.args(x.Args, callLine)
		if err != nil {
			return nil, err
		}
		name := dot.Name.Name
		at := fc.c.at(dot) // LOAD_ATTR
		callAt := fc.c.at(x)
		return func(fr *frame) (Value, error) {
			it := fr.it
			o, err := obj(fr)
			if err != nil {
				return nil, err
			}
			var meth, self Value
			if as.general {
				// CALL_FUNCTION_EX: a plain LOAD_ATTR (a bound method).
				meth, err = it.GetAttr(o, name)
				it.DecRef(o)
			} else {
				meth, self, err = it.loadMethod(o, name)
			}
			if err != nil {
				fr.notePos(at)
				return nil, err
			}
			args, kws, err := as.eval(fr, meth, self)
			if err != nil {
				fr.notePos(callAt)
				it.DecRef(meth)
				return nil, err
			}
			r, err := it.callSteal(meth, args, kws, as.general)
			if err != nil {
				fr.notePos(callAt)
			}
			return r, err
		}, nil
	}
	fn, err := fc.expr(x.Fn)
	if err != nil {
		return nil, err
	}
	if len(x.Args) == 0 {
		fn = fc.post(fc.exprLine(x), fn)
	}
	as, err := fc.args(x.Args, fc.exprLine(x))
	if err != nil {
		return nil, err
	}
	callAt := fc.c.at(x)
	return func(fr *frame) (Value, error) {
		it := fr.it
		f, err := fn(fr)
		if err != nil {
			return nil, err
		}
		args, kws, err := as.eval(fr, f, nil)
		if err != nil {
			fr.notePos(callAt)
			it.DecRef(f)
			return nil, err
		}
		r, err := it.callSteal(f, args, kws, as.general)
		if err != nil {
			fr.notePos(callAt)
		}
		return r, err
	}, nil
}

// npos counts the positional arguments (including *x).
func npos(xs []syntax.Expr) int {
	n := 0
	for _, a := range xs {
		switch a.(type) {
		case *syntax.KeywordArg, *syntax.DoubleStarredExpr:
		default:
			n++
		}
	}
	return n
}

// hasStarArgs reports whether call arguments include *x or **x.
func hasStarArgs(xs []syntax.Expr) bool {
	for _, a := range xs {
		switch a.(type) {
		case *syntax.StarredExpr, *syntax.DoubleStarredExpr:
			return true
		}
	}
	return false
}
