package py

import "github.com/gpumem/playground/sim/py/syntax"

// Source positions of failing instructions, for the position markers
// (~~~^^^) of tracebacks.
//
// CPython 3.12 gives every instruction the range of the AST node that
// emitted it; a traceback entry shows the range of the frame's last
// instruction. Here every compiled expression that can raise is wrapped
// (fnCompiler.expr) so that, when an error leaves it and no inner node has
// claimed it yet, its range is noted on the frame (frame.notePos); simple
// statements note their own range last (raise, assert, import, augmented
// assignment), and the traceback entry takes the noted range
// (addTraceback). The happy path costs one closure call per node.

// srcPos is a source range: 1-based lines, 0-based code point columns,
// endCol exclusive. The zero srcPos means unknown (no markers).
type srcPos struct {
	line, endLine int32
	col, endCol   int32
}

// notePos records p (immutable, compiled) as the range of the instruction
// that raised the error now leaving a node, unless a node nearer the raise
// recorded one already.
func (fr *frame) notePos(p *srcPos) {
	if fr.errPos == nil {
		if p == nil {
			p = &unknownPos
		}
		fr.errPos = p
		if tb := fr.errTB; tb != nil {
			tb.pos = *p
			fr.errTB = nil
		}
	}
}

// unknownPos is a recorded but unknown range (no markers).
var unknownPos srcPos

// takePos returns the recorded range of the error being added to the
// traceback and forgets it.
func (fr *frame) takePos() srcPos {
	p := fr.errPos
	fr.errPos, fr.errTB = nil, nil
	if p == nil {
		return srcPos{}
	}
	return *p
}

// withPos returns f noting p when an error leaves it.
func withPos(p *srcPos, f exprFn) exprFn {
	return func(fr *frame) (Value, error) {
		v, err := f(fr)
		if err != nil {
			fr.notePos(p)
		}
		return v, err
	}
}

// at returns CPython's range of the instruction of node x (posOf), to be
// captured by compiled code.
func (c *compiler) at(x syntax.Node) *srcPos {
	p := c.posOf(x)
	return &p
}

// posOf returns CPython's range of the instruction of node x (an attribute
// and a method call start at the attribute's name when it is on a later
// line).
func (c *compiler) posOf(x syntax.Node) srcPos {
	switch x := x.(type) {
	case *syntax.DotExpr:
		return c.attrPos(x, nil)
	case *syntax.CallExpr:
		if dot := c.methodCall(x); dot != nil {
			return c.attrPos(dot, x)
		}
	}
	return c.span(x)
}

// span returns CPython's range of node x.
func (c *compiler) span(x syntax.Node) srcPos {
	var start, end syntax.Position
	switch x := x.(type) {
	case syntax.Expr:
		start, end = c.nodeStart(x), c.nodeEnd(x)
	case *syntax.ExprStmt:
		start, end = c.outerStart(x.X), c.outerEnd(x.X)
	case *syntax.AssignStmt:
		start, end = c.outerStart(x.Targets[0]), c.outerEnd(x.Value)
	case *syntax.AugAssignStmt:
		start, end = c.outerStart(x.Target), c.outerEnd(x.Value)
	default:
		start, end = x.Span()
	}
	return srcPos{line: start.Line, endLine: end.Line, col: start.Col - 1, endCol: end.Col - 1}
}

// fieldPos is the range of an f-string replacement field, '{' to '}'
// (CPython's FormattedValue node).
func (c *compiler) fieldPos(p *syntax.FStringPart) *srcPos {
	return &srcPos{line: p.Pos.Line, endLine: p.End.Line, col: p.Pos.Col - 1, endCol: p.End.Col - 1}
}

// attrPos is the range of an attribute operation on x, or of a method call
// on it (call != nil): CPython 3.12's update_start_location_to_match_attr
// starts it at the attribute's name when the name is on a later line than
// the node's start.
func (c *compiler) attrPos(x *syntax.DotExpr, call syntax.Expr) srcPos {
	var p srcPos
	if call != nil {
		p = c.span(call)
	} else {
		p = c.span(x)
	}
	name := x.Name.NamePos
	if p.line != name.Line {
		p.line = name.Line
		p.col = name.Col - 1
		if p.endLine < p.line {
			p.endLine = p.line
		}
		if p.line == p.endLine && p.endCol < p.col {
			p.endCol = p.col
		}
	}
	return p
}

// outerStart is where x starts, counting parentheses around it.
func (c *compiler) outerStart(x syntax.Expr) syntax.Position {
	if p, ok := c.parens[x]; ok {
		return p.Lparen
	}
	return c.nodeStart(x)
}

// outerEnd is where x ends, counting parentheses around it.
func (c *compiler) outerEnd(x syntax.Expr) syntax.Position {
	if p, ok := c.parens[x]; ok {
		return p.End
	}
	return c.nodeEnd(x)
}

// nodeStart is CPython's start of x: a node whose first token is its first
// operand's starts where that operand does, parentheses included.
func (c *compiler) nodeStart(x syntax.Expr) syntax.Position {
	switch x := x.(type) {
	case *syntax.BinaryExpr:
		return c.outerStart(x.X)
	case *syntax.CompareExpr:
		return c.outerStart(x.X)
	case *syntax.CallExpr:
		return c.outerStart(x.Fn)
	case *syntax.DotExpr:
		return c.outerStart(x.X)
	case *syntax.IndexExpr:
		return c.outerStart(x.X)
	case *syntax.CondExpr:
		return c.outerStart(x.Then)
	case *syntax.TupleExpr:
		if !x.Lparen.IsValid() && len(x.Elts) > 0 {
			return c.outerStart(x.Elts[0])
		}
	case *syntax.SliceExpr:
		if x.Lo != nil {
			return c.outerStart(x.Lo)
		}
	}
	start, _ := x.Span()
	return start
}

// nodeEnd is CPython's end of x: a node whose last token is its last
// operand's ends where that operand does, parentheses included.
func (c *compiler) nodeEnd(x syntax.Expr) syntax.Position {
	switch x := x.(type) {
	case *syntax.BinaryExpr:
		return c.outerEnd(x.Y)
	case *syntax.CompareExpr:
		return c.outerEnd(x.Ops[len(x.Ops)-1].Y)
	case *syntax.CondExpr:
		return c.outerEnd(x.Else)
	case *syntax.UnaryExpr:
		return c.outerEnd(x.X)
	case *syntax.LambdaExpr:
		return c.outerEnd(x.Body)
	case *syntax.StarredExpr:
		return c.outerEnd(x.X)
	case *syntax.NamedExpr:
		return c.outerEnd(x.Value)
	case *syntax.TupleExpr:
		if !x.Lparen.IsValid() && len(x.Elts) > 0 {
			return c.outerEnd(x.Elts[len(x.Elts)-1])
		}
	}
	_, end := x.Span()
	return end
}

// raises reports whether the instruction of node x itself can raise (so
// that it gets a range): literals and lambdas cannot.
func raises(x syntax.Expr) bool {
	switch x.(type) {
	case *syntax.Literal, *syntax.LambdaExpr:
		return false
	}
	return true
}
