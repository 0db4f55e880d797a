package syntax

// Assignment, deletion and loop targets: validation with CPython's
// messages, and the expression names those messages use.

// targetKind says which statement a target belongs to.
type targetKind uint8

const (
	assignTarget targetKind = iota // '=' targets, with-item 'as' targets
	forTarget                      // for statements and clauses
	delTarget                      // del statements
)

// invalidTarget returns the first sub-expression of x that cannot be a
// target of the given kind, or nil if x is a valid target.
func invalidTarget(x Expr, kind targetKind) Expr {
	switch x := x.(type) {
	case *Ident, *DotExpr, *IndexExpr:
		return nil
	case *TupleExpr:
		for _, e := range x.Elts {
			if bad := invalidTarget(e, kind); bad != nil {
				return bad
			}
		}
		return nil
	case *ListExpr:
		for _, e := range x.Elts {
			if bad := invalidTarget(e, kind); bad != nil {
				return bad
			}
		}
		return nil
	case *StarredExpr:
		if kind == delTarget {
			return x
		}
		return invalidTarget(x.X, kind)
	case *CompareExpr:
		// `for x in y` mistakes: CPython names the operand before 'in'.
		if kind == forTarget && x.Ops[0].Op == IN {
			return invalidTarget(x.X, kind)
		}
	}
	return x
}

// checkTarget fails if x is not a valid target, and defers CPython's
// compile-time checks of starred targets.
func (p *parser) checkTarget(x Expr, kind targetKind) {
	if bad := invalidTarget(x, kind); bad != nil {
		if kind == delTarget {
			p.errorNode(bad, "cannot delete %s", exprName(bad))
		}
		p.errorNode(bad, "cannot assign to %s", exprName(bad))
	}
	if kind != delTarget {
		p.checkStarredTargets(x, true)
	}
}

// checkStarredTargets defers the compiler's errors for `*a = ...` and
// `a, *b, *c = ...`.
func (p *parser) checkStarredTargets(x Expr, top bool) {
	var elts []Expr
	switch x := x.(type) {
	case *StarredExpr:
		if top {
			p.deferComp(p.newError(KindSyntax, x.Star, exprEnd(x), "starred assignment target must be in a list or tuple"))
		}
		p.checkStarredTargets(x.X, false)
		return
	case *TupleExpr:
		elts = x.Elts
	case *ListExpr:
		elts = x.Elts
	default:
		return
	}
	stars := 0
	for _, e := range elts {
		if st, ok := e.(*StarredExpr); ok {
			stars++
			p.checkStarredTargets(st.X, false)
		} else {
			p.checkStarredTargets(e, false)
		}
	}
	if stars > 1 {
		start, end := x.Span()
		p.deferComp(p.newError(KindSyntax, start, end, "multiple starred expressions in assignment"))
	}
}

// parseTargetList parses the comma-separated targets of a del statement.
func (p *parser) parseTargetList(kind targetKind) []Expr {
	var targets []Expr
	p.targetsTwoPass(p.atStmtEnd, func() Expr {
		targets = p.parseTargetListFull(kind)
		return nil
	})
	return targets
}

func (p *parser) parseTargetListFull(kind targetKind) []Expr {
	var targets []Expr
	for {
		var x Expr
		if p.tok.tok == STAR {
			star := p.tok.pos
			p.next()
			x = &StarredExpr{Star: star, X: p.parseBinary(precBitOr)}
		} else {
			x = p.parseBinary(precBitOr)
		}
		p.checkTarget(x, kind)
		targets = append(targets, x)
		if p.tok.tok != COMMA {
			break
		}
		p.next()
		if p.atStmtEnd() {
			break
		}
	}
	if !p.atStmtEnd() {
		p.syntaxError()
	}
	return targets
}

// exprName names an expression as CPython's error messages do.
func exprName(x Node) string {
	switch x := x.(type) {
	case *DotExpr:
		return "attribute"
	case *IndexExpr:
		return "subscript"
	case *StarredExpr:
		return "starred"
	case *Ident:
		return "name"
	case *ListExpr:
		return "list"
	case *TupleExpr:
		return "tuple"
	case *LambdaExpr:
		return "lambda"
	case *CallExpr:
		return "function call"
	case *BinaryExpr, *UnaryExpr:
		return "expression"
	case *Comprehension:
		return [...]string{"list comprehension", "set comprehension", "dict comprehension", "generator expression"}[x.Kind]
	case *DictExpr:
		return "dict literal"
	case *SetExpr:
		return "set display"
	case *FString:
		return "f-string expression"
	case *Literal:
		switch x.Token {
		case NONE, TRUE, FALSE:
			return x.Token.String()
		case ELLIPSIS:
			return "ellipsis"
		}
		return "literal"
	case *CompareExpr:
		return "comparison"
	case *CondExpr:
		return "conditional expression"
	case *NamedExpr:
		return "named expression"
	case *YieldExpr:
		return "yield expression"
	}
	return "expression"
}

// isBitwiseOr reports whether x is at or above the bitwise-or level of the
// grammar (an operand, not a comparison, boolean, conditional or lambda).
func isBitwiseOr(x Expr) bool {
	switch x := x.(type) {
	case *BinaryExpr:
		return x.Op != AND && x.Op != OR
	case *UnaryExpr:
		return x.Op != NOT
	case *CompareExpr, *CondExpr, *LambdaExpr, *NamedExpr, *StarredExpr, *DoubleStarredExpr, *KeywordArg:
		return false
	case *TupleExpr:
		return x.Lparen.IsValid()
	}
	return true
}

// isDisjunction reports whether x is at or above the disjunction level (not
// a conditional expression or lambda).
func isDisjunction(x Expr) bool {
	switch x.(type) {
	case *CondExpr, *LambdaExpr, *NamedExpr, *StarredExpr, *DoubleStarredExpr, *KeywordArg:
		return false
	}
	return true
}

// hereExcluded reports whether x starts with a list display, a tuple, a
// generator expression, or True/None/False: CPython's "cannot assign to X
// here" hint does not apply to those.
func hereExcluded(x Expr) bool {
	for {
		switch e := x.(type) {
		case *ListExpr:
			return true
		case *TupleExpr:
			return e.Lparen.IsValid() || len(e.Elts) == 0 || hereExcluded(e.Elts[0])
		case *Comprehension:
			return e.Kind == GenExp
		case *Literal:
			return e.Token == TRUE || e.Token == FALSE || e.Token == NONE
		case *BinaryExpr:
			x = e.X
		case *CompareExpr:
			x = e.X
		case *DotExpr:
			x = e.X
		case *IndexExpr:
			x = e.X
		case *CallExpr:
			x = e.Fn
		default:
			return false
		}
	}
}

// parseForTargets parses the targets of a for statement or clause: the
// operands before 'in' (which must not be taken as a comparison).
func (p *parser) parseForTargets() Expr {
	return p.targetsTwoPass(func() bool { return p.tok.tok == IN }, p.parseForTargetsFull)
}

// targetsTwoPass parses targets as CPython does. Its first pass reads
// targets as primaries only (names, attributes, subscripts, calls,
// displays); if that pass does not reach a token where stop() holds, a
// generic error is reported where it stopped, unless parsing the targets
// as full expressions (full) finds a more specific error.
func (p *parser) targetsTwoPass(stop func() bool, full func() Expr) Expr {
	snap := p.save()
	var first token
	complete := false
	p.try(func() {
		defer func() {
			if first.tok == ILLEGAL {
				first = p.tok // where the first pass failed
			}
		}()
		for {
			if p.tok.tok == STAR {
				p.next()
			}
			p.parsePrimary()
			if p.tok.tok != COMMA {
				break
			}
			p.next()
			if stop() {
				break
			}
		}
		first, complete = p.tok, stop()
	})
	p.restore(snap) // the real parse follows
	if complete {
		return full()
	}
	var x Expr
	if !p.tryPropagating(func() { x = full() }) {
		if first.tok != ILLEGAL {
			p.tok = first
		}
		p.syntaxError()
	}
	return x
}

// parseForTargetsFull parses for-targets as expressions (up to 'in').
func (p *parser) parseForTargetsFull() Expr {
	var elts []Expr
	trailing := false
	for {
		var x Expr
		if p.tok.tok == STAR {
			star := p.tok.pos
			p.next()
			x = &StarredExpr{Star: star, X: p.parseBinary(precBitOr)}
		} else {
			x = p.parseBinary(precBitOr)
		}
		elts = append(elts, x)
		trailing = false
		if p.tok.tok != COMMA {
			break
		}
		p.next()
		trailing = true
		if p.tok.tok == IN {
			break
		}
	}
	var target Expr
	if len(elts) == 1 && !trailing {
		target = elts[0]
	} else {
		target = &TupleExpr{Elts: elts}
	}
	if p.tok.tok != IN && canStartExpr(p.tok.tok) {
		p.juxtaposed(elts[len(elts)-1])
	}
	if p.tok.tok != IN {
		// `for f() in x` style mistakes: name the bad target if any.
		if p.tok.tok != COLON || invalidTarget(target, forTarget) == nil {
			p.syntaxError()
		}
	}
	p.checkTarget(target, forTarget)
	return target
}
