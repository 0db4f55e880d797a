package py

import (
	"sort"

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
	// folded: the positional arguments are constants loaded as one tuple
	// (CALL_FUNCTION_EX without *x, more than two of them).
	folded bool
	items  []argItem
}

type argItem struct {
	kind int // 0 positional, 1 *x, 2 k=v, 3 **x
	name string
	f    exprFn
	// mapAdd: a k=v of a group of more than 15 (compiler_subkwargs), added
	// to a fresh dict as soon as it is evaluated (MAP_ADD).
	mapAdd bool
}

// args compiles call arguments; in multi-line mode the call instruction
// (at line ln) follows the last one.
func (fc *fnCompiler) args(xs []syntax.Expr, ln int) (*argSpec, error) {
	as := &argSpec{}
	// compiler_call_helper: CALL_FUNCTION_EX for *x, **x, or arguments that
	// would take more than 30 stack slots (a keyword counts twice);
	// starunpack_helper then loads more than two constant positional
	// arguments as one folded tuple.
	nkw := len(xs) - npos(xs)
	as.general = hasStarArgs(xs) || npos(xs)+2*nkw > stackUseGuideline
	folded := as.general && npos(xs) > 2
	for _, a := range xs {
		switch a.(type) {
		case *syntax.KeywordArg, *syntax.DoubleStarredExpr:
		default: // a positional argument (a *x is no constant)
			folded = folded && isConstExpr(a)
		}
	}
	as.folded = folded
	for _, a := range xs {
		var item argItem
		var err error
		switch a := a.(type) {
		case *syntax.StarredExpr:
			item.kind = 1
			item.f, err = fc.expr(a.X)
		case *syntax.KeywordArg:
			item.kind = 2
			item.name = a.Name.Name
			item.f, err = fc.expr(a.Value)
		case *syntax.DoubleStarredExpr:
			item.kind = 3
			item.f, err = fc.expr(a.X)
		default:
			err = fc.multiLine(fc.ml && !folded, func() (err error) {
				item.f, err = fc.expr(a)
				return err
			})
		}
		if err != nil {
			return nil, err
		}
		as.items = append(as.items, item)
	}
	// CPython's AST keeps the positional arguments (*x included) apart
	// from the keywords (**x included): `f(k=v, *a)` evaluates *a first.
	sortArgItems(as.items)
	if as.general {
		markMapAdd(as.items)
	}
	as.singleStar = npos(xs) == 1 && len(as.items) > 0 && as.items[0].kind == 1
	switch {
	case len(as.items) == 0:
	case as.general:
		fc.exCallMarks(as, ln)
		fallthrough // CALL_FUNCTION_EX, at ln
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

// sortArgItems moves the positional items (plain and *x) before the
// keyword items (k=v and **x), keeping each group's source order.
func sortArgItems(items []argItem) {
	sort.SliceStable(items, func(i, j int) bool {
		return items[i].kind <= 1 && items[j].kind >= 2
	})
}

// markMapAdd flags the k=v items of groups (between **x) of more than 15:
// compiler_subkwargs builds them item by item.
func markMapAdd(items []argItem) {
	start := 0
	for i := 0; i <= len(items); i++ {
		if i < len(items) && items[i].kind == 2 {
			continue
		}
		if (i-start)*2 > stackUseGuideline {
			for j := start; j < i; j++ {
				items[j].mapAdd = true
			}
		}
		start = i + 1
	}
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
	switch {
	case as.folded: // one LOAD_CONST
		its[pos[0]].f = fc.pre(ln, its[pos[0]].f)
	case !as.singleStar && len(pos) > 0:
		// BUILD_LIST before the first *x (after all without one), none
		// when long (BUILD_LIST 0 first).
		firstStar := len(pos)
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
				err = fr.raising(err)
				it.unwindArgs(args, kws, 0, 0, nil)
				return nil, nil, err
			}
			args = append(args, v)
		}
		if len(as.kw) > 0 {
			kws = make([]Kwarg, 0, len(as.kw))
			for i, f := range as.kw {
				v, err := f(fr)
				if err != nil {
					err = fr.raising(err)
					it.unwindArgs(args, kws, 0, 0, nil)
					return nil, nil, err
				}
				kws = append(kws, Kwarg{as.kwNames[i], v})
			}
		}
		return args, kws, nil
	}
	merged := 0 // kws[:merged] are in CALL_FUNCTION_EX's keyword dict
	// star is the operand of a lone *x, passed as is: CALL_FUNCTION_EX
	// makes it a tuple after the keywords are evaluated.
	var star Value
	for _, item := range as.items {
		if item.kind == 3 {
			merged = len(kws)
		}
		v, err := item.f(fr)
		if err != nil {
			sub := merged
			if item.mapAdd { // the group's dict holds kws[merged:]
				sub = len(kws)
			}
			err = fr.raising(err)
			it.unwindArgs(args, kws, merged, sub, star)
			return nil, nil, err
		}
		switch item.kind {
		case 0:
			args = append(args, v)
		case 1:
			if as.singleStar {
				star = v
				continue
			}
			vs, err := it.iterToSlice(v)
			if err != nil {
				it.DecRef(v)
				if e, ok := err.(*Instance); ok && e.cls == TypeError {
					it.DecRef(e)
					err = newTypeError("Value after * must be an iterable, not " + v.Type().Name)
				}
				err = fr.raising(err)
				it.unwindArgs(args, kws, merged, merged, star)
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
				err := fr.raising(newTypeError(it.funcStr(fn) + " argument after ** must be a mapping, not " + v.Type().Name))
				it.unwindArgs(args, kws, merged, merged, star)
				return nil, nil, err
			}
			for _, e := range d.entries {
				if e.key == nil {
					continue
				}
				k, ok := e.key.(Str)
				if !ok {
					it.DecRef(v)
					err := fr.raising(newTypeError("keywords must be strings"))
					it.unwindArgs(args, kws, len(kws), len(kws), star)
					return nil, nil, err
				}
				if hasKeyword(kws, string(k)) {
					it.DecRef(v)
					err := fr.raising(newTypeError(it.funcStr(fn) + " got multiple values for keyword argument '" + string(k) + "'"))
					it.unwindArgs(args, kws, len(kws), len(kws), star)
					return nil, nil, err
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
				err := fr.raising(newTypeError(it.funcStr(fn) + " got multiple values for keyword argument '" + name + "'"))
				it.unwindArgs(args, kws, len(kws), len(kws), star)
				return nil, nil, err
			}
		}
	}
	if star != nil {
		vs, err := it.iterToSlice(star)
		if err != nil {
			if e, ok := err.(*Instance); ok && e.cls == TypeError {
				it.DecRef(e)
				err = newTypeError(it.funcStr(fn) + " argument after * must be an iterable, not " + star.Type().Name)
			}
			err = fr.raising(err)
			it.unwindArgs(args, kws, len(kws), len(kws), star)
			return nil, nil, err
		}
		it.DecRef(star)
		args = append(args, vs...)
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
// pushed one by one (kws[sub:], last first), the dict of a long keyword
// group being built (kws[merged:sub], in order), the keyword dict of a
// CALL_FUNCTION_EX (kws[:merged], its entries in order), then the
// positional values last first (the stack slots of CALL, or the list or
// tuple of CALL_FUNCTION_EX, which releases its items last first too); a
// lone *x operand not yet made a tuple (star, nil if none) is released
// where the positional list would be.
func (it *Interp) unwindArgs(args []Value, kws []Kwarg, merged, sub int, star Value) {
	for i := len(kws) - 1; i >= sub; i-- {
		it.DecRef(kws[i].Value)
	}
	for _, k := range kws[merged:sub] {
		it.DecRef(k.Value)
	}
	for _, k := range kws[:merged] {
		it.DecRef(k.Value)
	}
	if star != nil {
		it.DecRef(star)
	}
	for i := len(args) - 1; i >= 0; i-- {
		it.DecRef(args[i])
	}
}

// methodCall returns the attribute of a call that CPython 3.12 compiles
// as a method call (maybe_optimize_method_call: LOAD_ATTR_METHOD, the call
// at the attribute's line), nil otherwise: the callee is not an attribute,
// the call has *args or **kwargs or too many arguments, or the attribute's
// object is a name bound by an import at module level (is_import_originated).
func (c *compiler) methodCall(x *syntax.CallExpr) *syntax.DotExpr {
	dot, ok := x.Fn.(*syntax.DotExpr)
	if !ok || hasStarArgs(x.Args) {
		return nil
	}
	if id, ok := dot.X.(*syntax.Ident); ok && c.top != nil && c.top.imported[id.Name] {
		return nil
	}
	n, kw := len(x.Args), len(x.Args)-npos(x.Args)
	if kw > 0 {
		n++
	}
	if n >= stackUseGuideline {
		return nil
	}
	return dot
}

func (fc *fnCompiler) call(x *syntax.CallExpr) (exprFn, error) {
	if dot, ok := x.Fn.(*syntax.DotExpr); ok {
		// CPython 3.12 loads the method and calls it at the attribute's line
		// (methodCall); otherwise it loads the attribute (at the attribute's
		// line) and calls it at the call's.
		opt := fc.c.methodCall(x) != nil
		obj, err := fc.expr(dot.X)
		if err != nil {
			return nil, err
		}
		obj = fc.post(attrLine(dot), obj)
		callLine := attrLine(dot)
		if !opt {
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
			if !opt {
				// A plain LOAD_ATTR (a bound method).
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
