package py

import "github.com/gpumem/playground/sim/py/syntax"

// Annotations, as CPython 3.12 evaluates them (no `from __future__ import
// annotations`): a module or class body holding an annotated assignment
// anywhere outside nested definitions starts with SETUP_ANNOTATIONS; `x: T`
// there evaluates T and stores it into `__annotations__['x']` (looked up
// as LOAD_NAME does); other annotated targets evaluate their object (and
// subscript) and, in a module or class, the annotation, dropping both. In a
// function only the target's object is evaluated, never the annotation.

// findAnn reports whether a body holds an annotated assignment (CPython's
// find_ann: compound statements are searched, definitions are not).
func findAnn(ss []syntax.Stmt) bool {
	for _, s := range ss {
		switch s := s.(type) {
		case *syntax.AnnAssignStmt:
			return true
		case *syntax.ForStmt:
			if findAnn(s.Body) || findAnn(s.Else) {
				return true
			}
		case *syntax.WhileStmt:
			if findAnn(s.Body) || findAnn(s.Else) {
				return true
			}
		case *syntax.IfStmt:
			if findAnn(s.Body) || findAnn(s.Else) {
				return true
			}
		case *syntax.WithStmt:
			if findAnn(s.Body) {
				return true
			}
		case *syntax.TryStmt:
			for _, h := range s.Handlers {
				if findAnn(h.Body) {
					return true
				}
			}
			if findAnn(s.Body) || findAnn(s.Finally) || findAnn(s.Else) {
				return true
			}
		}
	}
	return false
}

// setupAnnotations is SETUP_ANNOTATIONS: an empty dict bound to
// `__annotations__` in the namespace unless one is there. ln is its line
// (the first statement's in a module, the class line in a class body).
func setupAnnotations(ln int) stmtFn {
	return func(fr *frame) (ctl, error) {
		if fr.code.traced && ln != fr.lastLine {
			fr.line = ln
			fr.it.lineEvent(fr, ln)
		}
		if _, ok := fr.ns.getStr("__annotations__"); !ok {
			d := fr.it.NewDict()
			fr.ns.SetStr(fr.it, "__annotations__", d)
			fr.it.DecRef(d)
		}
		return ctlNext, nil
	}
}

// withSetupAnnotations prepends SETUP_ANNOTATIONS to a module or class body
// that needs it.
func withSetupAnnotations(body []stmtFn, ss []syntax.Stmt, ln int) []stmtFn {
	if !findAnn(ss) {
		return body
	}
	return append([]stmtFn{setupAnnotations(ln)}, body...)
}

// evalDrop compiles x evaluated and popped (check_ann_expr): POP_TOP at x's line.
func (fc *fnCompiler) evalDrop(x syntax.Expr) (func(fr *frame) error, error) {
	f, err := fc.expr(x)
	if err != nil {
		return nil, err
	}
	f = fc.post(fc.exprLine(x), f)
	return func(fr *frame) error {
		v, err := f(fr)
		if err != nil {
			return err
		}
		fr.it.DecRef(v)
		return nil
	}, nil
}

// annSubscr compiles check_ann_subscr: the parts of a subscript, evaluated
// and dropped one by one.
func (fc *fnCompiler) annSubscr(x syntax.Expr, out []func(*frame) error) ([]func(*frame) error, error) {
	switch x := x.(type) {
	case *syntax.SliceExpr:
		for _, e := range []syntax.Expr{x.Lo, x.Hi, x.Step} {
			if e == nil {
				continue
			}
			f, err := fc.evalDrop(e)
			if err != nil {
				return nil, err
			}
			out = append(out, f)
		}
		return out, nil
	case *syntax.TupleExpr:
		for _, e := range x.Elts {
			var err error
			if out, err = fc.annSubscr(e, out); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	f, err := fc.evalDrop(x)
	if err != nil {
		return nil, err
	}
	return append(out, f), nil
}

// annAssign compiles `target: annotation [= value]` (compiler_annassign).
func (fc *fnCompiler) annAssign(s *syntax.AnnAssignStmt, ln int) (stmtFn, error) {
	var val exprFn
	var st storeFn
	var err error
	if s.Value != nil {
		if val, err = fc.expr(s.Value); err != nil {
			return nil, err
		}
		if st, err = fc.store(s.Target); err != nil {
			return nil, err
		}
	}
	evalAnn := fc.sc.kind == scopeModule || fc.sc.kind == scopeClass
	var checks []func(*frame) error // target parts and annotation, dropped
	var ann exprFn                  // a simple name's annotation, stored
	var name string
	switch t := s.Target.(type) {
	case *syntax.Ident:
		if s.Simple && evalAnn {
			if ann, err = fc.expr(s.Annotation); err != nil {
				return nil, err
			}
			name = t.Name
		}
	case *syntax.DotExpr:
		if s.Value == nil {
			f, err := fc.evalDrop(t.X)
			if err != nil {
				return nil, err
			}
			checks = append(checks, f)
		}
	case *syntax.IndexExpr:
		if s.Value == nil {
			f, err := fc.evalDrop(t.X)
			if err != nil {
				return nil, err
			}
			if checks, err = fc.annSubscr(t.Index, append(checks, f)); err != nil {
				return nil, err
			}
		}
	}
	if !s.Simple && evalAnn {
		f, err := fc.evalDrop(s.Annotation)
		if err != nil {
			return nil, err
		}
		checks = append(checks, f)
	}
	var loadAnn exprFn
	if ann != nil {
		loadAnn = fc.pre(ln, fc.loadName("__annotations__"))
	}
	return fc.simple(ln, func(fr *frame) (ctl, error) {
		it := fr.it
		if val != nil {
			v, err := val(fr)
			if err != nil {
				return 0, err
			}
			if err := st(fr, v); err != nil {
				return 0, err
			}
		}
		if ann != nil {
			a, err := ann(fr)
			if err != nil {
				return 0, err
			}
			d, err := loadAnn(fr)
			if err != nil {
				err = fr.raising(err)
				it.DecRef(a)
				return 0, err
			}
			err = it.SetItem(d, Str(name), a)
			it.DecRef(d)
			it.DecRef(a)
			if err != nil {
				return 0, err
			}
		}
		for _, c := range checks {
			if err := c(fr); err != nil {
				return 0, err
			}
		}
		return ctlNext, nil
	}), nil
}
