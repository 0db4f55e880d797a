package pyfmt

import (
	"math"
	"math/rand/v2"
	"strconv"
)

// extraCases lists the tables of the non-format operations.
func extraCases(r *rand.Rand) []oracleCase {
	var cs []oracleCase
	add := func(op string, a ...any) { cs = append(cs, oracleCase{Op: op, A: a}) }
	negZero := math.Copysign(0, -1)
	// round(float, n)
	roundVals := []float64{2.675, 0.5, 1.5, 2.5, -0.5, -2.5, 0.125, 0.375, 1e300, 1.7976931348623157e308, 5e-324,
		123456.789, -0.0001, 0.285, 1.005, 2.5e-8, negZero, math.Inf(1), math.NaN(), 1e22, 4.35, 1234.5, 15, 25}
	for i := 0; i < 30; i++ {
		roundVals = append(roundVals, randFloat(r))
	}
	nds := []int{0, 1, 2, 3, -1, -2, -3, 5, 10, 17, 300, 323, 324, -300, -308, -309, -22, 22}
	for _, f := range roundVals {
		for _, nd := range nds {
			if r.IntN(2) == 0 || nd == 0 || nd == 2 {
				add("round", tFloat(f), strconv.Itoa(nd))
			}
		}
		add("round0", tFloat(f))
	}
	for _, s := range []string{"0", "5", "15", "25", "-25", "-35", "1234567", "-1250", "1500", "2500", "99999999999999999999999", "-150"} {
		for _, nd := range []int{0, 1, -1, -2, -3, -5, -30, -1000} {
			add("round", tInt(s), strconv.Itoa(nd))
		}
	}
	// divmod, //, %
	dv := []float64{0, negZero, 1, -1, 7, -7, 0.5, -2.5, 3.75, 1e308, -1e-308, math.Inf(1), math.Inf(-1), math.NaN(), 1e16, 0.1}
	for _, x := range dv {
		for _, y := range dv {
			add("divmod", tFloat(x), tFloat(y))
			add("floordiv", tFloat(x), tFloat(y))
			add("mod", tFloat(x), tFloat(y))
		}
	}
	for i := 0; i < 60; i++ {
		add("divmod", tFloat(randFloat(r)), tFloat(randFloat(r)))
	}
	// float(str)
	for _, s := range []string{"1e3", " 1_0.5 ", "1__0", "inf", "-inf", "+infinity", "iNfInItY", "nan", "-nan", "+nan",
		"NaN", "1.e5", ".e5", ".5", "5.", ".", "", " ", "1_e5", "1e_5", "1e5_0", "1._5", "1_.5", "_1", "1_", "0x1p3",
		"1e500", "-1e500", "1e-500", "1\x00", "in f", "inf_", "١٢٣", "\u3000 1.5", "1.5\x1c", "\t1.5\n", "+-1", "--1",
		"1e", "1e+", "e5", "1.2.3", "0001.5000", "1E5", "12345678901234567890123456789", "x", "é", "'\"", "infinit",
		"0.1e-400", "4.9406564584124654e-324", "2.4703282292062328e-324", "1.7976931348623158e308", "1.7976931348623159e308"} {
		add("float", s)
	}
	// int(str, base)
	intStrs := []string{"0", "1", "-1", " 12 ", "+_1", "1_000", "1__0", "_1", "1_", "0x1f", "0X1F", "0x_1f", "0_x1",
		"0o17", "0b101", "0b", "0x", "010", "00", "0_0", "0_1", "z", "Z", "zz", "١٢٣", "1 2", "- 1", "", " ", "12a",
		"99999999999999999999999999", "0b_1_0", "1\x00", "٣"}
	for _, s := range intStrs {
		for _, b := range []int{10, 0, 16, 8, 2, 36} {
			add("int", s, strconv.Itoa(b))
		}
	}
	for _, b := range []int{1, 37, -1} {
		add("int", "1", strconv.Itoa(b))
	}
	long := ""
	for i := 0; i < 4301; i++ {
		long += "1"
	}
	add("int", long[:4300], "10")
	add("int", long, "10")
	add("int", "-"+long[:4300], "10")
	add("int", "x"+long, "10")
	add("float", "x"+long)
	// repr/ascii of str
	for _, s := range []string{"", "a", "it's", `say "hi"`, `both ' and "`, "back\\slash", "\t\n\r\x00\x1f\x7f",
		"é日本😀", "\u00a0\u2028\u200b\ufeff", "\U000e0001", "\u0378", "a\u0300"} {
		add("strrepr", s)
		add("ascii", s)
	}
	return cs
}
