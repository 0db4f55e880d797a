package syntax

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Parse parses a whole script. On failure the error is a *Error: the one
// CPython would report first (tokenizer errors found after a generic
// "invalid syntax" replace it, as in CPython).
func Parse(filename string, src []byte) (*File, error) {
	if i := bytes.IndexByte(src, 0); i >= 0 {
		// CPython refuses the whole source; say where the NUL is.
		line := int32(1 + bytes.Count(src[:i], []byte{'\n'}))
		col := int32(utf8.RuneCount(src[bytes.LastIndexByte(src[:i], '\n')+1:i])) + 1
		return nil, &Error{Kind: KindSyntax, Msg: "source code string cannot contain null bytes",
			Filename: filename, Pos: Position{line, col}, Text: lineText(src, line)}
	}
	p := newParser(newScanner(filename, src))
	f := &File{Path: filename, Src: src}
	f.Stmts = p.parseFile()
	f.Parens = p.parens
	if p.err == nil {
		p.symErr = p.checkScopes(f.Stmts)
	}
	if err := p.finish(); err != nil {
		return nil, err
	}
	return f, nil
}

// ParseExpr parses a single expression (a star-expression list, as in an
// expression statement), for tests and tools.
func ParseExpr(filename string, src []byte) (Expr, error) {
	x, _, err := ParseExprParens(filename, src)
	return x, err
}

// ParseExprParens is ParseExpr that also returns the parentheses around
// parenthesized subexpressions (see File.Parens).
func ParseExprParens(filename string, src []byte) (Expr, map[Expr]ParenSpan, error) {
	p := newParser(newScanner(filename, src))
	var x Expr
	if p.err == nil {
		func() {
			defer p.recoverBailout()
			for p.tok.tok == NEWLINE {
				p.next()
			}
			x = p.parseStarExprs()
			for p.tok.tok == NEWLINE {
				p.next()
			}
			if p.tok.tok != EOF {
				p.juxtaposed(x)
			}
		}()
	}
	if err := p.finish(); err != nil {
		return nil, nil, err
	}
	return x, p.parens, nil
}

// bailout is the panic value the parser uses internally to unwind after the
// first error; it never escapes Parse.
type bailout struct{}

// parser is a recursive-descent parser over a scanner with one token of
// lookahead (plus snapshots for the few places Python's grammar needs more).
type parser struct {
	sc    *scanner
	tok   token
	err   *Error
	depth int // expression nesting, bounded by maxNesting

	parenDepth int  // >0 inside brackets: enables the "forgot a comma?" hint
	fstring    bool // parsing an f-string field: messages get "f-string: "

	// Context for checks CPython makes after parsing (symtable, compiler).
	maxLine    int32 // line of the furthest token read
	prevEnd    int   // end offset of the previous token
	exprEnd    int   // end offset of the last expression parsed
	reading    bool  // inside readAhead
	exprIsName bool  // the last expression parsed was a bare name
	furthest   token // the furthest token read (CPython's last token)
	trying     bool  // inside try(): errors are provisional

	parens map[Expr]ParenSpan // File.Parens

	funcDepth int
	loopDepth int
	symErr    *Error // first symtable-stage error
	compErr   *Error // first compiler-stage error
}

func newParser(sc *scanner) *parser {
	p := &parser{sc: sc}
	p.sc.next(&p.tok)
	if p.sc.err != nil {
		p.err = p.sc.err
	}
	return p
}

// finish returns the error to report, or nil.
func (p *parser) finish() error {
	var err *Error
	switch {
	case p.err != nil:
		err = p.err
	case p.symErr != nil:
		err = p.symErr
	case p.compErr != nil:
		err = p.compErr
	default:
		return nil
	}
	if err.Text == "" {
		// Filled in only now: errors raised while trying alternatives are
		// thrown away, and finding a line is linear in the source.
		err.Text = lineText(p.sc.src, err.Pos.Line)
	}
	return err
}

// parseFile parses statements until EOF, recovering the bailout panic.
func (p *parser) parseFile() (stmts []Stmt) {
	if p.err != nil {
		return nil
	}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
		}
	}()
	for p.tok.tok != EOF {
		if p.tok.tok == NEWLINE {
			p.next()
			continue
		}
		stmts = p.parseStmt(stmts)
	}
	return stmts
}

// next advances to the next token; a scanner error stops the parse.
func (p *parser) next() {
	p.prevEnd = p.tok.endOff
	p.sc.next(&p.tok)
	if p.tok.pos.Line > p.maxLine {
		p.maxLine = p.tok.pos.Line
	}
	if p.tok.endOff > p.furthest.endOff {
		p.furthest = p.tok
	}
	if p.sc.err != nil {
		p.fail(p.sc.err)
	}
}

func (p *parser) recoverBailout() {
	if r := recover(); r != nil {
		if _, ok := r.(bailout); !ok {
			panic(r)
		}
	}
}

// fail records err (the first wins) and unwinds the parse. As in CPython,
// an error found by the parser (not the tokenizer) gives way to a
// tokenizer error later in the file.
func (p *parser) fail(err *Error) {
	if p.err == nil {
		if p.fstring && err != p.sc.err && err.Kind == KindSyntax && !strings.HasPrefix(err.Msg, "f-string") {
			err.Msg = "f-string: " + err.Msg
		}
		if err != p.sc.err && !p.fstring && !p.trying && err.Msg != "unexpected indent" && err.Msg != "unexpected unindent" {
			if later := p.laterTokenError(p.maxLine); later != nil {
				err = later
			}
		}
		p.err = err
	}
	panic(bailout{})
}

// newError builds an error at [pos, end).
func (p *parser) newError(kind string, pos, end Position, format string, args ...any) *Error {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	return &Error{Kind: kind, Msg: msg, Filename: p.sc.filename, Pos: pos, End: end} // Text: see finish
}

// errorAt fails with a SyntaxError at [pos, end).
func (p *parser) errorAt(pos, end Position, format string, args ...any) {
	p.fail(p.newError(KindSyntax, pos, end, format, args...))
}

// errorNode fails with a SyntaxError spanning node n.
func (p *parser) errorNode(n Node, format string, args ...any) {
	start, end := n.Span()
	p.errorAt(start, end, format, args...)
}

// syntaxError fails with CPython's generic "invalid syntax" at the current
// token, or with the error CPython would find instead: "unexpected indent"
// at an INDENT, an unclosed bracket at EOF, or a tokenizer error later in
// the file.
func (p *parser) syntaxError() {
	t := p.tok
	switch t.tok {
	case INDENT:
		p.fail(p.newError(KindIndentation, Position{t.pos.Line, t.pos.Col - 1}, Position{}, "unexpected indent"))
	case OUTDENT:
		p.fail(p.newError(KindIndentation, t.pos, Position{}, "unexpected unindent"))
	}
	if p.exprEnd == p.prevEnd && p.exprEnd > 0 {
		p.readAhead(p.exprIsName && t.tok != LPAREN)
	}
	generic := p.newError(KindSyntax, t.pos, t.end, "invalid syntax")
	if t.tok == NEWLINE || t.tok == EOF {
		generic.End = Position{}
	}
	p.fail(generic)
}

// laterTokenError scans the rest of the file, as CPython does after a
// parser error, and returns a tokenizer error that should replace it: an
// error the tokenizer raises, or a bracket opened before errLine (the
// line of the furthest token read) that is never closed.
func (p *parser) laterTokenError(errLine int32) *Error {
	var t token
	for i := 0; ; i++ {
		if p.sc.err != nil {
			break
		}
		p.sc.next(&t)
		if t.tok == EOF {
			return nil
		}
	}
	e := p.sc.err
	switch {
	case e.Kind != KindSyntax:
		return nil // indentation errors do not replace a syntax error
	case strings.HasPrefix(e.Msg, "unexpected character after line continuation") || strings.HasPrefix(e.Msg, "unexpected EOF"):
		return nil
	case strings.HasSuffix(e.Msg, "was never closed"):
		if errLine > e.Pos.Line {
			return e
		}
		return nil
	}
	return e
}

// got reports whether the current token is tok, consuming it if so.
func (p *parser) got(tok Token) bool {
	if p.tok.tok == tok {
		p.next()
		return true
	}
	return false
}

// expect consumes tok or fails with "invalid syntax"; it returns the
// token's position.
func (p *parser) expect(tok Token) Position {
	if p.tok.tok != tok {
		p.syntaxError()
	}
	pos := p.tok.pos
	p.next()
	return pos
}

// snapshot is a saved parser position for bounded backtracking.
type snapshot struct {
	tok        token
	off        int
	line, col  int32
	indents    []int32
	altIndents []int32
	outdents   int
	lineStart  bool
	lineToks   bool
	brackets   []bracket
	parenDepth int
}

func (p *parser) save() snapshot {
	s := p.sc
	return snapshot{
		tok: p.tok, off: s.off, line: s.line, col: s.col,
		indents:    append([]int32(nil), s.indents...),
		altIndents: append([]int32(nil), s.altIndents...),
		outdents:   s.outdents, lineStart: s.lineStart, lineToks: s.lineToks,
		brackets:   append([]bracket(nil), s.brackets...),
		parenDepth: p.parenDepth,
	}
}

func (p *parser) restore(snap snapshot) {
	s := p.sc
	p.tok = snap.tok
	s.off, s.line, s.col = snap.off, snap.line, snap.col
	s.indents, s.altIndents = snap.indents, snap.altIndents
	s.outdents, s.lineStart, s.lineToks = snap.outdents, snap.lineStart, snap.lineToks
	s.brackets = snap.brackets
	s.err = nil
	p.err = nil
	p.parenDepth = snap.parenDepth
}

// try runs f from the current position; if f fails, it restores the
// position and reports false.
func (p *parser) try(f func()) (ok bool) {
	snap := p.save()
	saveSym, saveComp, saveTrying := p.symErr, p.compErr, p.trying
	p.trying = true
	defer func() {
		p.trying = saveTrying
		if r := recover(); r != nil {
			if _, isBail := r.(bailout); !isBail {
				panic(r)
			}
			p.restore(snap)
			p.symErr, p.compErr = saveSym, saveComp
			ok = false
		}
	}()
	f()
	return true
}

// tryPropagating is try for CPython's error-hunting second pass: a
// failure with a specific message (not plain "invalid syntax") is what
// CPython would report, so it is raised; a generic failure just restores.
func (p *parser) tryPropagating(f func()) bool {
	var failed *Error
	ok := p.try(func() {
		defer func() {
			if r := recover(); r != nil {
				failed = p.err
				panic(r)
			}
		}()
		f()
	})
	if !ok && failed != nil && failed.Msg != "invalid syntax" {
		p.fail(failed)
	}
	return ok
}

// enter bounds the parser's recursion depth.
func (p *parser) enter() {
	p.depth++
	if p.depth > maxNesting {
		p.errorAt(p.tok.pos, Position{}, "too many nested expressions (the playground allows %d)", maxNesting)
	}
}

func (p *parser) leave() { p.depth-- }

// deferSym and deferComp record errors CPython raises after parsing.
func (p *parser) deferSym(e *Error) {
	if p.symErr == nil {
		p.symErr = e
	}
}

func (p *parser) deferComp(e *Error) {
	if p.compErr == nil {
		p.compErr = e
	}
}

// unsupported fails with the playground's message for syntax it does not run.
func (p *parser) unsupported(pos, end Position, what string) {
	p.errorAt(pos, end, "%s is not supported in the playground", what)
}
