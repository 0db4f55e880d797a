package py

// GetAttr returns obj.name (a new reference), with Python's lookup rules:
// data descriptors on the type, then the instance dict, then other class
// attributes (functions become bound methods), then host dynamic attributes
// and __getattr__.
func (it *Interp) GetAttr(obj Value, name string) (Value, error) {
	switch o := obj.(type) {
	case *Module:
		if v, ok := o.Dict.getStr(name); ok {
			return IncRef(v), nil
		}
		if name == "__dict__" {
			return IncRef(o.Dict), nil
		}
		if ga, ok := o.Dict.getStr("__getattr__"); ok { // PEP 562
			return it.Call(ga, []Value{Str(name)}, nil)
		}
		return nil, NewException(AttributeError, "module '"+o.Name+"' has no attribute '"+name+"'")
	case *Class:
		return it.classGetAttr(o, name)
	case *Super:
		// super.__getattribute__ searches the MRO after cls before the
		// attributes of super itself (object's __init__, __repr__, ...).
		if v, found, err := o.Attr(it, name); found || err != nil {
			return v, err
		}
	}
	cls := obj.Type()
	attr := cls.Lookup(name)
	if attr != nil {
		switch a := attr.(type) {
		case *Property:
			if a.fget == nil {
				return nil, NewException(AttributeError, "property '"+name+"' of '"+cls.Name+"' object has no getter")
			}
			return it.Call(a.fget, []Value{obj}, nil)
		case *GoProperty:
			return a.Get(it, obj)
		}
	}
	if inst, ok := obj.(*Instance); ok {
		if inst.dict != nil {
			if v, ok := inst.dict.getStr(name); ok {
				return IncRef(v), nil
			}
		}
		if name == "__dict__" {
			d := inst.attrDict()
			return IncRef(d), nil
		}
		if name == "__class__" {
			return IncRef(inst.cls), nil
		}
		if inst.exc != nil {
			if v, ok, err := it.excAttr(inst, name); ok || err != nil {
				return v, err
			}
		}
	}
	if attr != nil {
		return it.bindDescriptor(attr, obj, cls)
	}
	if name == "__class__" {
		return IncRef(cls), nil
	}
	if f, ok := obj.(*Function); ok {
		if v, ok, err := it.funcAttr(f, name); ok || err != nil {
			return v, err
		}
	}
	if h, ok := obj.(HasAttrs); ok {
		v, found, err := h.Attr(it, name)
		if err != nil || found {
			return v, err
		}
	}
	if ga := cls.Lookup("__getattr__"); ga != nil {
		return it.callMethodValue(ga, obj, []Value{Str(name)}, nil)
	}
	return nil, attrError(obj, name)
}

func attrError(obj Value, name string) *Instance {
	return NewException(AttributeError, "'"+obj.Type().Name+"' object has no attribute '"+name+"'")
}

// bindDescriptor applies a class attribute's descriptor behaviour for an
// instance access (new reference).
func (it *Interp) bindDescriptor(attr Value, obj Value, cls *Class) (Value, error) {
	switch a := attr.(type) {
	case *Function:
		return it.newBound(a, obj), nil
	case *Method:
		b := &Builtin{Name: a.Name, self: IncRef(obj), meth: a.Fn}
		it.newGC(b, true)
		return b, nil
	case *StaticMethod:
		return IncRef(a.fn), nil
	case *ClassMethod:
		return it.newBound(a.fn, cls), nil
	case *Property:
		if a.fget == nil {
			return nil, NewException(AttributeError, "unreadable attribute")
		}
		return it.Call(a.fget, []Value{obj}, nil)
	case *GoProperty:
		return a.Get(it, obj)
	case *Instance:
		if get := a.cls.Lookup("__get__"); get != nil {
			return it.callMethodValue(get, a, []Value{obj, cls}, nil)
		}
	}
	return IncRef(attr), nil
}

// classGetAttr implements attribute access on a class object.
func (it *Interp) classGetAttr(c *Class, name string) (Value, error) {
	switch name {
	case "__name__":
		return Str(c.Name), nil
	case "__qualname__":
		if v := c.Lookup("__qualname__"); v != nil && !c.builtin {
			if d, ok := c.Dict.getStr("__qualname__"); ok {
				return IncRef(d), nil
			}
		}
		return Str(c.Name), nil
	case "__mro__":
		vs := make([]Value, len(c.MRO))
		for i, k := range c.MRO {
			vs[i] = IncRef(k)
		}
		return it.NewTuple(vs), nil
	case "__bases__":
		vs := make([]Value, len(c.Bases))
		for i, k := range c.Bases {
			vs[i] = IncRef(k)
		}
		return it.NewTuple(vs), nil
	case "__dict__":
		return IncRef(c.Dict), nil
	case "__module__":
		if v, ok := c.Dict.getStr("__module__"); ok {
			return IncRef(v), nil
		}
		return Str(c.Module), nil
	case "__class__":
		return IncRef(TypeClass), nil
	}
	attr := c.Lookup(name)
	if attr == nil {
		if a := TypeClass.Lookup(name); a != nil {
			return it.bindDescriptor(a, c, TypeClass)
		}
		return nil, NewException(AttributeError, "type object '"+c.Name+"' has no attribute '"+name+"'")
	}
	switch a := attr.(type) {
	case *StaticMethod:
		return IncRef(a.fn), nil
	case *ClassMethod:
		return it.newBound(a.fn, c), nil
	case *Instance:
		if get := a.cls.Lookup("__get__"); get != nil {
			return it.callMethodValue(get, a, []Value{None, c}, nil)
		}
	}
	return IncRef(attr), nil
}

// SetAttr sets obj.name = v (v borrowed); v == nil deletes the attribute.
func (it *Interp) SetAttr(obj Value, name string, v Value) error {
	switch o := obj.(type) {
	case *Module:
		if v == nil {
			if !o.Dict.delStr(it, name) {
				return NewException(AttributeError, "module '"+o.Name+"' has no attribute '"+name+"'")
			}
			return nil
		}
		o.Dict.SetStr(it, name, v)
		return nil
	case *Class:
		if o.builtin {
			return newTypeError("cannot set '" + name + "' attribute of immutable type '" + o.Name + "'")
		}
		if v == nil {
			if !o.Dict.delStr(it, name) {
				return NewException(AttributeError, "type object '"+o.Name+"' has no attribute '"+name+"'")
			}
			return nil
		}
		o.Dict.SetStr(it, name, v)
		return nil
	}
	cls := obj.Type()
	attr := cls.Lookup(name)
	switch a := attr.(type) {
	case *Property:
		if v == nil {
			if a.fdel == nil {
				return NewException(AttributeError, "property '"+name+"' of '"+cls.Name+"' object has no deleter")
			}
			r, err := it.Call(a.fdel, []Value{obj}, nil)
			it.DecRef(r)
			return err
		}
		if a.fset == nil {
			return NewException(AttributeError, "property '"+name+"' of '"+cls.Name+"' object has no setter")
		}
		r, err := it.Call(a.fset, []Value{obj, v}, nil)
		if err == nil {
			it.DecRef(r)
		}
		return err
	case *GoProperty:
		if a.Set == nil {
			return NewException(AttributeError, "property '"+name+"' of '"+cls.Name+"' object has no setter")
		}
		return a.Set(it, obj, v)
	}
	if inst, ok := obj.(*Instance); ok {
		if inst.cls == ObjectClass { // a bare object() has no __dict__
			return NewException(AttributeError, "'object' object has no attribute '"+name+"'")
		}
		if sa := cls.Lookup("__setattr__"); sa != nil && v != nil {
			if _, isFn := sa.(*Function); isFn {
				r, err := it.callMethodValue(sa, obj, []Value{Str(name), v}, nil)
				if err == nil {
					it.DecRef(r)
				}
				return err
			}
		}
		if da := cls.Lookup("__delattr__"); da != nil && v == nil {
			if _, isFn := da.(*Function); isFn {
				r, err := it.callMethodValue(da, obj, []Value{Str(name)}, nil)
				if err == nil {
					it.DecRef(r)
				}
				return err
			}
		}
		return it.instanceSetAttr(inst, name, v)
	}
	if h, ok := obj.(HasSetAttr); ok {
		return h.SetAttr(it, name, v)
	}
	if f, ok := obj.(*Function); ok {
		switch name {
		case "__annotations__":
			return it.setFuncAnnotations(f, v)
		case "__name__", "__qualname__":
			str, ok := v.(Str)
			if !ok {
				return newTypeError(name + " must be set to a string object")
			}
			if f.names == nil {
				f.names = &[2]string{f.code.name, f.code.qualname}
			}
			if name == "__name__" {
				f.names[0] = string(str)
			} else {
				f.names[1] = string(str)
			}
			return nil
		}
		if f.dict == nil {
			f.dict = it.NewDict()
		}
		if v == nil {
			if !f.dict.delStr(it, name) {
				return attrError(obj, name)
			}
			return nil
		}
		f.dict.SetStr(it, name, v)
		return nil
	}
	if attr != nil {
		return NewException(AttributeError, "'"+cls.Name+"' object attribute '"+name+"' is read-only")
	}
	return attrError(obj, name)
}

// instanceSetAttr is object.__setattr__ / __delattr__ for instances.
func (it *Interp) instanceSetAttr(inst *Instance, name string, v Value) error {
	if inst.exc != nil {
		if ok, err := it.excSetAttr(inst, name, v); ok {
			return err
		}
	}
	if v == nil {
		if inst.dict == nil || !inst.dict.delStr(it, name) {
			return attrError(inst, name)
		}
		return nil
	}
	if name == "__class__" {
		c, ok := v.(*Class)
		if !ok {
			return newTypeError("__class__ must be set to a class, not '" + v.Type().Name + "' object")
		}
		old := inst.cls
		inst.cls = IncRef(c).(*Class)
		it.DecRef(old)
		return nil
	}
	inst.attrDict().SetStr(it, name, v)
	return nil
}

func (it *Interp) funcAttr(f *Function, name string) (Value, bool, error) {
	switch name {
	case "__name__":
		return Str(f.Name()), true, nil
	case "__qualname__":
		return Str(f.qualname()), true, nil
	case "__module__":
		return Str(f.module), true, nil
	case "__globals__":
		return IncRef(f.globals), true, nil
	case "__defaults__":
		if len(f.defaults) == 0 {
			return None, true, nil
		}
		vs := make([]Value, len(f.defaults))
		for i, d := range f.defaults {
			vs[i] = IncRef(d)
		}
		return it.NewTuple(vs), true, nil
	case "__doc__":
		return None, true, nil
	case "__annotations__":
		return it.funcAnnotations(f), true, nil
	case "__dict__":
		if f.dict == nil {
			f.dict = it.NewDict()
		}
		return IncRef(f.dict), true, nil
	}
	if f.dict != nil {
		if v, ok := f.dict.getStr(name); ok {
			return IncRef(v), true, nil
		}
	}
	return nil, false, nil
}

func (it *Interp) excAttr(inst *Instance, name string) (Value, bool, error) {
	e := inst.exc
	switch name {
	case "args":
		return IncRef(e.args), true, nil
	case "__traceback__":
		if e.tb == nil {
			return None, true, nil
		}
		return IncRef(e.tb), true, nil
	case "__cause__":
		if e.cause == nil {
			return None, true, nil
		}
		return IncRef(e.cause), true, nil
	case "__context__":
		if e.context == nil {
			return None, true, nil
		}
		return IncRef(e.context), true, nil
	case "__suppress_context__":
		return boolOf(e.suppress), true, nil
	case "value":
		if inst.cls.IsSubclass(StopIteration) {
			if len(e.args.elems) > 0 {
				return IncRef(e.args.elems[0]), true, nil
			}
			return None, true, nil
		}
	case "msg":
		if inst.cls.IsSubclass(SyntaxErrorClass) && len(e.args.elems) > 0 {
			return IncRef(e.args.elems[0]), true, nil
		}
	case "name":
		if inst.cls.IsSubclass(ImportError) || inst.cls.IsSubclass(NameError) {
			return None, true, nil
		}
	}
	return nil, false, nil
}

func (it *Interp) excSetAttr(inst *Instance, name string, v Value) (bool, error) {
	e := inst.exc
	switch name {
	case "args":
		if v == nil {
			return true, newTypeError("args may not be deleted")
		}
		vs, err := it.iterToSlice(v)
		if err != nil {
			return true, err
		}
		old := e.args
		e.args = it.NewTuple(vs)
		it.DecRef(old)
		return true, nil
	case "__traceback__":
		old := e.tb
		if v == nil || v == None {
			e.tb = nil
		} else if tb, ok := v.(*Traceback); ok {
			e.tb = IncRef(tb).(*Traceback)
		} else {
			return true, newTypeError("__traceback__ must be a traceback or None")
		}
		if old != nil {
			it.DecRef(old)
		}
		return true, nil
	case "__cause__", "__context__":
		var nv Value
		if v != nil && v != None {
			nv = IncRef(v)
		}
		if name == "__cause__" {
			old := e.cause
			e.cause = nv
			e.suppress = true
			if old != nil {
				it.DecRef(old)
			}
		} else {
			old := e.context
			e.context = nv
			if old != nil {
				it.DecRef(old)
			}
		}
		return true, nil
	case "__suppress_context__":
		t, err := it.Truth(v)
		e.suppress = t
		return true, err
	}
	return false, nil
}
