package py

// funcAnnotations is the getter of function.__annotations__ (3.12's
// func_get_annotations): the tuple MAKE_FUNCTION stored becomes a dict on
// first read; a function without annotations gets a new empty dict.
func (it *Interp) funcAnnotations(f *Function) Value {
	switch a := f.annotations.(type) {
	case nil:
		f.annotations = it.NewDict()
	case *Tuple:
		d := it.NewDict()
		for i := 0; i+1 < len(a.elems); i += 2 {
			if err := d.SetItem(it, a.elems[i], a.elems[i+1]); err != nil {
				break // names are strs: cannot fail
			}
		}
		f.annotations = d
		it.DecRef(a)
	}
	return IncRef(f.annotations)
}

// setFuncAnnotations is the setter of function.__annotations__: a dict, or
// None (or del) to clear it.
func (it *Interp) setFuncAnnotations(f *Function, v Value) error {
	if v == nil || v == None {
		v = nil
	} else if _, ok := v.(*Dict); !ok {
		return newTypeError("__annotations__ must be set to a dict object")
	} else {
		IncRef(v)
	}
	old := f.annotations
	f.annotations = v
	if old != nil {
		it.DecRef(old)
	}
	return nil
}
