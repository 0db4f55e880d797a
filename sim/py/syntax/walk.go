package syntax

// Walk traverses the tree rooted at n in depth-first source order. It calls
// f(n); if f returns true, Walk visits each non-nil child of n in turn.
// Children that are not Expr or Stmt (parameters, decorators, except
// clauses, with items, dict entries, comprehension clauses, import aliases,
// f-string parts) are visited as nodes too.
func Walk(n Node, f func(Node) bool) {
	if n == nil || !f(n) {
		return
	}
	switch n := n.(type) {
	case *File:
		walkStmts(n.Stmts, f)
	case *ExprStmt:
		Walk(n.X, f)
	case *AssignStmt:
		for _, t := range n.Targets {
			Walk(t, f)
		}
		Walk(n.Value, f)
	case *AugAssignStmt:
		Walk(n.Target, f)
		Walk(n.Value, f)
	case *AnnAssignStmt:
		Walk(n.Target, f)
		Walk(n.Annotation, f)
		walkOpt(n.Value, f)
	case *DelStmt:
		walkExprs(n.Targets, f)
	case *PassStmt, *BreakStmt, *ContinueStmt:
	case *ReturnStmt:
		walkOpt(n.Result, f)
	case *RaiseStmt:
		walkOpt(n.Exc, f)
		walkOpt(n.Cause, f)
	case *AssertStmt:
		Walk(n.Test, f)
		walkOpt(n.Msg, f)
	case *GlobalStmt:
		for _, id := range n.Names {
			Walk(id, f)
		}
	case *NonlocalStmt:
		for _, id := range n.Names {
			Walk(id, f)
		}
	case *ImportStmt:
		for _, a := range n.Names {
			Walk(a, f)
		}
	case *ImportFromStmt:
		for _, id := range n.Module {
			Walk(id, f)
		}
		for _, a := range n.Names {
			Walk(a, f)
		}
	case *ImportAlias:
		for _, id := range n.Path {
			Walk(id, f)
		}
		if n.As != nil {
			Walk(n.As, f)
		}
	case *IfStmt:
		Walk(n.Cond, f)
		walkStmts(n.Body, f)
		walkStmts(n.Else, f)
	case *ForStmt:
		Walk(n.Vars, f)
		Walk(n.X, f)
		walkStmts(n.Body, f)
		walkStmts(n.Else, f)
	case *WhileStmt:
		Walk(n.Cond, f)
		walkStmts(n.Body, f)
		walkStmts(n.Else, f)
	case *WithStmt:
		for _, it := range n.Items {
			Walk(it, f)
		}
		walkStmts(n.Body, f)
	case *WithItem:
		Walk(n.Context, f)
		walkOpt(n.Vars, f)
	case *TryStmt:
		walkStmts(n.Body, f)
		for _, h := range n.Handlers {
			Walk(h, f)
		}
		walkStmts(n.Else, f)
		walkStmts(n.Finally, f)
	case *ExceptHandler:
		walkOpt(n.Type, f)
		if n.Name != nil {
			Walk(n.Name, f)
		}
		walkStmts(n.Body, f)
	case *Decorator:
		Walk(n.X, f)
	case *Param:
		Walk(n.Name, f)
		walkOpt(n.Annotation, f)
		walkOpt(n.Default, f)
	case *DefStmt:
		for _, d := range n.Decorators {
			Walk(d, f)
		}
		Walk(n.Name, f)
		for _, p := range n.Params {
			Walk(p, f)
		}
		walkOpt(n.Returns, f)
		walkStmts(n.Body, f)
	case *ClassStmt:
		for _, d := range n.Decorators {
			Walk(d, f)
		}
		Walk(n.Name, f)
		walkExprs(n.Bases, f)
		walkStmts(n.Body, f)
	case *Ident, *Literal:
	case *FString:
		for _, p := range n.Parts {
			Walk(p, f)
		}
	case *FStringPart:
		walkOpt(n.Expr, f)
		if n.Spec != nil {
			Walk(n.Spec, f)
		}
	case *UnaryExpr:
		Walk(n.X, f)
	case *BinaryExpr:
		Walk(n.X, f)
		Walk(n.Y, f)
	case *CompareExpr:
		Walk(n.X, f)
		for _, c := range n.Ops {
			Walk(c.Y, f)
		}
	case *CondExpr:
		Walk(n.Then, f)
		Walk(n.Cond, f)
		Walk(n.Else, f)
	case *NamedExpr:
		Walk(n.Target, f)
		Walk(n.Value, f)
	case *YieldExpr:
		walkOpt(n.Value, f)
	case *LambdaExpr:
		for _, p := range n.Params {
			Walk(p, f)
		}
		Walk(n.Body, f)
	case *CallExpr:
		Walk(n.Fn, f)
		walkExprs(n.Args, f)
	case *KeywordArg:
		Walk(n.Name, f)
		Walk(n.Value, f)
	case *StarredExpr:
		Walk(n.X, f)
	case *DoubleStarredExpr:
		Walk(n.X, f)
	case *DotExpr:
		Walk(n.X, f)
		Walk(n.Name, f)
	case *IndexExpr:
		Walk(n.X, f)
		Walk(n.Index, f)
	case *SliceExpr:
		walkOpt(n.Lo, f)
		walkOpt(n.Hi, f)
		walkOpt(n.Step, f)
	case *TupleExpr:
		walkExprs(n.Elts, f)
	case *ListExpr:
		walkExprs(n.Elts, f)
	case *SetExpr:
		walkExprs(n.Elts, f)
	case *DictExpr:
		for _, e := range n.Entries {
			Walk(e, f)
		}
	case *DictEntry:
		walkOpt(n.Key, f)
		Walk(n.Value, f)
	case *Comprehension:
		Walk(n.Body, f)
		for _, c := range n.Clauses {
			Walk(c, f)
		}
	case *ForClause:
		Walk(n.Vars, f)
		Walk(n.X, f)
	case *IfClause:
		Walk(n.Cond, f)
	}
}

func walkStmts(stmts []Stmt, f func(Node) bool) {
	for _, s := range stmts {
		Walk(s, f)
	}
}

func walkExprs(xs []Expr, f func(Node) bool) {
	for _, x := range xs {
		Walk(x, f)
	}
}

// walkOpt visits an optional expression; a nil interface is skipped.
func walkOpt(x Expr, f func(Node) bool) {
	if x != nil {
		Walk(x, f)
	}
}
