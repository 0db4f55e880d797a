package syntax

// Compound statements: blocks, if, while, for, try, with, def, class.

// parseBlock parses ':' followed by a suite. kind names the header for
// CPython's "expected an indented block after ..." message; forced means
// CPython reports "expected ':'" whatever follows the header.
func (p *parser) parseBlock(kind string, header Position, forced bool) []Stmt {
	if p.tok.tok != COLON {
		if forced || p.tok.tok == NEWLINE {
			p.errorAt(p.tok.pos, Position{}, "expected ':'")
		}
		p.syntaxError()
	}
	p.next()
	if p.tok.tok != NEWLINE {
		if p.tok.tok == EOF {
			p.syntaxError()
		}
		return p.parseSimpleStmts(nil)
	}
	p.next()
	if p.tok.tok != INDENT {
		end := p.tok.end
		if end.Line != p.tok.pos.Line || p.tok.tok == EOF || p.tok.tok == OUTDENT {
			end = Position{}
		}
		p.fail(p.newError(KindIndentation, p.tok.pos, end, "expected an indented block after %s on line %d", kind, header.Line))
	}
	p.next()
	var body []Stmt
	for p.tok.tok != OUTDENT && p.tok.tok != EOF {
		if p.tok.tok == NEWLINE {
			p.next()
			continue
		}
		body = p.parseStmt(body)
	}
	p.got(OUTDENT)
	return body
}

func (p *parser) parseIf() Stmt {
	t := p.tok
	p.next()
	s := &IfStmt{If: t.pos, Elif: t.tok == ELIF}
	s.Cond = p.parseNamedExpr()
	kind := "'if' statement"
	if s.Elif {
		kind = "'elif' statement"
	}
	s.Body = p.parseBlock(kind, t.pos, false)
	switch p.tok.tok {
	case ELIF:
		s.ElsePos = p.tok.pos
		s.Else = []Stmt{p.parseIf()}
	case ELSE:
		s.ElsePos = p.tok.pos
		p.next()
		s.Else = p.parseBlock("'else' statement", s.ElsePos, true)
	}
	return s
}

func (p *parser) parseWhile() Stmt {
	s := &WhileStmt{While: p.tok.pos}
	p.next()
	s.Cond = p.parseNamedExpr()
	p.loopDepth++
	s.Body = p.parseBlock("'while' statement", s.While, false)
	p.loopDepth--
	if p.tok.tok == ELSE {
		s.ElsePos = p.tok.pos
		p.next()
		s.Else = p.parseBlock("'else' statement", s.ElsePos, true)
	}
	return s
}

func (p *parser) parseFor() Stmt {
	s := &ForStmt{For: p.tok.pos}
	p.next()
	s.Vars = p.parseForTargets()
	p.expect(IN)
	s.X = p.parseStarExprs()
	p.loopDepth++
	s.Body = p.parseBlock("'for' statement", s.For, false)
	p.loopDepth--
	if p.tok.tok == ELSE {
		s.ElsePos = p.tok.pos
		p.next()
		s.Else = p.parseBlock("'else' statement", s.ElsePos, true)
	}
	return s
}

func (p *parser) parseTry() Stmt {
	s := &TryStmt{Try: p.tok.pos}
	p.next()
	s.Body = p.parseBlock("'try' statement", s.Try, true)
	for p.tok.tok == EXCEPT {
		h := &ExceptHandler{Except: p.tok.pos}
		p.next()
		if p.tok.tok == STAR {
			p.unsupported(p.tok.pos, p.tok.end, "'except*'")
		}
		if p.tok.tok != COLON {
			if p.tok.tok == NEWLINE {
				p.errorAt(p.tok.pos, Position{}, "expected ':'")
			}
			h.Type = p.parseTest()
			if p.tok.tok == COMMA {
				start := exprStart(h.Type)
				p.next()
				last := p.parseTest()
				for p.got(COMMA) {
					last = p.parseTest()
				}
				p.errorAt(start, exprEnd(last), "multiple exception types must be parenthesized")
			}
			if p.got(AS) {
				h.Name = p.parseIdent()
			}
		}
		h.Body = p.parseBlock("'except' statement", h.Except, false)
		s.Handlers = append(s.Handlers, h)
	}
	if p.tok.tok == ELSE && len(s.Handlers) > 0 {
		s.ElsePos = p.tok.pos
		p.next()
		s.Else = p.parseBlock("'else' statement", s.ElsePos, true)
	}
	if p.tok.tok == FINALLY {
		s.FinallyPos = p.tok.pos
		p.next()
		s.Finally = p.parseBlock("'finally' statement", s.FinallyPos, true)
	}
	if len(s.Handlers) == 0 && s.Finally == nil {
		p.errorAt(p.tok.pos, Position{}, "expected 'except' or 'finally' block")
	}
	return s
}

func (p *parser) parseWith() Stmt {
	s := &WithStmt{With: p.tok.pos}
	p.next()
	if p.tok.tok == LPAREN {
		// with (a as b, c as d): — only if the parenthesized items are
		// followed by ':'; otherwise the parentheses belong to an expression.
		var items []*WithItem
		if p.try(func() {
			p.next()
			p.parenDepth++
			for p.tok.tok != RPAREN {
				items = append(items, p.parseWithItem())
				if !p.got(COMMA) {
					break
				}
			}
			p.parenDepth--
			p.expect(RPAREN)
			if p.tok.tok != COLON || len(items) == 0 {
				p.syntaxError()
			}
		}) {
			s.Items = items
			s.Body = p.parseBlock("'with' statement", s.With, false)
			return s
		}
	}
	for {
		s.Items = append(s.Items, p.parseWithItem())
		if !p.got(COMMA) {
			break
		}
	}
	s.Body = p.parseBlock("'with' statement", s.With, false)
	return s
}

func (p *parser) parseWithItem() *WithItem {
	it := &WithItem{Context: p.parseTest()}
	if p.got(AS) {
		it.Vars = p.parseTargetAtom()
		p.checkTarget(it.Vars, assignTarget)
	}
	return it
}

// parseTargetAtom parses a single with-item target (a star_target).
func (p *parser) parseTargetAtom() Expr {
	if p.tok.tok == STAR {
		star := p.tok.pos
		p.next()
		return &StarredExpr{Star: star, X: p.parseBinary(precBitOr)}
	}
	return p.parseBinary(precBitOr)
}

func (p *parser) parseDecorated() Stmt {
	var decos []*Decorator
	for p.tok.tok == AT {
		d := &Decorator{At: p.tok.pos}
		p.next()
		d.X = p.parseNamedExpr()
		if p.tok.tok != NEWLINE {
			p.syntaxError()
		}
		p.next()
		decos = append(decos, d)
	}
	switch p.tok.tok {
	case DEF:
		return p.parseDef(decos)
	case CLASS:
		return p.parseClass(decos)
	case ASYNC:
		p.unsupported(p.tok.pos, p.tok.end, "'async'")
	}
	p.syntaxError()
	return nil
}

func (p *parser) parseDef(decos []*Decorator) Stmt {
	s := &DefStmt{Decorators: decos, Def: p.tok.pos}
	p.next()
	s.Name = p.parseIdent()
	if p.tok.tok != LPAREN {
		p.errorAt(p.tok.pos, Position{}, "expected '('")
	}
	p.next()
	p.parenDepth++
	s.Params = p.parseParams(RPAREN, true)
	p.parenDepth--
	p.expect(RPAREN)
	if p.tok.tok == ARROW {
		arrow := p.tok
		p.next()
		if !canStartExpr(p.tok.tok) {
			p.errorAt(arrow.pos, arrow.end, "expected ':'")
		}
		s.Returns = p.parseTest()
	}
	saveLoop := p.loopDepth
	p.funcDepth++
	p.loopDepth = 0
	s.Body = p.parseBlock("function definition", s.Def, true)
	p.funcDepth--
	p.loopDepth = saveLoop
	return s
}

func (p *parser) parseClass(decos []*Decorator) Stmt {
	s := &ClassStmt{Decorators: decos, Class: p.tok.pos}
	p.next()
	s.Name = p.parseIdent()
	if p.tok.tok == LPAREN {
		s.Lparen = p.tok.pos
		p.next()
		s.Bases, s.Rparen = p.parseArgs(s.Lparen)
	}
	saveLoop, saveFunc := p.loopDepth, p.funcDepth
	p.loopDepth, p.funcDepth = 0, 0
	s.Body = p.parseBlock("class definition", s.Class, false)
	p.loopDepth, p.funcDepth = saveLoop, saveFunc
	return s
}
