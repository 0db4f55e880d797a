package syntax

// Parameter lists of def and lambda.

// parseParams parses a parameter list up to (not including) the closing
// token: ')' for def, ':' for lambda.
func (p *parser) parseParams(closing Token, annotations bool) []*Param {
	var params []*Param
	seen := map[string]bool{}
	kind := ParamPositional
	sawDefault, sawSlash, sawStar, sawKwArgs := false, false, false, false
	for p.tok.tok != closing {
		if sawKwArgs {
			p.errorAt(p.tok.pos, p.tok.end, "arguments cannot follow var-keyword argument")
		}
		t := p.tok
		switch t.tok {
		case LPAREN:
			if closing == COLON {
				p.errorAt(t.pos, t.end, "Lambda expression parameters cannot be parenthesized")
			}
			p.errorAt(t.pos, t.end, "Function parameters cannot be parenthesized")
		case SLASH:
			if sawSlash {
				p.errorAt(t.pos, t.end, "/ may appear only once")
			}
			if sawStar {
				p.errorAt(t.pos, t.end, "/ must be ahead of *")
			}
			if len(params) == 0 {
				p.syntaxError()
			}
			sawSlash = true
			for _, q := range params {
				q.Kind = ParamPosOnly
			}
			p.next()
		case STAR:
			if sawStar {
				p.errorAt(t.pos, t.end, "* argument may appear only once")
			}
			sawStar = true
			p.next()
			if p.tok.tok == COMMA || p.tok.tok == closing {
				kind = ParamKwOnly
				p.checkBareStar(t, closing)
				break
			}
			q := &Param{Star: t.pos, Kind: ParamVarArgs, Name: p.parseIdent()}
			if annotations && p.got(COLON) {
				q.Annotation = p.parseTest()
			}
			if p.tok.tok == EQ {
				p.errorAt(p.tok.pos, p.tok.end, "var-positional argument cannot have default value")
			}
			p.addParam(&params, q, seen)
			kind = ParamKwOnly
		case STARSTAR:
			p.next()
			q := &Param{Star: t.pos, Kind: ParamKwArgs, Name: p.parseIdent()}
			if annotations && p.got(COLON) {
				q.Annotation = p.parseTest()
			}
			if p.tok.tok == EQ {
				p.errorAt(p.tok.pos, p.tok.end, "var-keyword argument cannot have default value")
			}
			p.addParam(&params, q, seen)
			sawKwArgs = true
		default:
			q := &Param{Kind: kind, Name: p.parseIdent()}
			if annotations && p.got(COLON) {
				q.Annotation = p.parseTest()
			}
			if p.tok.tok == EQ {
				eq := p.tok
				p.next()
				if !canStartExpr(p.tok.tok) {
					p.errorAt(eq.pos, eq.end, "expected default value expression")
				}
				q.Default = p.parseTest()
				if kind != ParamKwOnly {
					sawDefault = true
				}
			} else if sawDefault && kind != ParamKwOnly {
				p.errorNode(q.Name, "non-default argument follows default argument")
			}
			p.addParam(&params, q, seen)
		}
		if p.tok.tok != COMMA {
			break
		}
		p.next()
	}
	return params
}

// checkBareStar reports a bare '*' (token star, already consumed) that no
// named parameter follows. CPython points at the '*' in a def and at the
// token after "*," in a lambda.
func (p *parser) checkBareStar(star token, closing Token) {
	snap := p.save()
	after := p.tok
	if p.tok.tok == COMMA {
		p.next()
		after = p.tok
	}
	bare := p.tok.tok == closing || p.tok.tok == STARSTAR
	p.restore(snap)
	if !bare {
		return
	}
	if closing == COLON {
		p.errorAt(after.pos, after.end, "named arguments must follow bare *")
	}
	p.errorAt(star.pos, star.end, "named arguments must follow bare *")
}

func (p *parser) addParam(params *[]*Param, q *Param, seen map[string]bool) {
	if seen[q.Name.Name] {
		start, end := q.Name.Span()
		p.deferSym(p.newError(KindSyntax, start, end, "duplicate argument '%s' in function definition", q.Name.Name))
	}
	seen[q.Name.Name] = true
	*params = append(*params, q)
}
