package syntax

// Call arguments.

// parseArgs parses call arguments after '(' through ')'.
func (p *parser) parseArgs(lparen Position) ([]Expr, Position) {
	p.enter()
	defer p.leave()
	p.parenDepth++
	var args []Expr
	var sawKw, sawKwUnpack bool
	var keywords map[string]bool
	for p.tok.tok != RPAREN {
		t := p.tok
		var arg Expr
		switch t.tok {
		case STAR:
			p.next()
			arg = &StarredExpr{Star: t.pos, X: p.parseTest()}
			if p.tok.tok == FOR {
				p.errorNode(arg, "iterable unpacking cannot be used in comprehension")
			}
			if sawKwUnpack {
				p.errorAt(t.pos, t.end, "iterable argument unpacking follows keyword argument unpacking")
			}
		case STARSTAR:
			p.next()
			arg = &DoubleStarredExpr{StarStar: t.pos, X: p.parseTest()}
			sawKwUnpack = true
		default:
			if sawKw || sawKwUnpack {
				p.positionalAfterKeyword(sawKwUnpack)
			}
			x := p.parseTest()
			switch p.tok.tok {
			case WALRUS:
				id, ok := x.(*Ident)
				if !ok {
					p.errorNode(x, "cannot use assignment expressions with %s", exprName(x))
				}
				op := p.tok.pos
				p.next()
				x = &NamedExpr{Target: id, OpPos: op, Value: p.parseTest()}
			case EQ:
				id, ok := x.(*Ident)
				if !ok || t.tok != IDENT {
					eq := p.tok
					if lit, isLit := x.(*Literal); isLit && (lit.Token == TRUE || lit.Token == FALSE || lit.Token == NONE) {
						p.errorAt(lit.ValuePos, eq.end, "cannot assign to %s", lit.Token)
					}
					p.errorAt(exprStart(x), eq.end, "expression cannot contain assignment, perhaps you meant \"==\"?")
				}
				p.next()
				kw := &KeywordArg{Name: id, Value: p.parseTest()}
				if keywords == nil {
					keywords = map[string]bool{}
				}
				if keywords[id.Name] {
					start, end := kw.Span()
					p.deferComp(p.newError(KindSyntax, start, end, "keyword argument repeated: %s", id.Name))
				}
				keywords[id.Name] = true
				sawKw = true
				arg = kw
			}
			if arg != nil {
				break
			}
			if p.tok.tok == FOR || p.tok.tok == ASYNC {
				comp := p.parseComprehension(GenExp, lparen, x)
				if len(args) > 0 || p.tok.tok != RPAREN {
					p.errorAt(exprStart(x), exprEnd(lastClauseExpr(comp)), "Generator expression must be parenthesized")
				}
				arg = comp
				break
			}
			arg = x
		}
		args = append(args, arg)
		if p.tok.tok != COMMA {
			if p.tok.tok != RPAREN {
				p.juxtaposed(arg)
			}
			break
		}
		p.next()
	}
	p.parenDepth--
	rparen := p.tok.pos
	p.expect(RPAREN)
	if len(args) == 1 {
		if comp, ok := args[0].(*Comprehension); ok && comp.Kind == GenExp && comp.Lparen == lparen {
			comp.Rparen = rparen // a sole generator argument shares the call's parentheses
		}
	}
	return args, rparen
}

// positionalAfterKeyword fails if the argument at the current token is
// positional (it follows keyword arguments). As CPython does, it reports
// at the furthest token read while trying to parse that argument.
func (p *parser) positionalAfterKeyword(afterUnpack bool) {
	if !canStartExpr(p.tok.tok) {
		return
	}
	snap := p.save()
	keyword := false
	if p.tok.tok == IDENT {
		p.next()
		keyword = p.tok.tok == EQ
		p.restore(snap)
	}
	if keyword {
		return
	}
	juxta := false
	p.tryPropagating(func() {
		x := p.parseTest()
		keyword = p.tok.tok == EQ
		juxta = canStartExpr(p.tok.tok) && isDisjunction(x)
		if id, ok := x.(*Ident); ok && (isSoftKeyword(id.Name) || p.tok.tok == STRING || p.tok.tok == BYTES || p.tok.tok == FSTRING) {
			juxta = false
		}
		if keyword || juxta {
			return
		}
		// CPython reads the remaining arguments before reporting.
		for p.tok.tok == COMMA {
			p.next()
			switch p.tok.tok {
			case STAR, STARSTAR:
				p.next()
			}
			if !canStartExpr(p.tok.tok) {
				break
			}
			p.parseTest()
			if p.tok.tok == EQ {
				p.next()
				p.parseTest()
			}
		}
	})
	p.restore(snap)
	if keyword || juxta {
		return // reported as an assignment in an argument, or a missing comma
	}
	msg := "positional argument follows keyword argument"
	if afterUnpack {
		msg += " unpacking"
	}
	p.errorAt(p.furthest.pos, p.furthest.end, "%s", msg)
}

// lastClauseExpr returns the last expression of a comprehension's clauses.
func lastClauseExpr(c *Comprehension) Expr {
	switch cl := c.Clauses[len(c.Clauses)-1].(type) {
	case *ForClause:
		return cl.X
	case *IfClause:
		return cl.Cond
	}
	return nil
}
