package syntax

// parseYield parses a yield expression at 'yield': `yield from expression`
// or `yield [star_expressions]`. Outside a function (module level, class
// body, a default or annotation evaluated there) it defers the compiler's
// "'yield' outside function".
func (p *parser) parseYield() *YieldExpr {
	t := p.tok
	p.next()
	y := &YieldExpr{Yield: t.pos, End: t.end}
	if p.tok.tok == FROM {
		y.From = true
		y.End = p.tok.end
		p.next()
		y.Value = p.parseTest()
	} else if canStartExpr(p.tok.tok) || p.tok.tok == STAR {
		y.Value = p.parseStarExprs()
		p.checkNotStarred(y.Value)
	}
	if p.funcDepth == 0 {
		start, end := y.Span()
		p.deferComp(p.newError(KindSyntax, start, end, "'yield' outside function"))
	}
	return y
}

// parseYieldStmt parses a statement that starts with 'yield': a yield
// expression, which cannot be assigned to.
func (p *parser) parseYieldStmt() Stmt {
	y := p.parseYield()
	switch tok := p.tok.tok; {
	case tok == EQ:
		p.errorNode(y, "assignment to yield expression not possible")
	case !p.atStmtEnd():
		p.syntaxError()
	}
	return &ExprStmt{X: y}
}
