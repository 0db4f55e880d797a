package pyfmt

import "math"

// floatDivMod is CPython's _float_div_mod: the floored quotient and the
// remainder with the sign of y, with the same signed-zero results.
func floatDivMod(x, y float64) (float64, float64) {
	mod := math.Mod(x, y)
	div := (x - mod) / y
	if mod != 0 {
		if (y < 0) != (mod < 0) {
			mod += y
			div -= 1.0
		}
	} else {
		mod = math.Copysign(0, y)
	}
	var floordiv float64
	if div != 0 {
		floordiv = math.Floor(div)
		if div-floordiv > 0.5 {
			floordiv += 1.0
		}
	} else {
		floordiv = math.Copysign(0, x/y)
	}
	return floordiv, mod
}

// floatRem is CPython's float_rem (x % y without the quotient).
func floatRem(x, y float64) float64 {
	mod := math.Mod(x, y)
	if mod != 0 {
		if (y < 0) != (mod < 0) {
			mod += y
		}
	} else {
		mod = math.Copysign(0, y)
	}
	return mod
}
