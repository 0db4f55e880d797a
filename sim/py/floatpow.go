package py

import (
	"math"
	"math/big"
	"sync"
)

// floatPow is x**y for floats as CPython computes it: C's pow(), which
// glibc rounds correctly in all but very rare cases (its documented worst
// error is 0.52 ulp). Go's math.Pow is often one unit in the last place off
// (0.95**5 gives 0.07737809375 where CPython prints 0.07737809374999999),
// so finite cases are computed with more precision and rounded once:
// integer exponents exactly, others as exp(y·ln x) with 128-bit
// intermediates. Special values (0, ±Inf, NaN, x < 0 with a fractional y)
// follow math.Pow, whose special cases are C99's, as glibc's are.
func floatPow(x, y float64) float64 {
	switch {
	case x == 0 || y == 0 || x == 1 || math.IsInf(x, 0) || math.IsNaN(x) || math.IsInf(y, 0) || math.IsNaN(y):
		return math.Pow(x, y)
	case y == math.Trunc(y) && math.Abs(y) <= maxExactPow:
		return exactIntPow(x, y)
	case x < 0:
		return math.Pow(x, y) // NaN, as C
	case y == 0.5:
		return math.Sqrt(x) // correctly rounded, as pow(x, 0.5) is
	}
	r := math.Pow(x, y)
	if r == 0 || math.IsInf(r, 0) || r < 0x1p-1000 || r > 0x1p1000 {
		return r // under/overflow ranges: no refinement
	}
	const prec = 128
	t := new(big.Float).SetPrec(prec).Mul(lnBig(x, prec), new(big.Float).SetPrec(prec).SetFloat64(y))
	v, _ := expBig(t, prec).Float64()
	return v
}

// maxExactPow bounds the integer exponents computed exactly (53·n bits).
const maxExactPow = 1024

// exactIntPow is x**y for an integer y, |y| ≤ maxExactPow, rounded once.
func exactIntPow(x, y float64) float64 {
	n := int(math.Abs(y))
	prec := uint(53*n + 64)
	base := new(big.Float).SetPrec(prec).SetFloat64(x)
	acc := new(big.Float).SetPrec(prec).SetInt64(1)
	for n > 0 { // exact: prec holds every bit of x**|y|
		if n&1 == 1 {
			acc.Mul(acc, base)
		}
		n >>= 1
		if n > 0 {
			base.Mul(base, base)
		}
	}
	if y < 0 {
		acc = new(big.Float).SetPrec(53).Quo(new(big.Float).SetInt64(1), acc)
	}
	r, _ := acc.Float64()
	return r
}

// lnBig is ln(x) for x > 0 to prec bits: x = m·2^e with m in
// [√½, √2), ln x = e·ln 2 + 2·atanh((m−1)/(m+1)).
func lnBig(x float64, prec uint) *big.Float {
	frac, exp := math.Frexp(x) // x = frac·2^exp, frac in [0.5, 1)
	if frac < math.Sqrt2/2 {
		frac, exp = frac*2, exp-1
	}
	r := lnAtanhBig(new(big.Float).SetPrec(prec).SetFloat64(frac), prec)
	e := new(big.Float).SetPrec(prec).SetInt64(int64(exp))
	return r.Add(r, e.Mul(e, ln2Big()))
}

// ln2Big is ln 2 to 128 bits, computed once.
var ln2Big = sync.OnceValue(func() *big.Float {
	return lnAtanhBig(new(big.Float).SetPrec(128).SetInt64(2), 128)
})

// lnAtanhBig is ln m = 2·atanh(z), z = (m−1)/(m+1), for m in [½, 2].
func lnAtanhBig(m *big.Float, prec uint) *big.Float {
	one := new(big.Float).SetPrec(prec).SetInt64(1)
	z := new(big.Float).SetPrec(prec).Quo(new(big.Float).SetPrec(prec).Sub(m, one), new(big.Float).SetPrec(prec).Add(m, one))
	z2 := new(big.Float).SetPrec(prec).Mul(z, z)
	sum := new(big.Float).SetPrec(prec).Set(z)
	term := new(big.Float).SetPrec(prec).Set(z)
	q := new(big.Float).SetPrec(prec)
	k := new(big.Float).SetPrec(prec)
	limit := sum.MantExp(nil) - int(prec) - 8
	for n := int64(3); n < 400; n += 2 {
		term.Mul(term, z2)
		q.Quo(term, k.SetInt64(n))
		sum.Add(sum, q)
		if q.Sign() == 0 || q.MantExp(nil) < limit {
			break
		}
	}
	return sum.Mul(sum, k.SetInt64(2))
}

// expBig is e^t to prec bits: t = k·ln 2 + r with |r| ≤ ln 2 / 2, e^r by
// its Taylor series, then scaled by 2^k.
func expBig(t *big.Float, prec uint) *big.Float {
	ln2 := ln2Big()
	kf := new(big.Float).SetPrec(prec).Quo(t, ln2)
	kv, _ := kf.Float64()
	k := math.Round(kv)
	r := new(big.Float).SetPrec(prec).Sub(t, kf.Mul(ln2, kf.SetFloat64(k)))
	sum := new(big.Float).SetPrec(prec).SetInt64(1)
	term := new(big.Float).SetPrec(prec).SetInt64(1)
	d := new(big.Float).SetPrec(prec)
	for n := int64(1); n < 200; n++ {
		term.Mul(term, r)
		term.Quo(term, d.SetInt64(n))
		sum.Add(sum, term)
		if term.Sign() == 0 || term.MantExp(nil) < -int(prec)-8 {
			break
		}
	}
	return sum.SetMantExp(sum, int(k))
}
