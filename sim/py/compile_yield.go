package py

import (
	"github.com/gpumem/playground/sim/py/syntax"
)

// yieldExpr compiles `yield [value]` and `yield from value` (gen.go runs
// them). YIELD_VALUE (and yield from's SEND loop) run at the yield's line,
// after the value.
func (fc *fnCompiler) yieldExpr(x *syntax.YieldExpr) (exprFn, error) {
	var val exprFn
	if x.Value != nil {
		var err error
		if val, err = fc.expr(x.Value); err != nil {
			return nil, err
		}
		val = fc.post(fc.exprLine(x), val)
	}
	if x.From {
		return func(fr *frame) (Value, error) {
			src, err := val(fr)
			if err != nil {
				return nil, err
			}
			return fr.gen.yieldFrom(fr.it, src)
		}, nil
	}
	return func(fr *frame) (Value, error) {
		var v Value = None
		if val != nil {
			var err error
			if v, err = val(fr); err != nil {
				return nil, err
			}
		}
		return fr.gen.yield(v)
	}, nil
}
