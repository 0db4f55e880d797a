package syntax

import "strings"

// CPython's specific messages for common mistakes: the hints its
// error pass finds (missing comma, '=' for '==', print without parentheses).

// misplacedEq handles `x = value` where only an expression is allowed.
func (p *parser) misplacedEq(x Expr) {
	eq := p.tok
	_, isIdent := x.(*Ident)
	if !isIdent && (!isBitwiseOr(x) || hereExcluded(x)) {
		p.syntaxError()
	}
	snap := p.save()
	var v Expr
	if !p.try(func() {
		p.next()
		if !canStartExpr(p.tok.tok) || p.tok.tok == NOT || p.tok.tok == LAMBDA {
			p.syntaxError()
		}
		v = p.parseBinary(precBitOr)
		if p.tok.tok == EQ || p.tok.tok == WALRUS {
			p.syntaxError()
		}
	}) {
		p.restore(snap)
		p.tok = eq
		p.syntaxError()
	}
	if isIdent {
		p.errorAt(exprStart(x), exprEnd(v), "invalid syntax. Maybe you meant '==' or ':=' instead of '='?")
	}
	p.errorNode(x, "cannot assign to %s here. Maybe you meant '==' instead of '='?", exprName(x))
}

// isSoftKeyword reports whether CPython 3.11's parser takes name for a
// soft keyword: its check accepts any prefix of "match", "case" or "_".
func isSoftKeyword(name string) bool {
	return name != "" && (strings.HasPrefix("match", name) || strings.HasPrefix("case", name) || name == "_")
}

// readAhead parses (and then forgets) the expression at the current token.
// CPython reads it while looking for a better message than "invalid
// syntax", and how far it read decides whether an unclosed bracket error
// replaces that message.
//
// After a bare name, CPython parses what follows with its error rules on
// (the rule that spots `print "x"`), so a specific error found there wins.
func (p *parser) readAhead(afterName bool) {
	if !canStartExpr(p.tok.tok) || p.reading {
		return
	}
	p.reading = true
	defer func() { p.reading = false }()
	if afterName {
		p.tryPropagating(func() { p.parseStarExprs(); p.syntaxError() })
		return
	}
	p.tryPropagating(func() { p.parseTest(); p.syntaxError() })
}

// juxtaposed fails for an expression a directly followed by another token
// that starts an expression, with CPython's hints where they apply.
func (p *parser) juxtaposed(a Node) {
	switch e := a.(type) {
	case *KeywordArg:
		a = e.Value
	case *StarredExpr:
		a = e.X
	case *DoubleStarredExpr:
		a = e.X
	case *DictEntry:
		a = e.Value
	}
	x, isExpr := a.(Expr)
	if !isExpr || !canStartExpr(p.tok.tok) {
		p.syntaxError()
	}
	if id, ok := x.(*Ident); ok && (id.Name == "print" || id.Name == "exec") && p.tok.tok != LPAREN {
		var b Expr
		if p.try(func() { b = p.parseStarExprs() }) {
			p.errorAt(id.NamePos, exprEnd(b), "Missing parentheses in call to '%s'. Did you mean %s(...)?", id.Name, id.Name)
		}
		p.syntaxError()
	}
	if p.parenDepth == 0 || !isDisjunction(x) {
		p.syntaxError()
	}
	if id, ok := x.(*Ident); ok {
		switch p.tok.tok {
		case STRING, BYTES, FSTRING:
			p.syntaxError()
		}
		if isSoftKeyword(id.Name) {
			p.syntaxError()
		}
	}
	first := p.tok
	var b Expr
	if !p.try(func() { b = p.parseTest() }) {
		p.tok = first
		p.syntaxError()
	}
	p.errorAt(exprStart(x), exprEnd(b), "invalid syntax. Perhaps you forgot a comma?")
}
