package pyfmt

import (
	"math"
	"math/rand/v2"
	"strings"
)

// generateCases builds the deterministic differential table: several
// thousand (value, spec) pairs plus the other operations' tables.
func generateCases() []oracleCase {
	r := rand.New(rand.NewPCG(1, 2))
	var cs []oracleCase
	add := func(op string, a ...any) { cs = append(cs, oracleCase{Op: op, A: a}) }
	for _, c := range formatCases(r) {
		add("format", c.v, c.spec)
	}
	for _, f := range reprFloats(r) {
		add("repr", tFloat(f))
	}
	cs = append(cs, extraCases(r)...)
	cs = append(cs, percentCases(r)...)
	cs = append(cs, strFormatCases()...)
	cs = append(cs, fstringCases()...)
	return cs
}

type formatCase struct {
	v    tv
	spec string
}

// specParts are the ingredients of generated format specs.
var (
	fills   = []string{"", "*", "0", "é", " ", "x"}
	aligns  = []string{"", "<", ">", "^", "="}
	signs   = []string{"", "+", "-", " "}
	widths  = []string{"", "1", "5", "8", "13", "20", "07"}
	groups  = []string{"", ",", "_"}
	precs   = []string{"", ".0", ".1", ".2", ".3", ".6", ".12", ".17", ".25"}
	intTys  = []string{"", "b", "c", "d", "o", "x", "X", "n", "e", "E", "f", "F", "g", "G", "%", "s", "r"}
	fltTys  = []string{"", "e", "E", "f", "F", "g", "G", "n", "%", "d", "s", "x"}
	strTys  = []string{"", "s", "d", "r"}
	pickOne = func(r *rand.Rand, xs []string) string { return xs[r.IntN(len(xs))] }
)

// randomSpec draws a spec, mostly well-formed.
func randomSpec(r *rand.Rand, types []string) string {
	var b strings.Builder
	align := pickOne(r, aligns)
	if align != "" {
		b.WriteString(pickOne(r, fills))
		b.WriteString(align)
	}
	if r.IntN(3) == 0 {
		b.WriteString(pickOne(r, signs))
	}
	if r.IntN(8) == 0 {
		b.WriteString("z")
	}
	if r.IntN(5) == 0 {
		b.WriteString("#")
	}
	if r.IntN(5) == 0 {
		b.WriteString("0")
	}
	b.WriteString(pickOne(r, widths))
	if r.IntN(3) == 0 {
		b.WriteString(pickOne(r, groups))
	}
	if r.IntN(2) == 0 {
		b.WriteString(pickOne(r, precs))
	}
	b.WriteString(pickOne(r, types))
	return b.String()
}

func formatCases(r *rand.Rand) []formatCase {
	ints := []tv{tInt64(0), tInt64(1), tInt64(-1), tInt64(7), tInt64(-42), tInt64(255), tInt64(1234567),
		tInt64(-987654321), tInt("18446744073709551616"), tInt("-123456789012345678901234567890"),
		tInt64(65), tInt64(0x263a), tInt64(0x10ffff), tInt64(0x110000), tInt64(math.MaxInt64), tInt64(math.MinInt64),
		tInt("179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858368"),
		tBool(true), tBool(false)}
	for i := 0; i < 8; i++ {
		ints = append(ints, tInt64(r.Int64N(1<<40)-1<<39))
	}
	floats := []tv{tFloat(0), tFloat(math.Copysign(0, -1)), tFloat(math.Inf(1)), tFloat(math.Inf(-1)), tFloat(math.NaN()),
		tFloat(1.5), tFloat(-2.675), tFloat(0.125), tFloat(1e16), tFloat(1e-5), tFloat(123456789.123), tFloat(-0.0004),
		tFloat(5e-324), tFloat(math.MaxFloat64), tFloat(1e22), tFloat(9.995), tFloat(0.5), tFloat(100), tFloat(-1e-7),
		tFloat(2.5), tFloat(1234.5678), tFloat(1e15), tFloat(999999.5)}
	for i := 0; i < 8; i++ {
		floats = append(floats, tFloat(randFloat(r)))
	}
	strs := []tv{tStr(""), tStr("a"), tStr("hello"), tStr("é日本"), tStr("😀x"), tStr("tab\there")}
	var cs []formatCase
	for _, v := range ints {
		for _, s := range []string{"", "d", "x", "#X", ",", "_b", "c", "010", "+", " 5"} {
			cs = append(cs, formatCase{v, s})
		}
		for i := 0; i < 60; i++ {
			cs = append(cs, formatCase{v, randomSpec(r, intTys)})
		}
	}
	for _, v := range floats {
		for _, s := range []string{"", "f", ".2f", "e", "g", ".3", "10", "%", ",", "z.1f", "#g", "+.0e", "n"} {
			cs = append(cs, formatCase{v, s})
		}
		for i := 0; i < 70; i++ {
			cs = append(cs, formatCase{v, randomSpec(r, fltTys)})
		}
	}
	for _, v := range strs {
		for i := 0; i < 40; i++ {
			cs = append(cs, formatCase{v, randomSpec(r, strTys)})
		}
	}
	// Malformed and edge specs.
	odd := []string{"abc", ",,", ",_", "_,", "__", ".", ".x", "\x01", "é", "  ", "\x7f", "99999999999999999999",
		".99999999999999999999", ".3000000000f", "z", "#z", "0z", "<", "<<", "^^5", "٥", ".٣f", "=", "0=", "z=", "+z",
		",c", "_c", "_s", ",s", "_n", ",n", ".2c", "+c", "#c", "_x", ",x", ",%", "_e"}
	for _, s := range odd {
		for _, v := range []tv{tInt64(65), tFloat(-1.25), tStr("ab"), tBool(true)} {
			cs = append(cs, formatCase{v, s})
		}
	}
	return cs
}

// randFloat draws doubles over the whole exponent range, including
// values with few digits.
func randFloat(r *rand.Rand) float64 {
	switch r.IntN(4) {
	case 0:
		return math.Float64frombits(r.Uint64())
	case 1:
		return float64(r.IntN(2000000)-1000000) / math.Pow(10, float64(r.IntN(8)))
	case 2:
		return (r.Float64() - 0.5) * math.Pow(10, float64(r.IntN(40)-20))
	}
	return float64(r.IntN(1000)) + 0.5
}

func reprFloats(r *rand.Rand) []float64 {
	fs := []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 0.2 + 0.1, 1e16, 1e15, 9999999999999998, 1e-4, 1e-5,
		0.00012345, 1.5e300, 5e-324, math.MaxFloat64, math.SmallestNonzeroFloat64 * 3, 2e16 + 8, 123456789012345680,
		math.Inf(1), math.Inf(-1), math.NaN(), 100, 1e22, 1e23}
	for i := 0; i < 600; i++ {
		fs = append(fs, randFloat(r))
	}
	out := fs[:0]
	for _, f := range fs {
		if !math.IsNaN(f) || len(out) < 30 {
			out = append(out, f)
		}
	}
	return out
}
