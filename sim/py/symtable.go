package py

import (
	"sort"

	"github.com/gpumem/playground/sim/py/syntax"
)

// scopeKind classifies a scope as CPython's symtable does.
type scopeKind uint8

const (
	scopeModule scopeKind = iota
	scopeClass
	scopeFunction // def, lambda, generator expression
	scopeComp     // list/set/dict comprehension: inlined into its owner (PEP 709)
)

// symKind says where a name lives in a scope.
type symKind uint8

const (
	symNone   symKind = iota
	symLocal          // fast local slot
	symCell           // local captured by an inner function
	symFree           // variable of an enclosing function
	symGlobal         // declared global, or an unbound name in a function
	symName           // module/class namespace lookup (locals, globals, builtins)
)

// scope is one node of the symbol table.
type scope struct {
	kind      scopeKind
	name      string
	parent    *scope
	params    []string
	assigned  map[string]bool
	used      map[string]bool
	globals   map[string]bool
	nonlocals map[string]bool
	children  []*scope
	syms      map[string]symKind
	free      map[string]bool
	usesSuper bool
	order     []string // names bound, in first-binding order
	classCell bool     // a class whose methods need __class__
	generator bool     // a function whose body yields (CO_GENERATOR)
	// imported: names bound by an import statement of this scope
	// (CPython's DEF_IMPORT), kept for the module scope only.
	imported map[string]bool
}

// newScope makes a scope below parent. Not inlined: its six map literals
// would be copied into every caller (size of the wasm module).
//
//go:noinline
func newScope(kind scopeKind, name string, parent *scope) *scope {
	s := &scope{kind: kind, name: name, parent: parent,
		assigned: map[string]bool{}, used: map[string]bool{}, globals: map[string]bool{},
		nonlocals: map[string]bool{}, syms: map[string]symKind{}, free: map[string]bool{}}
	if parent != nil {
		parent.children = append(parent.children, s)
	}
	return s
}

// owner returns the nearest non-comprehension scope.
func (s *scope) owner() *scope {
	for s.kind == scopeComp {
		s = s.parent
	}
	return s
}

// symtab builds scopes for a file: one scope per def, lambda, class,
// comprehension and generator expression, keyed by node.
type symtab struct {
	scopes map[syntax.Node]*scope
	cur    *scope
}

func buildSymtab(stmts []syntax.Stmt) (*scope, map[syntax.Node]*scope) {
	st := &symtab{scopes: map[syntax.Node]*scope{}}
	top := newScope(scopeModule, "<module>", nil)
	st.cur = top
	st.stmts(stmts)
	analyze(top, map[string]bool{})
	return top, st.scopes
}

// bind records an assignment to name in the current scope. Not inlined: a
// copy in each of its callers cost ~1 KB of wasm code each.
//
//go:noinline
func (st *symtab) bind(name string) {
	s := st.cur
	if !s.assigned[name] {
		s.order = append(s.order, name)
	}
	s.assigned[name] = true
}

// bindImport binds a name by an import statement; the module scope
// remembers it (compiler.methodCall).
func (st *symtab) bindImport(name string) {
	st.bind(name)
	if s := st.cur; s.kind == scopeModule {
		if s.imported == nil {
			s.imported = map[string]bool{}
		}
		s.imported[name] = true
	}
}

func (st *symtab) use(name string) {
	st.cur.used[name] = true
	if name == "super" {
		for s := st.cur; s != nil; s = s.parent {
			if s.kind == scopeFunction {
				s.usesSuper = true
				break
			}
		}
	}
}

func (st *symtab) stmts(ss []syntax.Stmt) {
	for _, s := range ss {
		st.stmt(s)
	}
}

func (st *symtab) stmt(s syntax.Stmt) {
	switch s := s.(type) {
	case *syntax.ExprStmt:
		st.expr(s.X)
	case *syntax.AssignStmt:
		st.expr(s.Value)
		for _, t := range s.Targets {
			st.target(t)
		}
	case *syntax.AugAssignStmt:
		if id, ok := s.Target.(*syntax.Ident); ok {
			st.use(id.Name)
		}
		st.expr(s.Value)
		st.target(s.Target)
	case *syntax.AnnAssignStmt:
		// As 3.12's symtable: the target, the annotation (in every scope,
		// although a function never evaluates it), then the value.
		if id, ok := s.Target.(*syntax.Ident); ok && s.Simple {
			st.bind(id.Name)
		} else {
			st.target(s.Target)
		}
		st.expr(s.Annotation)
		st.optExpr(s.Value)
	case *syntax.DelStmt:
		for _, t := range s.Targets {
			st.target(t)
		}
	case *syntax.ReturnStmt:
		st.optExpr(s.Result)
	case *syntax.RaiseStmt:
		st.optExpr(s.Exc)
		st.optExpr(s.Cause)
	case *syntax.AssertStmt:
		st.expr(s.Test)
		st.optExpr(s.Msg)
	case *syntax.GlobalStmt:
		for _, id := range s.Names {
			st.cur.globals[id.Name] = true
		}
	case *syntax.NonlocalStmt:
		for _, id := range s.Names {
			st.cur.nonlocals[id.Name] = true
		}
	case *syntax.ImportStmt:
		for _, a := range s.Names {
			if a.As != nil {
				st.bindImport(a.As.Name)
			} else {
				st.bindImport(a.Path[0].Name)
			}
		}
	case *syntax.ImportFromStmt:
		for _, a := range s.Names {
			if a.As != nil {
				st.bindImport(a.As.Name)
			} else {
				st.bindImport(a.Path[0].Name)
			}
		}
	case *syntax.IfStmt:
		st.expr(s.Cond)
		st.stmts(s.Body)
		st.stmts(s.Else)
	case *syntax.ForStmt:
		st.expr(s.X)
		st.target(s.Vars)
		st.stmts(s.Body)
		st.stmts(s.Else)
	case *syntax.WhileStmt:
		st.expr(s.Cond)
		st.stmts(s.Body)
		st.stmts(s.Else)
	case *syntax.WithStmt:
		for _, item := range s.Items {
			st.expr(item.Context)
			if item.Vars != nil {
				st.target(item.Vars)
			}
		}
		st.stmts(s.Body)
	case *syntax.TryStmt:
		st.stmts(s.Body)
		for _, h := range s.Handlers {
			st.optExpr(h.Type)
			if h.Name != nil {
				st.bind(h.Name.Name)
			}
			st.stmts(h.Body)
		}
		st.stmts(s.Else)
		st.stmts(s.Finally)
	case *syntax.DefStmt:
		for _, d := range s.Decorators {
			st.expr(d.X)
		}
		st.params(s.Params)
		if s.Returns != nil {
			st.expr(s.Returns)
		}
		fs := newScope(scopeFunction, s.Name.Written(), st.cur)
		st.scopes[s] = fs
		st.bindParams(fs, s.Params)
		save := st.cur
		st.cur = fs
		st.stmts(s.Body)
		st.cur = save
		st.bind(s.Name.Name)
	case *syntax.ClassStmt:
		for _, d := range s.Decorators {
			st.expr(d.X)
		}
		for _, b := range s.Bases {
			st.expr(b)
		}
		cs := newScope(scopeClass, s.Name.Written(), st.cur)
		st.scopes[s] = cs
		save := st.cur
		st.cur = cs
		st.stmts(s.Body)
		st.cur = save
		st.bind(s.Name.Name)
	}
}

func (st *symtab) params(ps []*syntax.Param) {
	for _, p := range ps {
		if p.Default != nil {
			st.expr(p.Default)
		}
	}
	for _, p := range ps {
		if p.Annotation != nil {
			st.expr(p.Annotation)
		}
	}
}

// bindParams records parameters in co_varnames order: positional, keyword
// only, *args, **kwargs.
func (st *symtab) bindParams(fs *scope, ps []*syntax.Param) {
	var pos, kwonly []string
	var va, kw string
	for _, p := range ps {
		switch p.Kind {
		case syntax.ParamPositional, syntax.ParamPosOnly:
			pos = append(pos, p.Name.Name)
		case syntax.ParamKwOnly:
			kwonly = append(kwonly, p.Name.Name)
		case syntax.ParamVarArgs:
			va = p.Name.Name
		case syntax.ParamKwArgs:
			kw = p.Name.Name
		}
	}
	fs.params = append(append(fs.params, pos...), kwonly...)
	if va != "" {
		fs.params = append(fs.params, va)
	}
	if kw != "" {
		fs.params = append(fs.params, kw)
	}
	for _, n := range fs.params {
		fs.assigned[n] = true
	}
}

func (st *symtab) optExpr(x syntax.Expr) {
	if x != nil {
		st.expr(x)
	}
}

func (st *symtab) target(t syntax.Expr) {
	switch t := t.(type) {
	case *syntax.Ident:
		st.bind(t.Name)
	case *syntax.TupleExpr:
		for _, e := range t.Elts {
			st.target(e)
		}
	case *syntax.ListExpr:
		for _, e := range t.Elts {
			st.target(e)
		}
	case *syntax.StarredExpr:
		st.target(t.X)
	default:
		st.expr(t)
	}
}

func (st *symtab) expr(x syntax.Expr) {
	switch x := x.(type) {
	case nil:
	case *syntax.Ident:
		st.use(x.Name)
	case *syntax.Literal:
	case *syntax.FString:
		st.fstring(x)
	case *syntax.UnaryExpr:
		st.expr(x.X)
	case *syntax.BinaryExpr:
		st.expr(x.X)
		st.expr(x.Y)
	case *syntax.CompareExpr:
		st.expr(x.X)
		for _, c := range x.Ops {
			st.expr(c.Y)
		}
	case *syntax.CondExpr:
		st.expr(x.Cond)
		st.expr(x.Then)
		st.expr(x.Else)
	case *syntax.NamedExpr:
		st.expr(x.Value)
		// The target binds in the nearest non-comprehension scope.
		s := st.cur
		for s.kind == scopeComp {
			s = s.parent
		}
		s.assigned[x.Target.Name] = true
		if s != st.cur {
			st.cur.used[x.Target.Name] = true
		}
	case *syntax.YieldExpr:
		// The parser rejects yield outside functions and in comprehensions.
		st.cur.owner().generator = true
		st.optExpr(x.Value)
	case *syntax.LambdaExpr:
		st.params(x.Params)
		fs := newScope(scopeFunction, "<lambda>", st.cur)
		st.scopes[x] = fs
		st.bindParams(fs, x.Params)
		save := st.cur
		st.cur = fs
		st.expr(x.Body)
		st.cur = save
	case *syntax.CallExpr:
		st.expr(x.Fn)
		for _, a := range x.Args {
			st.expr(a)
		}
	case *syntax.KeywordArg:
		st.expr(x.Value)
	case *syntax.StarredExpr:
		st.expr(x.X)
	case *syntax.DoubleStarredExpr:
		st.expr(x.X)
	case *syntax.DotExpr:
		st.expr(x.X)
	case *syntax.IndexExpr:
		st.expr(x.X)
		st.expr(x.Index)
	case *syntax.SliceExpr:
		st.optExpr(x.Lo)
		st.optExpr(x.Hi)
		st.optExpr(x.Step)
	case *syntax.TupleExpr:
		for _, e := range x.Elts {
			st.expr(e)
		}
	case *syntax.ListExpr:
		for _, e := range x.Elts {
			st.expr(e)
		}
	case *syntax.SetExpr:
		for _, e := range x.Elts {
			st.expr(e)
		}
	case *syntax.DictExpr:
		for _, e := range x.Entries {
			st.optExpr(e.Key)
			st.expr(e.Value)
		}
	case *syntax.Comprehension:
		first := x.Clauses[0].(*syntax.ForClause)
		st.expr(first.X) // evaluated in the enclosing scope
		kind := scopeComp
		name := "<listcomp>"
		switch x.Kind {
		case syntax.GenExp:
			kind, name = scopeFunction, "<genexpr>"
		case syntax.SetComp:
			name = "<setcomp>"
		case syntax.DictComp:
			name = "<dictcomp>"
		}
		cs := newScope(kind, name, st.cur)
		st.scopes[x] = cs
		save := st.cur
		st.cur = cs
		if kind == scopeFunction {
			cs.params = []string{".0"}
			cs.assigned[".0"] = true
		}
		for i, c := range x.Clauses {
			switch c := c.(type) {
			case *syntax.ForClause:
				if i > 0 {
					st.expr(c.X)
				}
				st.target(c.Vars)
			case *syntax.IfClause:
				st.expr(c.Cond)
			}
		}
		if e, ok := x.Body.(*syntax.DictEntry); ok {
			st.expr(e.Key)
			st.expr(e.Value)
		} else {
			st.expr(x.Body.(syntax.Expr))
		}
		st.cur = save
	}
}

func (st *symtab) fstring(f *syntax.FString) {
	if f == nil {
		return
	}
	for _, p := range f.Parts {
		if p.Expr != nil {
			st.expr(p.Expr)
		}
		st.fstring(p.Spec)
	}
}

// analyze resolves every name of s and its children. bound holds the names
// bound in enclosing function scopes (visible as free variables).
func analyze(s *scope, bound map[string]bool) {
	switch s.kind {
	case scopeModule:
		for n := range s.assigned {
			s.syms[n] = symName
		}
		for n := range s.used {
			if _, ok := s.syms[n]; !ok {
				s.syms[n] = symName
			}
		}
		for n := range s.globals {
			s.syms[n] = symGlobal
		}
	case scopeClass:
		for n := range s.used {
			s.syms[n] = symName
			if bound[n] && !s.assigned[n] && !s.globals[n] {
				// a variable of an enclosing function, read through the
				// class namespace first (LOAD_CLASSDEREF)
				s.syms[n] = symFree
				s.free[n] = true
			}
		}
		for n := range s.assigned {
			s.syms[n] = symName
		}
		for n := range s.globals {
			s.syms[n] = symGlobal
		}
		for n := range s.nonlocals {
			s.syms[n] = symFree
			s.free[n] = true
		}
	case scopeFunction:
		for n := range s.used {
			if bound[n] {
				s.syms[n] = symFree
				s.free[n] = true
			} else {
				s.syms[n] = symGlobal
			}
		}
		// A name bound here (a parameter too) or declared global is not
		// free, even if an enclosing function binds it as well.
		for n := range s.assigned {
			s.syms[n] = symLocal
			delete(s.free, n)
		}
		for n := range s.globals {
			s.syms[n] = symGlobal
			delete(s.free, n)
		}
		for n := range s.nonlocals {
			s.syms[n] = symFree
			s.free[n] = true
		}
	case scopeComp:
		// Inlined: bound names are locals of the comprehension; other names
		// resolve as in the owner scope. A name the owner neither binds nor
		// uses itself but an enclosing function binds is free here, and so
		// becomes free in the owner too (resolveFreeUp from the parent).
		for n := range s.assigned {
			s.syms[n] = symLocal
		}
		o := s.owner()
		for n := range s.used {
			if s.assigned[n] || !bound[n] || o.assigned[n] || o.globals[n] || boundInComps(s.parent, n) {
				continue
			}
			switch o.syms[n] {
			case symLocal, symCell, symFree, symGlobal:
				continue
			}
			s.free[n] = true
		}
	}
	// Names visible to children.
	childBound := bound
	if s.kind == scopeFunction || s.kind == scopeComp {
		childBound = map[string]bool{}
		for n := range bound {
			childBound[n] = true
		}
		for n, k := range s.syms {
			if k == symLocal || k == symFree {
				childBound[n] = true
			}
		}
		if s.kind == scopeComp {
			// owner's names too
			o := s.owner()
			if o.kind == scopeFunction {
				for n, k := range o.syms {
					if k == symLocal || k == symFree || k == symCell {
						childBound[n] = true
					}
				}
			}
		}
	}
	if s.kind == scopeClass {
		childBound = map[string]bool{}
		for n := range bound {
			childBound[n] = true
		}
		childBound["__class__"] = true
	}
	for _, c := range s.children {
		if c.kind == scopeFunction && s.kind == scopeClass && c.usesSuper {
			c.used["__class__"] = true
		}
		analyze(c, childBound)
		for n := range c.free {
			if n == "__class__" && s.kind == scopeClass {
				s.classCell = true
				continue
			}
			resolveFreeUp(s, n)
		}
	}
}

// boundInComps reports whether a comprehension from s up to its owner binds
// n: such a name is the comprehension's, not an enclosing function's.
func boundInComps(s *scope, n string) bool {
	for ; s != nil && s.kind == scopeComp; s = s.parent {
		if s.assigned[n] {
			return true
		}
	}
	return false
}

// resolveFreeUp marks n, free in a child of s, as a cell of the scope that
// binds it (or free in s, passing through).
func resolveFreeUp(s *scope, n string) {
	switch s.kind {
	case scopeFunction:
		switch s.syms[n] {
		case symLocal, symCell:
			s.syms[n] = symCell
		default:
			s.syms[n] = symFree
			s.free[n] = true
		}
	case scopeComp:
		if s.syms[n] == symLocal || s.syms[n] == symCell {
			s.syms[n] = symCell
			return
		}
		resolveFreeUp(s.parent, n)
	case scopeClass:
		s.free[n] = true
		if _, ok := s.syms[n]; !ok {
			s.syms[n] = symName
		}
	}
}

// sortedNames returns the names of m with kind k, sorted (CPython orders
// cellvars and freevars alphabetically).
func sortedNames(m map[string]symKind, k symKind) []string {
	var out []string
	for n, kk := range m {
		if kk == k {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}
