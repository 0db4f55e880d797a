package syntax

// Expression parsing, from star-expression lists down to atoms.

// Binary operator precedence levels, lowest first.
const (
	precBitOr = 1 + iota // |
	precXor              // ^
	precAnd              // &
	precShift            // << >>
	precArith            // + -
	precTerm             // * / // % @
)

func binPrec(t Token) int {
	switch t {
	case PIPE:
		return precBitOr
	case CIRCUMFLEX:
		return precXor
	case AMP:
		return precAnd
	case LTLT, GTGT:
		return precShift
	case PLUS, MINUS:
		return precArith
	case STAR, SLASH, SLASHSLASH, PERCENT, AT:
		return precTerm
	}
	return 0
}

// canStartExpr reports whether tok can begin an expression.
func canStartExpr(tok Token) bool {
	switch tok {
	case IDENT, INT, FLOAT, IMAG, STRING, BYTES, FSTRING, NONE, TRUE, FALSE, ELLIPSIS,
		LPAREN, LBRACK, LBRACE, MINUS, PLUS, TILDE, NOT, LAMBDA, AWAIT:
		return true
	}
	return false
}

// parseStarExprs parses `star_expression (',' star_expression)* [',']`,
// giving a *TupleExpr without parentheses when there is a comma.
func (p *parser) parseStarExprs() Expr {
	x := p.parseStarExpr()
	if p.tok.tok != COMMA {
		return x
	}
	elts := []Expr{x}
	for p.tok.tok == COMMA {
		p.next()
		if !canStartExpr(p.tok.tok) && p.tok.tok != STAR {
			break
		}
		elts = append(elts, p.parseStarExpr())
	}
	return &TupleExpr{Elts: elts}
}

// parseStarExpr parses `'*' bitwise_or | expression`.
func (p *parser) parseStarExpr() Expr {
	if p.tok.tok == STAR {
		star := p.tok.pos
		p.next()
		return &StarredExpr{Star: star, X: p.parseBinary(precBitOr)}
	}
	return p.parseTest()
}

// parseStarNamed parses `'*' bitwise_or | named_expression` (display elements).
func (p *parser) parseStarNamed() Expr {
	if p.tok.tok == STAR {
		star := p.tok.pos
		p.next()
		return &StarredExpr{Star: star, X: p.parseBinary(precBitOr)}
	}
	return p.parseNamedExpr()
}

// parseNamedExpr parses `NAME ':=' expression | expression`, reporting
// CPython's hints for a '=' written where '==' or ':=' was meant.
func (p *parser) parseNamedExpr() Expr {
	x := p.parseTest()
	switch p.tok.tok {
	case WALRUS:
		id, ok := x.(*Ident)
		if !ok {
			p.errorNode(x, "cannot use assignment expressions with %s", exprName(x))
		}
		op := p.tok.pos
		p.next()
		return &NamedExpr{Target: id, OpPos: op, Value: p.parseTest()}
	case EQ:
		p.misplacedEq(x)
	}
	return x
}

// parseTest parses an expression: a conditional expression or a lambda.
func (p *parser) parseTest() (x Expr) {
	p.enter()
	defer p.leave()
	defer func() {
		p.exprEnd = p.prevEnd
		_, p.exprIsName = x.(*Ident)
	}()
	if p.tok.tok == LAMBDA {
		return p.parseLambda()
	}
	x = p.parseOr()
	if p.tok.tok != IF {
		return x
	}
	ifPos := p.tok.pos
	p.next()
	cond := p.parseOr()
	if p.tok.tok != ELSE {
		if p.tok.tok != COLON {
			p.errorAt(exprStart(x), exprEnd(cond), "expected 'else' after 'if' expression")
		}
		p.syntaxError()
	}
	elsePos := p.tok.pos
	p.next()
	return &CondExpr{Then: x, If: ifPos, Cond: cond, ElsePos: elsePos, Else: p.parseTest()}
}

func (p *parser) parseLambda() Expr {
	l := &LambdaExpr{Lambda: p.tok.pos}
	p.next()
	l.Params = p.parseParams(COLON, false)
	p.expect(COLON)
	saveFunc, saveLoop := p.funcDepth, p.loopDepth
	p.funcDepth, p.loopDepth = saveFunc+1, 0
	l.Body = p.parseTest()
	p.funcDepth, p.loopDepth = saveFunc, saveLoop
	return l
}

func (p *parser) parseOr() Expr {
	x := p.parseAndExpr()
	for p.tok.tok == OR {
		op := p.tok.pos
		p.next()
		x = &BinaryExpr{X: x, OpPos: op, Op: OR, Y: p.parseAndExpr()}
	}
	return x
}

func (p *parser) parseAndExpr() Expr {
	x := p.parseNot()
	for p.tok.tok == AND {
		op := p.tok.pos
		p.next()
		x = &BinaryExpr{X: x, OpPos: op, Op: AND, Y: p.parseNot()}
	}
	return x
}

func (p *parser) parseNot() Expr {
	if p.tok.tok == NOT {
		p.enter()
		defer p.leave()
		op := p.tok.pos
		p.next()
		return &UnaryExpr{OpPos: op, Op: NOT, X: p.parseNot()}
	}
	return p.parseComparison()
}

func (p *parser) parseComparison() Expr {
	x := p.parseBinary(precBitOr)
	var ops []Comparison
	for {
		c := Comparison{OpPos: p.tok.pos, Op: p.tok.tok}
		switch p.tok.tok {
		case LT, GT, LE, GE, EQL, NEQ, IN:
			p.next()
		case IS:
			p.next()
			if p.got(NOT) {
				c.Op = IS_NOT
			}
		case NOT:
			p.next()
			if p.tok.tok != IN {
				p.syntaxError()
			}
			p.next()
			c.Op = NOT_IN
		default:
			if ops == nil {
				return x
			}
			return &CompareExpr{X: x, Ops: ops}
		}
		c.Y = p.parseBinary(precBitOr)
		ops = append(ops, c)
	}
}

// parseBinary parses binary operators of precedence >= minPrec by
// precedence climbing (all left-associative).
func (p *parser) parseBinary(minPrec int) Expr {
	x := p.parseFactor()
	for {
		prec := binPrec(p.tok.tok)
		if prec == 0 || prec < minPrec {
			p.exprEnd = p.prevEnd
			_, p.exprIsName = x.(*Ident)
			return x
		}
		op := p.tok
		p.next()
		y := p.parseBinary(prec + 1)
		x = &BinaryExpr{X: x, OpPos: op.pos, Op: op.tok, Y: y}
	}
}

// parseFactor parses unary + - ~ and then a power.
func (p *parser) parseFactor() Expr {
	switch p.tok.tok {
	case PLUS, MINUS, TILDE:
		p.enter()
		defer p.leave()
		op := p.tok
		p.next()
		return &UnaryExpr{OpPos: op.pos, Op: op.tok, X: p.parseFactor()}
	}
	x := p.parsePrimary()
	if p.tok.tok == STARSTAR {
		p.enter()
		defer p.leave()
		op := p.tok.pos
		p.next()
		return &BinaryExpr{X: x, OpPos: op, Op: STARSTAR, Y: p.parseFactor()}
	}
	return x
}

// parsePrimary parses an atom followed by attribute, call and subscript
// trailers.
func (p *parser) parsePrimary() Expr {
	if p.tok.tok == AWAIT {
		p.unsupported(p.tok.pos, p.tok.end, "'await'")
	}
	x := p.parseAtom()
	for {
		switch p.tok.tok {
		case DOT:
			dot := p.tok.pos
			p.next()
			x = &DotExpr{X: x, Dot: dot, Name: p.parseIdent()}
		case LPAREN:
			call := &CallExpr{Fn: x, Lparen: p.tok.pos}
			p.next()
			call.Args, call.Rparen = p.parseArgs(call.Lparen)
			x = call
		case LBRACK:
			ix := &IndexExpr{X: x, Lbrack: p.tok.pos}
			p.next()
			p.parenDepth++
			ix.Index = p.parseSubscript()
			p.parenDepth--
			ix.Rbrack = p.expect(RBRACK)
			x = ix
		default:
			return x
		}
	}
}
