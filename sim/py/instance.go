package py

// Instance is an instance of a class defined in Python (or of a builtin
// exception class): its attributes live in a dict in insertion order.
type Instance struct {
	Base
	cls  *Class
	dict *Dict // nil until the first attribute is set
	exc  *excData
}

// excData is the state of an exception instance (BaseException's fields).
type excData struct {
	args     *Tuple
	tb       *Traceback
	cause    Value // nil or an exception
	context  Value // nil or an exception
	suppress bool  // __suppress_context__
	notes    Value
}

// Type returns the instance's class.
func (o *Instance) Type() *Class { return o.cls }

// Class returns the instance's class.
func (o *Instance) Class() *Class { return o.cls }

// newInstance allocates an instance of cls (tracked by the collector).
func (it *Interp) newInstance(cls *Class) *Instance {
	o := &Instance{cls: cls}
	IncRef(cls)
	if cls.isExc {
		o.exc = &excData{args: emptyTuple}
	}
	it.newGC(o, true)
	return o
}

// attrDict returns the instance dict, creating it on demand. It is not a
// separate GC object (CPython 3.12 keeps instance attributes inline).
func (o *Instance) attrDict() *Dict {
	if o.dict == nil {
		o.dict = &Dict{}
	}
	return o.dict
}

// pyFinalize runs __del__ if the class defines one (PEP 442: once).
func (o *Instance) pyFinalize(it *Interp) {
	del := o.cls.Lookup("__del__")
	if del == nil {
		return
	}
	res, err := it.callMethodValue(del, o, nil, nil)
	if err != nil {
		it.unraisable(err, "Exception ignored in: ", del)
		return
	}
	it.DecRef(res)
}

// dealloc releases the attributes (insertion order), the exception fields,
// then the class, as subtype_dealloc does.
func (o *Instance) dealloc(it *Interp) {
	it.clearInstance(o)
	cls := o.cls
	it.DecRef(cls)
}

func (it *Interp) clearInstance(o *Instance) {
	if d := o.dict; d != nil {
		o.dict = nil
		if d.extra > 0 {
			// Someone holds the instance's __dict__ (vars(obj) of a
			// temporary): CPython drops its reference to the materialised
			// dict, which keeps the attributes. Standing alone now, the
			// dict joins the collector (not counted as an allocation).
			d.flags |= flagGCType
			it.maybeTrack(d)
			it.DecRef(d)
		} else {
			d.clear(it)
		}
	}
	if e := o.exc; e != nil {
		args, tb, cause, ctx, notes := e.args, e.tb, e.cause, e.context, e.notes
		e.args, e.tb, e.cause, e.context, e.notes = emptyTuple, nil, nil, nil, nil
		it.DecRef(args)
		if notes != nil {
			it.DecRef(notes)
		}
		if tb != nil {
			it.DecRef(tb)
		}
		if cause != nil {
			it.DecRef(cause)
		}
		if ctx != nil {
			it.DecRef(ctx)
		}
	}
}

func (o *Instance) traverse(visit func(Value)) {
	if o.dict != nil {
		o.dict.traverse(visit)
	}
	if e := o.exc; e != nil {
		visit(e.args)
		if e.tb != nil {
			visit(e.tb)
		}
		if e.cause != nil {
			visit(e.cause)
		}
		if e.context != nil {
			visit(e.context)
		}
		if e.notes != nil {
			visit(e.notes)
		}
	}
	visit(o.cls)
}

func (o *Instance) clear(it *Interp) { it.clearInstance(o) }
