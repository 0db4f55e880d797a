package py

import (
	"fmt"
	"strconv"

	"github.com/gpumem/playground/sim/py/syntax"
)

// storeFn stores v (an owned reference, taken over) into a target.
type storeFn func(fr *frame, v Value) error

func (fc *fnCompiler) store(t syntax.Expr) (storeFn, error) {
	st, err := fc.storeNode(t)
	if err != nil {
		return nil, err
	}
	if _, ok := t.(*syntax.Ident); ok {
		return st, nil
	}
	p := fc.c.at(t) // STORE_ATTR, STORE_SUBSCR, UNPACK_SEQUENCE
	return func(fr *frame, v Value) error {
		err := st(fr, v)
		if err != nil {
			fr.notePos(p)
		}
		return err
	}, nil
}

// storeNode compiles the store into one target.
func (fc *fnCompiler) storeNode(t syntax.Expr) (storeFn, error) {
	switch t := t.(type) {
	case *syntax.Ident:
		return fc.preStore(fc.exprLine(t), fc.storeName(t.Name)), nil
	case *syntax.DotExpr:
		obj, err := fc.expr(t.X)
		if err != nil {
			return nil, err
		}
		obj = fc.post(attrLine(t), obj)
		name := t.Name.Name
		return func(fr *frame, v Value) error {
			o, err := obj(fr)
			if err != nil {
				err = fr.raising(err)
				fr.it.DecRef(v)
				return err
			}
			err = fr.it.SetAttr(o, name, v)
			fr.it.DecRef(v)
			fr.it.DecRef(o)
			return err
		}, nil
	case *syntax.IndexExpr:
		obj, err := fc.expr(t.X)
		if err != nil {
			return nil, err
		}
		key, err := fc.subscript(t.Index)
		if err != nil {
			return nil, err
		}
		key = fc.post(fc.exprLine(t), key)
		return func(fr *frame, v Value) error {
			it := fr.it
			o, err := obj(fr)
			if err != nil {
				err = fr.raising(err)
				it.DecRef(v)
				return err
			}
			k, err := key(fr)
			if err != nil { // the stack holds v, o
				err = fr.raising(err)
				it.DecRef(o)
				it.DecRef(v)
				return err
			}
			err = it.SetItem(o, k, v)
			it.DecRef(v)
			it.DecRef(o)
			it.DecRef(k)
			return err
		}, nil
	case *syntax.TupleExpr:
		st, err := fc.storeSeq(t.Elts)
		return fc.preStore(fc.exprLine(t), st), err
	case *syntax.ListExpr:
		st, err := fc.storeSeq(t.Elts)
		return fc.preStore(fc.exprLine(t), st), err
	}
	return nil, fmt.Errorf("cannot assign to %T", t)
}

func (fc *fnCompiler) storeSeq(elts []syntax.Expr) (storeFn, error) {
	star := -1
	var stores []storeFn
	for i, e := range elts {
		if s, ok := e.(*syntax.StarredExpr); ok {
			star = i
			e = s.X
		}
		st, err := fc.store(e)
		if err != nil {
			return nil, err
		}
		stores = append(stores, st)
	}
	n := len(elts)
	return func(fr *frame, v Value) error {
		it := fr.it
		items, err := it.unpack(v, n, star)
		it.DecRef(v)
		if err != nil {
			return err
		}
		for i, st := range stores {
			if err := st(fr, items[i]); err != nil {
				err = fr.raising(err)
				it.decRefAll(items[i+1:])
				return err
			}
		}
		return nil
	}, nil
}

// unpack returns n new references from iterable v (UNPACK_SEQUENCE /
// UNPACK_EX); with star >= 0 the starred position receives a list.
func (it *Interp) unpack(v Value, n, star int) ([]Value, error) {
	var elems []Value
	switch x := v.(type) {
	case *Tuple:
		elems = x.elems
	case *List:
		elems = x.elems
	default:
		iter, err := it.Iter(v)
		if err != nil {
			if e, ok := err.(*Instance); ok && e.cls == TypeError {
				return nil, newTypeError("cannot unpack non-iterable " + v.Type().Name + " object")
			}
			return nil, err
		}
		var got []Value
		for {
			e, ok, err := it.Next(iter)
			if err != nil {
				it.decRefAll(got)
				it.DecRef(iter)
				return nil, err
			}
			if !ok {
				break
			}
			got = append(got, e)
			if star < 0 && len(got) > n {
				it.decRefAll(got)
				it.DecRef(iter)
				return nil, newValueError("too many values to unpack (expected " + strconv.Itoa(n) + ")")
			}
		}
		it.DecRef(iter)
		out, err := it.unpackSlice(got, n, star)
		if err != nil {
			it.decRefAll(got)
			return nil, err
		}
		return out, nil
	}
	cp := make([]Value, len(elems))
	for i, e := range elems {
		cp[i] = IncRef(e)
	}
	out, err := it.unpackSlice(cp, n, star)
	if err != nil {
		it.decRefAll(cp)
	}
	return out, err
}

func (it *Interp) unpackSlice(got []Value, n, star int) ([]Value, error) {
	if star < 0 {
		if len(got) > n {
			return nil, newValueError("too many values to unpack (expected " + strconv.Itoa(n) + ")")
		}
		if len(got) < n {
			return nil, newValueError("not enough values to unpack (expected " + strconv.Itoa(n) + ", got " + strconv.Itoa(len(got)) + ")")
		}
		return got, nil
	}
	if len(got) < n-1 {
		return nil, newValueError("not enough values to unpack (expected at least " + strconv.Itoa(n-1) + ", got " + strconv.Itoa(len(got)) + ")")
	}
	after := n - 1 - star
	out := make([]Value, 0, n)
	out = append(out, got[:star]...)
	mid := append([]Value(nil), got[star:len(got)-after]...)
	out = append(out, it.NewList(mid))
	out = append(out, got[len(got)-after:]...)
	return out, nil
}

func (fc *fnCompiler) storeName(name string) storeFn {
	r := fc.ref(name)
	traced := fc.code.traced
	bind := func(fr *frame, v Value) {
		if traced && fr.it.bindHook != nil {
			fr.it.bindHook(name, v)
		}
	}
	switch r.kind {
	case refFast:
		i := r.idx
		return func(fr *frame, v Value) error {
			old := fr.slots[i]
			fr.slots[i] = v
			if old != nil {
				fr.it.DecRef(old)
			}
			bind(fr, v)
			return nil
		}
	case refCell, refClassDeref:
		i := r.idx
		return func(fr *frame, v Value) error {
			c := fr.cells[i]
			old := c.v
			c.v = v
			if old != nil {
				fr.it.DecRef(old)
			}
			bind(fr, v)
			return nil
		}
	case refGlobal:
		return func(fr *frame, v Value) error {
			fr.globals.SetStr(fr.it, name, v)
			fr.it.DecRef(v)
			bind(fr, v)
			return nil
		}
	}
	return func(fr *frame, v Value) error {
		fr.ns.SetStr(fr.it, name, v)
		fr.it.DecRef(v)
		bind(fr, v)
		return nil
	}
}

func (fc *fnCompiler) del(t syntax.Expr) (stmtFn, error) {
	if id, ok := t.(*syntax.Ident); ok && fc.ml {
		d, err := fc.delNode(t)
		if err != nil {
			return nil, err
		}
		ln := fc.exprLine(id)
		return func(fr *frame) (ctl, error) {
			markLine(fr, ln)
			return d(fr)
		}, nil
	}
	return fc.delNode(t)
}

// delNode compiles the deletion of one target; an error has the target's
// range (DELETE_NAME, DELETE_ATTR, DELETE_SUBSCR).
func (fc *fnCompiler) delNode(t syntax.Expr) (stmtFn, error) {
	d, err := fc.delTarget(t)
	if err != nil {
		return nil, err
	}
	switch t.(type) {
	case *syntax.TupleExpr, *syntax.ListExpr:
		return d, nil
	}
	p := fc.c.at(t)
	return func(fr *frame) (ctl, error) {
		c, err := d(fr)
		if err != nil {
			fr.notePos(p)
		}
		return c, err
	}, nil
}

// delTarget compiles the deletion of one target.
func (fc *fnCompiler) delTarget(t syntax.Expr) (stmtFn, error) {
	switch t := t.(type) {
	case *syntax.Ident:
		name := t.Name
		r := fc.ref(name)
		switch r.kind {
		case refFast:
			i := r.idx
			return func(fr *frame) (ctl, error) {
				old := fr.slots[i]
				if old == nil {
					return 0, unboundLocal(name)
				}
				fr.slots[i] = nil
				fr.it.DecRef(old)
				return ctlNext, nil
			}, nil
		case refCell, refClassDeref:
			i := r.idx
			return func(fr *frame) (ctl, error) {
				c := fr.cells[i]
				if c.v == nil {
					return 0, unboundLocal(name)
				}
				old := c.v
				c.v = nil
				fr.it.DecRef(old)
				return ctlNext, nil
			}, nil
		case refGlobal:
			return func(fr *frame) (ctl, error) {
				if !fr.globals.delStr(fr.it, name) {
					return 0, nameError(name)
				}
				return ctlNext, nil
			}, nil
		}
		return func(fr *frame) (ctl, error) {
			if !fr.ns.delStr(fr.it, name) {
				return 0, nameError(name)
			}
			return ctlNext, nil
		}, nil
	case *syntax.DotExpr:
		obj, err := fc.expr(t.X)
		if err != nil {
			return nil, err
		}
		obj = fc.post(attrLine(t), obj)
		name := t.Name.Name
		return func(fr *frame) (ctl, error) {
			o, err := obj(fr)
			if err != nil {
				return 0, err
			}
			err = fr.it.SetAttr(o, name, nil)
			fr.it.DecRef(o)
			return ctlNext, err
		}, nil
	case *syntax.IndexExpr:
		obj, err := fc.expr(t.X)
		if err != nil {
			return nil, err
		}
		key, err := fc.subscript(t.Index)
		if err != nil {
			return nil, err
		}
		key = fc.post(fc.exprLine(t), key)
		return func(fr *frame) (ctl, error) {
			o, err := obj(fr)
			if err != nil {
				return 0, err
			}
			k, err := key(fr)
			if err != nil {
				err = fr.raising(err)
				fr.it.DecRef(o)
				return 0, err
			}
			err = fr.it.DelItem(o, k)
			fr.it.DecRef(o)
			fr.it.DecRef(k)
			return ctlNext, err
		}, nil
	case *syntax.TupleExpr:
		return fc.delSeq(t.Elts)
	case *syntax.ListExpr:
		return fc.delSeq(t.Elts)
	}
	return nil, fmt.Errorf("cannot delete %T", t)
}

func (fc *fnCompiler) delSeq(elts []syntax.Expr) (stmtFn, error) {
	var ds []stmtFn
	for _, e := range elts {
		d, err := fc.del(e)
		if err != nil {
			return nil, err
		}
		ds = append(ds, d)
	}
	return func(fr *frame) (ctl, error) {
		for _, d := range ds {
			if _, err := d(fr); err != nil {
				return 0, err
			}
		}
		return ctlNext, nil
	}, nil
}

func unboundLocal(name string) *Instance {
	return NewException(UnboundLocalError, "cannot access local variable '"+name+"' where it is not associated with a value")
}

func nameError(name string) *Instance {
	return NewException(NameError, "name '"+name+"' is not defined")
}

func (fc *fnCompiler) augAssign(s *syntax.AugAssignStmt) (stmtFn, error) {
	op := binOpOf(s.Op.AugOp())
	val, err := fc.expr(s.Value)
	if err != nil {
		return nil, err
	}
	val = fc.post(stmtLine(s), val) // the in-place operation
	switch t := s.Target.(type) {
	case *syntax.Ident:
		load, err := fc.expr(t)
		if err != nil {
			return nil, err
		}
		st := fc.storeName(t.Name)
		r := fc.ref(t.Name)
		if r.kind == refFast {
			i := r.idx
			name := t.Name
			traced := fc.code.traced
			at := fc.c.at(t)
			// Fast path for locals: s += i.
			return func(fr *frame) (ctl, error) {
				it := fr.it
				old := fr.slots[i]
				if old == nil {
					fr.notePos(at)
					return 0, unboundLocal(name)
				}
				v, err := val(fr)
				if err != nil {
					return 0, err
				}
				if a, ok := old.(Int); ok {
					if b, ok := v.(Int); ok && (op == OpAdd || op == OpSub) {
						var r Int
						if op == OpAdd {
							r = a + b
							if (r > a) == (b > 0) {
								fr.slots[i] = r
								if traced && it.bindHook != nil {
									it.bindHook(name, r)
								}
								return ctlNext, nil
							}
						} else {
							r = a - b
							if (r < a) == (b > 0) {
								fr.slots[i] = r
								if traced && it.bindHook != nil {
									it.bindHook(name, r)
								}
								return ctlNext, nil
							}
						}
					}
				}
				IncRef(old)
				res, err := it.inplaceOp(op, old, v)
				it.DecRef(old)
				it.DecRef(v)
				if err != nil {
					return 0, err
				}
				return ctlNext, st(fr, res)
			}, nil
		}
		return func(fr *frame) (ctl, error) {
			it := fr.it
			old, err := load(fr)
			if err != nil {
				return 0, err
			}
			v, err := val(fr)
			if err != nil {
				err = fr.raising(err)
				it.DecRef(old)
				return 0, err
			}
			if a, ok := old.(Int); ok {
				if b, ok := v.(Int); ok {
					if r, ok := fastIntOp(op, a, b); ok {
						return ctlNext, st(fr, r)
					}
				}
			}
			res, err := it.inplaceOp(op, old, v)
			it.DecRef(old)
			it.DecRef(v)
			if err != nil {
				return 0, err
			}
			return ctlNext, st(fr, res)
		}, nil
	case *syntax.DotExpr:
		obj, err := fc.expr(t.X)
		if err != nil {
			return nil, err
		}
		name := t.Name.Name
		at := fc.c.at(t) // LOAD_ATTR and STORE_ATTR: the target's range
		return func(fr *frame) (ctl, error) {
			it := fr.it
			o, err := obj(fr)
			if err != nil {
				return 0, err
			}
			old, err := it.GetAttr(o, name)
			if err != nil {
				fr.notePos(at)
				err = fr.raising(err) // o stays on the stack (COPY)
				it.DecRef(o)
				return 0, err
			}
			v, err := val(fr)
			if err != nil {
				err = fr.raising(err)
				it.DecRef(old)
				it.DecRef(o)
				return 0, err
			}
			res, err := it.inplaceOp(op, old, v)
			it.DecRef(old)
			it.DecRef(v)
			if err != nil {
				err = fr.raising(err) // the statement notes the range
				it.DecRef(o)
				return 0, err
			}
			err = it.SetAttr(o, name, res)
			if err != nil {
				fr.notePos(at)
			}
			it.DecRef(res)
			it.DecRef(o)
			return ctlNext, err
		}, nil
	case *syntax.IndexExpr:
		obj, err := fc.expr(t.X)
		if err != nil {
			return nil, err
		}
		key, err := fc.subscript(t.Index)
		if err != nil {
			return nil, err
		}
		at := fc.c.at(t) // BINARY_SUBSCR and STORE_SUBSCR: the target's range
		return func(fr *frame) (ctl, error) {
			it := fr.it
			o, err := obj(fr)
			if err != nil {
				return 0, err
			}
			k, err := key(fr)
			if err != nil {
				err = fr.raising(err)
				it.DecRef(o)
				return 0, err
			}
			// The stack holds o, k, old, v; an error pops them from the top.
			old, err := it.GetItem(o, k)
			if err != nil {
				fr.notePos(at)
				err = fr.raising(err) // o and k stay on the stack (COPY)
				it.DecRef(k)
				it.DecRef(o)
				return 0, err
			}
			v, err := val(fr)
			if err != nil {
				err = fr.raising(err)
				it.DecRef(old)
				it.DecRef(k)
				it.DecRef(o)
				return 0, err
			}
			res, err := it.inplaceOp(op, old, v)
			it.DecRef(old)
			it.DecRef(v)
			if err != nil {
				err = fr.raising(err) // the statement notes the range
				it.DecRef(k)
				it.DecRef(o)
				return 0, err
			}
			err = it.SetItem(o, k, res)
			if err != nil {
				fr.notePos(at)
			}
			it.DecRef(res)
			it.DecRef(o)
			it.DecRef(k)
			return ctlNext, err
		}, nil
	}
	return nil, fmt.Errorf("bad augmented assignment target %T", s.Target)
}
