package pyfmt

import (
	"math"
	"math/rand/v2"
	"strings"
)

// percentCases builds the %-formatting table: fixed edge cases plus
// random directives applied to ints, floats, strs, bools and None.
func percentCases(r *rand.Rand) []oracleCase {
	var cs []oracleCase
	add := func(f string, v tv) { cs = append(cs, oracleCase{Op: "percent", A: []any{f, v}}) }
	d := tDict("a", tInt64(1), "b", tStr("x"), "(c)", tFloat(2.5), "", tNone())
	fixed := []struct {
		f string
		v tv
	}{
		{"%5%", tTuple()}, {"%5%", tTuple(tInt64(1))}, {"%(a)%", d}, {"%-%", tTuple()}, {"%(a)s %s", d},
		{"%s %(a)s", d}, {"%s", d}, {"x", d}, {"x", tList()}, {"x", tInt64(5)}, {"x", tTuple()}, {"%s", tTuple()},
		{"%s %s", tInt64(1)}, {"%(a)s", tTuple(tInt64(1))}, {"%(a", d}, {"%(a)", d}, {"%", tTuple()}, {"abc%", tTuple()},
		{"%*d", tTuple(tStr("a"), tInt64(1))}, {"%*d", tTuple(tInt("9223372036854775808"), tInt64(1))},
		{"%.*f", tTuple(tInt("2147483648"), tFloat(1))}, {"%.*f", tTuple(tInt64(-5), tFloat(1.5))},
		{"%*d", tTuple(tInt64(-5), tInt64(1))}, {"%*.*f|", tTuple(tInt64(9), tInt64(2), tFloat(math.Pi))},
		{"%z", tTuple()}, {"%z", tInt64(5)}, {"%\x00", tInt64(5)}, {"%é", tInt64(5)}, {"%ld", tInt64(5)},
		{"%hl", tInt64(5)}, {"%Lf", tFloat(1)}, {"%d", tStr("x")}, {"%x", tFloat(1.5)}, {"%c", tFloat(1.5)},
		{"%c", tStr("ab")}, {"%c", tStr("é")}, {"%c", tInt64(-1)}, {"%c", tInt64(0x1F600)}, {"%5c", tInt64(65)},
		{"%-5c|", tStr("z")}, {"%f", tStr("x")}, {"%d", tFloat(math.NaN())}, {"%d", tFloat(math.Inf(1))},
		{"%d", tFloat(-3.99)}, {"%x", tNone()}, {"%d", tNone()}, {"%c", tInt("18446744073709551616")},
		{"%(b)s-%(a)05d-%((c))s-%()s", d}, {"%(a)s %(z)s", d}, {"%(a)*d", d}, {"%s %s", tTuple(tInt64(1), tInt64(2), tInt64(3))},
		{"%.2147483648f", tFloat(1)}, {"%99999999999999999999d", tInt64(1)}, {"%s", tTuple(tTuple(tInt64(1), tInt64(2)))},
		{"%r %a %s", tTuple(tStr("é'"), tStr("日\n"), tList(tStr("a"), tFloat(0.1)))}, {"%d%%", tInt64(50)},
		{"%i %u", tTuple(tBool(true), tInt64(-7))}, {"%s", tInt("0x1" + strings.Repeat("0", 5000))},
		{"%x", tInt("0x1" + strings.Repeat("0", 5000))}, {"%d", tInt("0x1" + strings.Repeat("0", 3570))}, {"%.3s|%-6.2r|", tTuple(tStr("abcdef"), tStr("xyz"))},
		{"%e", tInt("1" + strings.Repeat("0", 400))}, {"%5.1r", tStr("ab")}, {"%+s", tStr("ab")}, {"% 5s", tStr("ab")},
	}
	for _, c := range fixed {
		add(c.f, c.v)
	}
	vals := []tv{tInt64(0), tInt64(42), tInt64(-255), tInt("123456789012345678901234567890"), tFloat(3.14159),
		tFloat(-0.0), tFloat(-1234.5678), tFloat(1e-7), tFloat(2.5e20), tFloat(math.Inf(-1)), tFloat(math.NaN()),
		tStr("héllo"), tStr(""), tBool(false), tNone()}
	flagSet := []string{"", "-", "+", " ", "#", "0", "-0", "+0", "#0", "+#", " 0", "-+#0"}
	widthSet := []string{"", "1", "6", "12", "*"}
	precSet := []string{"", ".", ".0", ".2", ".5", ".12", ".*"}
	types := []string{"s", "r", "a", "d", "i", "u", "o", "x", "X", "e", "E", "f", "F", "g", "G", "c"}
	for _, v := range vals {
		for i := 0; i < 45; i++ {
			w, p := pickOne(r, widthSet), pickOne(r, precSet)
			f := "[%" + pickOne(r, flagSet) + w + p + pickOne(r, types) + "]"
			var items []tv
			if w == "*" {
				items = append(items, tInt64(int64(r.IntN(21)-10)))
			}
			if p == ".*" {
				items = append(items, tInt64(int64(r.IntN(8)-2)))
			}
			items = append(items, v)
			if len(items) == 1 && r.IntN(2) == 0 {
				add(f, v)
			} else {
				add(f, tTuple(items...))
			}
		}
	}
	return cs
}
