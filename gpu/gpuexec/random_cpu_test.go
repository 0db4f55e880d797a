package gpuexec

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/gpumem/playground/sim/torch"
)

// probeOut is one recorded output of gpu/testdata/rng/probe.py (PyTorch
// 2.11): exact bits, or both ends of a large output.
type probeOut struct {
	Name       string  `json:"name"`
	Device     string  `json:"device"`
	Bits       []int64 `json:"bits"`
	Head, Tail []int64
}

func loadProbeOuts(t *testing.T) map[string]probeOut {
	t.Helper()
	f, err := os.Open("../testdata/rng/probe-out.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs := map[string]probeOut{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var r probeOut
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		recs[r.Name] = r
	}
	return recs
}

// hostBits reads a contiguous CPU tensor's elements as the probe's bits.
func (f *fixture) hostBits(et torch.ExecTensor) []int64 {
	f.t.Helper()
	o, err := f.ex.resolve(et)
	if err != nil {
		f.t.Fatal(err)
	}
	n, size := et.Numel(), o.kt.Size()
	raw, err := f.ex.host.Bytes(o.addr, n*size)
	if err != nil {
		f.t.Fatal(err)
	}
	out := make([]int64, n)
	for i := range out {
		b := raw[int64(i)*size:]
		switch size {
		case 1:
			out[i] = int64(b[0])
		case 2:
			out[i] = int64(int16(binary.LittleEndian.Uint16(b)))
		case 4:
			out[i] = int64(int32(binary.LittleEndian.Uint32(b)))
		default:
			out[i] = int64(binary.LittleEndian.Uint64(b))
		}
	}
	return out
}

// hostRandom runs a random op with a CPU output through generateHost and
// marks its output computed (what the dispatch does for CPU outputs).
func (f *fixture) hostRandom(kind torch.ExecKind, outs []torch.ExecTensor, ins []torch.ExecTensor, scalars []float64) {
	f.t.Helper()
	op := &torch.ExecOp{Kind: kind, Out: outs, In: ins, Scalars: scalars}
	o, err := f.ex.resolve(outs[0])
	if err != nil {
		f.t.Fatal(err)
	}
	if err := f.ex.generateHost(op, o); err != nil {
		f.t.Fatalf("%s: %v", kind, err)
	}
	for _, t := range outs {
		f.ex.computed[t.Storage] = true
	}
}

func (f *fixture) seed(s int64) {
	if err := f.ex.Exec(&torch.ExecOp{Kind: ExecManualSeed, Ints: []int64{s}}); err != nil {
		f.t.Fatal(err)
	}
}

// TestGenerateHostProbe runs probe.py's CPU ops (and the CPU-initialised
// Sequential moved to CUDA) through the executor and compares the bits
// with PyTorch 2.11's: exact, except float64 normals (libm's log/sin/cos
// in double against Go's math: within 2 ulp).
func TestGenerateHostProbe(t *testing.T) {
	recs := loadProbeOuts(t)
	f := newFixture(t)
	check := func(name string, et torch.ExecTensor, tolULP int64) {
		t.Helper()
		rec, ok := recs[name]
		if !ok {
			t.Fatalf("no record %q", name)
		}
		got := f.hostBits(et)
		want := rec.Bits
		if want == nil {
			want = append(append([]int64{}, rec.Head...), rec.Tail...)
			got = append(got[:len(rec.Head):len(rec.Head)], got[len(got)-len(rec.Tail):]...)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d values, want %d", name, len(got), len(want))
		}
		for i := range want {
			d := want[i] - got[i]
			if d != 0 && (tolULP == 0 || (want[i] < 0) != (got[i] < 0) || max(d, -d) > tolULP) {
				t.Errorf("%s[%d] = %d, want %d", name, i, got[i], want[i])
				return
			}
		}
	}
	rnd := func(kind torch.ExecKind, dt torch.DType, shape []int64, sc ...float64) torch.ExecTensor {
		et := f.tensor(false, dt, shape, nil)
		f.hostRandom(kind, []torch.ExecTensor{et}, nil, sc)
		return et
	}
	sizes := []int64{1, 3, 4, 5, 16, 17, 33, 1000, 4097, 70000}
	for _, seed := range []int64{0, 42, 1<<40 + 3} {
		for _, kind := range []torch.ExecKind{torch.ExecUniform, torch.ExecNormal} {
			f.seed(seed)
			for _, n := range sizes {
				name := fmt.Sprintf("seed%d rand(%d)", seed, n)
				if kind == torch.ExecNormal {
					name = strings.Replace(name, "rand", "randn", 1)
				}
				check(name, rnd(kind, torch.Float32, []int64{n}, 0, 1), 0)
			}
		}
	}
	f.seed(7)
	for _, dt := range []torch.DType{torch.Float16, torch.BFloat16, torch.Float64} {
		for _, n := range []int64{5, 17, 1000} {
			check(fmt.Sprintf("seed7 rand(%d, %s)", n, dt), rnd(torch.ExecUniform, dt, []int64{n}, 0, 1), 0)
			tol := int64(0)
			if dt == torch.Float64 {
				tol = 2
			}
			check(fmt.Sprintf("seed7 randn(%d, %s)", n, dt), rnd(torch.ExecNormal, dt, []int64{n}, 0, 1), tol)
		}
	}
	f.seed(3)
	check("seed3 rand(4,5)", rnd(torch.ExecUniform, torch.Float32, []int64{4, 5}, 0, 1), 0)
	check("seed3 randn(2,3,4)", rnd(torch.ExecNormal, torch.Float32, []int64{2, 3, 4}, 0, 1), 0)
	check("seed3 empty(10).uniform_(-2,3)", rnd(torch.ExecUniform, torch.Float32, []int64{10}, -2, 3), 0)
	check("seed3 empty(20).normal_(1,0.5)", rnd(torch.ExecNormal, torch.Float32, []int64{20}, 1, 0.5), 0)
	check("seed3 rand_like", rnd(torch.ExecUniform, torch.Float32, []int64{6}, 0, 1), 0)
	check("seed3 randn_like", rnd(torch.ExecNormal, torch.Float32, []int64{6}, 0, 1), 0)
	for _, n := range []int64{5, 100, 5000} {
		check(fmt.Sprintf("seed3 randint(0,10,(%d,))", n), rnd(torch.ExecRandInt, torch.Int64, []int64{n}, 0, 10), 0)
		check(fmt.Sprintf("seed3 randint(-7,2**33,(%d,))", n), rnd(torch.ExecRandInt, torch.Int64, []int64{n}, -7, 1<<33), 0)
	}
	for _, n := range []int64{1, 5, 10, 100, 1000, 5000, 40000} {
		f.seed(11)
		check(fmt.Sprintf("seed11 randperm(%d)", n), rnd(torch.ExecRandPerm, torch.Int64, []int64{n}), 0)
	}
	for _, p := range []float64{0.1, 0.5} {
		for _, n := range []int64{5, 16, 1000, 70001} {
			for _, dt := range []torch.DType{torch.Float32, torch.Float16} {
				f.seed(5)
				x := f.tensor(false, dt, []int64{n}, seq(int(n), func(int) float64 { return 1 }))
				out := f.tensor(false, dt, []int64{n}, nil)
				mask := f.tensor(false, torch.Bool, []int64{n}, nil)
				f.hostRandom(torch.ExecDropout, []torch.ExecTensor{out, mask}, []torch.ExecTensor{x}, []float64{p})
				suffix := ""
				if dt == torch.Float16 {
					suffix = ", f16"
				}
				check(fmt.Sprintf("seed5 dropout(ones(%d%s), p=%v)", n, suffix, p), out, 0)
				ob, mb := f.hostBits(out), f.hostBits(mask)
				for i := range ob {
					if (ob[i] != 0) != (mb[i] != 0) {
						t.Fatalf("dropout mask[%d] = %d for output bits %d", i, mb[i], ob[i])
					}
				}
			}
		}
	}
	// bernoulli_ with a number, torch.bernoulli of a tensor, multinomial
	// with replacement, through the executor's dispatch.
	run := func(kind torch.ExecKind, out torch.ExecTensor, ins []torch.ExecTensor, sc []float64, ints []int64) torch.ExecTensor {
		t.Helper()
		if err := f.exec(kind, out, ins, sc, ints); err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		return out
	}
	f.seed(5)
	check("seed5 bernoulli_(0.3) 100", run(torch.ExecBernoulli, f.tensor(false, torch.Float32, []int64{100}, nil), nil, []float64{0.3}, []int64{0}), 0)
	full := f.tensor(false, torch.Float32, []int64{100}, seq(100, func(int) float64 { return 0.7 }))
	check("seed5 bernoulli(full 0.7) 100", run(torch.ExecBernoulli, f.tensor(false, torch.Float32, []int64{100}, nil), []torch.ExecTensor{full}, nil, []int64{0}), 0)
	f.seed(9)
	rnd(torch.ExecNormal, torch.Float32, []int64{4, 4}, 0, 1)
	check("seed9 randn(4,4) then .normal_", rnd(torch.ExecNormal, torch.Float32, []int64{4, 4}, 0, 1), 0)
	probs := f.tensor(false, torch.Float32, []int64{3}, []float64{0.1, 0.2, 0.7})
	check("seed9 multinomial", run(torch.ExecMultinomial, f.tensor(false, torch.Int64, []int64{5}, nil), []torch.ExecTensor{probs}, nil, []int64{0, 5, 1}), 0)
	// nn.Linear(5,3), Embedding(7,4), Conv2d(2,3,3) initialised by torch/nn/init.py.
	kb := func(fanIn float64) float64 {
		return math.Sqrt(3.0) * (math.Sqrt(2.0/(1+math.Pow(math.Sqrt(5), 2))) / math.Sqrt(fanIn))
	}
	f.seed(9)
	check("seed9 Linear(5,3).weight", rnd(torch.ExecUniform, torch.Float32, []int64{3, 5}, -kb(5), kb(5)), 0)
	check("seed9 Linear(5,3).bias", rnd(torch.ExecUniform, torch.Float32, []int64{3}, -1/math.Sqrt(5), 1/math.Sqrt(5)), 0)
	check("seed9 Embedding(7,4).weight", rnd(torch.ExecNormal, torch.Float32, []int64{7, 4}, 0, 1), 0)
	check("seed9 Conv2d(2,3,3).weight", rnd(torch.ExecUniform, torch.Float32, []int64{3, 2, 3, 3}, -kb(18), kb(18)), 0)
	check("seed9 Conv2d(2,3,3).bias", rnd(torch.ExecUniform, torch.Float32, []int64{3}, -1/math.Sqrt(18), 1/math.Sqrt(18)), 0)
	f.seed(0)
	seqName := "seed0 Sequential(Linear(8,16),ReLU,Linear(16,4)).cuda() param%d"
	check(fmt.Sprintf(seqName, 0), rnd(torch.ExecUniform, torch.Float32, []int64{16, 8}, -kb(8), kb(8)), 0)
	check(fmt.Sprintf(seqName, 1), rnd(torch.ExecUniform, torch.Float32, []int64{16}, -1/math.Sqrt(8), 1/math.Sqrt(8)), 0)
	check(fmt.Sprintf(seqName, 2), rnd(torch.ExecUniform, torch.Float32, []int64{4, 16}, -kb(16), kb(16)), 0)
	check(fmt.Sprintf(seqName, 3), rnd(torch.ExecUniform, torch.Float32, []int64{4}, -1/math.Sqrt(16), 1/math.Sqrt(16)), 0)
}

// TestGenerateHostLayout checks the draw order of a transposed output
// (memory order, as TensorIterator walks it), the reseed and the refusals.
func TestGenerateHostLayout(t *testing.T) {
	f := newFixture(t)
	f.seed(1)
	a := f.tensor(false, torch.Float32, []int64{6}, nil)
	f.hostRandom(torch.ExecUniform, []torch.ExecTensor{a}, nil, []float64{0, 1})
	f.seed(1)
	b := f.tensor(false, torch.Float32, []int64{2, 3}, nil)
	bt := view(b, []int64{3, 2}, []int64{1, 3}, 0)
	f.hostRandom(torch.ExecUniform, []torch.ExecTensor{bt}, nil, []float64{0, 1})
	if av, bv := f.hostBits(a), f.hostBits(b); fmt.Sprint(av) != fmt.Sprint(bv) {
		t.Fatalf("transposed output drawn %v, want memory order %v", bv, av)
	}
	o, _ := f.ex.resolve(f.tensor(false, torch.Int64, []int64{3}, nil))
	if err := f.ex.generateHost(&torch.ExecOp{Kind: torch.ExecNormal, Scalars: []float64{0, 1}}, o); !IsNotComputed(err) {
		t.Fatalf("normal into int64: %v, want not computed", err)
	}
	if err := f.ex.generateHost(&torch.ExecOp{Kind: torch.ExecRandInt, Scalars: []float64{3, 3}}, o); !IsNotComputed(err) {
		t.Fatalf("randint over an empty range: %v, want not computed", err)
	}
	if err := f.ex.generateHost(&torch.ExecOp{Kind: torch.ExecSum}, o); !IsNotComputed(err) {
		t.Fatalf("sum: %v, want not computed", err)
	}
}
