package py

import "github.com/gpumem/playground/sim/py/syntax"

// setDisplayIncr compiles a set display holding *x or more than 30
// elements as 3.12's starunpack_helper builds it: the elements before the
// first *x are evaluated, then BUILD_SET adds them before the *x operand
// is evaluated (all 30+ elements are added one by one after BUILD_SET 0 in
// a long display); each *x is merged
// by SET_UPDATE (set_update_internal: a set or dict operand is merged
// table-wise, so the resulting order is CPython's) and each later element
// is added as soon as it is evaluated.
func (fc *fnCompiler) setDisplayIncr(x *syntax.SetExpr) (exprFn, error) {
	els, _, err := fc.starredEls(x.Elts, fc.exprLine(x))
	if err != nil {
		return nil, err
	}
	big := len(x.Elts) > stackUseGuideline
	return func(fr *frame) (Value, error) {
		it := fr.it
		var s *Set
		var pending []Value
		build := func() error {
			s = it.NewSet()
			for i, v := range pending {
				if err := s.Add(it, v); err != nil {
					it.decRefAll(pending[i:])
					pending = nil
					it.DecRef(s) // BUILD_SET releases it before the traceback entry
					s = nil
					return err
				}
				it.DecRef(v)
			}
			pending = nil
			return nil
		}
		fail := func(err error) (Value, error) {
			err = fr.raising(err)
			it.popAll(pending)
			if s != nil {
				it.DecRef(s)
			}
			return nil, err
		}
		if big {
			s = it.NewSet()
		}
		for _, e := range els {
			if s == nil && e.star {
				if err := build(); err != nil {
					return fail(err)
				}
			}
			v, err := e.f(fr)
			if err != nil {
				return fail(err)
			}
			switch {
			case s == nil:
				pending = append(pending, v)
				continue
			case e.star:
				err = it.setUpdate(s, v)
			default:
				err = s.Add(it, v)
			}
			it.DecRef(v)
			if err != nil {
				return fail(err)
			}
		}
		if s == nil {
			if err := build(); err != nil {
				return fail(err)
			}
		}
		return s, nil
	}, nil
}

// hasStarred reports whether display elements include *x.
func hasStarred(xs []syntax.Expr) bool {
	for _, x := range xs {
		if _, ok := x.(*syntax.StarredExpr); ok {
			return true
		}
	}
	return false
}

// allConst reports whether every element folds into a constant.
func allConst(xs []syntax.Expr) bool {
	for _, x := range xs {
		if !isConstExpr(x) {
			return false
		}
	}
	return true
}
