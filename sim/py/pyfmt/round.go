package pyfmt

import (
	"math"
	"math/big"
	"strconv"
)

// round implements round(float, ndigits) like CPython's double_round:
// the exact binary value is rounded half-to-even at 10**-ndigits and the
// decimal result converted back with correct rounding.
func round(x float64, nd int) (float64, error) {
	const ndigitsMax, ndigitsMin = 323, -308
	switch {
	case math.IsNaN(x) || math.IsInf(x, 0):
		return x, nil
	case nd > ndigitsMax:
		return x, nil
	case nd < ndigitsMin:
		return 0 * x, nil
	case x == 0:
		return x, nil
	}
	r := new(big.Rat).SetFloat64(math.Abs(x))
	pow := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(nd))), nil)
	if nd >= 0 {
		r.Mul(r, new(big.Rat).SetInt(pow))
	} else {
		r.Quo(r, new(big.Rat).SetInt(pow))
	}
	m := ratRoundHalfEven(r)
	text := m.String() + "e" + strconv.Itoa(-nd)
	if math.Signbit(x) {
		text = "-" + text
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil && math.IsInf(f, 0) {
		return 0, overflowErr("rounded value too large to represent")
	}
	return f, nil
}

// ratRoundHalfEven rounds a non-negative rational to the nearest integer,
// ties to even.
func ratRoundHalfEven(r *big.Rat) *big.Int {
	q, rem := new(big.Int).QuoRem(r.Num(), r.Denom(), new(big.Int))
	twice := rem.Lsh(rem, 1)
	switch twice.Cmp(r.Denom()) {
	case 1:
		q.Add(q, big.NewInt(1))
	case 0:
		if q.Bit(0) == 1 {
			q.Add(q, big.NewInt(1))
		}
	}
	return q
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// roundToInt implements round(float) with no ndigits.
func roundToInt(x float64) (*big.Int, error) {
	if math.IsNaN(x) {
		return nil, valueErr("cannot convert float NaN to integer")
	}
	if math.IsInf(x, 0) {
		return nil, overflowErr("cannot convert float infinity to integer")
	}
	i, _ := new(big.Float).SetFloat64(math.RoundToEven(x)).Int(nil)
	return i, nil
}

// roundInt implements round(int, ndigits): half-to-even at 10**-ndigits.
func roundInt(i *big.Int, nd int) *big.Int {
	if nd >= 0 {
		return new(big.Int).Set(i)
	}
	// 10**-nd > 2*|i| makes the result 0; skip computing a huge power.
	if float64(-nd) > float64(i.BitLen())*0.31+2 {
		return new(big.Int)
	}
	pow := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-nd)), nil)
	a := new(big.Int).Abs(i)
	m := ratRoundHalfEven(new(big.Rat).SetFrac(a, pow))
	m.Mul(m, pow)
	if i.Sign() < 0 {
		m.Neg(m)
	}
	return m
}
