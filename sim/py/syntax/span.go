package syntax

import (
	"strconv"
	"unicode/utf8"
)

// This file implements Node.Span for every node type.

func itoa32(i int32) string { return strconv.Itoa(int(i)) }

// advance returns the position just after text starting at p, where text
// has no newline.
func advance(p Position, text string) Position {
	p.Col += int32(utf8.RuneCountInString(text))
	return p
}

// after returns the position just after a one-character token at p.
func after(p Position) Position { p.Col++; return p }

func stmtsEnd(stmts []Stmt, fallback Position) Position {
	if len(stmts) == 0 {
		return fallback
	}
	_, end := stmts[len(stmts)-1].Span()
	return end
}

func exprEnd(x Expr) Position {
	_, end := x.Span()
	return end
}

func exprStart(x Expr) Position {
	start, _ := x.Span()
	return start
}

func decoratedStart(decos []*Decorator, kw Position) Position {
	if len(decos) > 0 {
		return decos[0].At
	}
	return kw
}

// Span implements Node.
func (x *ExprStmt) Span() (start, end Position) { return x.X.Span() }

// Span implements Node.
func (x *AssignStmt) Span() (start, end Position) {
	return exprStart(x.Targets[0]), exprEnd(x.Value)
}

// Span implements Node.
func (x *AugAssignStmt) Span() (start, end Position) {
	return exprStart(x.Target), exprEnd(x.Value)
}

// Span implements Node.
func (x *AnnAssignStmt) Span() (start, end Position) {
	if x.Value != nil {
		return exprStart(x.Target), exprEnd(x.Value)
	}
	return exprStart(x.Target), exprEnd(x.Annotation)
}

// Span implements Node.
func (x *DelStmt) Span() (start, end Position) {
	return x.Del, exprEnd(x.Targets[len(x.Targets)-1])
}

// Span implements Node.
func (x *PassStmt) Span() (start, end Position) { return x.Pass, advance(x.Pass, "pass") }

// Span implements Node.
func (x *BreakStmt) Span() (start, end Position) { return x.Break, advance(x.Break, "break") }

// Span implements Node.
func (x *ContinueStmt) Span() (start, end Position) {
	return x.Continue, advance(x.Continue, "continue")
}

// Span implements Node.
func (x *ReturnStmt) Span() (start, end Position) {
	if x.Result != nil {
		return x.Return, exprEnd(x.Result)
	}
	return x.Return, advance(x.Return, "return")
}

// Span implements Node.
func (x *RaiseStmt) Span() (start, end Position) {
	switch {
	case x.Cause != nil:
		return x.Raise, exprEnd(x.Cause)
	case x.Exc != nil:
		return x.Raise, exprEnd(x.Exc)
	}
	return x.Raise, advance(x.Raise, "raise")
}

// Span implements Node.
func (x *AssertStmt) Span() (start, end Position) {
	if x.Msg != nil {
		return x.Assert, exprEnd(x.Msg)
	}
	return x.Assert, exprEnd(x.Test)
}

// Span implements Node.
func (x *GlobalStmt) Span() (start, end Position) {
	_, end = x.Names[len(x.Names)-1].Span()
	return x.Global, end
}

// Span implements Node.
func (x *NonlocalStmt) Span() (start, end Position) {
	_, end = x.Names[len(x.Names)-1].Span()
	return x.Nonlocal, end
}

// Span implements Node.
func (x *ImportAlias) Span() (start, end Position) {
	start, end = x.Path[0].Span()
	if x.As != nil {
		_, end = x.As.Span()
	} else {
		_, end = x.Path[len(x.Path)-1].Span()
	}
	return start, end
}

// Span implements Node.
func (x *ImportStmt) Span() (start, end Position) {
	_, end = x.Names[len(x.Names)-1].Span()
	return x.Import, end
}

// Span implements Node.
func (x *ImportFromStmt) Span() (start, end Position) {
	switch {
	case x.Rparen.IsValid():
		end = after(x.Rparen)
	case x.Star || len(x.Names) == 0:
		_, end = x.Module[len(x.Module)-1].Span()
	default:
		_, end = x.Names[len(x.Names)-1].Span()
	}
	return x.From, end
}

// Span implements Node.
func (x *IfStmt) Span() (start, end Position) {
	end = stmtsEnd(x.Body, exprEnd(x.Cond))
	return x.If, stmtsEnd(x.Else, end)
}

// Span implements Node.
func (x *ForStmt) Span() (start, end Position) {
	end = stmtsEnd(x.Body, exprEnd(x.X))
	return x.For, stmtsEnd(x.Else, end)
}

// Span implements Node.
func (x *WhileStmt) Span() (start, end Position) {
	end = stmtsEnd(x.Body, exprEnd(x.Cond))
	return x.While, stmtsEnd(x.Else, end)
}

// Span implements Node.
func (x *WithItem) Span() (start, end Position) {
	if x.Vars != nil {
		return exprStart(x.Context), exprEnd(x.Vars)
	}
	return x.Context.Span()
}

// Span implements Node.
func (x *WithStmt) Span() (start, end Position) {
	return x.With, stmtsEnd(x.Body, advance(x.With, "with"))
}

// Span implements Node.
func (x *ExceptHandler) Span() (start, end Position) {
	return x.Except, stmtsEnd(x.Body, advance(x.Except, "except"))
}

// Span implements Node.
func (x *TryStmt) Span() (start, end Position) {
	end = stmtsEnd(x.Body, advance(x.Try, "try"))
	if n := len(x.Handlers); n > 0 {
		_, end = x.Handlers[n-1].Span()
	}
	end = stmtsEnd(x.Else, end)
	return x.Try, stmtsEnd(x.Finally, end)
}

// Span implements Node.
func (x *Decorator) Span() (start, end Position) { return x.At, exprEnd(x.X) }

// Span implements Node.
func (x *Param) Span() (start, end Position) {
	start, end = x.Name.Span()
	if x.Star.IsValid() {
		start = x.Star
	}
	if x.Annotation != nil {
		end = exprEnd(x.Annotation)
	}
	if x.Default != nil {
		end = exprEnd(x.Default)
	}
	return start, end
}

// Span implements Node.
func (x *DefStmt) Span() (start, end Position) {
	return decoratedStart(x.Decorators, x.Def), stmtsEnd(x.Body, advance(x.Def, "def"))
}

// Span implements Node.
func (x *ClassStmt) Span() (start, end Position) {
	return decoratedStart(x.Decorators, x.Class), stmtsEnd(x.Body, advance(x.Class, "class"))
}

// Span implements Node.
func (x *Ident) Span() (start, end Position) { return x.NamePos, advance(x.NamePos, x.Written()) }

// Span implements Node.
func (x *Literal) Span() (start, end Position) { return x.ValuePos, x.EndPos }

// Span implements Node.
func (x *FString) Span() (start, end Position) { return x.Start, x.End }

// Span implements Node.
func (x *FStringPart) Span() (start, end Position) {
	if x.Expr != nil {
		return x.Pos, exprEnd(x.Expr)
	}
	return x.Pos, advance(x.Pos, x.Lit)
}

// Span implements Node.
func (x *UnaryExpr) Span() (start, end Position) { return x.OpPos, exprEnd(x.X) }

// Span implements Node.
func (x *BinaryExpr) Span() (start, end Position) { return exprStart(x.X), exprEnd(x.Y) }

// Span implements Node.
func (x *CompareExpr) Span() (start, end Position) {
	return exprStart(x.X), exprEnd(x.Ops[len(x.Ops)-1].Y)
}

// Span implements Node.
func (x *CondExpr) Span() (start, end Position) { return exprStart(x.Then), exprEnd(x.Else) }

// Span implements Node.
func (x *NamedExpr) Span() (start, end Position) { return x.Target.NamePos, exprEnd(x.Value) }

// Span implements Node.
func (x *YieldExpr) Span() (start, end Position) {
	if x.Value != nil {
		return x.Yield, exprEnd(x.Value)
	}
	return x.Yield, x.End
}

// Span implements Node.
func (x *LambdaExpr) Span() (start, end Position) { return x.Lambda, exprEnd(x.Body) }

// Span implements Node.
func (x *CallExpr) Span() (start, end Position) { return exprStart(x.Fn), after(x.Rparen) }

// Span implements Node.
func (x *KeywordArg) Span() (start, end Position) { return x.Name.NamePos, exprEnd(x.Value) }

// Span implements Node.
func (x *StarredExpr) Span() (start, end Position) { return x.Star, exprEnd(x.X) }

// Span implements Node.
func (x *DoubleStarredExpr) Span() (start, end Position) { return x.StarStar, exprEnd(x.X) }

// Span implements Node.
func (x *DotExpr) Span() (start, end Position) { return exprStart(x.X), exprEnd(x.Name) }

// Span implements Node.
func (x *IndexExpr) Span() (start, end Position) { return exprStart(x.X), after(x.Rbrack) }

// Span implements Node.
func (x *SliceExpr) Span() (start, end Position) {
	start = x.Colon
	if x.Lo != nil {
		start = exprStart(x.Lo)
	}
	return start, x.End
}

// Span implements Node.
func (x *TupleExpr) Span() (start, end Position) {
	if x.Lparen.IsValid() {
		return x.Lparen, after(x.Rparen)
	}
	return exprStart(x.Elts[0]), exprEnd(x.Elts[len(x.Elts)-1])
}

// Span implements Node.
func (x *ListExpr) Span() (start, end Position) { return x.Lbrack, after(x.Rbrack) }

// Span implements Node.
func (x *SetExpr) Span() (start, end Position) { return x.Lbrace, after(x.Rbrace) }

// Span implements Node.
func (x *DictEntry) Span() (start, end Position) {
	if x.Key == nil {
		return x.Colon, exprEnd(x.Value)
	}
	return exprStart(x.Key), exprEnd(x.Value)
}

// Span implements Node.
func (x *DictExpr) Span() (start, end Position) { return x.Lbrace, after(x.Rbrace) }

// Span implements Node.
func (x *Comprehension) Span() (start, end Position) { return x.Lparen, after(x.Rparen) }

// Span implements Node.
func (x *ForClause) Span() (start, end Position) { return x.For, exprEnd(x.X) }

// Span implements Node.
func (x *IfClause) Span() (start, end Position) { return x.If, exprEnd(x.Cond) }
