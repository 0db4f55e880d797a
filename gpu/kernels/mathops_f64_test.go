package kernels

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
)

// ptxEval runs straight-line (optionally predicated) f64 PTX body lines
// over registers: the subset of instructions the float64 map bodies use,
// with PTX's semantics (max/min ignore one NaN, cvt.rni rounds to even,
// copysign takes the first operand's sign). It lets the bodies be checked
// against Go's math without a GPU.
type ptxEval struct {
	r map[string]uint64
	p map[string]bool
}

func (m *ptxEval) val(s string) (uint64, error) {
	switch {
	case strings.HasPrefix(s, "%"):
		v, ok := m.r[s]
		if !ok {
			return 0, fmt.Errorf("register %s read before written", s)
		}
		return v, nil
	case strings.HasPrefix(s, "0d"):
		return strconv.ParseUint(s[2:], 16, 64)
	case strings.HasPrefix(s, "0x"):
		return strconv.ParseUint(s[2:], 16, 64)
	}
	v, err := strconv.ParseInt(s, 10, 64)
	return uint64(v), err
}

func (m *ptxEval) f(s string) (float64, error) {
	v, err := m.val(s)
	return math.Float64frombits(v), err
}

func (m *ptxEval) pred(s string) (bool, error) {
	neg := strings.HasPrefix(s, "!")
	v, ok := m.p[strings.TrimPrefix(s, "!")]
	if !ok {
		return false, fmt.Errorf("predicate %s read before written", s)
	}
	return v != neg, nil
}

// inst is a parsed body line: its guard predicate, opcode and operands.
type inst struct {
	guard, opc string
	args       []string
}

// parsed caches the parsed lines (the bodies run thousands of times).
var parsed = map[string]*inst{}

func parse(line string) *inst {
	if in, ok := parsed[line]; ok {
		return in
	}
	in := &inst{}
	l := strings.TrimSuffix(strings.TrimSpace(line), ";")
	if l != "" && !strings.HasPrefix(l, ".reg") {
		if strings.HasPrefix(l, "@") {
			sp := strings.IndexAny(l, " \t")
			in.guard, l = l[1:sp], strings.TrimSpace(l[sp:])
		}
		sp := strings.IndexAny(l, " \t")
		in.opc = l[:sp]
		for _, a := range strings.Split(l[sp:], ",") {
			in.args = append(in.args, strings.TrimSpace(a))
		}
	}
	parsed[line] = in
	return in
}

// step runs one line.
func (m *ptxEval) step(line string) error {
	in := parse(line)
	if in.opc == "" {
		return nil
	}
	if in.guard != "" {
		ok, err := m.pred(in.guard)
		if err != nil || !ok {
			return err
		}
	}
	opc, args := in.opc, in.args
	d := args[0]
	fs := make([]float64, len(args))
	us := make([]uint64, len(args))
	for i, a := range args[1:] {
		if strings.HasPrefix(a, "%p") || strings.HasPrefix(a, "!%p") {
			continue
		}
		v, err := m.val(a)
		if err != nil {
			return fmt.Errorf("%s: %v", line, err)
		}
		us[i+1], fs[i+1] = v, math.Float64frombits(v)
	}
	setF := func(x float64) { m.r[d] = math.Float64bits(x) }
	s32 := func(i int) int32 { return int32(uint32(us[i])) }
	parts := strings.Split(opc, ".")
	switch {
	case opc == "mov.f64" || opc == "mov.b64" || opc == "mov.u64":
		m.r[d] = us[1]
	case opc == "fma.rn.f64":
		setF(math.FMA(fs[1], fs[2], fs[3]))
	case opc == "mul.rn.f64" || opc == "mul.f64":
		setF(fs[1] * fs[2])
	case opc == "add.rn.f64" || opc == "add.f64":
		setF(fs[1] + fs[2])
	case opc == "sub.rn.f64" || opc == "sub.f64":
		setF(fs[1] - fs[2])
	case opc == "div.rn.f64":
		setF(fs[1] / fs[2])
	case opc == "rcp.rn.f64":
		setF(1 / fs[1])
	case opc == "sqrt.rn.f64":
		setF(math.Sqrt(fs[1]))
	case opc == "abs.f64":
		setF(math.Abs(fs[1]))
	case opc == "neg.f64":
		setF(-fs[1])
	case opc == "max.f64" || opc == "min.f64":
		a, b := fs[1], fs[2]
		switch {
		case a != a:
			setF(b)
		case b != b:
			setF(a)
		case opc == "max.f64":
			setF(math.Max(a, b))
		default:
			setF(math.Min(a, b))
		}
	case opc == "copysign.f64":
		setF(math.Copysign(fs[2], fs[1]))
	case opc == "selp.f64":
		c, err := m.pred(args[3])
		if err != nil {
			return err
		}
		if c {
			m.r[d] = us[1]
		} else {
			m.r[d] = us[2]
		}
	case parts[0] == "setp" && parts[len(parts)-1] == "f64":
		a, b := fs[1], fs[2]
		nan := a != a || b != b
		var c bool
		switch parts[1] {
		case "lt":
			c = a < b
		case "le":
			c = a <= b
		case "gt":
			c = a > b
		case "ge":
			c = a >= b
		case "eq":
			c = a == b
		case "ne":
			c = !nan && a != b
		case "neu":
			c = a != b
		case "geu":
			c = nan || a >= b
		case "nan":
			c = nan
		case "num":
			c = !nan
		default:
			return fmt.Errorf("unknown comparison %s", opc)
		}
		m.p[d] = c
	case opc == "and.pred" || opc == "or.pred":
		a, err1 := m.pred(args[1])
		b, err2 := m.pred(args[2])
		if err1 != nil || err2 != nil {
			return fmt.Errorf("%s: %v %v", line, err1, err2)
		}
		if opc == "and.pred" {
			m.p[d] = a && b
		} else {
			m.p[d] = a || b
		}
	case opc == "not.pred":
		a, err := m.pred(args[1])
		m.p[d] = !a
		return err
	case opc == "cvt.rni.f64.f64":
		setF(math.RoundToEven(fs[1]))
	case opc == "cvt.rni.s32.f64":
		m.r[d] = uint64(uint32(int32(math.RoundToEven(fs[1]))))
	case opc == "cvt.u64.u32":
		m.r[d] = uint64(uint32(us[1]))
	case opc == "cvt.rn.f64.u64":
		setF(float64(us[1]))
	case opc == "shr.s32":
		m.r[d] = uint64(uint32(s32(1) >> us[2]))
	case opc == "add.s32":
		m.r[d] = uint64(uint32(s32(1) + s32(2)))
	case opc == "sub.s32":
		m.r[d] = uint64(uint32(s32(1) - s32(2)))
	case opc == "shr.u64":
		m.r[d] = us[1] >> us[2]
	case opc == "shl.b64":
		m.r[d] = us[1] << us[2]
	case opc == "and.b64":
		m.r[d] = us[1] & us[2]
	case opc == "or.b64":
		m.r[d] = us[1] | us[2]
	default:
		return fmt.Errorf("ptxEval: no instruction %q", opc)
	}
	return nil
}

// runBody64 evaluates an f64 map body (f32 bodies widened by body64
// first) at x0, x1, x2 with scalars s0, s1 and returns %y.
func runBody64(body []string, xs [3]float64, s0, s1 float64) (float64, error) {
	m := &ptxEval{r: map[string]uint64{}, p: map[string]bool{}}
	for i, x := range xs {
		m.r[fmt.Sprintf("%%x%d", i)] = math.Float64bits(x)
	}
	m.r["%s0"], m.r["%s1"] = math.Float64bits(s0), math.Float64bits(s1)
	for _, l := range body {
		if err := m.step(l); err != nil {
			return 0, err
		}
	}
	return m.f("%y")
}

// ulps is the distance between a and b in units of the last place of
// the larger (0 for equal values, both NaN, or equal infinities).
func ulps(a, b float64) float64 {
	if a == b || (a != a && b != b) {
		return 0
	}
	if a != a || b != b || math.IsInf(a, 0) || math.IsInf(b, 0) {
		return math.Inf(1)
	}
	m := math.Max(math.Abs(a), math.Abs(b))
	ulp := math.Nextafter(m, math.Inf(1)) - m
	return math.Abs(a-b) / ulp
}

// f64Inputs are the test points: a sweep of [−10, 10] in steps of ~0.01, both signs
// of tiny and huge values, and the special values.
func f64Inputs() []float64 {
	xs := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 0.84375, 1.25, 1 / 0.35, 6, -6, 27,
		1e-300, -1e-300, 5e-324, 1e-310, 2.2250738585072014e-308, 1e-20, -1e-20, 1e-8, 700, -700, 709, -745,
		800, -800, 1e300, -1e300, math.Inf(1), math.Inf(-1), math.NaN(), math.Pi, math.E, math.Sqrt2}
	for i := -1000; i <= 1000; i++ {
		xs = append(xs, float64(i)*0.01+1e-4*math.Sin(float64(i)))
	}
	return xs
}

// TestF64MathBodies evaluates the float64 bodies of the map operators
// (exp, log, pow, erf through gelu, tanh-gelu, silu, sigmoid, tanh,
// binary cross entropy and the backwards) and checks them against Go's
// math: a few ulps of the value, or 2e-16 absolute where the formula
// itself (1 − e)/(1 + e) loses relative precision near 0.
func TestF64MathBodies(t *testing.T) {
	erf := func(x float64) float64 { return math.Erf(x) }
	// Go's amd64 math.Log (and math.Pow through it) is wrong for
	// subnormals: scaled into the normal range first.
	logRef := func(x float64) float64 {
		if x > 0 && x < 0x1p-1022 {
			return math.Log(x*0x1p54) - 54*math.Ln2
		}
		return math.Log(x)
	}
	subnormal := func(x, _ float64) bool { return x == 0 || math.Abs(x) >= 0x1p-1022 }
	sig := func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
	cases := []struct {
		op      MapOp
		want    func(x, y, s0 float64) float64
		ulp     float64
		abs     float64
		y, s0   []float64
		inRange func(x, y float64) bool
	}{
		{op: "exp", want: func(x, _, _ float64) float64 { return math.Exp(x) }, ulp: 3},
		{op: "log", want: func(x, _, _ float64) float64 { return logRef(x) }, ulp: 2},
		// exp(p·log|x|): the rounding of p·log|x| gives |p·log|x||·2⁻⁵³ relative (powRelErr)
		{op: "pow", want: func(x, _, p float64) float64 { return math.Pow(x, p) }, ulp: -1, s0: []float64{2.5, -1.5, 3, 0.3, -2, 0, 7}, inRange: subnormal},
		{op: "pow_tensor", want: func(x, y, _ float64) float64 { return math.Pow(x, y) }, ulp: -1, y: []float64{2.5, -1.5, 3, 0.3, -2, 0, 7, math.Inf(1)}, inRange: subnormal},
		{op: "erf", want: func(x, _, _ float64) float64 { return erf(x) }, ulp: 4},
		// 1 + erf cancels for x < 0: erf's ulps of 1, times |x|
		{op: "gelu", want: func(x, _, _ float64) float64 { return x * 0.5 * (1 + erf(x/math.Sqrt2)) }, ulp: 4, abs: 1e-15},
		{op: "gelu_backward", want: func(g, x, _ float64) float64 {
			return g * (0.5*(1+erf(x/math.Sqrt2)) + x*math.Exp(-0.5*x*x)/math.Sqrt(2*math.Pi))
		}, ulp: 6, abs: 1e-15, y: []float64{-7, -2.5, -1, -0.3, 0, 0.2, 1.1, 3, 8}},
		{op: "gelu_tanh", want: func(x, _, _ float64) float64 {
			return 0.5 * x * (1 + math.Tanh(math.Sqrt(2/math.Pi)*(x+0.044715*x*x*x)))
		}, ulp: 8, abs: 2e-16 * 10},
		{op: "silu", want: func(x, _, _ float64) float64 { return x * sig(x) }, ulp: 4},
		{op: "silu_backward", want: func(g, x, _ float64) float64 { s := sig(x); return g * s * (1 + x*(1-s)) },
			ulp: 6, abs: 1e-300, y: []float64{-9, -1, -0.2, 0, 0.7, 2, 30}},
		{op: "sigmoid", want: func(x, _, _ float64) float64 { return sig(x) }, ulp: 4},
		{op: "tanh", want: func(x, _, _ float64) float64 { return math.Tanh(x) }, ulp: 4, abs: 2e-16},
		{op: "bce", want: func(a, b, _ float64) float64 {
			return (b-1)*math.Max(math.Log(1-a), -100) - b*math.Max(math.Log(a), -100)
		}, ulp: 8, abs: 1e-15, y: []float64{0, 0.25, 1}, inRange: func(x, _ float64) bool { return x >= 0 && x <= 1 }},
	}
	for _, c := range cases {
		t.Run(string(c.op), func(t *testing.T) {
			var body []string
			if c.op == "erf" {
				body = cat(mathRegs, erfF64PTX("%y", "%x0"))
			} else {
				body = f64Bodies[c.op]()
			}
			ys, ss := c.y, c.s0
			if ys == nil {
				ys = []float64{0}
			}
			if ss == nil {
				ss = []float64{0}
			}
			bad := 0
			for _, x := range f64Inputs() {
				for _, y := range ys {
					if c.inRange != nil && !c.inRange(x, y) {
						continue
					}
					for _, s := range ss {
						got, err := runBody64(body, [3]float64{x, y, 0}, s, 0)
						if err != nil {
							t.Fatal(err)
						}
						want := c.want(x, y, s)
						lim := c.ulp
						if lim < 0 { // pow
							e := y
							if c.op == "pow" {
								e = s
							}
							lim = 4 + math.Abs(e*logRef(math.Abs(x)))*2
						}
						scale := math.Max(1, math.Max(math.Abs(x), math.Abs(y)))
						if u := ulps(got, want); u > lim && math.Abs(got-want) > c.abs*scale {
							if bad++; bad <= 10 {
								t.Errorf("%s(%v, %v; %v) = %v, want %v (%.1f ulps)", c.op, x, y, s, got, want, u)
							}
						}
					}
				}
			}
		})
	}
}

// TestF64WidenedBodies checks operators whose f32 bodies body64 widens
// (selections, clamp, comparisons, leaky_relu, dropout) in float64: exact.
func TestF64WidenedBodies(t *testing.T) {
	b := func(c bool) float64 {
		if c {
			return 1
		}
		return 0
	}
	cases := []struct {
		op   MapOp
		want func(x, y, z, s0, s1 float64) float64
	}{
		{"leaky_relu", func(x, _, _, s, _ float64) float64 {
			if x > 0 {
				return x
			}
			return x * s
		}},
		{"clamp", func(x, _, _, lo, hi float64) float64 {
			if x != x {
				return x
			}
			return math.Min(math.Max(x, lo), hi)
		}},
		{"where", func(c, y, z, _, _ float64) float64 {
			if c != 0 {
				return y
			}
			return z
		}},
		{"masked_fill", func(x, m, _, s, _ float64) float64 {
			if m != 0 {
				return s
			}
			return x
		}},
		{"maximum", func(x, y, _, _, _ float64) float64 {
			if x != x || y != y {
				return math.NaN()
			}
			return math.Max(x, y)
		}},
		{"dropout", func(x, u, _, keep, scale float64) float64 { return x * b(u < keep) * scale }},
		{"gt_scalar", func(x, _, _, s, _ float64) float64 { return b(x > s) }},
		{"rsqrt", func(x, _, _, _, _ float64) float64 { return 1 / math.Sqrt(x) }},
	}
	vals := []float64{-2.5, -1, -0.1, 0, 0.1, 0.7, 1, 3, math.Inf(1), math.NaN()}
	for _, c := range cases {
		info, ok := MapOpByName(c.op)
		if !ok || !MapOpmath64(c.op, F64, F64) {
			t.Fatalf("%s: no float64 opmath kernel", c.op)
		}
		var body []string
		for _, l := range info.body {
			body = append(body, body64(l))
		}
		for _, x := range vals {
			for _, y := range vals {
				got, err := runBody64(body, [3]float64{x, y, -y}, 0.3, 1/0.7)
				if err != nil {
					t.Fatal(err)
				}
				if want := c.want(x, y, -y, 0.3, 1/0.7); ulps(got, want) > 1 {
					t.Errorf("%s(%v, %v) = %v, want %v", c.op, x, y, got, want)
				}
			}
		}
	}
}
