package pyfmt

import (
	"math/big"
	"strings"
)

// maxDigitsMsg is CPython's message when an int is too long to convert to
// decimal text (sys.get_int_max_str_digits()).
const maxDigitsMsg = "Exceeds the limit (%d digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit"

// intDecimal returns the decimal text of i (with '-' if negative), or
// CPython's ValueError when it has more than MaxStrDigits digits.
func intDecimal(i *big.Int) (string, error) {
	limit := MaxStrDigits
	if limit > 0 && float64(i.BitLen()-1)*0.30103 > float64(limit)+1 {
		// |i| >= 2**(bits-1) has more than limit digits: skip the
		// (superlinear) conversion of huge values.
		return "", valueErr(maxDigitsMsg, limit)
	}
	s := i.String()
	n := len(s)
	if i.Sign() < 0 {
		n--
	}
	if limit > 0 && n > limit {
		return "", valueErr(maxDigitsMsg, limit)
	}
	return s, nil
}

// intBaseDigits returns |i| in base 2, 8, 16 or 10 (lowercase letters);
// only base 10 is subject to the MaxStrDigits limit.
func intBaseDigits(i *big.Int, base int) (string, error) {
	if base == 10 {
		s, err := intDecimal(i)
		return strings.TrimPrefix(s, "-"), err
	}
	return new(big.Int).Abs(i).Text(base), nil
}

// intBase implements bin(), oct() and hex().
func intBase(i *big.Int, base int) string {
	var prefix string
	switch base {
	case 2:
		prefix = "0b"
	case 8:
		prefix = "0o"
	case 16:
		prefix = "0x"
	default:
		return ""
	}
	d, _ := intBaseDigits(i, base)
	if i.Sign() < 0 {
		return "-" + prefix + d
	}
	return prefix + d
}
