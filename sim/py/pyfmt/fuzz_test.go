package pyfmt

import (
	"math"
	"math/big"
	"testing"
)

// FuzzFormatSpec feeds arbitrary specs to every formatter: no panics, and
// any error must be an *Error.
func FuzzFormatSpec(f *testing.F) {
	for _, s := range []string{"", "x<+#010,.3f", "_b", "z.2%", "é^20s", "99999999999999999999", ".", "0="} {
		f.Add(s, 12345.678)
	}
	f.Fuzz(func(t *testing.T, spec string, v float64) {
		check := func(_ string, err error) {
			if err != nil {
				if _, ok := err.(*Error); !ok {
					t.Fatalf("non-Python error %T %v for spec %q", err, err, spec)
				}
			}
		}
		check(FormatFloat(v, spec))
		check(FormatString(spec, spec))
		check(FormatBool(v > 0, spec))
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			i, _ := new(big.Float).SetFloat64(v).Int(nil)
			check(FormatInt(i, spec))
		}
	})
}

// FuzzParseFormatString checks the str.format parser and renderer.
func FuzzParseFormatString(f *testing.F) {
	for _, s := range []string{"a{0}b", "{{}}", "{0:{1}}", "{0[}", "{!r:>{}}", "{:{:{}}}", "}", "{0.a[b]!s:^{x}}"} {
		f.Add(s)
	}
	args := tvResolver{args: []tv{tInt64(1), tStr("s"), tList(tInt64(2))}, kw: tDict("x", tInt64(3))}
	f.Fuzz(func(t *testing.T, s string) {
		if _, err := ParseFormatString(s); err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("non-Python error %v", err)
			}
		}
		_, _ = Format[tv](s, args)
		_, _ = SplitFieldName(s)
	})
}

// FuzzPercent checks %-formatting against arbitrary format strings.
func FuzzPercent(f *testing.F) {
	for _, s := range []string{"%s", "%(a)s", "%-+#08.3f", "%*.*d", "%c%%", "%(", "%5"} {
		f.Add(s)
	}
	args := []Arg{testArg{tInt64(7)}, testArg{tFloat(2.5)}, testArg{tStr("é")}, testArg{tInt64(-3)}}
	m := testMapping{tDict("a", tInt64(1))}
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = Percent(s, args, true, nil)
		_, _ = Percent(s, args[:1], false, m)
	})
}

// FuzzParseFString checks the f-string scanner.
func FuzzParseFString(f *testing.F) {
	for _, s := range []string{"a{x!r:>{w}}b", "{x=}", "{'}'}", "{{", "}", `\N{DASH}{x}`, "{x:{y:{z}}}"} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, s string, raw bool) {
		parts, err := ParseFString(s, raw)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("non-Python error %v", err)
			}
			return
		}
		for _, p := range parts {
			if p.Expr != "" && s[p.Offset:p.Offset+len(p.Expr)] != p.Expr {
				t.Fatalf("offset %d does not locate %q in %q", p.Offset, p.Expr, s)
			}
		}
	})
}

// FuzzParseNumbers checks float() and int() parsing.
func FuzzParseNumbers(f *testing.F) {
	for _, s := range []string{"1_0.5", " -inf ", "0x_1f", "١٢٣", "1e500"} {
		f.Add(s, 0)
	}
	f.Fuzz(func(t *testing.T, s string, base int) {
		_, _ = ParseFloat(s)
		_, _ = ParseInt(s, base%40)
	})
}
