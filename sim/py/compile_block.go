package py

import (
	"github.com/gpumem/playground/sim/py/syntax"
)

func (fc *fnCompiler) withStmt(s *syntax.WithStmt) (stmtFn, error) {
	type item struct {
		ctx   exprFn
		store storeFn
	}
	var items []item
	for _, wi := range s.Items {
		c, err := fc.expr(wi.Context)
		if err != nil {
			return nil, err
		}
		c = fc.post(fc.exprLine(wi.Context), c) // BEFORE_WITH
		var st storeFn
		if wi.Vars != nil {
			if st, err = fc.store(wi.Vars); err != nil {
				return nil, err
			}
		}
		items = append(items, item{c, st})
	}
	body, err := fc.stmts(s.Body)
	if err != nil {
		return nil, err
	}
	ln := line(s.With)
	traced := fc.code.traced
	var run func(fr *frame, k int) (ctl, error)
	run = func(fr *frame, k int) (ctl, error) {
		if k == len(items) {
			return execStmts(fr, body)
		}
		it := fr.it
		mgr, err := items[k].ctx(fr)
		if err != nil {
			return 0, err
		}
		// BEFORE_WITH: __enter__, then __exit__; when either is missing,
		// mgr stays on the stack until the traceback entry is added.
		enter, err := it.lookupSpecialBound(mgr, "__enter__")
		if err != nil {
			err = fr.raising(err)
			it.DecRef(mgr)
			return 0, err
		}
		exit, err := it.lookupSpecialBound(mgr, "__exit__")
		if err != nil {
			it.DecRef(enter)
			if e, ok := err.(*Instance); ok && e.cls == TypeError && mgr.Type().Lookup("__exit__") == nil {
				it.DecRef(e)
				err = newTypeError("'" + mgr.Type().Name + "' object does not support the context manager protocol (missed __exit__ method)")
			}
			err = fr.raising(err)
			it.DecRef(mgr)
			return 0, err
		}
		it.DecRef(mgr)
		res, err := it.callOwned(enter, nil, nil)
		it.DecRef(enter)
		if err != nil {
			it.DecRef(exit)
			return 0, err
		}
		if items[k].store != nil {
			err = items[k].store(fr, res)
		} else {
			it.DecRef(res)
		}
		var c ctl
		if err == nil {
			c, err = run(fr, k+1)
		}
		fr.line = ln
		if err != nil {
			exc, ok := err.(*Instance)
			if !ok || exc.exc == nil {
				it.DecRef(exit)
				return 0, err
			}
			err = fr.it.noteErr(fr, err)
			exc = err.(*Instance)
			if traced && ln != fr.lastLine {
				it.lineEvent(fr, ln)
			}
			it.handled = append(it.handled, exc)
			tb := Value(None)
			if exc.exc.tb != nil {
				tb = exc.exc.tb
			}
			r, err2 := it.callOwned(exit, []Value{IncRef(exc.cls), IncRef(exc), IncRef(tb)}, nil)
			it.handled = it.handled[:len(it.handled)-1]
			it.DecRef(exit)
			if err2 != nil {
				it.DecRef(exc)
				return 0, err2
			}
			sup, err3 := it.Truth(r)
			it.DecRef(r)
			if err3 != nil {
				it.DecRef(exc)
				return 0, err3
			}
			if sup {
				it.DecRef(exc)
				return ctlNext, nil
			}
			return 0, exc
		}
		// The exits of all items run at the with line: one event.
		if traced && ln != fr.lastLine {
			it.lineEvent(fr, ln)
		}
		r, err := it.callOwned(exit, []Value{None, None, None}, nil)
		it.DecRef(exit)
		if err != nil {
			return 0, err
		}
		it.DecRef(r)
		return c, nil
	}
	return fc.simple(ln, func(fr *frame) (ctl, error) { return run(fr, 0) }), nil
}

type handler struct {
	line  int
	typ   exprFn
	store storeFn
	del   stmtFn
	body  []stmtFn
}

func (fc *fnCompiler) tryStmt(s *syntax.TryStmt) (stmtFn, error) {
	body, err := fc.stmts(s.Body)
	if err != nil {
		return nil, err
	}
	var hs []handler
	for _, h := range s.Handlers {
		var hd handler
		hd.line = line(h.Except)
		if h.Type != nil {
			if hd.typ, err = fc.expr(h.Type); err != nil {
				return nil, err
			}
		}
		if h.Name != nil {
			if hd.store, err = fc.store(h.Name); err != nil {
				return nil, err
			}
			if hd.del, err = fc.del(h.Name); err != nil {
				return nil, err
			}
		}
		if hd.body, err = fc.stmts(h.Body); err != nil {
			return nil, err
		}
		hs = append(hs, hd)
	}
	els, err := fc.stmts(s.Else)
	if err != nil {
		return nil, err
	}
	fin, err := fc.stmts(s.Finally)
	if err != nil {
		return nil, err
	}
	hasFinally := s.Finally != nil
	ln := line(s.Try)
	traced := fc.code.traced
	runHandlers := func(fr *frame, exc *Instance) (c ctl, err error, handled bool) {
		it := fr.it
		for _, h := range hs {
			fr.line = h.line
			if traced && h.line != fr.lastLine {
				it.lineEvent(fr, h.line)
			}
			if h.typ != nil {
				t, err := h.typ(fr)
				if err != nil {
					return 0, err, true
				}
				m, err := it.excMatches(exc, t)
				it.DecRef(t)
				if err != nil {
					return 0, err, true
				}
				if !m {
					continue
				}
			}
			// Handle: exc is owned by the handled stack now.
			it.handled = append(it.handled, exc)
			if h.store != nil {
				if err := h.store(fr, IncRef(exc)); err != nil {
					it.popHandled()
					return 0, err, true
				}
			}
			c, err := execStmts(fr, h.body)
			if h.store != nil {
				// e = None; del e
				h.store(fr, None)
				h.del(fr)
			}
			it.popHandled()
			return c, err, true
		}
		return 0, exc, false
	}
	return func(fr *frame) (ctl, error) {
		it := fr.it
		fr.line = ln
		if err := it.step(); err != nil {
			return 0, err
		}
		if traced && ln != fr.lastLine {
			it.lineEvent(fr, ln)
		}
		c, err := execStmts(fr, body)
		if err != nil && len(hs) > 0 {
			if exc, ok := err.(*Instance); ok && exc.exc != nil {
				c, err, _ = runHandlers(fr, exc)
			}
		} else if err == nil && c == ctlNext && els != nil {
			c, err = execStmts(fr, els)
		}
		if hasFinally {
			if err != nil && !isCatchable(err) {
				return 0, err
			}
			var pending *Instance
			if err != nil {
				pending, _ = err.(*Instance)
				if pending != nil {
					it.handled = append(it.handled, pending)
				}
			}
			ret := fr.ret
			c2, err2 := execStmts(fr, fin)
			if pending != nil {
				it.handled = it.handled[:len(it.handled)-1]
			}
			if err2 != nil || c2 != ctlNext {
				if pending != nil {
					it.DecRef(pending)
				}
				if c == ctlReturn && c2 != ctlReturn && ret != nil {
					it.DecRef(ret)
				} else if c == ctlReturn && c2 == ctlReturn && ret != nil && ret != fr.ret {
					it.DecRef(ret)
				}
				return c2, err2
			}
		}
		return c, err
	}, nil
}

// popHandled ends the handling of the innermost exception (POP_EXCEPT).
func (it *Interp) popHandled() {
	n := len(it.handled) - 1
	exc := it.handled[n]
	it.handled = it.handled[:n]
	it.DecRef(exc)
}

// excMatches reports whether exc matches the except clause type t (a class
// or a tuple of classes).
func (it *Interp) excMatches(exc *Instance, t Value) (bool, error) {
	switch t := t.(type) {
	case *Class:
		if !t.isExc {
			return false, newTypeError("catching classes that do not inherit from BaseException is not allowed")
		}
		return exc.cls.IsSubclass(t), nil
	case *Tuple:
		for _, e := range t.elems {
			m, err := it.excMatches(exc, e)
			if err != nil || m {
				return m, err
			}
		}
		return false, nil
	}
	return false, newTypeError("catching classes that do not inherit from BaseException is not allowed")
}

func (fc *fnCompiler) raise(s *syntax.RaiseStmt) (stmtFn, error) {
	if s.Exc == nil {
		return func(fr *frame) (ctl, error) {
			it := fr.it
			if len(it.handled) == 0 {
				return 0, NewException(RuntimeError, "No active exception to reraise")
			}
			return 0, IncRef(it.handled[len(it.handled)-1]).(*Instance)
		}, nil
	}
	x, err := fc.expr(s.Exc)
	if err != nil {
		return nil, err
	}
	at := fc.stmtAt
	var cause exprFn
	if s.Cause != nil {
		if cause, err = fc.expr(s.Cause); err != nil {
			return nil, err
		}
		cause = fc.post(line(s.Raise), cause) // RAISE_VARARGS
	} else {
		x = fc.post(line(s.Raise), x)
	}
	return func(fr *frame) (ctl, error) {
		it := fr.it
		v, err := x(fr)
		if err != nil {
			return 0, err
		}
		var cv Value
		if cause != nil { // RAISE_VARARGS 2: both operands first
			cv, err = cause(fr)
			if err != nil {
				err = fr.raising(err)
				it.DecRef(v)
				return 0, err
			}
		}
		exc, err := it.makeException(v)
		if err != nil {
			if cv != nil {
				it.DecRef(cv)
			}
			return 0, err
		}
		if cause != nil {
			if cv == None {
				exc.exc.suppress = true
				if exc.exc.cause != nil {
					it.DecRef(exc.exc.cause)
				}
				exc.exc.cause = nil
			} else {
				ce, err := it.makeException(cv)
				if err != nil {
					it.DecRef(exc)
					return 0, newTypeError("exception causes must derive from BaseException")
				}
				if exc.exc.cause != nil {
					it.DecRef(exc.exc.cause)
				}
				exc.exc.cause = ce
				exc.exc.suppress = true
			}
		}
		if tb := exc.exc.tb; tb != nil && tb.frame != nil && tb.frame.fr == fr {
			// raise e again in the frame that caught it: a new entry.
			exc.exc.tb = nil
			IncRef(fr.fobj)
			ntb := &Traceback{frame: fr.fobj, line: fr.line, next: tb}
			if at != nil {
				ntb.pos = *at
			}
			it.newGC(ntb, true)
			exc.exc.tb = ntb
		}
		return 0, exc
	}, nil
}

// makeException turns the operand of raise (a class or an instance, owned)
// into an exception instance (owned).
func (it *Interp) makeException(v Value) (*Instance, error) {
	switch x := v.(type) {
	case *Class:
		if !x.isExc {
			return nil, newTypeError("exceptions must derive from BaseException")
		}
		r, err := it.Call(x, nil, nil)
		if err != nil {
			return nil, err
		}
		e, ok := r.(*Instance)
		if !ok || e.exc == nil {
			it.DecRef(r)
			return nil, newTypeError("calling " + x.Name + " should have returned an instance of BaseException, not " + r.Type().Name)
		}
		return e, nil
	case *Instance:
		if x.exc != nil {
			return x, nil
		}
	}
	it.DecRef(v)
	return nil, newTypeError("exceptions must derive from BaseException")
}
