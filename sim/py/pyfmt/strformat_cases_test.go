package pyfmt

// strFormatCases covers formatter_parser and str.format, errors included.
func strFormatCases() []oracleCase {
	var cs []oracleCase
	templates := []string{
		"", "abc", "{}", "{0}", "a{0}b{1}c", "{{", "}}", "a{{b}}c", "{{{0}}}", "{", "}", "a}b", "{0", "{0!", "{0!r",
		"{0!r}", "{0!x}", "{0!rx}", "{0!r:", "{0!r:>5}", "{0:", "{0:{1}}", "{0:{}}", "{:{}}", "{0:{1:{2}}}", "{:{:{}}}",
		"{0[}", "{0[a}]}", "{0[1]}", "{0.a}", "{0..a}", "{0.}", "{0[]}", "{0[0]x}", "{0]}", "{a{}", "{!r}", "{:}",
		"{0:}}", "{0:{{}}}", "{ 0 }", "{-1}", "{٣}", "{99999999999999999999}", "{0}{}", "{}{0}", "{a}{}", "{}{a}",
		"{0!s:^{1}}", "{0!}", "{0:{1}{2}}", "{0:{1}}{}", "{!}", "{:{}}{0}", "{0[0]}", "{0.real}", "{0.imag}", "{0!a}",
		"{x.real:>{w}}", "{x[k]}", "{0[a][b]}", "{0:{a}}", "{0:>{1}}", "{0!r:{1}}", "{0:{1}{2}}", "x{0}y{1}z{2}",
		"{0:%}", "{0:,}", "{0!\x01}", "{0!é}",
	}
	args := tTuple(tInt64(42), tInt64(7), tStr("x"), tList(tInt64(1), tStr("two")))
	kw := tDict("a", tStr("s"), "x", tFloat(2.5), "w", tInt64(9), "k", tStr("q"))
	for _, t := range templates {
		cs = append(cs, oracleCase{Op: "parse", A: []any{t}})
		cs = append(cs, oracleCase{Op: "strformat", A: []any{t, args, kw}})
	}
	more := []struct {
		t    string
		args tv
	}{
		{"{0[1]}", tTuple(tList(tInt64(1), tStr("two")))},
		{"{0[5]}", tTuple(tList(tInt64(1)))},
		{"{0[a]}", tTuple(tList(tInt64(1)))},
		{"{0[a]}", tTuple(tDict("a", tInt64(3)))},
		{"{0[0]}", tTuple(tDict("a", tInt64(3)))},
		{"{0[-1]}", tTuple(tDict("-1", tInt64(3)))},
		{"{0.foo}", tTuple(tInt64(3))},
		{"{0.real.real!r:>8}", tTuple(tFloat(3.5))},
		{"{0!r:^10}|{1!a}", tTuple(tStr("é"), tStr("日"))},
		{"{0:{1}.{2}f}", tTuple(tFloat(3.14159), tInt64(10), tInt64(3))},
		{"{:{}.{}f}", tTuple(tFloat(3.14159), tInt64(10), tInt64(3))},
		{"{0} {0[}", tTuple()},
		{"{} {0[}", tTuple(tInt64(1))},
		{"{0:{1}} {", tTuple(tInt64(1), tStr("x"))},
		{"{0:d}", tTuple(tStr("x"))},
		{"{0:s}", tTuple(tNone())},
		{"{0}", tTuple(tTuple(tInt64(1)))},
		{"{0:x}", tTuple(tTuple(tInt64(1)))},
		{"{}{}{}", tTuple(tInt64(1), tInt64(2))},
	}
	for _, m := range more {
		cs = append(cs, oracleCase{Op: "strformat", A: []any{m.t, m.args, tDict()}})
	}
	return cs
}
