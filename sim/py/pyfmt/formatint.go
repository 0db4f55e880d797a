package pyfmt

import (
	"math"
	"math/big"
)

// formatInt implements int.__format__ (and bool's, via typeName "bool").
// str is what an empty spec yields (str(value)).
func formatInt(i *big.Int, spec, typeName string, str func() (string, error)) (string, error) {
	if spec == "" {
		return str()
	}
	s, err := parseSpec(spec, typeName, 'd')
	if err != nil {
		return "", err
	}
	if s.Align == 0 {
		s.Align = '>'
	}
	switch s.Type {
	case 'b', 'c', 'd', 'o', 'x', 'X', 'n':
		return formatLongInternal(i, &s)
	case 'e', 'E', 'f', 'F', 'g', 'G', '%':
		f, err := intToFloat(i)
		if err != nil {
			return "", err
		}
		return formatFloatInternal(f, &s)
	default:
		return "", valueErr("Unknown format code '%s' for object of type '%s'", codeChar(s.Type), typeName)
	}
}

// intToFloat converts like float(int): correctly rounded, OverflowError
// when out of range.
func intToFloat(i *big.Int) (float64, error) {
	if i.IsInt64() {
		v := i.Int64()
		if v > -(1<<53) && v < 1<<53 {
			return float64(v), nil
		}
	}
	f, _ := new(big.Float).SetInt(i).Float64()
	if math.IsInf(f, 0) {
		return 0, overflowErr("int too large to convert to float")
	}
	return f, nil
}

// formatLongInternal is CPython's format_long_internal.
func formatLongInternal(i *big.Int, s *Spec) (string, error) {
	if s.Precision != -1 {
		return "", valueErr("Precision not allowed in integer format specifier")
	}
	if s.NoNegZero {
		return "", valueErr("Negative zero coercion (z) not allowed in integer format specifier")
	}
	var n number
	if s.Type == 'c' {
		if s.Sign != 0 {
			return "", valueErr("Sign not allowed with integer format specifier 'c'")
		}
		if s.Alt {
			return "", valueErr("Alternate form (#) not allowed with integer format specifier 'c'")
		}
		if !i.IsInt64() {
			return "", overflowErr("Python int too large to convert to C long")
		}
		x := i.Int64()
		if x < 0 || x > 0x10ffff {
			return "", &Error{Type: "OverflowError", Msg: "%c arg not in range(0x110000)"}
		}
		// A lone surrogate cannot be UTF-8: string() yields U+FFFD.
		n.remainder = string(rune(x))
		return layoutNumber(n, s, 0, "", false)
	}
	base := 10
	switch s.Type {
	case 'b':
		base, n.prefix = 2, "0b"
	case 'o':
		base, n.prefix = 8, "0o"
	case 'x', 'X':
		base, n.prefix = 16, "0x"
	}
	if !s.Alt {
		n.prefix = ""
	}
	d, err := intBaseDigits(i, base)
	if err != nil {
		return "", err
	}
	n.digits = d
	n.neg = i.Sign() < 0
	group, sep := groupingFor(s)
	return layoutNumber(n, s, group, sep, s.Type == 'X')
}

// groupingFor returns the digit group size and separator for a spec:
// '_' groups by four for b, o, x and X (PEP 515), 'n' uses the C locale
// (no grouping).
func groupingFor(s *Spec) (int, string) {
	if s.Type == 'n' {
		return 0, ""
	}
	switch s.Grouping {
	case ',':
		return 3, ","
	case '_':
		switch s.Type {
		case 'b', 'o', 'x', 'X':
			return 4, "_"
		}
		return 3, "_"
	}
	return 0, ""
}
