package pyfmt

import "math"

// formatFloat implements float.__format__.
func formatFloat(f float64, spec string) (string, error) {
	if spec == "" {
		return floatRepr(f), nil
	}
	s, err := parseSpec(spec, "float", 0)
	if err != nil {
		return "", err
	}
	if s.Align == 0 {
		s.Align = '>'
	}
	switch s.Type {
	case 0, 'e', 'E', 'f', 'F', 'g', 'G', 'n', '%':
		return formatFloatInternal(f, &s)
	default:
		return "", valueErr("Unknown format code '%s' for object of type 'float'", codeChar(s.Type))
	}
}

// formatFloatInternal is CPython's format_float_internal.
func formatFloatInternal(val float64, s *Spec) (string, error) {
	if s.Precision > math.MaxInt32 {
		return "", valueErr("precision too big")
	}
	precision := s.Precision
	defPrec := 6
	flags := 0
	if s.Alt {
		flags |= dtsfAlt
	}
	if s.NoNegZero {
		flags |= dtsfNoNegZero
	}
	typ := s.Type
	if typ == 0 {
		flags |= dtsfAddDot0
		typ = 'r'
		defPrec = 0
	}
	if typ == 'n' {
		typ = 'g'
	}
	pct := false
	if typ == '%' {
		typ = 'f'
		val *= 100
		pct = true
	}
	if precision < 0 {
		precision = defPrec
	} else if typ == 'r' {
		typ = 'g'
	}
	if err := checkFloatSize(val, byte(typ), precision, s.Alt); err != nil {
		return "", err
	}
	out := floatToString(val, byte(typ), precision, flags)
	if pct {
		out += "%"
	}
	if s.Sign != '+' && s.Sign != ' ' && s.Width == -1 && s.Type != 'n' && s.Grouping == 0 {
		return out, nil
	}
	group, sep := groupingFor(s)
	return layoutNumber(splitNumber(out), s, group, sep, false)
}

// checkFloatSize refuses (MemoryError) float texts longer than
// maxOutputLen, which CPython would build.
func checkFloatSize(val float64, typ byte, precision int, alt bool) error {
	size := 0
	switch typ {
	case 'e', 'E':
		size = precision
	case 'f', 'F':
		size = precision
		if e := math.Abs(val); e > 1 && !math.IsInf(e, 0) {
			size += int(math.Log10(e)) + 1
		}
	case 'g', 'G':
		if alt {
			size = precision
		}
	}
	if size > maxOutputLen {
		return memoryErr()
	}
	return nil
}
