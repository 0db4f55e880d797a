package py

import (
	"github.com/gpumem/playground/sim/py/syntax"
)

// compClause is one compiled clause of a comprehension.
type compClause struct {
	iter   exprFn // for: the iterable (nil for the first, evaluated outside)
	store  storeFn
	cond   testFn // if
	line   int    // line of the comprehension (inlined, traced code)
	traced bool   // fire a line event on each backward jump (CPython 3.12)
	// Multi-line mode (compile_lines.go): a nested loop's first FOR_ITER
	// marks line; each iteration ends at the element's line (the jump back).
	ml      bool
	eltLine int
}

// comprehension compiles an inlined list/set/dict comprehension (PEP 709).
func (fc *fnCompiler) comprehension(x *syntax.Comprehension) (exprFn, error) {
	cs := fc.c.scopes[x]
	first := x.Clauses[0].(*syntax.ForClause)
	firstIter, err := fc.iterable(first.X)
	if err != nil {
		return nil, err
	}
	compLine := line(x.Lparen)
	firstIter = fc.post(compLine, firstIter) // GET_ITER, BUILD_LIST, FOR_ITER
	fc.comps = append(fc.comps, cs)
	defer func() { fc.comps = fc.comps[:len(fc.comps)-1] }()
	// Slots of the comprehension's variables, saved and restored around it.
	var saved []int
	for _, n := range cs.order {
		if cs.syms[n] == symLocal {
			saved = append(saved, fc.fastSlot(n))
		}
	}
	clauses, err := fc.compClauses(x.Clauses)
	if err != nil {
		return nil, err
	}
	var elem, key exprFn
	var eltLine int
	if e, ok := x.Body.(*syntax.DictEntry); ok {
		if key, err = fc.expr(e.Key); err != nil {
			return nil, err
		}
		if elem, err = fc.expr(e.Value); err != nil {
			return nil, err
		}
		eltLine = fc.exprLine(e.Key)
	} else if elem, err = fc.expr(x.Body.(syntax.Expr)); err != nil {
		return nil, err
	} else {
		eltLine = fc.exprLine(x.Body)
	}
	elem = fc.post(eltLine, elem) // LIST_APPEND, SET_ADD, MAP_ADD
	kind := x.Kind
	for i := range clauses {
		if clauses[i].cond == nil {
			clauses[i].line = compLine
			clauses[i].traced = fc.code.traced
			clauses[i].ml = fc.ml
			clauses[i].eltLine = eltLine
		}
	}
	return func(fr *frame) (Value, error) {
		it := fr.it
		src, err := firstIter(fr)
		if err != nil {
			return nil, err
		}
		iter, err := it.Iter(src)
		it.DecRef(src)
		if err != nil {
			return nil, err
		}
		old := make([]Value, len(saved))
		for i, s := range saved {
			old[i] = fr.slots[s]
			fr.slots[s] = nil
		}
		var res Value
		var add func(fr *frame) error
		switch kind {
		case syntax.ListComp:
			l := it.NewList(nil)
			res = l
			add = func(fr *frame) error {
				v, err := elem(fr)
				if err != nil {
					return err
				}
				if err := it.checkSize(len(l.elems) + 1); err != nil {
					it.DecRef(v)
					return err
				}
				l.elems = append(l.elems, v)
				return nil
			}
		case syntax.SetComp:
			s := it.NewSet()
			res = s
			add = func(fr *frame) error {
				v, err := elem(fr)
				if err != nil {
					return err
				}
				err = s.Add(it, v)
				it.DecRef(v)
				return err
			}
		default:
			d := it.NewDict()
			res = d
			add = func(fr *frame) error {
				k, err := key(fr)
				if err != nil {
					return err
				}
				v, err := elem(fr)
				if err != nil {
					err = fr.raising(err)
					it.DecRef(k)
					return err
				}
				err = d.SetItem(it, k, v)
				it.DecRef(k)
				it.DecRef(v)
				return err
			}
		}
		err = runClauses(fr, clauses, 0, iter, add)
		if err != nil {
			err = fr.raising(err)
		}
		it.DecRef(iter)
		for i, s := range saved {
			cur := fr.slots[s]
			fr.slots[s] = old[i]
			if cur != nil {
				it.DecRef(cur)
			}
		}
		if err != nil {
			it.DecRef(res)
			return nil, err
		}
		return res, nil
	}, nil
}

func (fc *fnCompiler) compClauses(cls []syntax.Node) ([]compClause, error) {
	var out []compClause
	for i, c := range cls {
		switch c := c.(type) {
		case *syntax.ForClause:
			var cc compClause
			var err error
			if i > 0 {
				if cc.iter, err = fc.iterable(c.X); err != nil {
					return nil, err
				}
			}
			if cc.store, err = fc.store(c.Vars); err != nil {
				return nil, err
			}
			out = append(out, cc)
		case *syntax.IfClause:
			f, err := fc.test(c.Cond)
			if err != nil {
				return nil, err
			}
			out = append(out, compClause{cond: f})
		}
	}
	return out, nil
}

// runClauses runs clause k (a for clause over iter) and everything nested.
func runClauses(fr *frame, cls []compClause, k int, iter Value, add func(*frame) error) error {
	it := fr.it
	for first := true; ; first = false {
		if err := it.step(); err != nil {
			return err
		}
		if cls[k].traced && !first {
			fr.line = cls[k].line
			it.lineEvent(fr, cls[k].line)
		} else if first && k > 0 && cls[k].ml {
			markLine(fr, cls[k].line)
		}
		v, ok, err := it.Next(iter)
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		if err := cls[k].store(fr, v); err != nil {
			return err
		}
		if err := runRest(fr, cls, k+1, add); err != nil {
			return err
		}
		if cls[k].ml {
			markLine(fr, cls[k].eltLine)
		}
	}
}

func runRest(fr *frame, cls []compClause, k int, add func(*frame) error) error {
	it := fr.it
	for ; k < len(cls); k++ {
		c := cls[k]
		if c.cond != nil {
			t, err := c.cond(fr)
			if err != nil {
				return err
			}
			if !t {
				return nil
			}
			continue
		}
		src, err := c.iter(fr)
		if err != nil {
			return err
		}
		iter, err := it.Iter(src)
		it.DecRef(src)
		if err != nil {
			return err
		}
		err = runClauses(fr, cls, k, iter, add)
		if err != nil {
			err = fr.raising(err)
		}
		it.DecRef(iter)
		return err
	}
	return add(fr)
}

// genexp compiles a generator expression: a function scope whose frame
// lives in a Generator object and runs lazily.
func (fc *fnCompiler) genexp(x *syntax.Comprehension) (exprFn, error) {
	cs := fc.c.scopes[x]
	first := x.Clauses[0].(*syntax.ForClause)
	firstIter, err := fc.iterable(first.X)
	if err != nil {
		return nil, err
	}
	compLine := line(x.Lparen)
	firstIter = fc.post(compLine, firstIter) // GET_ITER, BUILD_LIST, FOR_ITER
	child := fc.c.newFn(cs, "<genexpr>", fc.childQual("<genexpr>"))
	co := child.code
	co.firstLine = compLine
	co.npos = 1
	child.ml = spansLines(compLine, x)
	clauses, err := child.compClauses(x.Clauses)
	if err != nil {
		return nil, err
	}
	eltLine := fc.exprLine(x.Body)
	elem, err := child.expr(x.Body.(syntax.Expr))
	if err != nil {
		return nil, err
	}
	elem = child.post(eltLine, elem) // YIELD_VALUE
	gc := &genCode{clauses: clauses, elem: elem, eltLine: eltLine}
	var closure []varRef
	for i, n := range co.cellNames {
		if co.paramCell[i] <= -2 {
			closure = append(closure, fc.ref(n))
		}
	}
	return func(fr *frame) (Value, error) {
		it := fr.it
		src, err := firstIter(fr)
		if err != nil {
			return nil, err
		}
		iter, err := it.Iter(src)
		it.DecRef(src)
		if err != nil {
			return nil, err
		}
		gfr := &frame{it: it, code: co, globals: fr.globals, ns: fr.globals, lastLine: -1}
		gfr.slots = make([]Value, len(co.varnames))
		gfr.slots[0] = iter
		gfr.cells = make([]*Cell, len(co.cellNames))
		k := 0
		for i := range co.cellNames {
			if co.paramCell[i] <= -2 {
				gfr.cells[i] = IncRef(fr.cells[closure[k].idx]).(*Cell)
				k++
			} else {
				c := &Cell{}
				it.newGC(c, true)
				gfr.cells[i] = c
			}
		}
		g := &Generator{fr: gfr, gc: gc, qual: co.qualname}
		it.newGC(g, true)
		return g, nil
	}, nil
}

// genCode is the body of a generator expression.
type genCode struct {
	clauses []compClause
	elem    exprFn
	eltLine int // line of the element (YIELD_VALUE, the resumption, the jump back)
}

// Generator is a generator: a generator expression's (gc) or a generator
// function's (body, gen.go).
type Generator struct {
	Base
	fr      *frame
	gc      *genCode
	body    *genBody
	qual    string  // __qualname__
	iters   []Value // active iterators of nested for clauses (index = clause)
	level   int     // innermost active for clause, -1 before start
	started bool
	done    bool
	running bool
}

// Type returns generator.
func (*Generator) Type() *Class { return GeneratorClass }

func (g *Generator) dealloc(it *Interp) { g.finish(it) }

func (g *Generator) finish(it *Interp) {
	if g.body != nil {
		if g.done || g.running {
			return
		}
		g.kill(it)
		g.done = true
		if fr := g.fr; fr != nil {
			g.fr = nil
			it.dropFrame(fr)
		}
		g.releaseBody(it)
		return
	}
	if g.done {
		return
	}
	g.done = true
	for i := len(g.iters) - 1; i >= 0; i-- {
		if g.iters[i] != nil {
			v := g.iters[i]
			g.iters[i] = nil
			it.DecRef(v)
		}
	}
	if g.fr != nil {
		fr := g.fr
		g.fr = nil
		clearVars(it, fr.code, fr.slots, fr.cells)
	}
}

func (g *Generator) traverse(visit func(Value)) {
	for _, v := range g.iters {
		if v != nil {
			visit(v)
		}
	}
	if g.fr != nil {
		for _, v := range g.fr.slots {
			if v != nil {
				visit(v)
			}
		}
		for _, c := range g.fr.cells {
			if c != nil {
				visit(c)
			}
		}
	}
	if b := g.body; b != nil {
		if b.yf != nil {
			visit(b.yf)
		}
		if b.fn != nil {
			visit(b.fn)
		}
		for _, h := range b.handled {
			visit(h)
		}
	}
}

func (g *Generator) clear(it *Interp) { g.finish(it) }

// next produces the next element (new reference) or ok=false when done.
func (g *Generator) next(it *Interp) (Value, bool, error) {
	if g.body != nil {
		v, yielded, err := g.send(it, None, nil)
		if err != nil || yielded {
			return v, yielded, err
		}
		it.DecRef(v)
		return nil, false, nil
	}
	if g.done {
		return nil, false, nil
	}
	if g.running {
		return nil, false, newValueError("generator already executing")
	}
	fr := g.fr
	if err := it.enter(fr); err != nil {
		return nil, false, err
	}
	g.running = true
	v, ok, err := g.advance(it)
	g.running = false
	if err != nil {
		err = it.noteErr(fr, err)
	}
	it.leaveKeep(fr)
	if err != nil || !ok {
		g.finish(it)
	}
	return v, ok, err
}

func (g *Generator) advance(it *Interp) (Value, bool, error) {
	fr := g.fr
	cls := g.gc.clauses
	// Line events (CPython 3.12): the first run starts at the FOR_ITER line,
	// a resumption at the element's line (always an event); the jump back to
	// FOR_ITER fires the loop line, except right after a resumption.
	traced := fr.code.traced
	resumed := g.iters != nil
	if !resumed {
		g.iters = make([]Value, len(cls))
		g.iters[0] = fr.slots[0]
		IncRef(fr.slots[0])
		g.level = 0
	}
	if traced {
		fr.line = fr.code.firstLine
		if resumed {
			fr.line = g.gc.eltLine
		}
		it.lineEvent(fr, fr.line)
	}
	k := g.level
	backEdge, fresh := false, false
	for {
		if err := it.step(); err != nil {
			return nil, false, err
		}
		if backEdge && traced {
			fr.line = fr.code.firstLine
			it.lineEvent(fr, fr.line)
		} else if fresh {
			markLine(fr, fr.code.firstLine)
		}
		backEdge, fresh = true, false
		v, ok, err := it.Next(g.iters[k])
		if err != nil {
			return nil, false, err
		}
		if !ok {
			old := g.iters[k]
			g.iters[k] = nil
			it.DecRef(old)
			// back to the enclosing for clause
			k--
			for k >= 0 && cls[k].cond != nil {
				k--
			}
			if k < 0 {
				return nil, false, nil
			}
			markLine(fr, g.gc.eltLine)
			continue
		}
		if err := cls[k].store(fr, v); err != nil {
			return nil, false, err
		}
		j := k + 1
		skip := false
		for ; j < len(cls); j++ {
			c := cls[j]
			if c.cond != nil {
				t, err := c.cond(fr)
				if err != nil {
					return nil, false, err
				}
				if !t {
					skip = true
					break
				}
				continue
			}
			src, err := c.iter(fr)
			if err != nil {
				return nil, false, err
			}
			iter, err := it.Iter(src)
			it.DecRef(src)
			if err != nil {
				return nil, false, err
			}
			g.iters[j] = iter
			k = j
			skip = true
			backEdge, fresh = false, true
			break
		}
		if skip {
			if !fresh {
				markLine(fr, g.gc.eltLine) // a failed if jumps to the jump back
			}
			continue
		}
		v, err = g.gc.elem(fr)
		if err != nil {
			return nil, false, err
		}
		g.level = k
		return v, true, nil
	}
}
