package gpuexec

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"math/bits"
	"os"
	"strings"
	"testing"

	"github.com/gpumem/playground/gpu/kernels"
	"github.com/gpumem/playground/sim/torch"
)

// probeRecord is one line of gpu/testdata/rng/probe-out.jsonl: PyTorch
// 2.11's output bits of a random op on an H200 and the CUDA generator's
// (seed, offset) after it (gpu/testdata/rng/probe.py).
type probeRecord struct {
	Name       string   `json:"name"`
	Device     string   `json:"device"`
	DType      string   `json:"dtype"`
	Shape      []int64  `json:"shape"`
	Bits       []int64  `json:"bits"`
	Head       []int64  `json:"head"`
	Tail       []int64  `json:"tail"`
	Checksum   *uint64  `json:"checksum"`
	StateAfter []uint64 `json:"state_after"`
}

func loadProbe(t *testing.T) map[string]probeRecord {
	t.Helper()
	fh, err := os.Open("../testdata/rng/probe-out.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	out := map[string]probeRecord{}
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var r probeRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if r.Device == "cuda" {
			out[r.Name] = r
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// probeBits are a tensor's values as probe.py prints them: the signed
// integer view of the float bits, or the integers themselves.
func probeBits(dt torch.DType, vals []float64) []int64 {
	out := make([]int64, len(vals))
	for i, v := range vals {
		switch dt {
		case torch.Float32:
			out[i] = int64(int32(math.Float32bits(float32(v))))
		case torch.Float16:
			out[i] = int64(int16(kernels.F16Bits(float32(v))))
		case torch.BFloat16:
			out[i] = int64(int16(kernels.BF16Bits(float32(v))))
		case torch.Float64:
			out[i] = int64(math.Float64bits(v))
		default:
			out[i] = int64(v)
		}
	}
	return out
}

// bitsValue decodes one probe value back to a float64.
func bitsValue(dt torch.DType, b int64) float64 {
	switch dt {
	case torch.Float32:
		return float64(math.Float32frombits(uint32(b)))
	case torch.Float16:
		return float64(kernels.F16ToF32(uint16(b)))
	case torch.BFloat16:
		return float64(kernels.BF16ToF32(uint16(b)))
	case torch.Float64:
		return math.Float64frombits(uint64(b))
	}
	return float64(b)
}

// probeChecksum is probe.py's Σ (i+1)·bits[i] mod 2^61 − 1 (bits unsigned).
func probeChecksum(b []int64) uint64 {
	const m = 1<<61 - 1
	var s uint64
	for i, v := range b {
		hi, lo := bits.Mul64(uint64(i+1)%m, uint64(v)%m)
		s = (s + mod61(hi, lo)) % m
	}
	return s
}

func mod61(hi, lo uint64) uint64 {
	const m = 1<<61 - 1
	// 2^64 ≡ 8 (mod 2^61 − 1)
	r := (lo & m) + lo>>61 + (hi<<3)&m + hi>>58
	for r >= m {
		r -= m
	}
	return r
}

// probeStep runs one op of probe.py's CUDA half on the executor and returns
// its output.
type probeStep struct {
	name string
	run  func(f *fixture) (torch.ExecTensor, error)
}

func seedStep(seed int64) probeStep {
	return probeStep{run: func(f *fixture) (torch.ExecTensor, error) {
		return torch.ExecTensor{}, f.ex.Exec(&torch.ExecOp{Kind: ExecManualSeed, Ints: []int64{seed}})
	}}
}

func genStep(name string, kind torch.ExecKind, dt torch.DType, shape []int64, sc ...float64) probeStep {
	return probeStep{name: name, run: func(f *fixture) (torch.ExecTensor, error) {
		out := f.tensor(true, dt, shape, nil)
		return out, f.exec(kind, out, nil, sc, nil)
	}}
}

func dropoutStep(name string, dt torch.DType, shape []int64, p float64) probeStep {
	return probeStep{name: name, run: func(f *fixture) (torch.ExecTensor, error) {
		n := numel(shape)
		ones := make([]float64, n)
		for i := range ones {
			ones[i] = 1
		}
		x := f.tensor(true, dt, shape, ones)
		out := f.tensor(true, dt, shape, nil)
		mask := f.tensor(true, torch.Bool, shape, nil)
		return out, f.ex.Exec(&torch.ExecOp{Kind: torch.ExecDropout, Out: []torch.ExecTensor{out, mask}, In: []torch.ExecTensor{x}, Scalars: []float64{p}})
	}}
}

// probeSteps is probe.py's CUDA half, op by op (the CPU-initialised model
// is not drawn here: TestGenerateHostProbe checks it).
func probeSteps() []probeStep {
	var st []probeStep
	sizes := []int64{1, 3, 4, 5, 16, 17, 33, 1000, 4097, 70000, 300001, 2000000}
	for _, seed := range []int64{0, 42, 1<<40 + 3} {
		for _, kind := range []torch.ExecKind{torch.ExecUniform, torch.ExecNormal} {
			st = append(st, seedStep(seed))
			for _, n := range sizes {
				fn := map[torch.ExecKind]string{torch.ExecUniform: "rand", torch.ExecNormal: "randn"}[kind]
				st = append(st, genStep(fmt.Sprintf("seed%d %s(%d)", seed, fn, n), kind, torch.Float32, []int64{n}, 0, 1))
			}
		}
	}
	st = append(st, seedStep(7))
	for _, dt := range []struct {
		t    torch.DType
		name string
	}{{torch.Float16, "torch.float16"}, {torch.BFloat16, "torch.bfloat16"}, {torch.Float64, "torch.float64"}} {
		for _, n := range []int64{5, 17, 1000} {
			st = append(st, genStep(fmt.Sprintf("seed7 rand(%d, %s)", n, dt.name), torch.ExecUniform, dt.t, []int64{n}, 0, 1),
				genStep(fmt.Sprintf("seed7 randn(%d, %s)", n, dt.name), torch.ExecNormal, dt.t, []int64{n}, 0, 1))
		}
	}
	st = append(st, seedStep(3),
		genStep("seed3 rand(4,5)", torch.ExecUniform, torch.Float32, []int64{4, 5}, 0, 1),
		genStep("seed3 randn(2,3,4)", torch.ExecNormal, torch.Float32, []int64{2, 3, 4}, 0, 1),
		genStep("seed3 empty(10).uniform_(-2,3)", torch.ExecUniform, torch.Float32, []int64{10}, -2, 3),
		genStep("seed3 empty(20).normal_(1,0.5)", torch.ExecNormal, torch.Float32, []int64{20}, 1, 0.5),
		genStep("seed3 rand_like", torch.ExecUniform, torch.Float32, []int64{6}, 0, 1),
		genStep("seed3 randn_like", torch.ExecNormal, torch.Float32, []int64{6}, 0, 1))
	for _, n := range []int64{5, 100, 5000} {
		st = append(st, genStep(fmt.Sprintf("seed3 randint(0,10,(%d,))", n), torch.ExecRandInt, torch.Int64, []int64{n}, 0, 10),
			genStep(fmt.Sprintf("seed3 randint(-7,2**33,(%d,))", n), torch.ExecRandInt, torch.Int64, []int64{n}, -7, 1<<33))
	}
	for _, n := range []int64{1, 5, 10, 100, 1000, 5000, 40000} {
		st = append(st, seedStep(11), genStep(fmt.Sprintf("seed11 randperm(%d)", n), torch.ExecRandPerm, torch.Int64, []int64{n}))
	}
	for _, p := range []string{"0.1", "0.5"} {
		pv := map[string]float64{"0.1": 0.1, "0.5": 0.5}[p]
		for _, n := range []int64{5, 16, 1000, 70001} {
			st = append(st, seedStep(5), dropoutStep(fmt.Sprintf("seed5 dropout(ones(%d), p=%s)", n, p), torch.Float32, []int64{n}, pv),
				seedStep(5), dropoutStep(fmt.Sprintf("seed5 dropout(ones(%d, f16), p=%s)", n, p), torch.Float16, []int64{n}, pv))
		}
	}
	st = append(st, seedStep(5), dropoutStep("seed5 dropout(ones(3,1000) requires_grad, p=0.2)", torch.Float32, []int64{3, 1000}, 0.2))
	st = append(st, seedStep(5),
		genStep("seed5 bernoulli_(0.3) 100", torch.ExecBernoulli, torch.Float32, []int64{100}, 0.3),
		probeStep{name: "seed5 bernoulli(full 0.7) 100", run: func(f *fixture) (torch.ExecTensor, error) {
			p := f.tensor(true, torch.Float32, []int64{100}, seq(100, func(int) float64 { return 0.7 }))
			out := f.tensor(true, torch.Float32, []int64{100}, nil)
			return out, f.exec(torch.ExecBernoulli, out, []torch.ExecTensor{p}, nil, []int64{0})
		}})
	// nn.init as torch/nn/init.py computes the bounds (kaiming_uniform_ with
	// a = √5, bias bound 1/√fan_in).
	kaiming := func(fanIn float64) float64 {
		a := math.Sqrt(5)
		gain := math.Sqrt(2 / (1 + a*a))
		return math.Sqrt(3) * (gain / math.Sqrt(fanIn))
	}
	lb, cb := kaiming(5), kaiming(18)
	st = append(st, seedStep(9),
		genStep("seed9 Linear(5,3).weight", torch.ExecUniform, torch.Float32, []int64{3, 5}, -lb, lb),
		genStep("seed9 Linear(5,3).bias", torch.ExecUniform, torch.Float32, []int64{3}, -1/math.Sqrt(5), 1/math.Sqrt(5)),
		genStep("seed9 Embedding(7,4).weight", torch.ExecNormal, torch.Float32, []int64{7, 4}, 0, 1),
		genStep("seed9 Conv2d(2,3,3).weight", torch.ExecUniform, torch.Float32, []int64{3, 2, 3, 3}, -cb, cb),
		genStep("seed9 Conv2d(2,3,3).bias", torch.ExecUniform, torch.Float32, []int64{3}, -1/math.Sqrt(18), 1/math.Sqrt(18)),
		seedStep(9), genStep("", torch.ExecNormal, torch.Float32, []int64{4, 4}, 0, 1),
		genStep("seed9 randn(4,4) then .normal_", torch.ExecNormal, torch.Float32, []int64{4, 4}, 0, 1),
		probeStep{name: "seed9 multinomial", run: func(f *fixture) (torch.ExecTensor, error) {
			p := f.tensor(true, torch.Float32, []int64{3}, []float64{0.1, 0.2, 0.7})
			out := f.tensor(true, torch.Int64, []int64{5}, nil)
			return out, f.exec(torch.ExecMultinomial, out, []torch.ExecTensor{p}, nil, []int64{0, 5, 1})
		}},
		seedStep(0), genStep("seed0 after model: randn(2,8) cuda", torch.ExecNormal, torch.Float32, []int64{2, 8}, 0, 1))
	return st
}

// TestPhiloxAgainstPyTorch runs probe.py's CUDA ops through the executor on
// the CPU reference and compares with PyTorch 2.11's bits on an H200: exact
// for uniform, randint, randperm and dropout, and for the generator's
// offsets; normals within rel 1e-4 / abs 1e-5 (float64: 1e-12; half types:
// one ulp), since the reference's sine and cosine are not the GPU's
// sin.approx/cos.approx.
func TestPhiloxAgainstPyTorch(t *testing.T) {
	if testing.Short() {
		t.Skip("draws ~20M numbers")
	}
	recs := loadProbe(t)
	f := newFixture(t)
	var exact, near, total int
	for _, s := range probeSteps() {
		out, err := s.run(f)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		r, ok := recs[s.name]
		if s.name == "" {
			continue
		}
		if !ok {
			t.Fatalf("%s: no such record", s.name)
		}
		// A module's weight record was taken after its bias was drawn too.
		afterBias := strings.HasSuffix(s.name, ").weight") && !strings.Contains(s.name, "Embedding")
		if seed, off := f.ex.State(); !afterBias && (len(r.StateAfter) != 2 || seed != r.StateAfter[0] || off != r.StateAfter[1]) {
			t.Errorf("%s: generator (%d, %d), PyTorch %v", s.name, seed, off, r.StateAfter)
		}
		got := probeBits(out.DType, f.read(out))
		want := r.Bits
		if r.Bits == nil {
			got = append(got[:256:256], got[len(got)-256:]...)
			want = append(append([]int64{}, r.Head...), r.Tail...)
		}
		normal := strings.Contains(s.name, "randn") || strings.Contains(s.name, "normal") || strings.Contains(s.name, "Embedding")
		if len(got) != len(want) {
			t.Fatalf("%s: %d values, want %d", s.name, len(got), len(want))
		}
		bad := 0
		for i := range got {
			total++
			if got[i] == want[i] {
				exact++
				continue
			}
			g, w := bitsValue(out.DType, got[i]), bitsValue(out.DType, want[i])
			ok := false
			switch {
			case !normal:
			case out.DType == torch.Float64:
				ok = math.Abs(g-w) <= 1e-12*math.Abs(w)+1e-12
			case out.DType == torch.Float16 || out.DType == torch.BFloat16:
				ok = got[i]-want[i] <= 1 && want[i]-got[i] <= 1
			default:
				ok = math.Abs(g-w) <= 1e-4*math.Abs(w)+1e-5
			}
			if ok {
				near++
				continue
			}
			if bad++; bad <= 3 {
				t.Errorf("%s[%d]: %v (bits %d), PyTorch %v (bits %d)", s.name, i, g, got[i], w, want[i])
			}
		}
		if r.Checksum != nil && !normal {
			if all := probeBits(out.DType, f.read(out)); probeChecksum(all) != *r.Checksum {
				t.Errorf("%s: checksum %d, PyTorch %d", s.name, probeChecksum(all), *r.Checksum)
			}
		}
	}
	t.Logf("%d values: %d bit-exact, %d within tolerance (normals)", total, exact, near)
}
