package py

import (
	"strconv"
)

// Function is a function defined in Python (def or lambda).
type Function struct {
	Base
	code       *code
	globals    *Dict
	defaults   []Value
	kwdefaults []Value
	closure    []*Cell
	module     string
	dict       *Dict
	// annotations is nil, the (name, value, ...) tuple MAKE_FUNCTION got,
	// or the dict made from it on the first read of __annotations__.
	annotations Value
	// names holds __name__ and __qualname__ once assigned (nil: the code's).
	names *[2]string
}

// qualname returns the function's __qualname__.
func (f *Function) qualname() string {
	if f.names != nil {
		return f.names[1]
	}
	return f.code.qualname
}

// Type returns function.
func (*Function) Type() *Class { return FunctionClass }

// Name returns the function's __name__.
func (f *Function) Name() string {
	if f.names != nil {
		return f.names[0]
	}
	return f.code.name
}

// dealloc releases globals, defaults, kwdefaults, dict, closure (func_clear).
func (f *Function) dealloc(it *Interp) { f.clear(it) }

// clear is func_clear: the defaults and the closure are tuples in CPython,
// released last item first; the keyword defaults are a dict (in order).
func (f *Function) clear(it *Interp) {
	g, d, kd, dict, cl, ann := f.globals, f.defaults, f.kwdefaults, f.dict, f.closure, f.annotations
	f.globals, f.defaults, f.kwdefaults, f.dict, f.closure, f.annotations = nil, nil, nil, nil, nil, nil
	if g != nil {
		it.DecRef(g)
	}
	for i := len(d) - 1; i >= 0; i-- {
		it.DecRef(d[i])
	}
	for _, v := range kd {
		if v != nil {
			it.DecRef(v)
		}
	}
	if dict != nil {
		it.DecRef(dict)
	}
	for i := len(cl) - 1; i >= 0; i-- {
		it.DecRef(cl[i])
	}
	if ann != nil {
		it.DecRef(ann)
	}
}

func (f *Function) traverse(visit func(Value)) {
	if f.globals != nil {
		visit(f.globals)
	}
	for _, v := range f.defaults {
		visit(v)
	}
	for _, v := range f.kwdefaults {
		if v != nil {
			visit(v)
		}
	}
	if f.dict != nil {
		visit(f.dict)
	}
	for _, c := range f.closure {
		visit(c)
	}
	if f.annotations != nil {
		visit(f.annotations)
	}
}

// BoundMethod is a function bound to an instance (obj.method as a value).
type BoundMethod struct {
	Base
	fn   Value
	self Value
}

// Type returns method.
func (*BoundMethod) Type() *Class { return MethodClass }

func (m *BoundMethod) dealloc(it *Interp) {
	fn, self := m.fn, m.self
	m.fn, m.self = nil, nil
	if fn != nil {
		it.DecRef(fn)
	}
	if self != nil {
		it.DecRef(self)
	}
}

func (m *BoundMethod) traverse(visit func(Value)) {
	if m.fn != nil {
		visit(m.fn)
	}
	if m.self != nil {
		visit(m.self)
	}
}

func (m *BoundMethod) clear(it *Interp) { m.dealloc(it) }

// newBound returns a new bound method (fn, self borrowed).
func (it *Interp) newBound(fn, self Value) *BoundMethod {
	m := &BoundMethod{fn: IncRef(fn), self: IncRef(self)}
	it.newGC(m, true)
	return m
}

// Method is a method of a builtin or host type (a method descriptor).
type Method struct {
	Base
	Name  string
	Fn    MethodFunc
	Owner *Class
}

// Type returns method_descriptor.
func (*Method) Type() *Class { return MethodDescriptorClass }

// Builtin is a builtin function, or a builtin method bound to its receiver.
type Builtin struct {
	Base
	Name string
	Fn   CallFunc
	self Value      // receiver of a bound builtin method, or nil
	meth MethodFunc // when self != nil
}

// Type returns builtin_function_or_method.
func (*Builtin) Type() *Class { return BuiltinClass }

// NewBuiltin returns a builtin function (a new reference) for host modules.
func NewBuiltin(name string, fn CallFunc) *Builtin {
	return &Builtin{Name: name, Fn: fn}
}

func (b *Builtin) dealloc(it *Interp) {
	if b.self != nil {
		s := b.self
		b.self = nil
		it.DecRef(s)
	}
}

func (b *Builtin) traverse(visit func(Value)) {
	if b.self != nil {
		visit(b.self)
	}
}

func (b *Builtin) clear(it *Interp) { b.dealloc(it) }

// enter pushes fr as the innermost frame, enforcing the depth limit.
func (it *Interp) enter(fr *frame) error {
	if it.depth >= it.limits.MaxDepth {
		return NewException(RecursionError, "maximum recursion depth exceeded")
	}
	it.depth++
	fr.back = it.frame
	it.frame = fr
	return nil
}

// leave pops fr and releases its variables.
func (it *Interp) leave(fr *frame) {
	it.depth--
	it.exitFrame(fr)
}

// leaveKeep pops a generator frame without clearing it.
func (it *Interp) leaveKeep(fr *frame) {
	it.depth--
	it.frame = fr.back
	if fo := fr.fobj; fo != nil && fo.extra == 0 {
		fr.fobj = nil
		fo.fr = nil
		it.DecRef(fo)
	}
}

// Call calls fn with args and kwargs (borrowed) and returns a new reference.
// It is how host code calls back into Python (hooks, checkpointed
// functions, ...).
func (it *Interp) Call(fn Value, args []Value, kwargs []Kwarg) (Value, error) {
	for _, a := range args {
		IncRef(a)
	}
	for _, k := range kwargs {
		IncRef(k.Value)
	}
	return it.callOwned(fn, args, kwargs)
}

// callOwned calls fn (borrowed) with args and kwarg values whose references
// it takes over: a Python function's frame owns them as its locals, other
// callables borrow them and they are released after the call, as CPython's
// CALL does.
func (it *Interp) callOwned(fn Value, args []Value, kwargs []Kwarg) (Value, error) {
	if err := it.step(); err != nil {
		it.releaseArgs(args, kwargs)
		return nil, err
	}
	switch f := fn.(type) {
	case *Function:
		return it.callFunction(f, args, kwargs)
	case *BoundMethod:
		if pf, ok := f.fn.(*Function); ok {
			all := make([]Value, 0, len(args)+1)
			all = append(all, IncRef(f.self))
			all = append(all, args...)
			return it.callFunction(pf, all, kwargs)
		}
		all := make([]Value, 0, len(args)+1)
		all = append(all, IncRef(f.self))
		all = append(all, args...)
		return it.callOwned(f.fn, all, kwargs)
	}
	r, err := it.callBorrowed(fn, args, kwargs)
	it.releaseArgs(args, kwargs)
	return r, err
}

// callSteal is a call instruction of compiled code: it takes over the
// references to fn, args and kwarg values and releases them in CPython
// 3.12's order. ex selects CALL_FUNCTION_EX (a call with *args or **kwargs)
// instead of CALL.
//
// A Python function's frame owns the arguments: its locals are released at
// frame exit, then the function (the frame's f_funcobj). CALL unpacks a
// bound method first (self and function take new references, the method
// object is released before the call). Any other callable borrows the
// arguments: after it returns the callable is released first, then the
// positional arguments (CALL: in order; CALL_FUNCTION_EX: last to first,
// as the dealloc of its argument tuple), then the keyword values in order.
func (it *Interp) callSteal(fn Value, args []Value, kwargs []Kwarg, ex bool) (Value, error) {
	if err := it.step(); err != nil {
		it.DecRef(fn)
		it.releaseArgs(args, kwargs)
		return nil, err
	}
	for {
		switch f := fn.(type) {
		case *Function:
			r, err := it.callFunction(f, args, kwargs)
			it.DecRef(f)
			return r, err
		case *BoundMethod:
			if ex {
				break
			}
			all := make([]Value, 0, len(args)+1)
			all = append(all, IncRef(f.self))
			args = append(all, args...)
			fn = IncRef(f.fn)
			it.DecRef(f)
			continue
		}
		break
	}
	var r Value
	var err error
	if m, ok := fn.(*BoundMethod); ok {
		// CALL_FUNCTION_EX: PyObject_Call, the frame takes new references.
		r, err = it.Call(m, args, kwargs)
	} else {
		r, err = it.callBorrowed(fn, args, kwargs)
	}
	it.DecRef(fn)
	if ex {
		for i := len(args) - 1; i >= 0; i-- {
			it.DecRef(args[i])
		}
		args = nil
	}
	it.releaseArgs(args, kwargs)
	return r, err
}

func (it *Interp) releaseArgs(args []Value, kwargs []Kwarg) {
	for _, a := range args {
		it.DecRef(a)
	}
	for _, k := range kwargs {
		it.DecRef(k.Value)
	}
}

// callBorrowed calls a non-Python-function callable.
func (it *Interp) callBorrowed(fn Value, args []Value, kwargs []Kwarg) (Value, error) {
	switch f := fn.(type) {
	case *Builtin:
		if f.self != nil {
			return f.meth(it, f.self, args, kwargs)
		}
		return f.Fn(it, args, kwargs)
	case *Method:
		if len(args) == 0 {
			return nil, newTypeError("unbound method " + f.Owner.Name + "." + f.Name + "() needs an argument")
		}
		return f.Fn(it, args[0], args[1:], kwargs)
	case *Class:
		return it.callClass(f, args, kwargs)
	case *Instance:
		call := f.cls.Lookup("__call__")
		if call == nil {
			return nil, newTypeError("'" + f.cls.Name + "' object is not callable")
		}
		return it.callMethodValue(call, f, args, kwargs)
	case HasCall:
		return f.Call(it, args, kwargs)
	}
	if o, ok := fn.(Object); ok {
		if call := fn.Type().Lookup("__call__"); call != nil {
			return it.callMethodValue(call, o, args, kwargs)
		}
	}
	return nil, newTypeError("'" + fn.Type().Name + "' object is not callable")
}

// callMethodValue calls a class attribute as a method of self (borrowed
// arguments): functions get self prepended, other descriptors are bound.
func (it *Interp) callMethodValue(m Value, self Value, args []Value, kwargs []Kwarg) (Value, error) {
	switch f := m.(type) {
	case *Function:
		all := make([]Value, 0, len(args)+1)
		all = append(all, IncRef(self))
		for _, a := range args {
			all = append(all, IncRef(a))
		}
		for _, k := range kwargs {
			IncRef(k.Value)
		}
		return it.callFunction(f, all, kwargs)
	case *Method:
		return f.Fn(it, self, args, kwargs)
	}
	bound, err := it.bindDescriptor(m, self, self.Type())
	if err != nil {
		return nil, err
	}
	r, err := it.Call(bound, args, kwargs)
	it.DecRef(bound)
	return r, err
}

// callFunction runs a Python function; args and kwarg values are owned and
// move into the new frame's variables.
func (it *Interp) callFunction(fn *Function, args []Value, kwargs []Kwarg) (Value, error) {
	co := fn.code
	fr := &frame{it: it, code: co, fn: fn, globals: fn.globals, ns: fn.globals, lastLine: -1}
	fr.slots = make([]Value, len(co.varnames))
	if err := it.bindArgs(fn, fr, args, kwargs); err != nil {
		clearVars(it, fr.code, fr.slots, nil)
		return nil, err
	}
	if len(co.cellNames) > 0 {
		fr.cells = make([]*Cell, len(co.cellNames))
		k := 0
		for i, pc := range co.paramCell {
			switch {
			case pc >= 0:
				c := &Cell{v: fr.slots[pc]}
				fr.slots[pc] = nil
				it.newGC(c, true)
				fr.cells[i] = c
			case pc == -1:
				c := &Cell{}
				it.newGC(c, true)
				fr.cells[i] = c
			default:
				fr.cells[i] = IncRef(fn.closure[k]).(*Cell)
				k++
			}
		}
	}
	if co.isGen {
		return it.newGenerator(fn, fr), nil
	}
	if err := it.enter(fr); err != nil {
		clearVars(it, fr.code, fr.slots, fr.cells)
		return nil, err
	}
	var ret Value
	var err error
	if co.isLambda {
		fr.line = co.lambdaLine
		if co.traced && !co.lambdaML {
			it.lineEvent(fr, co.lambdaLine)
		}
		ret, err = co.bodyExpr(fr)
		if err != nil {
			err = it.noteErr(fr, err)
		}
	} else {
		var c ctl
		c, err = execStmts(fr, co.body)
		if err == nil {
			if c == ctlReturn {
				ret = fr.ret
				fr.ret = nil
			} else {
				ret = None
			}
		}
	}
	it.leave(fr)
	return ret, err
}

// bindArgs moves arguments into parameter slots with CPython's errors.
func (it *Interp) bindArgs(fn *Function, fr *frame, args []Value, kwargs []Kwarg) error {
	co := fn.code
	slots := fr.slots
	np := co.npos
	name := co.qualname + "()"
	nargs := len(args)
	// positional
	n := nargs
	if n > np {
		n = np
	}
	copy(slots, args[:n])
	vaSlot := -1
	kwSlot := -1
	idx := np + co.nkwonly
	if co.varargs {
		vaSlot = idx
		idx++
	}
	if co.varkw {
		kwSlot = idx
	}
	if nargs > np {
		if vaSlot < 0 {
			it.decRefAll(args[np:])
			for _, k := range kwargs {
				it.DecRef(k.Value)
			}
			ndef := len(fn.defaults)
			given := strconv.Itoa(nargs)
			was := "were"
			if nargs == 1 {
				was = "was"
			}
			takes := ""
			if ndef > 0 {
				takes = "from " + strconv.Itoa(np-ndef) + " to " + strconv.Itoa(np)
			} else {
				takes = strconv.Itoa(np)
			}
			plural := "s"
			if np == 1 && ndef == 0 {
				plural = ""
			}
			msg := name + " takes " + takes + " positional argument" + plural + " but " + given + " " + was + " given"
			if len(kwargs) > 0 {
				// CPython counts keyword-only arguments given, too.
			}
			return newTypeError(msg)
		}
		rest := append([]Value(nil), args[np:]...)
		slots[vaSlot] = it.NewTuple(rest)
	} else if vaSlot >= 0 {
		slots[vaSlot] = emptyTuple
	}
	var kwd *Dict
	if kwSlot >= 0 {
		kwd = it.NewDict()
		slots[kwSlot] = kwd
	}
	for ki, k := range kwargs {
		pos := -1
		for i := co.nposonly; i < np+co.nkwonly; i++ {
			if co.varnames[i] == k.Name {
				pos = i
				break
			}
		}
		if pos < 0 {
			if kwd != nil {
				kwd.SetStr(it, k.Name, k.Value)
				it.DecRef(k.Value)
				continue
			}
			for _, r := range kwargs[ki:] {
				it.DecRef(r.Value)
			}
			return newTypeError(name + " got an unexpected keyword argument '" + k.Name + "'")
		}
		if slots[pos] != nil {
			for _, r := range kwargs[ki:] {
				it.DecRef(r.Value)
			}
			return newTypeError(name + " got multiple values for argument '" + k.Name + "'")
		}
		slots[pos] = k.Value
	}
	// defaults
	ndef := len(fn.defaults)
	var missing []string
	for i := nargs; i < np; i++ {
		if slots[i] != nil {
			continue
		}
		if d := i - (np - ndef); d >= 0 {
			slots[i] = IncRef(fn.defaults[d])
			continue
		}
		missing = append(missing, co.varnames[i])
	}
	if len(missing) > 0 {
		s := "s"
		if len(missing) == 1 {
			s = ""
		}
		return newTypeError(name + " missing " + strconv.Itoa(len(missing)) + " required positional argument" + s + ": " + joinNames(missing))
	}
	for i := 0; i < co.nkwonly; i++ {
		p := np + i
		if slots[p] != nil {
			continue
		}
		if i < len(fn.kwdefaults) && fn.kwdefaults[i] != nil {
			slots[p] = IncRef(fn.kwdefaults[i])
			continue
		}
		missing = append(missing, co.varnames[p])
	}
	if len(missing) > 0 {
		s := "s"
		if len(missing) == 1 {
			s = ""
		}
		return newTypeError(name + " missing " + strconv.Itoa(len(missing)) + " required keyword-only argument" + s + ": " + joinNames(missing))
	}
	return nil
}

// loadMethod implements LOAD_ATTR with the method flag: for a plain method
// found on the type it returns (function, self) without creating a bound
// method object; otherwise (attribute, nil). obj is owned and consumed.
func (it *Interp) loadMethod(obj Value, name string) (Value, Value, error) {
	cls := obj.Type()
	_, isClass := obj.(*Class)
	_, isSuper := obj.(*Super)
	if !isClass && !isSuper {
		if a := cls.Lookup(name); a != nil {
			switch a.(type) {
			case *Function, *Method:
				shadow := false
				if inst, ok := obj.(*Instance); ok && inst.dict != nil {
					_, shadow = inst.dict.getStr(name)
				}
				if !shadow {
					return IncRef(a), obj, nil
				}
			}
		}
	}
	v, err := it.GetAttr(obj, name)
	it.DecRef(obj)
	return v, nil, err
}

// lookupSpecialBound looks up a special method on the type and binds it
// (a new reference), as _PyObject_LookupSpecial.
func (it *Interp) lookupSpecialBound(obj Value, name string) (Value, error) {
	a := obj.Type().Lookup(name)
	if a == nil {
		kind := "context manager"
		return nil, newTypeError("'" + obj.Type().Name + "' object does not support the " + kind + " protocol")
	}
	return it.bindDescriptor(a, obj, obj.Type())
}
