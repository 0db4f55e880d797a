package refkern

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gpumem/playground/gpu/kernels"
)

// probeOp is one CPU op of gpu/testdata/rng/probe.py: an optional reseed
// before it, then the op's output as the probe's bits.
type probeOp struct {
	name   string
	reseed bool
	seed   uint64
	dtype  string
	run    func(g *CPUGenerator) ([]int64, error)
}

var probeDTypes = []struct {
	kt   kernels.DType
	name string
}{{kernels.F16, "torch.float16"}, {kernels.BF16, "torch.bfloat16"}, {kernels.F64, "torch.float64"}}

func uniformOp(kt kernels.DType, dtype string, n int64, lo, hi float64) func(g *CPUGenerator) ([]int64, error) {
	return func(g *CPUGenerator) ([]int64, error) {
		v, err := g.Uniform(kt, n, lo, hi)
		return bitsOf(dtype, v), err
	}
}

func normalOp(kt kernels.DType, dtype string, n int64, mean, std float64) func(g *CPUGenerator) ([]int64, error) {
	return func(g *CPUGenerator) ([]int64, error) {
		v, err := g.Normal(kt, n, true, mean, std)
		return bitsOf(dtype, v), err
	}
}

// kaimingBound is nn.init.kaiming_uniform_(a=√5)'s bound for a fan-in,
// computed as torch/nn/init.py does in Python floats.
func kaimingBound(fanIn int) float64 {
	ns := math.Sqrt(5)
	gain := math.Sqrt(2.0 / (1 + math.Pow(ns, 2)))
	return math.Sqrt(3.0) * (gain / math.Sqrt(float64(fanIn)))
}

// probeCPUOps mirrors the "cpu" pass of probe.py in order.
func probeCPUOps() []probeOp {
	var ops []probeOp
	add := func(name string, reseed bool, seed uint64, dtype string, run func(g *CPUGenerator) ([]int64, error)) {
		ops = append(ops, probeOp{name, reseed, seed, dtype, run})
	}
	f32 := "torch.float32"
	sizes := []int64{1, 3, 4, 5, 16, 17, 33, 1000, 4097, 70000, 300001, 2000000}
	for _, seed := range []uint64{0, 42, 1<<40 + 3} {
		for i, n := range sizes {
			add(fmt.Sprintf("seed%d rand(%d)", seed, n), i == 0, seed, f32, uniformOp(kernels.F32, f32, n, 0, 1))
		}
		for i, n := range sizes {
			add(fmt.Sprintf("seed%d randn(%d)", seed, n), i == 0, seed, f32, normalOp(kernels.F32, f32, n, 0, 1))
		}
	}
	first := true
	for _, dt := range probeDTypes {
		for _, n := range []int64{5, 17, 1000} {
			add(fmt.Sprintf("seed7 rand(%d, %s)", n, dt.name), first, 7, dt.name, uniformOp(dt.kt, dt.name, n, 0, 1))
			add(fmt.Sprintf("seed7 randn(%d, %s)", n, dt.name), false, 7, dt.name, normalOp(dt.kt, dt.name, n, 0, 1))
			first = false
		}
	}
	add("seed3 rand(4,5)", true, 3, f32, uniformOp(kernels.F32, f32, 20, 0, 1))
	add("seed3 randn(2,3,4)", false, 3, f32, normalOp(kernels.F32, f32, 24, 0, 1))
	add("seed3 empty(10).uniform_(-2,3)", false, 3, f32, uniformOp(kernels.F32, f32, 10, -2, 3))
	add("seed3 empty(20).normal_(1,0.5)", false, 3, f32, normalOp(kernels.F32, f32, 20, 1, 0.5))
	add("seed3 rand_like", false, 3, f32, uniformOp(kernels.F32, f32, 6, 0, 1))
	add("seed3 randn_like", false, 3, f32, normalOp(kernels.F32, f32, 6, 0, 1))
	for _, n := range []int64{5, 100, 5000} {
		for _, r := range [][2]int64{{0, 10}, {-7, 1 << 33}} {
			name := fmt.Sprintf("seed3 randint(%d,%d,(%d,))", r[0], r[1], n)
			if r[1] == 1<<33 {
				name = fmt.Sprintf("seed3 randint(-7,2**33,(%d,))", n)
			}
			add(name, false, 3, "torch.int64", func(g *CPUGenerator) ([]int64, error) { return g.RandomFromTo(n, r[0], r[1]) })
		}
	}
	for _, n := range []int64{1, 5, 10, 100, 1000, 5000, 40000} {
		add(fmt.Sprintf("seed11 randperm(%d)", n), true, 11, "torch.int64", func(g *CPUGenerator) ([]int64, error) { return g.Randperm(n), nil })
	}
	dropout := func(kt kernels.DType, dtype string, n int64, p float64) func(g *CPUGenerator) ([]int64, error) {
		return func(g *CPUGenerator) ([]int64, error) {
			keep, scale := g.Dropout(kt, n, p)
			v := make([]float64, n)
			for i, k := range keep {
				if k {
					v[i] = scale // x = ones: x·noise is the scale
				}
			}
			return bitsOf(dtype, v), nil
		}
	}
	for _, p := range []float64{0.1, 0.5} {
		for _, n := range []int64{5, 16, 1000, 70001} {
			add(fmt.Sprintf("seed5 dropout(ones(%d), p=%v)", n, p), true, 5, f32, dropout(kernels.F32, f32, n, p))
			add(fmt.Sprintf("seed5 dropout(ones(%d, f16), p=%v)", n, p), true, 5, "torch.float16", dropout(kernels.F16, "torch.float16", n, p))
		}
	}
	add("seed5 dropout(ones(3,1000) requires_grad, p=0.2)", true, 5, f32, dropout(kernels.F32, f32, 3000, 0.2))
	bern := func(keep []bool) []int64 {
		v := make([]float64, len(keep))
		for i, k := range keep {
			if k {
				v[i] = 1
			}
		}
		return bitsOf(f32, v)
	}
	add("seed5 bernoulli_(0.3) 100", true, 5, f32, func(g *CPUGenerator) ([]int64, error) { return bern(g.BernoulliScalar(100, 0.3)), nil })
	add("seed5 bernoulli(full 0.7) 100", false, 5, f32, func(g *CPUGenerator) ([]int64, error) {
		p := make([]float64, 100)
		for i := range p {
			p[i] = 0.7
		}
		return bern(g.BernoulliTensor(p, false)), nil
	})
	add("seed9 Linear(5,3).weight", true, 9, f32, uniformOp(kernels.F32, f32, 15, -kaimingBound(5), kaimingBound(5)))
	add("seed9 Linear(5,3).bias", false, 9, f32, uniformOp(kernels.F32, f32, 3, -1/math.Sqrt(5), 1/math.Sqrt(5)))
	add("seed9 Embedding(7,4).weight", false, 9, f32, normalOp(kernels.F32, f32, 28, 0, 1))
	add("seed9 Conv2d(2,3,3).weight", false, 9, f32, uniformOp(kernels.F32, f32, 54, -kaimingBound(18), kaimingBound(18)))
	add("seed9 Conv2d(2,3,3).bias", false, 9, f32, uniformOp(kernels.F32, f32, 3, -1/math.Sqrt(18), 1/math.Sqrt(18)))
	add("seed9 randn(4,4) then .normal_", true, 9, f32, func(g *CPUGenerator) ([]int64, error) {
		if _, err := g.Normal(kernels.F32, 16, true, 0, 1); err != nil {
			return nil, err
		}
		v, err := g.Normal(kernels.F32, 16, true, 0, 1)
		return bitsOf(f32, v), err
	})
	return ops
}

// compareProbe compares got with a recorded output: exact bits, or for
// records listed in tol within that many ulps (width: the float's bits).
func compareProbe(t *testing.T, rec probeRecord, got []int64, width uint, tol int64) (worst int64) {
	t.Helper()
	check := func(what string, want, have []int64, base int) {
		if len(want) != len(have) {
			t.Errorf("%s: %s has %d values, want %d", rec.Name, what, len(have), len(want))
			return
		}
		bad := 0
		for i := range want {
			d := int64(0)
			if want[i] != have[i] {
				d = math.MaxInt64
				if width > 0 {
					d = ulpDiff(width, want[i], have[i])
				}
			}
			worst = max(worst, d)
			if d > tol {
				if bad < 3 {
					t.Errorf("%s: %s[%d] = %d, want %d (%d ulp)", rec.Name, what, base+i, have[i], want[i], d)
				}
				bad++
			}
		}
		if bad > 3 {
			t.Errorf("%s: %d values differ", rec.Name, bad)
		}
	}
	if rec.Bits != nil {
		check("bits", rec.Bits, got, 0)
		return worst
	}
	if int64(len(got)) < 512 {
		t.Errorf("%s: %d values for a large record", rec.Name, len(got))
		return worst
	}
	check("head", rec.Head, got[:len(rec.Head)], 0)
	check("tail", rec.Tail, got[len(got)-len(rec.Tail):], len(got)-len(rec.Tail))
	if tol == 0 && probeChecksum(got) != rec.Checksum {
		t.Errorf("%s: checksum %d, want %d", rec.Name, probeChecksum(got), rec.Checksum)
	}
	return worst
}

// TestCPUGeneratorProbe replays probe.py's CPU ops on one generator and
// compares every output with PyTorch 2.11's recorded bits.
func TestCPUGeneratorProbe(t *testing.T) {
	recs := loadProbe(t, "cpu")
	g := NewCPUGenerator(DefaultCPUSeed)
	for _, op := range probeCPUOps() {
		if op.reseed {
			g.Seed(op.seed)
		}
		got, err := op.run(g)
		if err != nil {
			t.Fatalf("%s: %v", op.name, err)
		}
		rec, ok := recs[op.name]
		if !ok {
			t.Fatalf("no record %q", op.name)
		}
		width, tol := uint(0), int64(0)
		if op.dtype == "torch.float64" && strings.Contains(op.name, "randn") {
			// libm's log/log1p/sin/cos in double: Go's math differs in the last bit.
			width, tol = 64, 2
		}
		if w := compareProbe(t, rec, got, width, tol); w > 0 {
			t.Logf("%s: within %d ulp", op.name, w)
		}
	}
}
