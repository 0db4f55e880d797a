package pyfmt

import (
	"math"
	"strconv"
	"strings"
)

// Flags for floatToString, mirroring CPython's Py_DTSF_* flags.
const (
	dtsfSign      = 1 << iota // always emit a sign
	dtsfAddDot0               // "1.0" rather than "1" when integral
	dtsfAlt                   // alternate form: keep the point and zeros
	dtsfNoNegZero             // turn a negative zero result into a positive one
)

// floatToString is CPython's PyOS_double_to_string for format codes
// e E f F g G and r (repr; precision must be 0). It returns plain ASCII.
func floatToString(val float64, code byte, precision int, flags int) string {
	upper := false
	var mode int
	switch code {
	case 'E', 'F', 'G':
		upper = true
		code += 'a' - 'A'
	}
	switch code {
	case 'e':
		mode = 2
		precision++
	case 'f':
		mode = 3
	case 'g':
		mode = 2
		if precision == 0 {
			precision = 1
		}
	case 'r':
		mode = 0
	}
	return formatFloatShort(val, code, mode, precision, flags, upper)
}

// formatFloatShort lays out dtoa digits following CPython's
// format_float_short (Python/pystrtod.c).
func formatFloatShort(d float64, code byte, mode, precision, flags int, upper bool) string {
	var b strings.Builder
	if math.IsNaN(d) || math.IsInf(d, 0) {
		if math.IsInf(d, -1) {
			b.WriteByte('-')
		} else if flags&dtsfSign != 0 {
			b.WriteByte('+')
		}
		switch {
		case math.IsNaN(d) && upper:
			b.WriteString("NAN")
		case math.IsNaN(d):
			b.WriteString("nan")
		case upper:
			b.WriteString("INF")
		default:
			b.WriteString("inf")
		}
		return b.String()
	}
	digits, decpt, neg := dtoa(d, mode, precision)
	if flags&dtsfNoNegZero != 0 && neg && (digits == "" || digits == "0") {
		neg = false
	}
	alt := flags&dtsfAlt != 0
	addDot0 := flags&dtsfAddDot0 != 0
	ndig := len(digits)
	vEnd := ndig
	useExp := false
	switch code {
	case 'e':
		useExp = true
		vEnd = precision
	case 'f':
		vEnd = decpt + precision
	case 'g':
		lim := precision
		if addDot0 {
			lim = precision - 1
		}
		if decpt <= -4 || decpt > lim {
			useExp = true
		}
		if alt {
			vEnd = precision
		}
	case 'r':
		if decpt <= -4 || decpt > 16 {
			useExp = true
		}
	}
	exp := 0
	if useExp {
		exp = decpt - 1
		decpt = 1
	}
	vStart := 0
	if decpt <= 0 {
		vStart = decpt - 1
	}
	if !useExp && addDot0 {
		vEnd = max(vEnd, decpt+1)
	} else {
		vEnd = max(vEnd, decpt)
	}
	if neg {
		b.WriteByte('-')
	} else if flags&dtsfSign != 0 {
		b.WriteByte('+')
	}
	zeros := func(n int) {
		for ; n > 0; n-- {
			b.WriteByte('0')
		}
	}
	if decpt <= 0 {
		zeros(decpt - vStart)
		b.WriteByte('.')
		zeros(-decpt)
	} else {
		zeros(-vStart)
	}
	if 0 < decpt && decpt <= ndig {
		b.WriteString(digits[:decpt])
		b.WriteByte('.')
		b.WriteString(digits[decpt:])
	} else {
		b.WriteString(digits)
	}
	if ndig < decpt {
		zeros(decpt - ndig)
		b.WriteByte('.')
		zeros(vEnd - decpt)
	} else {
		zeros(vEnd - ndig)
	}
	out := b.String()
	if strings.HasSuffix(out, ".") && !alt {
		out = out[:len(out)-1]
	}
	if useExp {
		if upper {
			out += "E"
		} else {
			out += "e"
		}
		if exp < 0 {
			out += "-"
			exp = -exp
		} else {
			out += "+"
		}
		if exp < 10 {
			out += "0"
		}
		out += strconv.Itoa(exp)
	}
	return out
}
