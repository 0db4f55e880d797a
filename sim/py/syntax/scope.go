package syntax

// CPython's symbol-table pass rejects some programs that parse: global and
// nonlocal declarations that come after a use or assignment of the name,
// parameters declared global, nonlocal names with no binding. checkScopes
// reproduces those checks (same messages, same locations) so a script that
// CPython refuses to compile is refused here too.

// Name flags within one scope, as CPython's symtable records them.
const (
	symUse uint8 = 1 << iota
	symLocal
	symParam
	symGlobal
	symNonlocal
	symAnnot
	symImport
)

type symScope struct {
	parent   *symScope
	function bool   // function or lambda (classes and the module are not)
	comp     string // comprehension scopes: "list comprehension", ...
	module   bool
	names    map[string]uint8
	// nonlocal and global directives, checked once every binding is known
	directives []symDirective
}

type symDirective struct {
	name   string
	global bool
	stmt   Stmt
}

type scopeChecker struct {
	p       *parser
	err     *Error // first error of the visiting pass
	late    *Error // first error of the analysis pass (bindings)
	scopes  []*symScope
	current *symScope
}

// checkScopes runs the symbol-table checks over a parsed file and returns
// the error CPython would raise, if any.
func (p *parser) checkScopes(stmts []Stmt) *Error {
	c := &scopeChecker{p: p}
	c.push(false, true)
	c.stmts(stmts)
	if first := p.symErr; first != nil && (c.err == nil || first.Pos.Before(c.err.Pos)) {
		return first
	}
	if c.err != nil {
		return c.err
	}
	for _, sc := range c.scopes {
		for _, d := range sc.directives {
			c.analyze(sc, d)
		}
	}
	return c.late
}

func (c *scopeChecker) push(function, module bool) *symScope {
	sc := &symScope{parent: c.current, function: function, module: module, names: map[string]uint8{}}
	c.scopes = append(c.scopes, sc)
	c.current = sc
	return sc
}

func (c *scopeChecker) pop() { c.current = c.current.parent }

func (c *scopeChecker) fail(n Node, format string, args ...any) {
	if c.err == nil {
		start, end := n.Span()
		c.err = c.p.newError(KindSyntax, start, end, format, args...)
	}
}

func (c *scopeChecker) add(id *Ident, flag uint8) {
	if id != nil {
		c.current.names[id.Name] |= flag
	}
}

func (c *scopeChecker) stmts(stmts []Stmt) {
	for _, s := range stmts {
		if c.err != nil {
			return
		}
		c.stmt(s)
	}
}

func (c *scopeChecker) stmt(s Stmt) {
	switch s := s.(type) {
	case *ExprStmt:
		c.expr(s.X, symUse)
	case *AssignStmt:
		c.expr(s.Value, symUse)
		for _, t := range s.Targets {
			c.expr(t, symLocal)
		}
	case *AugAssignStmt:
		c.expr(s.Value, symUse)
		c.expr(s.Target, symLocal)
	case *AnnAssignStmt:
		if id, ok := s.Target.(*Ident); ok && s.Simple {
			if c.current.names[id.Name]&(symGlobal|symNonlocal) != 0 {
				kind := "global"
				if c.current.names[id.Name]&symNonlocal != 0 {
					kind = "nonlocal"
				}
				c.fail(s, "annotated name '%s' can't be %s", id.Name, kind)
				return
			}
			flag := symAnnot
			if s.Value != nil {
				flag |= symLocal
			}
			c.add(id, flag)
		} else {
			c.expr(s.Target, symLocal)
		}
		c.expr(s.Annotation, symUse)
		c.optExpr(s.Value, symUse)
	case *DelStmt:
		for _, t := range s.Targets {
			c.expr(t, symLocal)
		}
	case *ReturnStmt:
		c.optExpr(s.Result, symUse)
	case *RaiseStmt:
		c.optExpr(s.Exc, symUse)
		c.optExpr(s.Cause, symUse)
	case *AssertStmt:
		c.expr(s.Test, symUse)
		c.optExpr(s.Msg, symUse)
	case *GlobalStmt:
		c.directive(s, s.Names, true)
	case *NonlocalStmt:
		c.directive(s, s.Names, false)
	case *ImportStmt:
		for _, a := range s.Names {
			if a.As != nil {
				c.add(a.As, symImport)
			} else {
				c.add(a.Path[0], symImport)
			}
		}
	case *ImportFromStmt:
		for _, a := range s.Names {
			if a.As != nil {
				c.add(a.As, symImport)
			} else {
				c.add(a.Path[0], symImport)
			}
		}
	case *IfStmt:
		c.expr(s.Cond, symUse)
		c.stmts(s.Body)
		c.stmts(s.Else)
	case *WhileStmt:
		c.expr(s.Cond, symUse)
		c.stmts(s.Body)
		c.stmts(s.Else)
	case *ForStmt:
		c.expr(s.X, symUse)
		c.expr(s.Vars, symLocal)
		c.stmts(s.Body)
		c.stmts(s.Else)
	case *WithStmt:
		for _, it := range s.Items {
			c.expr(it.Context, symUse)
			c.optExpr(it.Vars, symLocal)
		}
		c.stmts(s.Body)
	case *TryStmt:
		c.stmts(s.Body)
		for _, h := range s.Handlers {
			c.optExpr(h.Type, symUse)
			c.add(h.Name, symLocal)
			c.stmts(h.Body)
		}
		c.stmts(s.Else)
		c.stmts(s.Finally)
	case *DefStmt:
		for _, d := range s.Decorators {
			c.expr(d.X, symUse)
		}
		c.paramDefaults(s.Params)
		c.optExpr(s.Returns, symUse)
		c.add(s.Name, symLocal)
		c.push(true, false)
		for _, q := range s.Params {
			c.add(q.Name, symParam)
		}
		c.stmts(s.Body)
		c.pop()
	case *ClassStmt:
		for _, d := range s.Decorators {
			c.expr(d.X, symUse)
		}
		for _, b := range s.Bases {
			c.expr(b, symUse)
		}
		c.add(s.Name, symLocal)
		c.push(false, false)
		c.stmts(s.Body)
		c.pop()
	}
}

// paramDefaults visits defaults and annotations, which belong to the
// enclosing scope.
func (c *scopeChecker) paramDefaults(params []*Param) {
	for _, q := range params {
		c.optExpr(q.Default, symUse)
		c.optExpr(q.Annotation, symUse)
	}
}

func (c *scopeChecker) directive(s Stmt, names []*Ident, global bool) {
	kind := "nonlocal"
	if global {
		kind = "global"
	}
	for _, id := range names {
		cur := c.current.names[id.Name]
		switch {
		case cur&symParam != 0:
			c.fail(s, "name '%s' is parameter and %s", id.Name, kind)
		case cur&symUse != 0:
			c.fail(s, "name '%s' is used prior to %s declaration", id.Name, kind)
		case cur&symAnnot != 0:
			c.fail(s, "annotated name '%s' can't be %s", id.Name, kind)
		case cur&symLocal != 0:
			c.fail(s, "name '%s' is assigned to before %s declaration", id.Name, kind)
		}
		if c.err != nil {
			return
		}
		if global {
			c.current.names[id.Name] |= symGlobal
		} else {
			c.current.names[id.Name] |= symNonlocal
		}
		c.current.directives = append(c.current.directives, symDirective{name: id.Name, global: global, stmt: s})
	}
}

// analyze checks a directive once all bindings are known.
func (c *scopeChecker) analyze(sc *symScope, d symDirective) {
	if c.late != nil {
		return
	}
	flags := sc.names[d.name]
	if flags&symGlobal != 0 && flags&symNonlocal != 0 {
		if d.global {
			start, end := d.stmt.Span()
			c.late = c.p.newError(KindSyntax, start, end, "name '%s' is nonlocal and global", d.name)
		}
		return
	}
	if d.global || sc.module {
		return
	}
	for up := sc.parent; up != nil; up = up.parent {
		if !up.function {
			continue
		}
		f := up.names[d.name]
		if f&symGlobal != 0 {
			break
		}
		if f&(symLocal|symParam|symImport|symNonlocal) != 0 {
			return
		}
	}
	start, end := d.stmt.Span()
	c.late = c.p.newError(KindSyntax, start, end, "no binding for nonlocal '%s' found", d.name)
}

func (c *scopeChecker) optExpr(x Expr, flag uint8) {
	if x != nil {
		c.expr(x, flag)
	}
}

// expr records the names of x; flag is symUse for loads and symLocal for
// targets (stores and deletions).
func (c *scopeChecker) expr(x Expr, flag uint8) {
	switch x := x.(type) {
	case *Ident:
		c.add(x, flag)
	case *StarredExpr:
		c.expr(x.X, flag)
	case *TupleExpr:
		for _, e := range x.Elts {
			c.expr(e, flag)
		}
	case *ListExpr:
		for _, e := range x.Elts {
			c.expr(e, flag)
		}
	case *DotExpr:
		c.expr(x.X, symUse)
	case *IndexExpr:
		c.expr(x.X, symUse)
		c.expr(x.Index, symUse)
	case *NamedExpr:
		c.expr(x.Value, symUse)
		c.add(x.Target, symLocal)
	case *YieldExpr:
		if c.current.comp != "" {
			c.fail(x, "'yield' inside %s", c.current.comp)
		}
		c.optExpr(x.Value, symUse)
	case *LambdaExpr:
		c.paramDefaults(x.Params)
		c.push(true, false)
		for _, q := range x.Params {
			c.add(q.Name, symParam)
		}
		c.expr(x.Body, symUse)
		c.pop()
	case *Comprehension:
		// The first iterable is evaluated in the enclosing scope.
		first := x.Clauses[0].(*ForClause)
		c.expr(first.X, symUse)
		c.push(true, false).comp = exprName(x)
		for i, cl := range x.Clauses {
			switch cl := cl.(type) {
			case *ForClause:
				if i > 0 {
					c.expr(cl.X, symUse)
				}
				c.expr(cl.Vars, symLocal)
			case *IfClause:
				c.expr(cl.Cond, symUse)
			}
		}
		if e, ok := x.Body.(*DictEntry); ok {
			c.expr(e.Key, symUse)
			c.expr(e.Value, symUse)
		} else {
			c.expr(x.Body.(Expr), symUse)
		}
		c.pop()
	default:
		Walk(x, func(n Node) bool {
			if n == Node(x) {
				return true
			}
			if e, ok := n.(Expr); ok {
				c.expr(e, symUse)
				return false
			}
			return true // dict entries, f-string parts
		})
	}
}
