package py

import (
	"math"
	"math/big"

	"github.com/gpumem/playground/sim/py/pyfmt"
)

// toBig returns an int value as *big.Int.
func toBig(v Value) (*big.Int, bool) {
	switch x := v.(type) {
	case Int:
		return big.NewInt(int64(x)), true
	case Bool:
		if x {
			return big.NewInt(1), true
		}
		return big.NewInt(0), true
	case *BigInt:
		return x.v, true
	}
	return nil, false
}

// isIntLike reports whether v is an int or bool.
func isIntLike(v Value) bool {
	switch v.(type) {
	case Int, Bool, *BigInt:
		return true
	}
	return false
}

// toFloat converts an int, bool or float to float64.
func toFloat(v Value) (float64, bool, error) {
	switch x := v.(type) {
	case Float:
		return float64(x), true, nil
	case Int:
		return float64(x), true, nil
	case Bool:
		if x {
			return 1, true, nil
		}
		return 0, true, nil
	case *BigInt:
		f, _ := new(big.Float).SetInt(x.v).Float64()
		if math.IsInf(f, 0) {
			return 0, true, NewException(OverflowError, "int too large to convert to float")
		}
		return f, true, nil
	}
	return 0, false, nil
}

func smallInt(v Value) (int64, bool) {
	switch x := v.(type) {
	case Int:
		return int64(x), true
	case Bool:
		if x {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// numericOp computes a binary operator on ints and floats; ok=false when
// the operands are not both numbers.
func (it *Interp) numericOp(op Op, a, b Value) (Value, bool, error) {
	if !isNumber(a) || !isNumber(b) {
		return nil, false, nil
	}
	_, af := a.(Float)
	_, bf := b.(Float)
	if !af && !bf {
		v, err := it.intOp(op, a, b)
		return v, true, err
	}
	if op == OpLShift || op == OpRShift || op == OpAnd || op == OpOr || op == OpXor || op == OpMatMul {
		return nil, false, nil
	}
	x, _, err := toFloat(a)
	if err != nil {
		return nil, true, err
	}
	y, _, err := toFloat(b)
	if err != nil {
		return nil, true, err
	}
	v, err := floatOp(op, x, y)
	return v, true, err
}

func isNumber(v Value) bool {
	switch v.(type) {
	case Int, Bool, *BigInt, Float:
		return true
	}
	return false
}

func floatOp(op Op, x, y float64) (Value, error) {
	switch op {
	case OpAdd:
		return Float(x + y), nil
	case OpSub:
		return Float(x - y), nil
	case OpMul:
		return Float(x * y), nil
	case OpTrueDiv:
		if y == 0 {
			return nil, NewException(ZeroDivisionError, "float division by zero")
		}
		return Float(x / y), nil
	case OpFloorDiv:
		if y == 0 {
			return nil, NewException(ZeroDivisionError, "float floor division by zero")
		}
		r, err := pyfmt.FloatFloorDiv(x, y)
		return Float(r), err
	case OpMod:
		if y == 0 {
			return nil, NewException(ZeroDivisionError, "float modulo")
		}
		r, err := pyfmt.FloatMod(x, y)
		return Float(r), err
	case OpPow:
		if x == 0 && y < 0 {
			return nil, NewException(ZeroDivisionError, "0.0 cannot be raised to a negative power")
		}
		if x < 0 && y != math.Trunc(y) {
			return nil, NewException(ValueError, "complex numbers are not supported in the playground")
		}
		r := floatPow(x, y)
		if math.IsInf(r, 0) && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
			return nil, NewException(OverflowError, "(34, 'Numerical result out of range')")
		}
		return Float(r), nil
	}
	return nil, newTypeError("bad float operator")
}

// intOp computes a binary operator on two ints.
func (it *Interp) intOp(op Op, a, b Value) (Value, error) {
	x, xok := smallInt(a)
	y, yok := smallInt(b)
	if xok && yok {
		switch op {
		case OpAdd:
			if v, ok := fastIntOp(op, Int(x), Int(y)); ok {
				return v, nil
			}
		case OpSub:
			if v, ok := fastIntOp(op, Int(x), Int(y)); ok {
				return v, nil
			}
		case OpMul:
			if v, ok := fastIntOp(op, Int(x), Int(y)); ok {
				return v, nil
			}
		case OpTrueDiv:
			if y == 0 {
				return nil, NewException(ZeroDivisionError, "division by zero")
			}
			if x > -(1<<53) && x < 1<<53 && y > -(1<<53) && y < 1<<53 {
				return Float(float64(x) / float64(y)), nil
			}
		case OpFloorDiv:
			if y == 0 {
				return nil, NewException(ZeroDivisionError, "integer division or modulo by zero")
			}
			if !(x == math.MinInt64 && y == -1) {
				q := x / y
				if (x%y != 0) && ((x < 0) != (y < 0)) {
					q--
				}
				return Int(q), nil
			}
		case OpMod:
			if y == 0 {
				return nil, NewException(ZeroDivisionError, "integer division or modulo by zero")
			}
			if y == -1 {
				return Int(0), nil
			}
			m := x % y
			if m != 0 && ((m < 0) != (y < 0)) {
				m += y
			}
			return Int(m), nil
		case OpAnd:
			return Int(x & y), nil
		case OpOr:
			return Int(x | y), nil
		case OpXor:
			return Int(x ^ y), nil
		case OpRShift:
			if y < 0 {
				return nil, newValueError("negative shift count")
			}
			if y > 63 {
				if x < 0 {
					return Int(-1), nil
				}
				return Int(0), nil
			}
			return Int(x >> uint(y)), nil
		}
	}
	bx, _ := toBig(a)
	by, _ := toBig(b)
	r := new(big.Int)
	switch op {
	case OpAdd:
		r.Add(bx, by)
	case OpSub:
		r.Sub(bx, by)
	case OpMul:
		if err := it.checkBits(bx.BitLen() + by.BitLen()); err != nil {
			return nil, err
		}
		r.Mul(bx, by)
	case OpTrueDiv:
		if by.Sign() == 0 {
			return nil, NewException(ZeroDivisionError, "division by zero")
		}
		q := new(big.Rat).SetFrac(bx, by)
		f, _ := q.Float64()
		if math.IsInf(f, 0) {
			return nil, NewException(OverflowError, "integer division result too large for a float")
		}
		return Float(f), nil
	case OpFloorDiv, OpMod:
		if by.Sign() == 0 {
			return nil, NewException(ZeroDivisionError, "integer division or modulo by zero")
		}
		q, m := new(big.Int).DivMod(bx, by, new(big.Int))
		// big.DivMod is Euclidean (m >= 0); Python's modulo has the sign of by.
		if by.Sign() < 0 && m.Sign() != 0 {
			m.Add(m, by)
			q.Add(q, big.NewInt(1))
		}
		if op == OpMod {
			return MakeInt(m), nil
		}
		return MakeInt(q), nil
	case OpPow:
		if by.Sign() < 0 {
			fx, _ := new(big.Float).SetInt(bx).Float64()
			fy, _ := new(big.Float).SetInt(by).Float64()
			if fx == 0 {
				return nil, NewException(ZeroDivisionError, "0.0 cannot be raised to a negative power")
			}
			return Float(floatPow(fx, fy)), nil
		}
		if !by.IsInt64() || (bx.BitLen() > 1 && int64(bx.BitLen())*by.Int64() > 1<<24) {
			if bx.BitLen() <= 1 {
				// 0, 1, -1
				if bx.Sign() == 0 {
					return Int(0), nil
				}
				if bx.Sign() > 0 || by.Bit(0) == 0 {
					return Int(1), nil
				}
				return Int(-1), nil
			}
			return nil, &LimitError{Msg: "an integer grew beyond the playground's size limit"}
		}
		r.Exp(bx, by, nil)
	case OpLShift:
		if by.Sign() < 0 {
			return nil, newValueError("negative shift count")
		}
		if !by.IsInt64() || by.Int64() > 1<<24 {
			if bx.Sign() == 0 {
				return Int(0), nil
			}
			return nil, &LimitError{Msg: "an integer grew beyond the playground's size limit"}
		}
		r.Lsh(bx, uint(by.Int64()))
	case OpRShift:
		if by.Sign() < 0 {
			return nil, newValueError("negative shift count")
		}
		if !by.IsInt64() {
			if bx.Sign() < 0 {
				return Int(-1), nil
			}
			return Int(0), nil
		}
		r.Rsh(bx, uint(by.Int64()))
	case OpAnd:
		r.And(bx, by)
	case OpOr:
		r.Or(bx, by)
	case OpXor:
		r.Xor(bx, by)
	default:
		return nil, newTypeError("unsupported operand type(s) for @: 'int' and 'int'")
	}
	return MakeInt(r), nil
}

func (it *Interp) checkBits(n int) error {
	if n > 1<<24 {
		return &LimitError{Msg: "an integer grew beyond the playground's size limit"}
	}
	return nil
}

// numCompare compares two numbers exactly (int/float comparisons are exact).
func numCompare(a, b Value) (int, bool) {
	if !isNumber(a) || !isNumber(b) {
		return 0, false
	}
	x, xok := smallInt(a)
	y, yok := smallInt(b)
	if xok && yok {
		switch {
		case x < y:
			return -1, true
		case x > y:
			return 1, true
		}
		return 0, true
	}
	fa, aIsF := a.(Float)
	fb, bIsF := b.(Float)
	if aIsF && bIsF {
		switch {
		case fa < fb:
			return -1, true
		case fa > fb:
			return 1, true
		case fa == fb:
			return 0, true
		}
		return 2, true // NaN: unordered
	}
	if aIsF || bIsF {
		var f float64
		var iv Value
		sign := 1
		if aIsF {
			f, iv = float64(fa), b
		} else {
			f, iv = float64(fb), a
			sign = -1
		}
		if math.IsNaN(f) {
			return 2, true
		}
		if math.IsInf(f, 0) {
			if f > 0 {
				return sign, true
			}
			return -sign, true
		}
		bi, _ := toBig(iv)
		fr := new(big.Rat).SetFloat64(f)
		c := fr.Cmp(new(big.Rat).SetInt(bi))
		return sign * c, true
	}
	bx, _ := toBig(a)
	by, _ := toBig(b)
	return bx.Cmp(by), true
}
