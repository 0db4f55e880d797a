package py

import (
	"fmt"

	"github.com/gpumem/playground/sim/py/syntax"
)

func (fc *fnCompiler) stmts(ss []syntax.Stmt) ([]stmtFn, error) {
	out := make([]stmtFn, 0, len(ss))
	for _, s := range ss {
		f, err := fc.stmt(s)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// execStmts runs a block; an exception leaving a statement is recorded in
// the frame's traceback.
func execStmts(fr *frame, body []stmtFn) (ctl, error) {
	for _, s := range body {
		c, err := s(fr)
		if err != nil {
			return 0, fr.it.noteErr(fr, err)
		}
		if c != ctlNext {
			return c, nil
		}
	}
	return ctlNext, nil
}

// noteErr adds fr to the traceback of a Python exception passing through it
// and sets its __context__ to the exception being handled.
func (it *Interp) noteErr(fr *frame, err error) error {
	return it.noteRaise(fr, err, false)
}

// raising is noteErr for an error about to unwind values pending on
// CPython's value stack: CPython adds the frame's traceback entry (error:
// PyTraceBack_Here) before exception_unwind pops them, so their __del__
// sees the entry (and its allocations). The entry takes the range noted
// so far, or the next one noted (notePos); the statement's noteErr then
// finds it there. Only error paths call it.
func (fr *frame) raising(err error) error {
	return fr.it.noteRaise(fr, err, true)
}

// noteRaise is noteErr; early: called by raising.
func (it *Interp) noteRaise(fr *frame, err error, early bool) error {
	exc, ok := err.(*Instance)
	if !ok || exc.exc == nil {
		if !isCatchable(err) {
			if !early {
				fr.takePos()
			}
			return err
		}
		exc = it.toException(err)
		if exc == nil {
			if !early {
				fr.takePos()
			}
			return err
		}
	}
	b := exc.base()
	if b.flags&flagGCType == 0 {
		it.newGC(exc, true)
		if exc.exc.args != emptyTuple && exc.exc.args.flags&flagGCType == 0 {
			it.newGC(exc.exc.args, true)
		}
	}
	if exc.exc.context == nil && len(it.handled) > 0 {
		top := it.handled[len(it.handled)-1]
		if top != Value(exc) && top != None {
			exc.exc.context = IncRef(top)
		}
	}
	it.addTraceback(fr, exc, early)
	return exc
}

// lineEvent fires a line event (and the collector if it is due).
func (it *Interp) lineEvent(fr *frame, ln int) {
	fr.lastLine = ln
	if it.lineHook != nil {
		it.lineHook(ln)
	}
}

// simple wraps a simple statement with its line bookkeeping: one line
// event at its start, unless it is compiled in multi-line mode.
//
// Not inlined: its closure would be copied into every caller (size of the
// wasm module).
//
//go:noinline
func (fc *fnCompiler) simple(ln int, f stmtFn) stmtFn {
	traced := fc.code.traced && !fc.ml // multi-line: the nodes fire the events
	at := fc.stmtAt
	return func(fr *frame) (ctl, error) {
		fr.line = ln
		it := fr.it
		if err := it.step(); err != nil {
			return 0, err
		}
		if it.gc.pending {
			it.collectAuto()
		}
		if traced && ln != fr.lastLine {
			it.lineEvent(fr, ln)
		}
		c, err := f(fr)
		if err != nil {
			fr.notePos(at) // raise, assert, import, x += y: the statement's range
		}
		return c, err
	}
}

// stmt compiles a statement. Multi-line mode (compile_lines.go) is on
// while its own header is compiled if that header spans lines; nested
// bodies compile their own statements.
func (fc *fnCompiler) stmt(s syntax.Stmt) (stmtFn, error) {
	saved, savedAt := fc.ml, fc.stmtAt
	defer func() { fc.ml, fc.stmtAt = saved, savedAt }()
	fc.stmtAt = fc.c.at(s)
	ln := stmtLine(s)
	fc.ml = spansLines(ln, headerNodes(s)...)
	f, err := fc.stmtNode(s, ln)
	if err != nil {
		return nil, err
	}
	if _, ok := s.(*syntax.AugAssignStmt); ok && fc.ml {
		// x += ...: its first instruction loads x, at the statement's line.
		inner := f
		f = func(fr *frame) (ctl, error) {
			markLine(fr, ln)
			return inner(fr)
		}
	}
	return f, nil
}

// noLineAfter reports whether an expression statement ends where
// branches join (a conditional expression, and/or, a chained comparison):
// CPython 3.12's POP_TOP there has no line, so the next instruction fires
// a line event even on the same line.
func noLineAfter(x syntax.Expr) bool {
	switch x := x.(type) {
	case *syntax.CondExpr:
		return true
	case *syntax.BinaryExpr:
		return x.Op == syntax.AND || x.Op == syntax.OR
	case *syntax.CompareExpr:
		return len(x.Ops) > 1
	}
	return false
}

// headerNodes returns the parts of a statement whose lines decide whether it
// is compiled in multi-line mode.
func headerNodes(s syntax.Stmt) []syntax.Node {
	switch s := s.(type) {
	case *syntax.ExprStmt, *syntax.AssignStmt, *syntax.AnnAssignStmt, *syntax.AugAssignStmt,
		*syntax.DelStmt, *syntax.ReturnStmt, *syntax.RaiseStmt, *syntax.AssertStmt:
		return []syntax.Node{s}
	case *syntax.IfStmt:
		return []syntax.Node{s.Cond}
	case *syntax.WhileStmt:
		return []syntax.Node{s.Cond}
	case *syntax.ForStmt:
		return []syntax.Node{s.Vars, s.X}
	case *syntax.WithStmt:
		var ns []syntax.Node
		for _, wi := range s.Items {
			ns = append(ns, wi.Context)
			if wi.Vars != nil {
				ns = append(ns, wi.Vars)
			}
		}
		return ns
	}
	return nil
}

func (fc *fnCompiler) stmtNode(s syntax.Stmt, ln int) (stmtFn, error) {
	switch s := s.(type) {
	case *syntax.ExprStmt:
		x, err := fc.expr(s.X)
		if err != nil {
			return nil, err
		}
		// POP_TOP has no location of its own: it takes the line of the
		// instruction before it, or none where branches join (noLineAfter).
		if noLineAfter(s.X) {
			return fc.simple(ln, func(fr *frame) (ctl, error) {
				v, err := x(fr)
				if err != nil {
					return 0, err
				}
				fr.it.DecRef(v)
				fr.lastLine = -1
				return ctlNext, nil
			}), nil
		}
		return fc.simple(ln, func(fr *frame) (ctl, error) {
			v, err := x(fr)
			if err != nil {
				return 0, err
			}
			fr.it.DecRef(v)
			return ctlNext, nil
		}), nil
	case *syntax.AssignStmt:
		val, err := fc.expr(s.Value)
		if err != nil {
			return nil, err
		}
		var stores []storeFn
		for _, t := range s.Targets {
			st, err := fc.store(t)
			if err != nil {
				return nil, err
			}
			stores = append(stores, st)
		}
		if len(stores) == 1 {
			st := stores[0]
			return fc.simple(ln, func(fr *frame) (ctl, error) {
				v, err := val(fr)
				if err != nil {
					return 0, err
				}
				return ctlNext, st(fr, v)
			}), nil
		}
		return fc.simple(ln, func(fr *frame) (ctl, error) {
			v, err := val(fr)
			if err != nil {
				return 0, err
			}
			for i, st := range stores {
				if i < len(stores)-1 {
					IncRef(v)
				}
				if err := st(fr, v); err != nil {
					if i < len(stores)-1 { // the COPY stays on the stack
						err = fr.raising(err)
						fr.it.DecRef(v)
					}
					return 0, err
				}
			}
			return ctlNext, nil
		}), nil
	case *syntax.AnnAssignStmt:
		return fc.annAssign(s, ln)
	case *syntax.AugAssignStmt:
		f, err := fc.augAssign(s)
		if err != nil {
			return nil, err
		}
		return fc.simple(ln, f), nil
	case *syntax.DelStmt:
		var dels []stmtFn
		for _, t := range s.Targets {
			d, err := fc.del(t)
			if err != nil {
				return nil, err
			}
			dels = append(dels, d)
		}
		return fc.simple(ln, func(fr *frame) (ctl, error) {
			for _, d := range dels {
				if _, err := d(fr); err != nil {
					return 0, err
				}
			}
			return ctlNext, nil
		}), nil
	case *syntax.PassStmt, *syntax.GlobalStmt, *syntax.NonlocalStmt:
		if _, ok := s.(*syntax.PassStmt); !ok {
			return func(fr *frame) (ctl, error) { return ctlNext, nil }, nil
		}
		return fc.simple(ln, func(fr *frame) (ctl, error) { return ctlNext, nil }), nil
	case *syntax.BreakStmt:
		return fc.simple(ln, func(fr *frame) (ctl, error) { return ctlBreak, nil }), nil
	case *syntax.ContinueStmt:
		return fc.simple(ln, func(fr *frame) (ctl, error) { return ctlContinue, nil }), nil
	case *syntax.ReturnStmt:
		if s.Result == nil {
			return fc.simple(ln, func(fr *frame) (ctl, error) { fr.ret = None; return ctlReturn, nil }), nil
		}
		x, err := fc.expr(s.Result)
		if err != nil {
			return nil, err
		}
		x = fc.post(ln, x) // RETURN_VALUE
		return fc.simple(ln, func(fr *frame) (ctl, error) {
			v, err := x(fr)
			if err != nil {
				return 0, err
			}
			fr.ret = v
			return ctlReturn, nil
		}), nil
	case *syntax.RaiseStmt:
		f, err := fc.raise(s)
		if err != nil {
			return nil, err
		}
		return fc.simple(ln, f), nil
	case *syntax.AssertStmt:
		test, err := fc.test(s.Test)
		if err != nil {
			return nil, err
		}
		var msg exprFn
		if s.Msg != nil {
			if msg, err = fc.expr(s.Msg); err != nil {
				return nil, err
			}
		}
		return fc.simple(ln, func(fr *frame) (ctl, error) {
			ok, err := test(fr)
			if err != nil || ok {
				return 0, err
			}
			if msg == nil {
				return 0, newExcArgs(AssertionError, nil)
			}
			m, err := msg(fr)
			if err != nil {
				return 0, err
			}
			return 0, newExcArgs(AssertionError, []Value{m})
		}), nil
	case *syntax.ImportStmt:
		f, err := fc.importStmt(s)
		if err != nil {
			return nil, err
		}
		return fc.simple(ln, f), nil
	case *syntax.ImportFromStmt:
		f, err := fc.importFrom(s)
		if err != nil {
			return nil, err
		}
		return fc.simple(ln, f), nil
	case *syntax.IfStmt:
		return fc.ifStmt(s)
	case *syntax.WhileStmt:
		return fc.whileStmt(s)
	case *syntax.ForStmt:
		return fc.forStmt(s)
	case *syntax.WithStmt:
		return fc.withStmt(s)
	case *syntax.TryStmt:
		return fc.tryStmt(s)
	case *syntax.DefStmt:
		f, err := fc.defStmt(s)
		if err != nil {
			return nil, err
		}
		return fc.simple(ln, f), nil
	case *syntax.ClassStmt:
		f, err := fc.classStmt(s)
		if err != nil {
			return nil, err
		}
		return fc.simple(ln, f), nil
	}
	return nil, fmt.Errorf("unsupported statement %T", s)
}

func (fc *fnCompiler) ifStmt(s *syntax.IfStmt) (stmtFn, error) {
	cond, err := fc.test(s.Cond)
	if err != nil {
		return nil, err
	}
	body, err := fc.stmts(s.Body)
	if err != nil {
		return nil, err
	}
	els, err := fc.stmts(s.Else)
	if err != nil {
		return nil, err
	}
	return fc.simple(line(s.If), func(fr *frame) (ctl, error) {
		t, err := cond(fr)
		if err != nil {
			return 0, err
		}
		if t {
			return execStmts(fr, body)
		}
		if els != nil {
			return execStmts(fr, els)
		}
		return ctlNext, nil
	}), nil
}

func (fc *fnCompiler) whileStmt(s *syntax.WhileStmt) (stmtFn, error) {
	cond, err := fc.test(s.Cond)
	if err != nil {
		return nil, err
	}
	body, err := fc.stmts(s.Body)
	if err != nil {
		return nil, err
	}
	els, err := fc.stmts(s.Else)
	if err != nil {
		return nil, err
	}
	ln := line(s.While)
	// A condition on several lines fires its own events each time (3.12
	// repeats it at the loop's end); on one line, one event per test.
	traced := fc.code.traced && !fc.ml
	// A body on the header's line: 3.12 tests again at the loop's end, on
	// the same line (no event), and fires the event when it jumps back
	// into the body; the first test and a continue's test fire it first.
	oneLine := len(s.Body) > 0 && stmtLine(s.Body[0]) == ln
	return func(fr *frame) (ctl, error) {
		it := fr.it
		top := true
		for {
			fr.line = ln
			if err := it.step(); err != nil {
				return 0, err
			}
			if it.gc.pending {
				it.collectAuto()
			}
			if traced && (top || !oneLine || fr.lastLine != ln) {
				it.lineEvent(fr, ln) // the re-test after a line-less POP_TOP too
			}
			t, err := cond(fr)
			if err != nil {
				return 0, err
			}
			if !t {
				break
			}
			if traced && oneLine && !top {
				it.lineEvent(fr, ln)
			}
			c, err := execStmts(fr, body)
			if err != nil {
				return 0, err
			}
			if c == ctlBreak {
				return ctlNext, nil
			}
			if c == ctlReturn {
				return c, nil
			}
			top = c == ctlContinue
		}
		if els != nil {
			return execStmts(fr, els)
		}
		return ctlNext, nil
	}, nil
}

func (fc *fnCompiler) forStmt(s *syntax.ForStmt) (stmtFn, error) {
	x, err := fc.iterable(s.X)
	if err != nil {
		return nil, err
	}
	x = fc.post(line(s.For), x) // GET_ITER, FOR_ITER
	ml := fc.ml
	target, err := fc.store(s.Vars)
	if err != nil {
		return nil, err
	}
	body, err := fc.stmts(s.Body)
	if err != nil {
		return nil, err
	}
	els, err := fc.stmts(s.Else)
	if err != nil {
		return nil, err
	}
	ln := line(s.For)
	traced := fc.code.traced
	return func(fr *frame) (ctl, error) {
		it := fr.it
		fr.line = ln
		if err := it.step(); err != nil {
			return 0, err
		}
		if traced && !ml && ln != fr.lastLine {
			it.lineEvent(fr, ln)
		}
		seq, err := x(fr)
		if err != nil {
			return 0, err
		}
		iter, err := it.Iter(seq)
		it.DecRef(seq)
		if err != nil {
			return 0, err
		}
		first := true
		for {
			fr.line = ln
			if !first {
				if err := it.step(); err != nil {
					it.DecRef(iter)
					return 0, err
				}
				if it.gc.pending {
					it.collectAuto()
				}
				if traced {
					it.lineEvent(fr, ln)
				}
			}
			first = false
			v, ok, err := it.Next(iter)
			if err != nil { // FOR_ITER leaves the iterator on the stack
				err = fr.raising(err)
				it.DecRef(iter)
				return 0, err
			}
			if !ok {
				break
			}
			if err := target(fr, v); err != nil {
				err = fr.raising(err)
				it.DecRef(iter)
				return 0, err
			}
			c, err := execStmts(fr, body)
			if err != nil {
				it.DecRef(iter)
				return 0, err
			}
			if c == ctlBreak {
				it.DecRef(iter)
				return ctlNext, nil
			}
			if c == ctlReturn {
				it.DecRef(iter)
				return c, nil
			}
		}
		it.DecRef(iter)
		if els != nil {
			return execStmts(fr, els)
		}
		return ctlNext, nil
	}, nil
}
