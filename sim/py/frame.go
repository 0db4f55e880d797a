package py

// code is a compiled function, class body or module.
type code struct {
	name      string // co_name
	qualname  string
	filename  string
	traced    bool // line events (the script's own file)
	hidden    bool // left out of tracebacks
	firstLine int
	lines     []string // source lines for tracebacks

	varnames  []string // fast slots, in CPython's co_varnames order
	cellNames []string // cells: cellvars (sorted) then freevars (sorted)
	nfree     int      // number of free variables (closure cells)
	paramCell []int    // per cell: parameter slot it starts from (>= 0), -1 new empty cell, -2-k free variable k
	// slotCell is, per parameter slot, the index of the cell that parameter
	// became (a parameter captured by a closure), or -1; nil when there is
	// none. CPython keeps such a cell at the parameter's place in localsplus.
	slotCell []int

	// parameters
	npos     int // positional (incl. positional-only) parameters
	nposonly int
	nkwonly  int
	varargs  bool
	varkw    bool
	isLambda bool
	kind     scopeKind
	body     []stmtFn
	bodyExpr exprFn // lambda body
	// lambdaLine is the line of a lambda body's first instruction (its first
	// line event) unless lambdaML: a body on several lines marks its own.
	lambdaLine int
	lambdaML   bool
	classCell  int  // class body: index of the __class__ cell, or -1
	isGen      bool // generator function: a call returns a generator (gen.go)
}

// frame is one activation of a code object.
type frame struct {
	it       *Interp
	code     *code
	fn       *Function
	slots    []Value
	cells    []*Cell
	globals  *Dict
	ns       *Dict // module and class bodies: the namespace for name ops
	back     *frame
	line     int
	lastLine int
	fobj     *FrameObject
	ret      Value
	errPos   *srcPos    // range of the instruction that raised (positions.go), until the traceback entry takes it
	errTB    *Traceback // entry added while unwinding before a range was noted (frame.raising): notePos fills it
	gen      *Generator // the generator whose body runs in this frame (generator functions)
}

// ctl is the control-flow outcome of a statement.
type ctl uint8

const (
	ctlNext ctl = iota
	ctlBreak
	ctlContinue
	ctlReturn
)

type stmtFn func(fr *frame) (ctl, error)
type exprFn func(fr *frame) (Value, error)

// FrameObject is a frame referenced from a traceback: it keeps the frame's
// local variables alive after the frame returned, until the traceback dies.
type FrameObject struct {
	Base
	code  *code
	fr    *frame
	slots []Value
	cells []*Cell
	line  int
	owned bool // the frame finished and its variables moved here
}

// Type returns frame.
func (*FrameObject) Type() *Class { return FrameClass }

func (f *FrameObject) dealloc(it *Interp) {
	if f.owned {
		slots, cells := f.slots, f.cells
		f.slots, f.cells = nil, nil
		clearVars(it, f.code, slots, cells)
	}
}

func (f *FrameObject) traverse(visit func(Value)) {
	if f.owned {
		for _, v := range f.slots {
			if v != nil {
				visit(v)
			}
		}
		for _, c := range f.cells {
			if c != nil {
				visit(c)
			}
		}
	}
}

func (f *FrameObject) clear(it *Interp) { f.dealloc(it) }

// clearVars releases a frame's variables in CPython 3.12's localsplus
// order: fast locals in co_varnames order (a parameter captured by a
// closure at its parameter's place), then the other cells and the free
// variables.
func clearVars(it *Interp, co *code, slots []Value, cells []*Cell) {
	sc := co.slotCell
	if cells == nil {
		sc = nil
	}
	for i, v := range slots {
		if i < len(sc) && sc[i] >= 0 {
			if c := cells[sc[i]]; c != nil {
				cells[sc[i]] = nil
				it.DecRef(c)
			}
		}
		if v != nil {
			slots[i] = nil
			it.DecRef(v)
		}
	}
	for i, c := range cells {
		if c != nil {
			cells[i] = nil
			it.DecRef(c)
		}
	}
}

// frameObject materialises the frame object of fr (for a traceback).
func (it *Interp) frameObject(fr *frame) *FrameObject {
	if fr.fobj == nil {
		fo := &FrameObject{code: fr.code, fr: fr}
		it.newGC(fo, true)
		fr.fobj = fo
	}
	return fr.fobj
}

// exitFrame ends fr: its variables are released unless a traceback holds the
// frame object, which then takes them over (CPython's take_ownership).
func (it *Interp) exitFrame(fr *frame) {
	it.frame = fr.back
	it.dropFrame(fr)
}

// dropFrame releases the variables of fr, which is not running, or hands
// them to its frame object when a traceback holds it.
func (it *Interp) dropFrame(fr *frame) {
	if fo := fr.fobj; fo != nil {
		fr.fobj = nil
		fo.line = fr.line
		if fo.extra > 0 {
			fo.slots, fo.cells = fr.slots, fr.cells
			fo.owned = true
			fo.fr = nil
			fr.slots, fr.cells = nil, nil
			it.DecRef(fo)
			return
		}
		fo.fr = nil
		clearVars(it, fr.code, fr.slots, fr.cells)
		it.DecRef(fo)
		return
	}
	clearVars(it, fr.code, fr.slots, fr.cells)
}

// Traceback is one entry of an exception's traceback.
type Traceback struct {
	Base
	frame *FrameObject
	line  int
	pos   srcPos // range of the failing instruction (position markers)
	next  *Traceback
}

// Type returns traceback.
func (*Traceback) Type() *Class { return TracebackClass }

func (t *Traceback) dealloc(it *Interp) {
	next, fo := t.next, t.frame
	t.next, t.frame = nil, nil
	if next != nil {
		it.DecRef(next)
	}
	if fo != nil {
		it.DecRef(fo)
	}
}

func (t *Traceback) traverse(visit func(Value)) {
	if t.next != nil {
		visit(t.next)
	}
	if t.frame != nil {
		visit(t.frame)
	}
}

func (t *Traceback) clear(it *Interp) { t.dealloc(it) }

// addTraceback records that exc passed through fr at its current line
// (PyTraceBack_Here), once per frame. early (frame.raising): the range
// noted so far stays noted for the statement; none noted yet, the entry
// waits for the next one (errTB).
func (it *Interp) addTraceback(fr *frame, exc *Instance, early bool) {
	var pos srcPos
	if !early {
		pos = fr.takePos()
	} else if fr.errPos != nil {
		pos = *fr.errPos
	}
	if exc.exc == nil {
		return
	}
	if tb := exc.exc.tb; tb != nil && tb.frame != nil && tb.frame.fr == fr && fr != nil {
		return
	}
	fo := it.frameObject(fr)
	IncRef(fo)
	tb := &Traceback{frame: fo, line: fr.line, pos: pos, next: exc.exc.tb}
	it.newGC(tb, true)
	exc.exc.tb = tb
	if early && fr.errPos == nil {
		fr.errTB = tb
	}
}
