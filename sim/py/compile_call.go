package py

import (
	"github.com/gpumem/playground/sim/py/syntax"
)

type argSpec struct {
	pos     []exprFn
	kwNames []string
	kw      []exprFn
	general bool // has *args or **kwargs
	items   []argItem
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
		if len(as.items) == len(xs)-1 {
			item.f = fc.post(ln, item.f)
		}
		as.items = append(as.items, item)
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

// eval evaluates the arguments (new references); prefix is prepended (self).
func (as *argSpec) eval(fr *frame, prefix Value) ([]Value, []Kwarg, error) {
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
	fail := func(err error) ([]Value, []Kwarg, error) {
		it.decRefAll(args)
		for _, k := range kws {
			it.DecRef(k.Value)
		}
		return nil, nil, err
	}
	if !as.general {
		for _, f := range as.pos {
			v, err := f(fr)
			if err != nil {
				return fail(err)
			}
			args = append(args, v)
		}
		if len(as.kw) > 0 {
			kws = make([]Kwarg, 0, len(as.kw))
			for i, f := range as.kw {
				v, err := f(fr)
				if err != nil {
					return fail(err)
				}
				kws = append(kws, Kwarg{as.kwNames[i], v})
			}
		}
		return args, kws, nil
	}
	for _, item := range as.items {
		v, err := item.f(fr)
		if err != nil {
			return fail(err)
		}
		switch item.kind {
		case 0:
			args = append(args, v)
		case 1:
			vs, err := it.iterToSlice(v)
			if err != nil {
				it.DecRef(v)
				if e, ok := err.(*Instance); ok && e.cls == TypeError {
					err = newTypeError("Value after * must be an iterable, not " + v.Type().Name)
				}
				return fail(err)
			}
			it.DecRef(v)
			args = append(args, vs...)
		case 2:
			kws = append(kws, Kwarg{item.name, v})
		case 3:
			d, ok := v.(*Dict)
			if !ok {
				it.DecRef(v)
				return fail(newTypeError("argument after ** must be a mapping, not " + v.Type().Name))
			}
			for _, e := range d.entries {
				if e.key == nil {
					continue
				}
				k, ok := e.key.(Str)
				if !ok {
					it.DecRef(v)
					return fail(newTypeError("keywords must be strings"))
				}
				kws = append(kws, Kwarg{string(k), IncRef(e.value)})
			}
			it.DecRef(v)
		}
	}
	return args, kws, nil
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
			callLine = exprLine(x)
		}
		as, err := fc.args(x.Args, callLine)
		if err != nil {
			return nil, err
		}
		name := dot.Name.Name
		return func(fr *frame) (Value, error) {
			it := fr.it
			o, err := obj(fr)
			if err != nil {
				return nil, err
			}
			meth, self, err := it.loadMethod(o, name)
			if err != nil {
				return nil, err
			}
			args, kws, err := as.eval(fr, self)
			if err != nil {
				it.DecRef(meth)
				return nil, err
			}
			r, err := it.callOwned(meth, args, kws)
			it.DecRef(meth)
			return r, err
		}, nil
	}
	fn, err := fc.expr(x.Fn)
	if err != nil {
		return nil, err
	}
	if len(x.Args) == 0 {
		fn = fc.post(exprLine(x), fn)
	}
	as, err := fc.args(x.Args, exprLine(x))
	if err != nil {
		return nil, err
	}
	return func(fr *frame) (Value, error) {
		it := fr.it
		f, err := fn(fr)
		if err != nil {
			return nil, err
		}
		args, kws, err := as.eval(fr, nil)
		if err != nil {
			it.DecRef(f)
			return nil, err
		}
		r, err := it.callOwned(f, args, kws)
		it.DecRef(f)
		return r, err
	}, nil
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
