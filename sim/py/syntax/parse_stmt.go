package syntax

// Statement parsing.

// parseStmt parses one statement line (or compound statement) and appends
// its statements to stmts.
func (p *parser) parseStmt(stmts []Stmt) []Stmt {
	switch p.tok.tok {
	case IF:
		return append(stmts, p.parseIf())
	case WHILE:
		return append(stmts, p.parseWhile())
	case FOR:
		return append(stmts, p.parseFor())
	case TRY:
		return append(stmts, p.parseTry())
	case WITH:
		return append(stmts, p.parseWith())
	case DEF:
		return append(stmts, p.parseDef(nil))
	case CLASS:
		return append(stmts, p.parseClass(nil))
	case AT:
		return append(stmts, p.parseDecorated())
	case ASYNC:
		p.unsupported(p.tok.pos, p.tok.end, "'async'")
	case INDENT, OUTDENT:
		p.syntaxError()
	case IDENT:
		p.checkSoftKeyword()
	}
	return p.parseSimpleStmts(stmts)
}

// checkSoftKeyword rejects the statements that start with a soft keyword:
// `match x:` and `type X = ...`.
func (p *parser) checkSoftKeyword() {
	name := p.tok.name
	if name != "match" && name != "type" {
		return
	}
	start := p.tok
	snap := p.save()
	p.next()
	t := p.tok.tok
	p.restore(snap)
	switch name {
	case "type":
		if t == IDENT {
			p.unsupported(start.pos, start.end, "the 'type' statement")
		}
	case "match":
		switch t {
		case IDENT, INT, FLOAT, IMAG, STRING, BYTES, FSTRING, NONE, TRUE, FALSE, LBRACE, NOT, LAMBDA, TILDE:
			p.unsupported(start.pos, start.end, "'match'")
		case LPAREN, LBRACK, MINUS, STAR:
			// `match (x):` / `match [a]:` / `match -x:` / `match *a, b:` —
			// a match statement iff the line parses as one: an expression
			// followed by ':' and a newline.
			if p.try(func() {
				p.next()
				p.parseStarExprs()
				if p.tok.tok != COLON {
					p.syntaxError()
				}
				p.next()
				if p.tok.tok != NEWLINE {
					p.syntaxError()
				}
			}) {
				p.restore(snap)
				p.unsupported(start.pos, start.end, "'match'")
			}
		}
	}
}

// parseSimpleStmts parses `small (';' small)* [';'] NEWLINE`.
func (p *parser) parseSimpleStmts(stmts []Stmt) []Stmt {
	for {
		stmts = append(stmts, p.parseSmallStmt())
		if p.tok.tok != SEMI {
			break
		}
		p.next()
		if p.tok.tok == NEWLINE || p.tok.tok == EOF {
			break
		}
	}
	if p.tok.tok == EOF {
		return stmts
	}
	if p.tok.tok != NEWLINE {
		p.syntaxError()
	}
	p.next()
	return stmts
}

func (p *parser) parseSmallStmt() Stmt {
	t := p.tok
	switch t.tok {
	case PASS:
		p.next()
		return &PassStmt{Pass: t.pos}
	case BREAK:
		p.next()
		if p.loopDepth == 0 {
			p.deferComp(p.newError(KindSyntax, t.pos, t.end, "'break' outside loop"))
		}
		return &BreakStmt{Break: t.pos}
	case CONTINUE:
		p.next()
		if p.loopDepth == 0 {
			p.deferComp(p.newError(KindSyntax, t.pos, t.end, "'continue' not properly in loop"))
		}
		return &ContinueStmt{Continue: t.pos}
	case RETURN:
		p.next()
		s := &ReturnStmt{Return: t.pos}
		if !p.atStmtEnd() {
			s.Result = p.parseStarExprs()
			p.checkNotStarred(s.Result)
		}
		if p.funcDepth == 0 {
			_, end := s.Span()
			p.deferComp(p.newError(KindSyntax, t.pos, end, "'return' outside function"))
		}
		return s
	case RAISE:
		p.next()
		s := &RaiseStmt{Raise: t.pos}
		if !p.atStmtEnd() {
			s.Exc = p.parseTest()
			if p.got(FROM) {
				s.Cause = p.parseTest()
			}
		}
		return s
	case GLOBAL, NONLOCAL:
		return p.parseGlobal()
	case DEL:
		p.next()
		s := &DelStmt{Del: t.pos}
		s.Targets = p.parseTargetList(delTarget)
		return s
	case ASSERT:
		p.next()
		s := &AssertStmt{Assert: t.pos, Test: p.parseTest()}
		if p.got(COMMA) {
			s.Msg = p.parseTest()
		}
		return s
	case IMPORT:
		return p.parseImport()
	case FROM:
		return p.parseFromImport()
	case YIELD:
		return p.parseYieldStmt()
	case AWAIT:
		p.unsupported(t.pos, t.end, "'await'")
	}
	return p.parseExprStmt()
}

// atStmtEnd reports whether the current token ends a simple statement.
func (p *parser) atStmtEnd() bool {
	switch p.tok.tok {
	case NEWLINE, SEMI, EOF:
		return true
	}
	return false
}

func (p *parser) parseGlobal() Stmt {
	t := p.tok
	p.next()
	var names []*Ident
	for {
		names = append(names, p.parseIdent())
		if !p.got(COMMA) {
			break
		}
	}
	if t.tok == GLOBAL {
		return &GlobalStmt{Global: t.pos, Names: names}
	}
	s := &NonlocalStmt{Nonlocal: t.pos, Names: names}
	if p.funcDepth == 0 {
		_, end := s.Span()
		p.deferSym(p.newError(KindSyntax, t.pos, end, "nonlocal declaration not allowed at module level"))
	}
	return s
}

// parseIdent parses a NAME.
func (p *parser) parseIdent() *Ident {
	if p.tok.tok != IDENT {
		p.syntaxError()
	}
	id := &Ident{NamePos: p.tok.pos, Name: p.tok.name}
	p.next()
	return id
}

// parseDottedName parses NAME ('.' NAME)*.
func (p *parser) parseDottedName() []*Ident {
	path := []*Ident{p.parseIdent()}
	for p.tok.tok == DOT {
		p.next()
		path = append(path, p.parseIdent())
	}
	return path
}

func (p *parser) parseImport() Stmt {
	s := &ImportStmt{Import: p.tok.pos}
	p.next()
	for {
		a := &ImportAlias{Path: p.parseDottedName()}
		if p.got(AS) {
			a.As = p.parseIdent()
		}
		s.Names = append(s.Names, a)
		if !p.got(COMMA) {
			break
		}
	}
	return s
}

func (p *parser) parseFromImport() Stmt {
	s := &ImportFromStmt{From: p.tok.pos}
	p.next()
	if p.tok.tok == DOT || p.tok.tok == ELLIPSIS {
		p.unsupported(p.tok.pos, p.tok.end, "relative import")
	}
	s.Module = p.parseDottedName()
	p.expect(IMPORT)
	switch p.tok.tok {
	case STAR:
		p.next()
		s.Star = true
		return s
	case LPAREN:
		p.next()
		p.parenDepth++
		s.Names = p.parseImportNames(true)
		p.parenDepth--
		s.Rparen = p.expect(RPAREN)
		return s
	}
	s.Names = p.parseImportNames(false)
	return s
}

func (p *parser) parseImportNames(parens bool) []*ImportAlias {
	var names []*ImportAlias
	for {
		a := &ImportAlias{Path: []*Ident{p.parseIdent()}}
		if p.got(AS) {
			a.As = p.parseIdent()
		}
		names = append(names, a)
		if p.tok.tok != COMMA {
			return names
		}
		p.next()
		if parens && p.tok.tok == RPAREN {
			return names
		}
		if !parens && p.atStmtEnd() {
			p.errorAt(p.tok.pos, Position{}, "trailing comma not allowed without surrounding parentheses")
		}
	}
}

// ---- compound statements --------------------------------------------------
