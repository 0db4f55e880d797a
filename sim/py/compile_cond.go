package py

import "github.com/gpumem/playground/sim/py/syntax"

// testFn evaluates a condition to its truth value.
type testFn func(fr *frame) (bool, error)

// test compiles a condition that CPython 3.12 compiles as jumps
// (compiler_jump_if: if, while, assert, conditional expression,
// comprehension if). `and`, `or`, `not` and a conditional expression have
// no instruction of their own: each tested operand is evaluated and jumps
// on its own truth value, once, at its own line (multi-line mode), and a
// failing __bool__ gets that operand's range.
func (fc *fnCompiler) test(x syntax.Expr) (testFn, error) {
	switch b := x.(type) {
	case *syntax.UnaryExpr:
		if b.Op == syntax.NOT {
			t, err := fc.test(b.X)
			if err != nil {
				return nil, err
			}
			return func(fr *frame) (bool, error) {
				v, err := t(fr)
				return !v, err
			}, nil
		}
	case *syntax.BinaryExpr:
		if b.Op == syntax.AND || b.Op == syntax.OR {
			l, err := fc.test(b.X)
			if err != nil {
				return nil, err
			}
			r, err := fc.test(b.Y)
			if err != nil {
				return nil, err
			}
			isAnd := b.Op == syntax.AND
			return func(fr *frame) (bool, error) {
				v, err := l(fr)
				if err != nil || v != isAnd {
					return v, err
				}
				return r(fr)
			}, nil
		}
	case *syntax.CondExpr:
		c, err := fc.test(b.Cond)
		if err != nil {
			return nil, err
		}
		then, err := fc.test(b.Then)
		if err != nil {
			return nil, err
		}
		els, err := fc.test(b.Else)
		if err != nil {
			return nil, err
		}
		return func(fr *frame) (bool, error) {
			v, err := c(fr)
			if err != nil {
				return false, err
			}
			if v {
				return then(fr)
			}
			return els(fr)
		}, nil
	}
	f, err := fc.expr(x)
	if err != nil {
		return nil, err
	}
	f = fc.post(fc.exprLine(x), f) // POP_JUMP_IF_*
	at := fc.c.at(x)
	return func(fr *frame) (bool, error) {
		v, err := f(fr)
		if err != nil {
			return false, err
		}
		if b, ok := v.(Bool); ok {
			return bool(b), nil
		}
		t, err := fr.it.Truth(v)
		fr.it.DecRef(v)
		if err != nil {
			fr.notePos(at)
		}
		return t, err
	}, nil
}
