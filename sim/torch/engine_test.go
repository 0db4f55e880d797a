package torch

import (
	"errors"
	"testing"

	"github.com/gpumem/playground/sim/trace"
)

// recMem records allocator calls without caching (sizes as requested).
type recMem struct {
	live, peak int64
	log        []int64 // +size for malloc, -size for free
}

type recBlock struct{ size int64 }

func (m *recMem) Malloc(size int64, _ trace.Label) (Block, error) {
	m.live += size
	m.peak = max(m.peak, m.live)
	m.log = append(m.log, size)
	return &recBlock{size}, nil
}
func (m *recMem) Free(b Block) error {
	s := b.(*recBlock).size
	m.live -= s
	m.log = append(m.log, -s)
	return nil
}
func (m *recMem) Relabel(Block, trace.Label) {}

func newRecRuntime() (*Runtime, *recMem) {
	m := &recMem{}
	rt := NewRuntime(Config{CuBLASWorkspace: 1000, CuBLASLtWorkspace: 10, InitCUDA: func() (Memory, error) { return m, nil }})
	return rt, m
}

// TestAccumulateGradSteals checks AccumulateGrad's stealing: a gradient no
// one else holds becomes .grad without a copy; one shared between two
// inputs (a + b hands the same tensor to both) is cloned for the first.
func TestAccumulateGradSteals(t *testing.T) {
	rt, m := newRecRuntime()
	a := must[*Tensor](t)(rt.Factory("empty", []int64{10}, Float32, CUDA0, true))
	b := must[*Tensor](t)(rt.Factory("empty", []int64{10}, Float32, CUDA0, true))
	s := must[*Tensor](t)(rt.Add(a, b, 1))
	l := must[*Tensor](t)(rt.Sum(s, nil, false, nil))
	m.log = nil
	if err := rt.Backward([]*Tensor{l}, nil, BackwardOptions{}); err != nil {
		t.Fatal(err)
	}
	// ones(4), SumBackward: expand view (no alloc) → AddBackward hands the
	// same expanded view to both leaves: its stride 0 breaks the layout
	// contract, so both grads are clones; then ones is freed.
	want := []int64{4, 40, 40, -4}
	if len(m.log) != len(want) {
		t.Fatalf("log %v, want %v", m.log, want)
	}
	for i := range want {
		if m.log[i] != want[i] {
			t.Fatalf("log %v, want %v", m.log, want)
		}
	}
	if a.Grad() == nil || b.Grad() == nil {
		t.Fatal("grads missing")
	}
	// second backward without retain_graph fails like PyTorch
	s2 := must[*Tensor](t)(rt.Mul(a, b))
	l2 := must[*Tensor](t)(rt.Sum(s2, nil, false, nil))
	if err := rt.Backward([]*Tensor{l2}, nil, BackwardOptions{}); err != nil {
		t.Fatal(err)
	}
	err := rt.Backward([]*Tensor{l2}, nil, BackwardOptions{})
	var bf *BackwardFailure
	if !errors.As(err, &bf) {
		t.Fatalf("second backward through freed graph: %v, want a BackwardFailure", err)
	}
	releaseAll(bf.Grads) // the gradient made for it lives with the error
	for _, x := range []*Tensor{l, s, l2, s2, a, b} {
		x.Release()
	}
	if m.live != 0 {
		t.Errorf("leaked %d bytes", m.live)
	}
	if len(rt.Bugs()) > 0 {
		t.Error(rt.Bugs())
	}
}

// TestGraphFreedWithOutput checks that dropping the last output frees the
// saved tensors of the whole graph, and that views keep storage alive.
func TestGraphFreedWithOutput(t *testing.T) {
	rt, m := newRecRuntime()
	x := must[*Tensor](t)(rt.Factory("empty", []int64{4, 4}, Float32, CUDA0, true))
	h := must[*Tensor](t)(rt.Relu(x))
	y := must[*Tensor](t)(rt.Sigmoid(h))
	h.Release() // kept: ReluBackward and SigmoidBackward... sigmoid saves its result only
	if m.live != 64+64+64 {
		t.Fatalf("live %d", m.live)
	}
	v := must[*Tensor](t)(rt.View(y, []int64{16}))
	y.Release()
	if m.live != 64*3 {
		t.Fatalf("view must keep y: live %d", m.live)
	}
	v.Release()
	if m.live != 64 {
		t.Fatalf("graph not freed: live %d", m.live)
	}
	x.Release()
	if m.live != 0 || len(rt.Bugs()) > 0 {
		t.Fatalf("live %d bugs %v", m.live, rt.Bugs())
	}
}
