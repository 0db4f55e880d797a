package py

import (
	"strings"

	"github.com/gpumem/playground/sim/py/syntax"
)

// compiler turns a parsed file into closures.
type compiler struct {
	file   string
	lines  []string
	scopes map[syntax.Node]*scope
	traced bool
	hidden bool
	parens map[syntax.Expr]syntax.ParenSpan // for CPython's node ranges (positions.go)
	top    *scope                           // the module scope (methodCall); nil in carets.go
}

// fnCompiler compiles one code object (module, class body or function).
type fnCompiler struct {
	c      *compiler
	sc     *scope // owner scope
	code   *code
	fast   map[string]int // fast slot of each name
	cellIx map[string]int // cell index of each name
	comps  []*scope       // active inlined comprehensions, innermost last
	qual   string         // qualname prefix for nested definitions
	ml     bool           // multi-line mode: nodes mark their lines (compile_lines.go)
	stmtAt *srcPos        // range of the statement being compiled (positions.go)
}

// compileModule compiles a module body.
func compileModule(f *syntax.File, filename string, traced, hidden bool) (*code, error) {
	manglePrivate(f.Stmts)
	top, scopes := buildSymtab(f.Stmts)
	c := &compiler{file: filename, lines: strings.Split(string(f.Src), "\n"), scopes: scopes, traced: traced, hidden: hidden, parens: f.Parens, top: top}
	fc := c.newFn(top, "<module>", "")
	fc.code.firstLine = 1
	body, err := fc.stmts(f.Stmts)
	if err != nil {
		return nil, err
	}
	if len(f.Stmts) > 0 {
		body = withSetupAnnotations(body, f.Stmts, stmtLine(f.Stmts[0]))
	}
	fc.code.body = body
	return fc.code, nil
}

func (c *compiler) newFn(sc *scope, name, qual string) *fnCompiler {
	co := &code{name: name, qualname: qual, filename: c.file, traced: c.traced, hidden: c.hidden,
		lines: c.lines, kind: sc.kind, classCell: -1}
	if qual == "" {
		co.qualname = name
	}
	fc := &fnCompiler{c: c, sc: sc, code: co, fast: map[string]int{}, cellIx: map[string]int{}}
	for _, p := range sc.params {
		fc.fastSlot(p)
	}
	// Cells: cellvars sorted, then freevars sorted (CPython's layout).
	cellvars := sortedNames(sc.syms, symCell)
	if sc.kind == scopeClass && sc.classCell {
		cellvars = append(cellvars, "__class__")
	}
	var freevars []string
	for n := range sc.free {
		freevars = append(freevars, n)
	}
	sortStrings(freevars)
	for _, n := range cellvars {
		fc.cellIx[n] = len(co.cellNames)
		co.cellNames = append(co.cellNames, n)
		pi := -1
		if i, ok := fc.fast[n]; ok {
			pi = i
		}
		co.paramCell = append(co.paramCell, pi)
		if pi >= 0 {
			if co.slotCell == nil {
				co.slotCell = make([]int, len(sc.params))
				for j := range co.slotCell {
					co.slotCell[j] = -1
				}
			}
			co.slotCell[pi] = len(co.paramCell) - 1
		}
	}
	if sc.kind == scopeClass && sc.classCell {
		co.classCell = fc.cellIx["__class__"]
	}
	for k, n := range freevars {
		fc.cellIx[n] = len(co.cellNames)
		co.cellNames = append(co.cellNames, n)
		co.paramCell = append(co.paramCell, -2-k)
	}
	co.nfree = len(freevars)
	return fc
}

// fastSlot returns the fast slot of name, numbering it on first use (CPython
// numbers co_varnames in code-generation order).
func (fc *fnCompiler) fastSlot(name string) int {
	if i, ok := fc.fast[name]; ok {
		return i
	}
	i := len(fc.code.varnames)
	fc.fast[name] = i
	fc.code.varnames = append(fc.code.varnames, name)
	return i
}

// refKind says how a name is accessed.
type refKind uint8

const (
	refFast refKind = iota
	refCell
	refGlobal
	refName
	refClassDeref
)

type varRef struct {
	kind refKind
	idx  int
	name string
}

// ref resolves a name in the current compile context.
func (fc *fnCompiler) ref(name string) varRef {
	for i := len(fc.comps) - 1; i >= 0; i-- {
		cs := fc.comps[i]
		switch cs.syms[name] {
		case symLocal:
			return varRef{kind: refFast, idx: fc.fastSlot(compSlotName(fc, cs, name)), name: name}
		case symCell:
			return varRef{kind: refCell, idx: fc.compCell(cs, name), name: name}
		}
		if cs.free[name] {
			// a variable of an enclosing function (analyze's scopeComp
			// case): its cell, also in a class body, whose namespace an
			// inlined comprehension does not see (PEP 709)
			if i, ok := fc.cellIx[name]; ok {
				return varRef{kind: refCell, idx: i, name: name}
			}
		}
	}
	switch fc.sc.kind {
	case scopeFunction:
		switch fc.sc.syms[name] {
		case symLocal:
			return varRef{kind: refFast, idx: fc.fastSlot(name), name: name}
		case symCell, symFree:
			return varRef{kind: refCell, idx: fc.cellIx[name], name: name}
		}
		return varRef{kind: refGlobal, name: name}
	case scopeClass:
		switch fc.sc.syms[name] {
		case symGlobal:
			return varRef{kind: refGlobal, name: name}
		case symFree:
			if i, ok := fc.cellIx[name]; ok {
				return varRef{kind: refClassDeref, idx: i, name: name}
			}
		}
		return varRef{kind: refName, name: name}
	}
	if fc.sc.syms[name] == symGlobal {
		return varRef{kind: refGlobal, name: name}
	}
	return varRef{kind: refName, name: name}
}

// compSlotName names the fast slot of an inlined comprehension variable:
// in a function it shares the function's slot of the same name (saved and
// restored around the comprehension, PEP 709); in module and class bodies
// it is a hidden fast local.
func compSlotName(fc *fnCompiler, cs *scope, name string) string {
	return name
}

// compCell returns the cell index of a comprehension variable captured by
// an inner function.
func (fc *fnCompiler) compCell(cs *scope, name string) int {
	key := "\x00comp:" + name
	if i, ok := fc.cellIx[key]; ok {
		return i
	}
	i := len(fc.code.cellNames)
	fc.cellIx[key] = i
	fc.code.cellNames = append(fc.code.cellNames, name)
	fc.code.paramCell = append(fc.code.paramCell, -1)
	return i
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func line(p syntax.Position) int { return int(p.Line) }

func stmtLine(s syntax.Stmt) int {
	switch s := s.(type) {
	case *syntax.DefStmt:
		if len(s.Decorators) > 0 {
			return line(s.Decorators[0].At)
		}
		return line(s.Def)
	case *syntax.ClassStmt:
		if len(s.Decorators) > 0 {
			return line(s.Decorators[0].At)
		}
		return line(s.Class)
	}
	start, _ := s.Span()
	return line(start)
}

// exprLine is the line of node x's instructions: where CPython's node
// starts, counting the parentheses of an operand it starts with.
func (fc *fnCompiler) exprLine(x syntax.Node) int {
	if e, ok := x.(syntax.Expr); ok {
		return int(fc.c.nodeStart(e).Line)
	}
	return exprLine(x)
}

func exprLine(x syntax.Node) int {
	start, _ := x.Span()
	return line(start)
}
