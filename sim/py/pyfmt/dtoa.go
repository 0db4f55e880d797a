package pyfmt

import (
	"math"
	"strconv"
	"strings"
)

// dtoa emulates David Gay's _Py_dg_dtoa for finite non-negative-or-negative
// d: it returns the significant decimal digits of |d| without trailing
// zeros, the position of the decimal point relative to them (value =
// 0.DIGITS * 10**decpt), and whether d is negative.
//
// mode 0 gives the shortest round-trip digits; mode 2 gives max(1, ndigits)
// significant digits; mode 3 gives ndigits digits after the decimal point
// (ndigits >= 0). All roundings are correct (half-even on the exact binary
// value), as in Gay's code. A zero result is "0" with decpt 1, except that
// mode 3 rounding a non-zero value to nothing yields "" with decpt -ndigits.
func dtoa(d float64, mode, ndigits int) (digits string, decpt int, neg bool) {
	neg = math.Signbit(d)
	a := math.Abs(d)
	if a == 0 {
		return "0", 1, neg
	}
	var buf [32]byte
	switch mode {
	case 0, 2:
		prec := -1
		if mode == 2 {
			prec = max(ndigits, 1) - 1
		}
		var s []byte
		if prec < 20 {
			s = strconv.AppendFloat(buf[:0], a, 'e', prec, 64)
		} else {
			s = strconv.AppendFloat(nil, a, 'e', prec, 64)
		}
		// s is "D[.DDD]e±XX".
		e := strings.LastIndexByte(string(s), 'e')
		exp, _ := strconv.Atoi(string(s[e+1:]))
		mant := make([]byte, 0, e)
		for _, c := range s[:e] {
			if c != '.' {
				mant = append(mant, c)
			}
		}
		return strings.TrimRight(string(mant), "0"), exp + 1, neg
	default:
		s := strconv.FormatFloat(a, 'f', ndigits, 64)
		intPart, frac, _ := strings.Cut(s, ".")
		all := intPart + frac
		decpt = len(intPart)
		trimmed := strings.TrimLeft(all, "0")
		decpt -= len(all) - len(trimmed)
		trimmed = strings.TrimRight(trimmed, "0")
		if trimmed == "" {
			return "", -ndigits, neg
		}
		return trimmed, decpt, neg
	}
}
