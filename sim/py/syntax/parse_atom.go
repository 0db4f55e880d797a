package syntax

// Atoms: names, literals, displays, comprehensions and subscripts.

// parseSubscript parses the inside of x[...]: slices and expressions,
// a tuple of them if there is a comma.
func (p *parser) parseSubscript() Expr {
	x := p.parseSliceItem()
	if p.tok.tok != COMMA {
		if p.tok.tok != RBRACK {
			p.juxtaposed(x)
		}
		return x
	}
	elts := []Expr{x}
	for p.tok.tok == COMMA {
		p.next()
		if p.tok.tok == RBRACK {
			break
		}
		elts = append(elts, p.parseSliceItem())
	}
	if p.tok.tok != RBRACK {
		p.juxtaposed(elts[len(elts)-1])
	}
	return &TupleExpr{Elts: elts}
}

func (p *parser) parseSliceItem() Expr {
	var lo Expr
	switch p.tok.tok {
	case COLON:
	case STAR:
		return p.parseStarNamed()
	default:
		lo = p.parseNamedExpr()
		if p.tok.tok != COLON {
			return lo
		}
	}
	s := &SliceExpr{Lo: lo, Colon: p.tok.pos}
	s.End = p.tok.end
	p.next()
	if p.tok.tok != COLON && p.tok.tok != COMMA && p.tok.tok != RBRACK {
		s.Hi = p.parseTest()
		s.End = exprEnd(s.Hi)
	}
	if p.tok.tok == COLON {
		s.End = p.tok.end
		p.next()
		if p.tok.tok != COMMA && p.tok.tok != RBRACK {
			s.Step = p.parseTest()
			s.End = exprEnd(s.Step)
		}
	}
	return s
}

// parseAtom parses names, literals and bracketed displays.
func (p *parser) parseAtom() Expr {
	t := p.tok
	switch t.tok {
	case IDENT:
		p.next()
		return &Ident{NamePos: t.pos, Name: t.name}
	case INT, FLOAT, IMAG:
		p.next()
		return &Literal{Token: t.tok, ValuePos: t.pos, EndPos: t.end, Raw: string(p.sc.src[t.off:t.endOff]),
			Int: t.ival, BigInt: t.bigval, Float: t.fval}
	case NONE, TRUE, FALSE, ELLIPSIS:
		p.next()
		return &Literal{Token: t.tok, ValuePos: t.pos, EndPos: t.end, Raw: t.tok.String()}
	case STRING, BYTES, FSTRING:
		return p.parseStrings()
	case LPAREN:
		return p.parseParen()
	case LBRACK:
		return p.parseList()
	case LBRACE:
		return p.parseBrace()
	case AWAIT:
		p.unsupported(t.pos, t.end, "'await'")
	}
	p.syntaxError()
	return nil
}

// parseParen parses '(' ... ')': a parenthesized expression, a tuple, or a
// generator expression.
func (p *parser) parseParen() Expr {
	p.enter()
	defer p.leave()
	lparen := p.tok.pos
	p.next()
	p.parenDepth++
	defer func() { p.parenDepth-- }()
	if p.tok.tok == RPAREN {
		rparen := p.tok.pos
		p.next()
		return &TupleExpr{Lparen: lparen, Rparen: rparen}
	}
	if p.tok.tok == YIELD {
		y := p.parseYield()
		if p.tok.tok != RPAREN {
			p.syntaxError()
		}
		if p.parens == nil {
			p.parens = map[Expr]ParenSpan{}
		}
		p.parens[y] = ParenSpan{lparen, after(p.tok.pos)}
		p.next()
		return y
	}
	x := p.parseStarNamed()
	if p.tok.tok == FOR || p.tok.tok == ASYNC {
		c := p.parseComprehension(GenExp, lparen, x)
		c.Rparen = p.expect(RPAREN)
		return c
	}
	if p.tok.tok == RPAREN {
		if p.parens == nil {
			p.parens = map[Expr]ParenSpan{}
		}
		p.parens[x] = ParenSpan{lparen, after(p.tok.pos)} // outer parentheses overwrite inner ones
		p.next()
		if st, ok := x.(*StarredExpr); ok {
			p.errorNode(st, "cannot use starred expression here")
		}
		return x
	}
	elts := []Expr{x}
	for p.tok.tok == COMMA {
		p.next()
		if p.tok.tok == RPAREN {
			break
		}
		elts = append(elts, p.parseStarNamed())
	}
	if p.tok.tok != RPAREN {
		p.juxtaposed(elts[len(elts)-1])
	}
	rparen := p.tok.pos
	p.next()
	return &TupleExpr{Lparen: lparen, Elts: elts, Rparen: rparen}
}

func (p *parser) parseList() Expr {
	p.enter()
	defer p.leave()
	lbrack := p.tok.pos
	p.next()
	p.parenDepth++
	defer func() { p.parenDepth-- }()
	l := &ListExpr{Lbrack: lbrack}
	if p.tok.tok == RBRACK {
		l.Rbrack = p.tok.pos
		p.next()
		return l
	}
	x := p.parseStarNamed()
	if p.tok.tok == FOR || p.tok.tok == ASYNC {
		c := p.parseComprehension(ListComp, lbrack, x)
		c.Rparen = p.expect(RBRACK)
		return c
	}
	l.Elts = p.parseElts(x, RBRACK)
	l.Rbrack = p.expect(RBRACK)
	return l
}

// parseElts parses the rest of a display's comma-separated elements after
// the first, x, up to the closing token.
func (p *parser) parseElts(x Expr, closing Token) []Expr {
	elts := []Expr{x}
	for p.tok.tok == COMMA {
		p.next()
		if p.tok.tok == closing {
			break
		}
		elts = append(elts, p.parseStarNamed())
	}
	if p.tok.tok != closing {
		p.juxtaposed(elts[len(elts)-1])
	}
	return elts
}

// parseBrace parses a dict or set display or comprehension.
func (p *parser) parseBrace() Expr {
	p.enter()
	defer p.leave()
	lbrace := p.tok.pos
	p.next()
	p.parenDepth++
	defer func() { p.parenDepth-- }()
	if p.tok.tok == RBRACE {
		rbrace := p.tok.pos
		p.next()
		return &DictExpr{Lbrace: lbrace, Rbrace: rbrace}
	}
	if p.tok.tok == STARSTAR {
		star := p.tok
		p.next()
		first := &DictEntry{Colon: star.pos, Value: p.parseBinary(precBitOr)}
		if p.tok.tok == FOR || p.tok.tok == ASYNC {
			p.errorAt(star.pos, exprEnd(first.Value), "dict unpacking cannot be used in dict comprehension")
		}
		return p.parseDictRest(lbrace, first)
	}
	x := p.parseStarNamed()
	if p.tok.tok == COLON {
		colon := p.tok.pos
		p.dictValueExpected()
		e := &DictEntry{Key: x, Colon: colon, Value: p.parseTest()}
		if p.tok.tok == FOR || p.tok.tok == ASYNC {
			c := p.parseComprehension(DictComp, lbrace, e)
			c.Rparen = p.expect(RBRACE)
			return c
		}
		return p.parseDictRest(lbrace, e)
	}
	if p.tok.tok == FOR || p.tok.tok == ASYNC {
		c := p.parseComprehension(SetComp, lbrace, x)
		c.Rparen = p.expect(RBRACE)
		return c
	}
	s := &SetExpr{Lbrace: lbrace, Elts: p.parseElts(x, RBRACE)}
	s.Rbrace = p.expect(RBRACE)
	return s
}

// dictValueExpected consumes a dict entry's ':' and reports CPython's
// message when no value follows it.
func (p *parser) dictValueExpected() {
	colon := p.tok
	p.next()
	if p.tok.tok == RBRACE || p.tok.tok == COMMA {
		p.errorAt(colon.pos, colon.end, "expression expected after dictionary key and ':'")
	}
}

// parseDictRest parses dict entries after the first (if any) through '}'.
func (p *parser) parseDictRest(lbrace Position, first *DictEntry) Expr {
	d := &DictExpr{Lbrace: lbrace}
	if first != nil {
		d.Entries = append(d.Entries, first)
		if p.tok.tok != COMMA && p.tok.tok != RBRACE {
			p.juxtaposed(first.Value)
		}
		if !p.got(COMMA) {
			d.Rbrace = p.expect(RBRACE)
			return d
		}
	}
	for p.tok.tok != RBRACE {
		if p.tok.tok == STARSTAR {
			pos := p.tok.pos
			p.next()
			d.Entries = append(d.Entries, &DictEntry{Colon: pos, Value: p.parseBinary(precBitOr)})
		} else {
			k := p.parseTest()
			if p.tok.tok != COLON {
				if p.tok.tok == COMMA || p.tok.tok == RBRACE {
					p.errorAt(exprStart(k), Position{}, "':' expected after dictionary key")
				}
				p.syntaxError()
			}
			colon := p.tok.pos
			p.dictValueExpected()
			d.Entries = append(d.Entries, &DictEntry{Key: k, Colon: colon, Value: p.parseTest()})
		}
		if p.tok.tok != COMMA {
			if p.tok.tok != RBRACE {
				p.juxtaposed(d.Entries[len(d.Entries)-1].Value)
			}
			break
		}
		p.next()
	}
	d.Rbrace = p.expect(RBRACE)
	return d
}

// parseComprehension parses the for/if clauses after the element body.
func (p *parser) parseComprehension(kind ComprehensionKind, open Position, body Node) *Comprehension {
	if st, ok := body.(*StarredExpr); ok {
		p.errorNode(st, "iterable unpacking cannot be used in comprehension")
	}
	c := &Comprehension{Kind: kind, Lparen: open, Body: body}
	for {
		switch p.tok.tok {
		case ASYNC:
			p.unsupported(p.tok.pos, p.tok.end, "'async'")
		case FOR:
			fc := &ForClause{For: p.tok.pos}
			p.next()
			fc.Vars = p.parseForTargets()
			fc.In = p.expect(IN)
			fc.X = p.parseOr()
			c.Clauses = append(c.Clauses, fc)
			continue
		case IF:
			ic := &IfClause{If: p.tok.pos}
			p.next()
			ic.Cond = p.parseOr()
			c.Clauses = append(c.Clauses, ic)
			continue
		}
		return c
	}
}
