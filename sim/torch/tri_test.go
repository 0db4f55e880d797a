package torch

import (
	"slices"
	"testing"
)

// TestTri checks torch.tril/triu and masked_fill against PyTorch 2.11
// (oracle q040/q041): one contiguous output of the input's shape (the
// broadcast shape for masked_fill), the backward node's name, no
// allocation in place, and the argument errors.
func TestTri(t *testing.T) {
	const mat = 360448 // 300×300 float32, rounded to the allocator's 512 B
	cases := []struct {
		name    string
		run     func(rt *Runtime, x *Tensor) (*Tensor, error)
		node    string
		strides []int64
		grown   int64 // bytes allocated by the op
		err     string
	}{
		{"tril", func(rt *Runtime, x *Tensor) (*Tensor, error) { return rt.Tri(x, false, 0) }, "TrilBackward0", []int64{300, 1}, mat, ""},
		{"triu diagonal", func(rt *Runtime, x *Tensor) (*Tensor, error) { return rt.Tri(x, true, 1) }, "TriuBackward0", []int64{300, 1}, mat, ""},
		{"tril of a transpose is contiguous", func(rt *Runtime, x *Tensor) (*Tensor, error) {
			v, err := rt.Transpose(x, 0, 1)
			if err != nil {
				return nil, err
			}
			defer v.Release()
			return rt.Tri(v, false, 5)
		}, "TrilBackward0", []int64{300, 1}, mat, ""},
		{"tril_ in place", func(rt *Runtime, x *Tensor) (*Tensor, error) {
			y, err := rt.MulScalar(x, Int(1))
			if err != nil {
				return nil, err
			}
			defer y.Release()
			return rt.TriInplace(y, false, 0)
		}, "TrilBackward0", []int64{300, 1}, mat, ""},
		{"masked_fill broadcasts the mask", func(rt *Runtime, x *Tensor) (*Tensor, error) {
			m, err := rt.Factory("empty", []int64{1, 300}, Bool, CUDA0, false)
			if err != nil {
				return nil, err
			}
			defer m.Release()
			return rt.MaskedFill(x, m, Float(-1), nil)
		}, "MaskedFillBackward0", []int64{300, 1}, mat + 512, ""},
		{"masked_fill needs a bool mask", func(rt *Runtime, x *Tensor) (*Tensor, error) {
			return rt.MaskedFill(x, x, Float(0), nil)
		}, "", nil, 0, "masked_fill_ only supports boolean masks, but got mask with dtype Float"},
		{"tril needs 2 dims", func(rt *Runtime, x *Tensor) (*Tensor, error) {
			v, err := rt.Select(x, 0, 0)
			if err != nil {
				return nil, err
			}
			defer v.Release()
			return rt.Tri(v, false, 0)
		}, "", nil, 0, "tril: input tensor must have at least 2 dimensions"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rt, a := newTestRuntime(t)
			x := must[*Tensor](t)(rt.Factory("empty", []int64{300, 300}, Float32, CUDA0, true))
			defer x.Release()
			before := a.Stats().Allocated
			out, err := c.run(rt, x)
			if c.err != "" {
				if err == nil || err.Error() != c.err {
					t.Fatalf("error %v; want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer out.Release()
			if got := a.Stats().Allocated - before; got != c.grown {
				t.Errorf("allocated %d; want %d", got, c.grown)
			}
			if out.GradFn() == nil || out.GradFn().Name() != c.node {
				t.Errorf("grad_fn %v; want %s", out.GradFn(), c.node)
			}
			if !slices.Equal(out.Strides(), c.strides) {
				t.Errorf("strides %v; want %v", out.Strides(), c.strides)
			}
		})
	}
}

// TestFusedOptimizerStep checks that the fused kernels allocate nothing,
// bump the versions of what they write and reject mismatched lists and
// CPU tensors.
func TestFusedOptimizerStep(t *testing.T) {
	rt, a := newTestRuntime(t)
	mk := func(dev Device) *Tensor {
		return must[*Tensor](t)(rt.Factory("empty", []int64{100}, Float32, dev, false))
	}
	p, g, m, v, step := mk(CUDA0), mk(CUDA0), mk(CUDA0), mk(CUDA0), mk(CUDA0)
	cpu := mk(CPUDevice)
	before := a.Stats().Allocated
	vp, vs := p.Version(), step.Version()
	lists := [][]*Tensor{{p}, {g}, {m}, {v}, nil, {step}}
	if err := rt.FusedOptimizerStep(FusedStep{Op: "_fused_adam_", Lists: lists, Written: []int{0, 1, 2, 3, 4}}); err != nil {
		t.Fatal(err)
	}
	if a.Stats().Allocated != before {
		t.Errorf("allocated %d; want %d", a.Stats().Allocated, before)
	}
	if p.Version() != vp+1 || step.Version() != vs {
		t.Errorf("versions param %d step %d; want %d %d", p.Version(), step.Version(), vp+1, vs)
	}
	bad := []FusedStep{
		{Op: "_fused_sgd_", Lists: [][]*Tensor{{p}, {g, m}}},
		{Op: "_fused_sgd_", Lists: [][]*Tensor{{p}, {cpu}}},
		{Op: "_fused_adam_", Lists: [][]*Tensor{{p}, {g}}, GradScale: g},
	}
	for i, s := range bad {
		if err := rt.FusedOptimizerStep(s); err == nil {
			t.Errorf("case %d: no error", i)
		}
	}
	for _, x := range []*Tensor{p, g, m, v, step, cpu} {
		x.Release()
	}
}
