package torch

import (
	"strconv"
	"strings"
	"testing"
)

// traceCase is one measured op (testdata/questions/q18_*.out): build makes
// the inputs (requiring grad) and runs the op; fwd and bwd are the
// allocator events PyTorch 2.11 recorded during the forward and during
// out.backward(ones_like(out)) ("+k:size" the k-th allocation, "-k" its
// free, "-?" the free of a block allocated before).
type traceCase struct {
	name     string
	build    func(rt *Runtime, in func(shape ...int64) *Tensor) (*Tensor, error)
	fwd, bwd string
	gradFn   string
}

// parseTrace turns q18's event notation into recMem's log: +size for an
// allocation, -size for a free; -1 stands for "-?" (any earlier block).
func parseTrace(t *testing.T, s string) []int64 {
	t.Helper()
	sizes := map[string]int64{}
	var out []int64
	for _, f := range strings.Fields(s) {
		switch {
		case strings.HasPrefix(f, "+"):
			k, v, _ := strings.Cut(f[1:], ":")
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				t.Fatalf("bad event %q", f)
			}
			sizes[k] = n
			out = append(out, n)
		case f == "-?":
			out = append(out, -1)
		case strings.HasPrefix(f, "-"):
			n, ok := sizes[f[1:]]
			if !ok {
				t.Fatalf("free of unknown block %q", f)
			}
			out = append(out, -n)
		}
	}
	return out
}

// compareTrace compares a recorded log with a measured one; -1 in want
// matches any free of a block allocated before the log started.
func compareTrace(t *testing.T, what string, got, want []int64) {
	t.Helper()
	ok := len(got) == len(want)
	for i := 0; ok && i < len(want); i++ {
		ok = got[i] == want[i] || (want[i] == -1 && got[i] < 0)
	}
	if !ok {
		t.Errorf("%s:\n got %v\nwant %v", what, got, want)
	}
}

// runTraceCases replays each case on a fresh runtime (cuBLAS workspace
// warmed up on both threads) and compares its events with PyTorch's.
func runTraceCases(t *testing.T, cases []traceCase) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rt, m := newRecRuntime()
			w := must[*Tensor](t)(rt.Factory("empty", []int64{1, 2, 2}, Float32, CUDA0, true))
			wb := must[*Tensor](t)(rt.Bmm(w, w))
			l := must[*Tensor](t)(rt.Sum(wb, nil, false, nil))
			if err := rt.Backward([]*Tensor{l}, nil, BackwardOptions{}); err != nil {
				t.Fatal(err)
			}
			in := func(shape ...int64) *Tensor {
				x := must[*Tensor](t)(rt.Factory("randn", shape, Float32, CUDA0, true))
				m.log = m.log[:len(m.log)-1] // inputs exist before the op
				return x
			}
			m.log = nil
			out, err := c.build(rt, in)
			if err != nil {
				t.Fatal(err)
			}
			compareTrace(t, "forward", m.log, parseTrace(t, c.fwd))
			if c.gradFn != "" && (out.gradFn == nil || out.gradFn.name != c.gradFn) {
				t.Errorf("grad_fn %v, want %s", out.gradFn, c.gradFn)
			}
			if c.bwd == "-" {
				return
			}
			g := must[*Tensor](t)(rt.FactoryLike("ones_like", out, out.dtype, out.device, false))
			m.log = nil
			if err := rt.Backward([]*Tensor{out}, []*Tensor{g}, BackwardOptions{}); err != nil {
				t.Fatal(err)
			}
			compareTrace(t, "backward", m.log, parseTrace(t, c.bwd))
		})
	}
}
