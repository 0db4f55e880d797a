package py

import (
	"fmt"
	"iter"
)

// Generator functions. Compiled code is a tree of Go closures, which cannot
// be suspended in the middle of a statement, so the body of a generator
// function runs in a goroutine of its own, started by the first resumption:
// a coroutine of iter.Pull, to which the runtime switches directly (no
// scheduler round trip, no channel). Exactly one goroutine runs interpreter
// code at any moment; the caller and the body pass each other genMsg
// through genBody.msg, and each switch orders memory like a call would.
//
// A suspended body waits in yield for the next message: a value sent or an
// exception thrown. Killing it (stop: yield reports false) unwinds the
// body's Go stack with a private panic, recovered at its top, without
// running any more Python code; that is how the end of a run, and the
// freeing of a generator that ignored GeneratorExit, end a body. Every
// started, unfinished body is listed in Interp.gens so that the end of a
// run can end them all: no goroutine outlives its run.

// genKind is the kind of a hand-off message.
type genKind uint8

const (
	genSend   genKind = iota // caller → body: resume with v, or raise err at the yield
	genYield                 // body → caller: v was yielded
	genReturn                // body → caller: the body ended, returning v or raising err
)

// genKilled is the panic that unwinds a killed body.
type genKilled struct{}

// genMsg is one hand-off between a caller and a generator body.
type genMsg struct {
	kind genKind
	v    Value
	err  error
}

// genBody is the state of a generator made by calling a generator
// function (nil for generator expressions, which run without goroutine).
type genBody struct {
	fn      *Function // the function (f_funcobj), a reference
	msg     genMsg    // the message of the current hand-off
	next    func() (struct{}, bool)
	stop    func()
	yield   func(struct{}) bool
	started bool // the goroutine runs (suspended or executing)
	// handled holds the exceptions the suspended body was handling
	// (gi_exc_state): pushed on Interp.handled while it runs.
	handled []Value
	yf      Value // the iterator a `yield from` delegates to (gi_yieldfrom)
}

// newGenerator wraps fr, a frame of the generator function fn whose
// arguments are bound, in a new generator (a new reference).
func (it *Interp) newGenerator(fn *Function, fr *frame) *Generator {
	g := &Generator{fr: fr, body: &genBody{fn: IncRef(fn).(*Function)}, qual: fn.qualname()}
	fr.gen = g
	it.newGC(g, true)
	return g
}

// send resumes a generator function's body with arg (borrowed) or, when exc
// is not nil, by raising exc (owned) at its yield. It returns the value
// yielded (yielded true), or the body's return value, or its error.
func (g *Generator) send(it *Interp, arg Value, exc error) (Value, bool, error) {
	b := g.body
	if g.running {
		releaseErr(it, exc)
		return nil, false, newValueError("generator already executing")
	}
	if g.done {
		if exc != nil {
			return nil, false, exc
		}
		return None, false, nil
	}
	if !b.started && exc == nil && arg != Value(None) {
		return nil, false, newTypeError("can't send non-None value to a just-started generator")
	}
	if !b.started && exc != nil {
		// Thrown before the first line: raised at the def line, and the
		// generator is finished.
		fr := g.fr
		if err := it.enter(fr); err != nil {
			releaseErr(it, exc)
			return nil, false, err
		}
		fr.line = fr.code.firstLine
		err := it.noteErr(fr, exc)
		g.endFrame(it)
		return nil, false, err
	}
	if e, ok := exc.(*Instance); ok && b.yf != nil && e.exc != nil && e.cls.IsSubclass(GeneratorExit) {
		// The delegate is closed first (gen_close_iter), then
		// GeneratorExit is raised at the yield from.
		g.running = true
		err := it.closeIter(b.yf)
		g.running = false
		if err != nil {
			releaseErr(it, exc)
			exc = err
		}
	}
	return g.resume(it, arg, exc)
}

// resume hands control to the body and waits until it yields or ends.
func (g *Generator) resume(it *Interp, arg Value, exc error) (Value, bool, error) {
	b := g.body
	fr := g.fr
	if !b.started && len(it.gens) >= it.limits.MaxGenerators {
		releaseErr(it, exc)
		return nil, false, &LimitError{Msg: "more than " + groupThousands(int64(it.limits.MaxGenerators)) + " generators were suspended at once"}
	}
	if err := it.enter(fr); err != nil {
		releaseErr(it, exc)
		return nil, false, err
	}
	base := len(it.handled)
	it.handled = append(it.handled, b.handled...)
	b.handled = b.handled[:0]
	g.running = true
	if !b.started {
		b.started = true
		if it.gens == nil {
			it.gens = map[*Generator]struct{}{}
		}
		it.gens[g] = struct{}{}
		b.next, b.stop = iter.Pull(func(yield func(struct{}) bool) {
			b.yield = yield
			g.run(it)
		})
	} else {
		if exc == nil {
			IncRef(arg)
		}
		b.msg = genMsg{kind: genSend, v: arg, err: exc}
	}
	b.next()
	m := b.msg
	b.msg = genMsg{}
	g.running = false
	if m.kind == genYield {
		b.handled = append(b.handled, it.handled[base:]...)
		clear(it.handled[base:])
		it.handled = it.handled[:base]
		it.leaveKeep(fr)
		return m.v, true, nil
	}
	delete(it.gens, g)
	for len(it.handled) > base {
		it.popHandled()
	}
	g.endFrame(it)
	if m.err == nil {
		return m.v, false, nil
	}
	if e, ok := m.err.(*Instance); ok && e.exc != nil && e.cls.IsSubclass(StopIteration) {
		// PEP 479: the StopIteration becomes the cause of a RuntimeError
		// raised in the caller.
		r := NewException(RuntimeError, "generator raised StopIteration")
		r.exc.cause = e
		r.exc.context = IncRef(e)
		r.exc.suppress = true
		return nil, false, r
	}
	return nil, false, m.err
}

// endFrame pops the generator's frame (the innermost one) and clears it,
// as a frame that returned; the generator is finished.
func (g *Generator) endFrame(it *Interp) {
	fr := g.fr
	g.fr = nil
	g.done = true
	it.depth--
	it.exitFrame(fr)
	g.releaseBody(it)
}

// releaseBody drops what the frame's value stack held (the iterator of a
// yield from), the function, then what the body was handling, in the order
// of CPython's frame clear and gen_dealloc.
func (g *Generator) releaseBody(it *Interp) {
	b := g.body
	if yf := b.yf; yf != nil {
		b.yf = nil
		it.DecRef(yf)
	}
	if fn := b.fn; fn != nil {
		b.fn = nil
		it.DecRef(fn)
	}
	h := b.handled
	b.handled = nil
	for i := len(h) - 1; i >= 0; i-- {
		it.DecRef(h[i])
	}
}

// run is the body's goroutine. A Go panic becomes an InternalError for the
// caller; the panic of a kill ends it quietly.
func (g *Generator) run(it *Interp) {
	b := g.body
	fr := g.fr
	defer func() {
		if r := recover(); r != nil {
			if _, killed := r.(genKilled); !killed {
				b.msg = genMsg{kind: genReturn, err: &InternalError{Msg: fmt.Sprint(r)}}
			}
		}
	}()
	co := fr.code
	var ret Value
	var err error
	if co.isLambda {
		fr.line = co.lambdaLine
		if co.traced && !co.lambdaML {
			it.lineEvent(fr, co.lambdaLine)
		}
		// A generator lambda returns its body's value (StopIteration).
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
	b.msg = genMsg{kind: genReturn, v: ret, err: err}
}

// yield hands v (owned) to the caller and waits to be resumed: it returns
// the value sent (a new reference) or the exception thrown in.
func (g *Generator) yield(v Value) (Value, error) {
	b := g.body
	b.msg = genMsg{kind: genYield, v: v}
	if !b.yield(struct{}{}) {
		panic(genKilled{})
	}
	m := b.msg
	b.msg = genMsg{}
	if m.err != nil {
		return nil, m.err
	}
	return m.v, nil
}

// kill ends the goroutine of a suspended body without running any more of
// it. Values the body held on its Go stack (operands pending at the yield)
// are dropped without being released.
func (g *Generator) kill(it *Interp) {
	b := g.body
	if b == nil || !b.started || g.running || g.done {
		return
	}
	b.stop()
	delete(it.gens, g)
	g.done = true
}

// endGenerators kills every suspended generator body of the run; their
// frames are dropped without releasing anything (no Python code runs
// after the run).
func (it *Interp) endGenerators() {
	for g := range it.gens {
		g.kill(it)
		g.fr = nil
		delete(it.gens, g)
	}
}

// Close ends every generator the script left suspended: their goroutines
// stop without running any more Python code. ExecScript calls it when the
// run ends unless Options.KeepGenerators is set; a host that sets it calls
// Close after its last use of the interpreter. Close is idempotent.
func (it *Interp) Close() { it.endGenerators() }

// close is generator.close(): GeneratorExit is raised at the yield; the
// body must end (a yield is an error).
func (g *Generator) close(it *Interp) error {
	b := g.body
	if g.done {
		return nil
	}
	if !b.started {
		if g.running {
			return newValueError("generator already executing")
		}
		g.done = true
		fr := g.fr
		g.fr = nil
		it.dropFrame(fr)
		g.releaseBody(it)
		return nil
	}
	v, yielded, err := g.send(it, None, newExcArgs(GeneratorExit, nil))
	if yielded {
		it.DecRef(v)
		return NewException(RuntimeError, "generator ignored GeneratorExit")
	}
	if err == nil {
		it.DecRef(v)
		return nil
	}
	if e, ok := err.(*Instance); ok && e.exc != nil && (e.cls.IsSubclass(GeneratorExit) || e.cls.IsSubclass(StopIteration)) {
		it.DecRef(e)
		return nil
	}
	return err
}

// closeIter closes the iterator a yield from delegates to (gen_close_iter).
func (it *Interp) closeIter(yf Value) error {
	if sg, ok := yf.(*Generator); ok {
		if sg.body != nil {
			return sg.close(it)
		}
		sg.finish(it)
		return nil
	}
	m, err := it.GetAttr(yf, "close")
	if err != nil {
		if e, ok := err.(*Instance); ok && e.exc != nil && e.cls.IsSubclass(AttributeError) {
			it.DecRef(e)
			return nil
		}
		return err
	}
	r, err := it.Call(m, nil, nil)
	it.DecRef(m)
	if err != nil {
		return err
	}
	it.DecRef(r)
	return nil
}

// releaseErr drops an owned exception that will not be raised.
func releaseErr(it *Interp, err error) {
	if e, ok := err.(*Instance); ok {
		it.DecRef(e)
	}
}

// pyFinalize closes a suspended generator about to be freed (PEP 442,
// _PyGen_Finalize); its errors are unraisable.
func (g *Generator) pyFinalize(it *Interp) {
	b := g.body
	if b == nil || g.done || !b.started || g.running {
		return
	}
	if err := g.close(it); err != nil {
		it.unraisable(err, "Exception ignored in", g)
	}
}

// yieldFrom runs `yield from src` (src owned): the body delegates to the
// iterator of src until it ends, passing values sent and exceptions thrown
// through, and returns the iterator's return value.
func (g *Generator) yieldFrom(it *Interp, src Value) (Value, error) {
	var sub Value
	if sg, ok := src.(*Generator); ok {
		sub = sg // GET_YIELD_FROM_ITER: a generator is its own iterator
	} else {
		var err error
		sub, err = it.Iter(src)
		it.DecRef(src)
		if err != nil {
			return nil, err
		}
	}
	b := g.body
	b.yf = sub
	var sent Value = None
	var thrown error
	for {
		v, yielded, err := it.delegate(sub, sent, thrown)
		it.DecRef(sent)
		sent, thrown = None, nil
		if err != nil || !yielded {
			// The iterator is popped before the error unwinds or the
			// value is pushed.
			if b.yf == sub {
				b.yf = nil
				it.DecRef(sub)
			}
			return v, err
		}
		r, err := g.yield(v)
		if err != nil {
			thrown = err
			continue
		}
		sent = r
	}
}

// delegate is one step of yield from: it resumes sub with sent (borrowed)
// or throws thrown (owned) into it. It returns the value sub yielded
// (yielded true) or its return value.
func (it *Interp) delegate(sub, sent Value, thrown error) (Value, bool, error) {
	if thrown != nil {
		if e, ok := thrown.(*Instance); ok && e.exc != nil && e.cls.IsSubclass(GeneratorExit) {
			// send closed the delegate already (gen_close_iter).
			return nil, false, thrown
		}
		if sg, ok := sub.(*Generator); ok {
			if sg.body != nil {
				return sg.send(it, None, thrown)
			}
			sg.finish(it)
			return nil, false, thrown
		}
		m, err := it.GetAttr(sub, "throw")
		if err != nil {
			if e, ok := err.(*Instance); ok && e.exc != nil && e.cls.IsSubclass(AttributeError) {
				it.DecRef(e)
				return nil, false, thrown
			}
			releaseErr(it, thrown)
			return nil, false, err
		}
		r, err := it.Call(m, []Value{thrown.(*Instance)}, nil)
		it.DecRef(m)
		releaseErr(it, thrown)
		return stopValue(it, r, err)
	}
	if sg, ok := sub.(*Generator); ok && sg.body != nil {
		return sg.send(it, sent, nil)
	}
	if sent == Value(None) {
		v, ok, err := it.Next(sub)
		if err != nil || ok {
			return v, ok, err
		}
		return None, false, nil
	}
	m, err := it.GetAttr(sub, "send")
	if err != nil {
		return nil, false, err
	}
	r, err := it.Call(m, []Value{sent}, nil)
	it.DecRef(m)
	return stopValue(it, r, err)
}

// stopValue turns the result of a send or throw method call into
// delegate's form: a StopIteration ends the delegation with its value.
func stopValue(it *Interp, r Value, err error) (Value, bool, error) {
	if err == nil {
		return r, true, nil
	}
	if e, ok := err.(*Instance); ok && e.exc != nil && e.cls.IsSubclass(StopIteration) {
		var v Value = None
		if len(e.exc.args.elems) > 0 {
			v = IncRef(e.exc.args.elems[0])
		}
		it.DecRef(e)
		return v, false, nil
	}
	return nil, false, err
}
