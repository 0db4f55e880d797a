package pyfmt

import "strings"

// number is a formatted number split the way CPython's calc_number_widths
// sees it: sign, prefix ("0x"), integer digits, optional decimal point and
// the remainder (fraction, exponent, '%', "inf", or a 'c' character).
type number struct {
	neg        bool
	prefix     string
	digits     string
	hasDecimal bool
	remainder  string
}

// splitNumber splits the ASCII output of floatToString (plus an optional
// '%') into a number.
func splitNumber(s string) number {
	var n number
	if strings.HasPrefix(s, "-") {
		n.neg = true
		s = s[1:]
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	n.digits = s[:i]
	rest := s[i:]
	if strings.HasPrefix(rest, ".") {
		n.hasDecimal = true
		rest = rest[1:]
	}
	n.remainder = rest
	return n
}

// layoutNumber pads and groups n according to spec, following CPython's
// calc_number_widths and fill_number. group is the grouping size (0 for
// none) and sep the separator; upper uppercases prefix and digits ('X').
func layoutNumber(n number, s *Spec, group int, sep string, upper bool) (string, error) {
	var signCh byte
	switch s.Sign {
	case '+':
		signCh = '+'
		if n.neg {
			signCh = '-'
		}
	case ' ':
		signCh = ' '
		if n.neg {
			signCh = '-'
		}
	default:
		if n.neg {
			signCh = '-'
		}
	}
	nSign := 0
	if signCh != 0 {
		nSign = 1
	}
	nDecimal := 0
	if n.hasDecimal {
		nDecimal = 1
	}
	nonDigit := nSign + len(n.prefix) + nDecimal + runeLen(n.remainder)
	minWidth := 0
	if s.Fill == '0' && s.Align == '=' {
		minWidth = s.Width - nonDigit
	}
	if s.Width > maxOutputLen {
		return "", memoryErr()
	}
	grouped := ""
	if n.digits != "" {
		grouped = groupDigits(n.digits, minWidth, group, sep)
	}
	if upper {
		grouped = strings.ToUpper(grouped)
	}
	pad := s.Width - (nonDigit + len(grouped))
	var lpad, spad, rpad int
	if pad > 0 {
		switch s.Align {
		case '<':
			rpad = pad
		case '^':
			lpad = pad / 2
			rpad = pad - lpad
		case '=':
			spad = pad
		default:
			lpad = pad
		}
	}
	var b strings.Builder
	fill := string(s.Fill)
	b.WriteString(strings.Repeat(fill, lpad))
	if signCh != 0 {
		b.WriteByte(signCh)
	}
	if upper {
		b.WriteString(strings.ToUpper(n.prefix))
	} else {
		b.WriteString(n.prefix)
	}
	b.WriteString(strings.Repeat(fill, spad))
	b.WriteString(grouped)
	if n.hasDecimal {
		b.WriteByte('.')
	}
	b.WriteString(n.remainder)
	b.WriteString(strings.Repeat(fill, rpad))
	return b.String(), nil
}

// groupDigits inserts sep every group digits from the right and pads with
// leading zeros up to minWidth characters, like CPython's
// _PyUnicode_InsertThousandsGrouping (group 0 means no grouping).
func groupDigits(digits string, minWidth, group int, sep string) string {
	minWidth = max(minWidth, 0)
	remaining := len(digits)
	var chunks []string // right to left
	useSep := false
	emit := func(l int) {
		nz := max(0, l-remaining)
		nc := max(0, min(remaining, l))
		chunk := strings.Repeat("0", nz) + digits[remaining-nc:remaining]
		if useSep {
			chunk += sep
		}
		chunks = append(chunks, chunk)
		useSep = true
		remaining -= nc
	}
	done := false
	if group > 0 {
		for {
			l := min(group, max(remaining, minWidth, 1))
			emit(l)
			minWidth -= l
			if remaining <= 0 && minWidth <= 0 {
				done = true
				break
			}
			minWidth -= len(sep)
		}
	}
	if !done {
		emit(max(remaining, minWidth, 1))
	}
	var b strings.Builder
	for i := len(chunks) - 1; i >= 0; i-- {
		b.WriteString(chunks[i])
	}
	return b.String()
}
