package torch

import (
	"testing"

	"github.com/gpumem/playground/sim/alloc"
	"github.com/gpumem/playground/sim/profile"
	"github.com/gpumem/playground/sim/trace"
)

// newTestRuntime builds a runtime over the simulated H100 allocator.
func newTestRuntime(t *testing.T) (*Runtime, *alloc.Allocator) {
	t.Helper()
	p := profile.Default()
	a := alloc.New(p, alloc.DefaultConfig(), alloc.NewSimDevice(p), nil)
	rt := NewRuntime(Config{CuBLASWorkspace: p.CuBLASWorkspace, CuBLASLtWorkspace: p.CuBLASLtWorkspace,
		InitCUDA: func() (Memory, error) { return AllocMemory{a}, nil }})
	return rt, a
}

// must fails the test on an error.
func must[T any](t *testing.T) func(v T, err error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return v
	}
}

// param makes an nn.Parameter the way nn.Linear(...).cuda() does: created
// on the CPU, then moved with param.data = param.cuda().
func param(t *testing.T, rt *Runtime, name string, shape ...int64) *Tensor {
	t.Helper()
	p := must[*Tensor](t)(rt.Factory("empty", shape, Float32, CPUDevice, false))
	p.MarkParameter(true)
	g := must[*Tensor](t)(rt.To(p, Float32, CUDA0, false))
	if err := rt.SetData(p, g); err != nil {
		t.Fatal(err)
	}
	g.Release()
	p.SetName(name, trace.LabelParameter, "parameter "+name)
	return p
}

// check compares the allocator's headline figures.
func check(t *testing.T, a *alloc.Allocator, what string, allocated, reserved, peak int64) {
	t.Helper()
	s := a.Stats()
	if s.Allocated != allocated || (reserved >= 0 && s.Reserved != reserved) || (peak >= 0 && s.PeakAllocated != peak) {
		t.Errorf("%s: allocated %d reserved %d peak %d; want %d %d %d", what, s.Allocated, s.Reserved, s.PeakAllocated, allocated, reserved, peak)
	}
}

// seq runs a chain of modules like nn.Sequential.forward: each output
// replaces the previous one, which is released when rebound.
func seq(t *testing.T, x *Tensor, fs ...func(*Tensor) (*Tensor, error)) *Tensor {
	t.Helper()
	cur := x.Retain()
	for _, f := range fs {
		next := must[*Tensor](t)(f(cur))
		cur.Release()
		cur = next
	}
	return cur
}
