package syntax

// Assignment and expression statements.

// parseExprStmt parses an expression statement or any assignment form.
func (p *parser) parseExprStmt() Stmt {
	first := p.tok
	x := p.parseStarExprs()
	switch tok := p.tok.tok; {
	case tok == EQ:
		return p.parseAssign(x)
	case tok.AugOp() != ILLEGAL:
		s := &AugAssignStmt{Target: x, OpPos: p.tok.pos, Op: tok}
		switch x.(type) {
		case *Ident, *DotExpr, *IndexExpr:
		default:
			p.errorNode(x, "'%s' is an illegal expression for augmented assignment", exprName(x))
		}
		p.next()
		if p.tok.tok == YIELD {
			s.Value = p.parseYield()
			return s
		}
		s.Value = p.parseStarExprs()
		p.checkNotStarred(s.Value)
		return s
	case tok == COLON:
		return p.parseAnnAssign(x, first)
	}
	if !p.atStmtEnd() {
		p.juxtaposed(x)
	}
	p.checkNotStarred(x)
	return &ExprStmt{X: x}
}

// parseAssign parses the rest of `targets = ... = value` after the first
// target x, at the first '='.
func (p *parser) parseAssign(x Expr) Stmt {
	s := &AssignStmt{EqPos: p.tok.pos}
	targets := []Expr{x}
	var secondStart Token // first token of the segment after the first '='
	for p.tok.tok == EQ {
		p.next()
		if p.tok.tok == YIELD {
			y := p.parseYield()
			if p.tok.tok == EQ {
				p.errorNode(y, "assignment to yield expression not possible")
			}
			targets = append(targets, y)
			break
		}
		if p.atStmtEnd() {
			for _, t := range targets {
				p.checkTarget(t, assignTarget)
			}
			p.syntaxError()
		}
		if len(targets) == 1 {
			secondStart = p.tok.tok
		}
		targets = append(targets, p.parseStarExprs())
	}
	if p.tok.tok.AugOp() != ILLEGAL || p.tok.tok == COLON {
		p.syntaxError()
	}
	for _, t := range targets[:len(targets)-1] {
		if invalidTarget(t, assignTarget) != nil {
			p.misplacedAssign(targets[0], targets[1], secondStart, len(targets) > 2)
			break
		}
	}
	for _, t := range targets[:len(targets)-1] {
		p.checkTarget(t, assignTarget)
	}
	s.Targets = targets[:len(targets)-1]
	s.Value = targets[len(targets)-1]
	p.checkNotStarred(s.Value)
	return s
}

// misplacedAssign reproduces CPython's hints for an assignment statement
// with an invalid target: the element just before the first '=' is taken
// as a comparison written with '=' when what follows is a plain operand.
// next is the segment after the first '=', nextStart its first token, and
// nextEq reports whether another '=' follows it.
func (p *parser) misplacedAssign(first, next Expr, nextStart Token, nextEq bool) {
	last := first
	if t, ok := first.(*TupleExpr); ok && !t.Lparen.IsValid() && len(t.Elts) > 0 {
		last = t.Elts[len(t.Elts)-1]
	}
	switch nextStart {
	case NOT, LAMBDA, STAR, YIELD, AWAIT:
		return
	}
	lead := leadingOperand(next)
	if lead == next && nextEq {
		return
	}
	if id, ok := last.(*Ident); ok {
		p.errorAt(id.NamePos, exprEnd(lead), "invalid syntax. Maybe you meant '==' or ':=' instead of '='?")
	}
	if isBitwiseOr(last) && !hereExcluded(last) {
		p.errorNode(last, "cannot assign to %s here. Maybe you meant '==' instead of '='?", exprName(last))
	}
}

// leadingOperand returns the first bitwise-or-level operand of x.
func leadingOperand(x Expr) Expr {
	for {
		switch e := x.(type) {
		case *TupleExpr:
			if e.Lparen.IsValid() || len(e.Elts) == 0 {
				return x
			}
			x = e.Elts[0]
		case *CompareExpr:
			x = e.X
		case *CondExpr:
			x = e.Then
		case *BinaryExpr:
			if e.Op != AND && e.Op != OR {
				return x
			}
			x = e.X
		default:
			return x
		}
	}
}

func (p *parser) parseAnnAssign(x Expr, first token) Stmt {
	s := &AnnAssignStmt{Target: x, Colon: p.tok.pos}
	colon := p.tok
	p.next()
	if !canStartExpr(p.tok.tok) {
		switch x.(type) {
		case *Ident, *DotExpr, *IndexExpr:
			// CPython's first pass read past the ':' for a single target.
		default:
			p.tok = colon
		}
		p.syntaxError()
	}
	s.Annotation = p.parseTest()
	switch x := x.(type) {
	case *Ident:
		s.Simple = first.tok == IDENT
	case *DotExpr, *IndexExpr:
	case *TupleExpr:
		p.errorNode(x, "only single target (not tuple) can be annotated")
	case *ListExpr:
		p.errorNode(x, "only single target (not list) can be annotated")
	default:
		p.errorNode(x, "illegal target for annotation")
	}
	if p.got(EQ) {
		if p.tok.tok == YIELD {
			s.Value = p.parseYield()
			return s
		}
		s.Value = p.parseStarExprs()
	}
	return s
}

// checkNotStarred defers CPython's compile error for a bare starred value.
func (p *parser) checkNotStarred(x Expr) {
	if st, ok := x.(*StarredExpr); ok {
		p.deferComp(p.newError(KindSyntax, st.Star, exprEnd(st), "can't use starred expression here"))
	}
}
