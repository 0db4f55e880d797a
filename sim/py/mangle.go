package py

import (
	"strings"

	"github.com/gpumem/playground/sim/py/syntax"
)

// Private name mangling, as CPython's compiler does it (_Py_Mangle): inside
// a class body, and in every function, lambda and comprehension nested in
// it, an identifier `__x` that does not end in `__` means `_C__x`, C being
// the class's name without its leading underscores. It applies to variable
// names, attribute names, parameters, global/nonlocal declarations, the
// names a def, class or import binds and the names `from m import` fetches;
// not to keyword names in calls, nor to module paths. A def or class keeps
// its written name as __name__ and in its __qualname__ and tracebacks.
//
// manglePrivate renames the identifiers of stmts in place, keeping the
// written name in Ident.Src (spans and carets follow the source). It runs
// before the symbol table, so every later stage sees the mangled names, as
// in CPython. Names outside every class are left as they are.
func manglePrivate(stmts []syntax.Stmt) {
	m := mangler{}
	for _, s := range stmts {
		syntax.Walk(s, m.visit)
	}
}

// mangler walks a subtree whose innermost enclosing class is named private
// ("" outside any class).
type mangler struct{ private string }

// mangledName returns name as it is looked up inside class private.
func mangledName(private, name string) string {
	if private == "" || len(name) < 3 || name[0] != '_' || name[1] != '_' ||
		strings.HasSuffix(name, "__") || strings.Contains(name, ".") {
		return name
	}
	p := strings.TrimLeft(private, "_")
	if p == "" {
		return name
	}
	return "_" + p + name
}

// rename mangles id in place.
func (m mangler) rename(id *syntax.Ident) {
	if id == nil || id.Src != "" {
		return
	}
	if n := mangledName(m.private, id.Name); n != id.Name {
		id.Src, id.Name = id.Name, n
	}
}

func (m mangler) visit(n syntax.Node) bool {
	switch n := n.(type) {
	case *syntax.Ident:
		m.rename(n)
	case *syntax.KeywordArg:
		// f(__x=1): the keyword is not mangled (CPython passes kw->arg as is).
		syntax.Walk(n.Value, m.visit)
		return false
	case *syntax.ClassStmt:
		for _, d := range n.Decorators {
			syntax.Walk(d, m.visit)
		}
		m.rename(n.Name)
		for _, b := range n.Bases {
			if kw, ok := b.(*syntax.KeywordArg); ok {
				syntax.Walk(kw.Value, m.visit)
				continue
			}
			syntax.Walk(b, m.visit)
		}
		inner := mangler{private: n.Name.Written()}
		for _, s := range n.Body {
			syntax.Walk(s, inner.visit)
		}
		return false
	case *syntax.ImportStmt:
		if m.private == "" {
			return false
		}
		for _, a := range n.Names {
			if a.As != nil {
				m.rename(a.As)
				continue
			}
			// `import __m` imports module __m and binds _C__m: the
			// binding becomes an explicit alias. (A dotted `import __a.b`
			// binds __a unmangled here; CPython mangles it.)
			if len(a.Path) == 1 {
				p := a.Path[0]
				if mn := mangledName(m.private, p.Name); mn != p.Name {
					a.As = &syntax.Ident{NamePos: p.NamePos, Name: mn, Src: p.Name}
				}
			}
		}
		return false
	case *syntax.ImportFromStmt:
		// The module path is not mangled; the fetched names are (a CPython
		// quirk: `from m import __x` in a class imports m._C__x), and so
		// are the names bound.
		for _, a := range n.Names {
			for _, id := range a.Path {
				m.rename(id)
			}
			m.rename(a.As)
		}
		return false
	}
	return true
}
