package pyfmt

import "strings"

// formatString implements str.__format__.
func formatString(v, spec string) (string, error) {
	if spec == "" {
		return v, nil
	}
	s, err := parseSpec(spec, "str", 's')
	if err != nil {
		return "", err
	}
	if s.Align == 0 {
		s.Align = '<'
	}
	if s.Type != 's' {
		return "", valueErr("Unknown format code '%s' for object of type 'str'", codeChar(s.Type))
	}
	if s.Sign == ' ' {
		return "", valueErr("Space not allowed in string format specifier")
	}
	if s.Sign != 0 {
		return "", valueErr("Sign not allowed in string format specifier")
	}
	if s.NoNegZero {
		return "", valueErr("Negative zero coercion (z) not allowed in string format specifier")
	}
	if s.Alt {
		return "", valueErr("Alternate form (#) not allowed in string format specifier")
	}
	if s.Align == '=' {
		return "", valueErr("'=' alignment not allowed in string format specifier")
	}
	if s.Width > maxOutputLen {
		return "", memoryErr()
	}
	n := runeLen(v)
	if (s.Width == -1 || s.Width <= n) && (s.Precision == -1 || s.Precision >= n) {
		return v, nil
	}
	if s.Precision >= 0 && n >= s.Precision {
		v = truncateRunes(v, s.Precision)
		n = s.Precision
	}
	return pad(v, n, s.Width, s.Align, s.Fill), nil
}

// truncateRunes returns the first n code points of v.
func truncateRunes(v string, n int) string {
	i := 0
	for pos := range v {
		if i == n {
			return v[:pos]
		}
		i++
	}
	return v
}

// pad aligns v (n code points long) in a field of width using fill, like
// CPython's calc_padding and fill_padding.
func pad(v string, n, width int, align byte, fill rune) string {
	total := max(width, n)
	var l int
	switch align {
	case '>':
		l = total - n
	case '^':
		l = (total - n) / 2
	}
	r := total - n - l
	f := string(fill)
	return strings.Repeat(f, l) + v + strings.Repeat(f, r)
}
