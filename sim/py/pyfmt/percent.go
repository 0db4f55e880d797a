package pyfmt

import (
	"math"
	"math/big"
	"strings"
)

// Conversion flags of a %-format directive.
const (
	fLJust = 1 << iota
	fSign
	fBlank
	fAlt
	fZero
)

// percentState is CPython's unicode_formatter_t: the format text, the
// operand(s) and the argument cursor. With a single non-tuple operand
// arglen is -1 and argidx starts at -2, exactly as in CPython, so that the
// same "not enough"/"not all converted" decisions fall out.
type percentState struct {
	fmt     []rune
	pos     int
	args    []Arg // the tuple items, or the single current operand
	arglen  int
	argidx  int
	mapping Mapping
	out     strings.Builder
}

// percentArg is one parsed directive (unicode_format_arg_t).
type percentArg struct {
	ch    rune
	flags int
	width int
	prec  int
	sign  bool
}

func percentFormat(format string, args []Arg, tuple bool, mapping Mapping) (string, error) {
	st := &percentState{fmt: []rune(format), args: args, mapping: mapping}
	if tuple {
		st.arglen, st.argidx = len(args), 0
	} else {
		if len(args) != 1 {
			return "", typeErr("pyfmt.Percent: a non-tuple operand must be passed as exactly one Arg")
		}
		st.arglen, st.argidx = -1, -2
	}
	for st.pos < len(st.fmt) {
		if st.fmt[st.pos] != '%' {
			start := st.pos
			for st.pos < len(st.fmt) && st.fmt[st.pos] != '%' {
				st.pos++
			}
			st.out.WriteString(string(st.fmt[start:st.pos]))
			continue
		}
		st.pos++
		if err := st.directive(); err != nil {
			return "", err
		}
	}
	if st.argidx < st.arglen && st.mapping == nil {
		return "", typeErr("not all arguments converted during string formatting")
	}
	return st.out.String(), nil
}

// nextArg is unicode_format_getnextarg.
func (st *percentState) nextArg() (Arg, error) {
	if st.argidx < st.arglen {
		i := st.argidx
		st.argidx++
		if st.arglen < 0 {
			return st.args[0], nil
		}
		return st.args[i], nil
	}
	return nil, typeErr("not enough arguments for format string")
}

// read returns the next format character, or ok=false at the end (the
// point where CPython's fmtcnt goes negative).
func (st *percentState) read() (rune, bool) {
	if st.pos >= len(st.fmt) {
		return 0, false
	}
	c := st.fmt[st.pos]
	st.pos++
	return c, true
}

// directive handles one '%' directive (unicode_format_arg).
func (st *percentState) directive() error {
	var a percentArg
	if st.pos < len(st.fmt) {
		a.ch = st.fmt[st.pos]
	}
	if a.ch == '%' && st.pos < len(st.fmt) {
		st.pos++
		st.out.WriteByte('%')
		return nil
	}
	a.width, a.prec = -1, -1
	if err := st.parse(&a); err != nil {
		return err
	}
	s, done, err := st.convert(&a)
	if err != nil {
		return err
	}
	if !done {
		if err := st.output(&a, s); err != nil {
			return err
		}
	}
	if st.mapping != nil && st.argidx < st.arglen {
		return typeErr("not all arguments converted during string formatting")
	}
	return nil
}

// parse is unicode_format_arg_parse: key, flags, width, precision and
// length modifier, leaving the conversion character in a.ch.
func (st *percentState) parse(a *percentArg) error {
	if a.ch == '(' {
		if st.mapping == nil {
			return typeErr("format requires a mapping")
		}
		st.pos++
		start := st.pos
		depth := 1
		for depth > 0 {
			c, ok := st.read()
			if !ok {
				break
			}
			if c == ')' {
				depth--
			} else if c == '(' {
				depth++
			}
		}
		if depth > 0 {
			return valueErr("incomplete format key")
		}
		v, err := st.mapping.GetItem(string(st.fmt[start : st.pos-1]))
		if err != nil {
			return err
		}
		st.args = []Arg{v}
		st.arglen, st.argidx = -1, -2
	}
	more := true
	for {
		c, ok := st.read()
		if !ok {
			more = false
			break
		}
		a.ch = c
		switch c {
		case '-':
			a.flags |= fLJust
			continue
		case '+':
			a.flags |= fSign
			continue
		case ' ':
			a.flags |= fBlank
			continue
		case '#':
			a.flags |= fAlt
			continue
		case '0':
			a.flags |= fZero
			continue
		}
		break
	}
	if more && a.ch == '*' {
		n, err := st.starArg()
		if err != nil {
			return err
		}
		if !n.IsInt64() {
			return overflowErr("Python int too large to convert to C ssize_t")
		}
		a.width = int(n.Int64())
		if a.width < 0 {
			a.flags |= fLJust
			a.width = -a.width
		}
		more = st.advance(a)
	} else if more && isDigitRune(a.ch) {
		a.width = int(a.ch - '0')
		for {
			if more = st.advance(a); !more || !isDigitRune(a.ch) {
				break
			}
			if a.width > (math.MaxInt64-int(a.ch-'0'))/10 {
				return valueErr("width too big")
			}
			a.width = a.width*10 + int(a.ch-'0')
		}
	}
	if more && a.ch == '.' {
		a.prec = 0
		more = st.advance(a)
		if more && a.ch == '*' {
			n, err := st.starArg()
			if err != nil {
				return err
			}
			if !n.IsInt64() || n.Int64() > math.MaxInt32 || n.Int64() < math.MinInt32 {
				return overflowErr("Python int too large to convert to C int")
			}
			a.prec = max(int(n.Int64()), 0)
			more = st.advance(a)
		} else if more && isDigitRune(a.ch) {
			a.prec = int(a.ch - '0')
			for {
				if more = st.advance(a); !more || !isDigitRune(a.ch) {
					break
				}
				if a.prec > (math.MaxInt32-int(a.ch-'0'))/10 {
					return valueErr("precision too big")
				}
				a.prec = a.prec*10 + int(a.ch-'0')
			}
		}
	}
	if more && (a.ch == 'h' || a.ch == 'l' || a.ch == 'L') {
		more = st.advance(a)
	}
	if !more {
		return valueErr("incomplete format")
	}
	return nil
}

// advance reads the next character into a.ch, reporting false (and
// leaving a.ch alone) at the end of the format.
func (st *percentState) advance(a *percentArg) bool {
	c, ok := st.read()
	if ok {
		a.ch = c
	}
	return ok
}

func isDigitRune(c rune) bool { return c >= '0' && c <= '9' }

// starArg fetches the int argument of a '*' width or precision.
func (st *percentState) starArg() (*big.Int, error) {
	v, err := st.nextArg()
	if err != nil {
		return nil, err
	}
	n, ok := v.IntValue()
	if !ok {
		return nil, typeErr("* wants int")
	}
	return n, nil
}

// convert is unicode_format_arg_format: it fetches the argument and
// converts it to text. done is true when the text needs no padding pass
// (CPython's fast paths write it directly, with identical output).
func (st *percentState) convert(a *percentArg) (string, bool, error) {
	v, err := st.nextArg()
	if err != nil {
		return "", false, err
	}
	switch a.ch {
	case 's':
		s, err := v.Str()
		return s, false, err
	case 'r':
		s, err := v.Repr()
		return s, false, err
	case 'a':
		s, err := v.Repr()
		return asciiOf(s), false, err
	case 'i', 'd', 'u', 'o', 'x', 'X':
		s, err := percentInt(v, a)
		a.sign = true
		return s, false, err
	case 'e', 'E', 'f', 'F', 'g', 'G':
		f, ok, err := v.AsFloat()
		if err != nil {
			return "", false, err
		}
		if !ok {
			return "", false, typeErr("must be real number, not %s", v.TypeName())
		}
		prec := a.prec
		if prec < 0 {
			prec = 6
		}
		flags := 0
		if a.flags&fAlt != 0 {
			flags |= dtsfAlt
		}
		if err := checkFloatSize(f, byte(a.ch), prec, a.flags&fAlt != 0); err != nil {
			return "", false, err
		}
		a.sign = true
		return floatToString(f, byte(a.ch), prec, flags), false, nil
	case 'c':
		r, err := percentChar(v)
		return string(r), false, err
	}
	c := '?'
	if a.ch >= 31 && a.ch <= 126 {
		c = a.ch
	}
	return "", false, valueErr("unsupported format character '%c' (0x%x) at index %d", c, a.ch, st.pos-1)
}

// percentInt is mainformatlong plus _PyUnicode_FormatLong.
func percentInt(v Arg, a *percentArg) (string, error) {
	var n *big.Int
	var ok bool
	var err error
	if a.ch == 'o' || a.ch == 'x' || a.ch == 'X' {
		n, ok, err = v.AsIndex()
	} else {
		n, ok, err = v.AsInt()
	}
	if err != nil {
		return "", err
	}
	if !ok {
		if a.ch == 'o' || a.ch == 'x' || a.ch == 'X' {
			return "", typeErr("%%%c format: an integer is required, not %s", a.ch, v.TypeName())
		}
		return "", typeErr("%%%c format: a real number is required, not %s", a.ch, v.TypeName())
	}
	base, prefix := 10, ""
	switch a.ch {
	case 'o':
		base, prefix = 8, "0o"
	case 'x', 'X':
		base, prefix = 16, "0x"
	}
	digits, err := intBaseDigits(n, base)
	if err != nil {
		return "", err
	}
	if a.prec > maxOutputLen {
		return "", memoryErr()
	}
	if a.prec > len(digits) {
		digits = strings.Repeat("0", a.prec-len(digits)) + digits
	}
	if a.flags&fAlt == 0 {
		prefix = ""
	}
	s := prefix + digits
	if n.Sign() < 0 {
		s = "-" + s
	}
	if a.ch == 'X' {
		s = strings.ToUpper(s)
	}
	return s, nil
}

// percentChar is CPython's formatchar for %c.
func percentChar(v Arg) (rune, error) {
	if s, ok := v.StrValue(); ok {
		if runeLen(s) == 1 {
			return []rune(s)[0], nil
		}
		return 0, &Error{Type: "TypeError", Msg: "%c requires int or char"}
	}
	n, ok, err := v.AsIndex()
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, &Error{Type: "TypeError", Msg: "%c requires int or char"}
	}
	if !n.IsInt64() || n.Int64() < 0 || n.Int64() > 0x10ffff {
		return 0, &Error{Type: "OverflowError", Msg: "%c arg not in range(0x110000)"}
	}
	return rune(n.Int64()), nil
}

// output is unicode_format_arg_output: sign, prefix, padding.
func (st *percentState) output(a *percentArg, str string) error {
	if a.width > maxOutputLen {
		return memoryErr()
	}
	fill := ' '
	if a.sign && a.flags&fZero != 0 {
		fill = '0'
	}
	rs := []rune(str)
	n := len(rs)
	if (a.width == -1 || a.width <= n) && (a.prec == -1 || a.prec >= n) && a.flags&(fSign|fBlank) == 0 {
		st.out.WriteString(str)
		return nil
	}
	if (a.ch == 's' || a.ch == 'r' || a.ch == 'a') && a.prec >= 0 && n > a.prec {
		n = a.prec
	}
	idx := 0
	var signch rune
	if a.sign {
		if len(rs) > 0 && (rs[0] == '-' || rs[0] == '+') {
			signch = rs[0]
			n--
			idx++
		} else if a.flags&fSign != 0 {
			signch = '+'
		} else if a.flags&fBlank != 0 {
			signch = ' '
		} else {
			a.sign = false
		}
	}
	width := max(a.width, n)
	b := &st.out
	if a.sign {
		if fill != ' ' {
			b.WriteRune(signch)
		}
		if width > n {
			width--
		}
	}
	altPrefix := a.flags&fAlt != 0 && (a.ch == 'x' || a.ch == 'X' || a.ch == 'o')
	if altPrefix {
		if fill != ' ' {
			b.WriteString(string(rs[idx : idx+2]))
			idx += 2
		}
		width = max(width-2, 0)
		n -= 2
	}
	if width > n && a.flags&fLJust == 0 {
		b.WriteString(strings.Repeat(string(fill), width-n))
		width = n
	}
	if fill == ' ' {
		if a.sign {
			b.WriteRune(signch)
		}
		if altPrefix {
			b.WriteString(string(rs[idx : idx+2]))
			idx += 2
		}
	}
	if n > 0 {
		b.WriteString(string(rs[idx : idx+n]))
	}
	if width > n {
		b.WriteString(strings.Repeat(" ", width-n))
	}
	return nil
}
