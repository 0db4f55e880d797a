package torch

import (
	"slices"
	"strings"
	"testing"
)

// TestCopySlices checks in-place ops through differentiable views: the
// base's grad_fn becomes CopySlices, the view's AsStridedBackward0, and the
// backward allocates what CopySlices::apply does (base-sized result, a
// contiguous clone of the slice, fn's own gradients) in PyTorch's order.
func TestCopySlices(t *testing.T) {
	cases := []struct {
		name string
		// build returns the base, the view modified in place and the
		// tensor to call backward on (all owned).
		build    func(t *testing.T, rt *Runtime) (base, view, loss *Tensor)
		baseFn   string
		viewFn   string
		backward []int64 // allocator log of backward: +malloc, -free
	}{
		{
			// h = w * 2; h[:, :2] += 1; h.sum().backward()
			name: "add_ on a slice",
			build: func(t *testing.T, rt *Runtime) (*Tensor, *Tensor, *Tensor) {
				w := must[*Tensor](t)(rt.Factory("empty", []int64{10, 4}, Float32, CUDA0, true))
				h := must[*Tensor](t)(rt.MulScalar(w, Int(2)))
				w.Release()
				v := must[*Tensor](t)(rt.Slice(h, 1, 0, 2, 1, true, true))
				must[*Tensor](t)(rt.InplaceBinary("add", v, nil, Int(1), 1)).Release()
				return h, v, must[*Tensor](t)(rt.Sum(h, nil, false, nil))
			},
			baseFn: copySlicesName, viewFn: "AsStridedBackward0",
			// ones; CopySlices: result (160), clone (80) passed through
			// AddBackward1 and freed after the copy back; MulBackward0's
			// gradient (160), then result is freed; w.grad steals it
			backward: []int64{4, 160, 80, -80, 160, -160, -4},
		},
		{
			// x (no grad) [:, :2] += u (requires grad): x gets a CopySlices
			// whose unused result dies in it; u.grad steals the clone
			name: "base without grad",
			build: func(t *testing.T, rt *Runtime) (*Tensor, *Tensor, *Tensor) {
				x := must[*Tensor](t)(rt.Factory("empty", []int64{10, 4}, Float32, CUDA0, false))
				u := must[*Tensor](t)(rt.Factory("empty", []int64{10, 2}, Float32, CUDA0, true))
				v := must[*Tensor](t)(rt.Slice(x, 1, 0, 2, 1, true, true))
				must[*Tensor](t)(rt.InplaceBinary("add", v, u, Scalar{}, 1)).Release()
				u.Release()
				return x, v, must[*Tensor](t)(rt.Sum(x, nil, false, nil))
			},
			baseFn: copySlicesName, viewFn: "AsStridedBackward0",
			backward: []int64{4, 160, 80, -160, -4},
		},
		{
			// y = (a @ b) folded back by _unsafe_view: not a view for
			// autograd, so y.add_(1) rebases y itself
			name: "unsafe view is no view",
			build: func(t *testing.T, rt *Runtime) (*Tensor, *Tensor, *Tensor) {
				a := must[*Tensor](t)(rt.Factory("empty", []int64{2, 3, 4}, Float32, CUDA0, true))
				b := must[*Tensor](t)(rt.Factory("empty", []int64{4, 5}, Float32, CUDA0, false))
				y := must[*Tensor](t)(rt.Matmul(a, b))
				must[*Tensor](t)(rt.InplaceBinary("add", y, nil, Int(1), 1)).Release()
				a.Release()
				b.Release()
				return y, y.Retain(), nil
			},
			baseFn: "AddBackward1", viewFn: "AddBackward1",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rt, m := newRecRuntime()
			base, view, loss := c.build(t, rt)
			defer base.Release()
			defer view.Release()
			if got := base.GradFn().Name(); got != c.baseFn {
				t.Errorf("base grad_fn %q, want %q", got, c.baseFn)
			}
			if got := view.GradFn().Name(); got != c.viewFn {
				t.Errorf("view grad_fn %q, want %q", got, c.viewFn)
			}
			if loss == nil {
				return
			}
			defer loss.Release()
			if n := base.GradFn(); n.ClassName() != "CopySlices" || !strings.HasPrefix(n.String(), "<CopySlices object at ") {
				t.Errorf("class %q, repr %q", n.ClassName(), n.String())
			}
			m.log = nil
			if err := rt.Backward([]*Tensor{loss}, nil, BackwardOptions{}); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(m.log, c.backward) {
				t.Errorf("backward log %v, want %v", m.log, c.backward)
			}
			// the graph is freed: a second backward fails like PyTorch's
			err := rt.Backward([]*Tensor{loss}, nil, BackwardOptions{})
			if err == nil || !strings.Contains(err.Error(), "a second time") {
				t.Errorf("second backward: %v", err)
			}
		})
	}
}

// TestCopySlicesLeafView checks check_inplace: an in-place op on a view of
// a leaf that requires grad is refused.
func TestCopySlicesLeafView(t *testing.T) {
	rt, _ := newRecRuntime()
	w := must[*Tensor](t)(rt.Factory("empty", []int64{10, 4}, Float32, CUDA0, true))
	defer w.Release()
	v := must[*Tensor](t)(rt.Slice(w, 1, 0, 2, 1, true, true))
	defer v.Release()
	_, err := rt.InplaceBinary("mul", v, nil, Int(2), 1)
	if err == nil || !strings.Contains(err.Error(), "a view of a leaf Variable that requires grad") {
		t.Fatalf("got %v", err)
	}
}

// TestAsStridedBackward checks as_strided_backward's storage: it spans
// both geometries from the smaller offset, and the result is viewed with
// the input's geometry.
func TestAsStridedBackward(t *testing.T) {
	rt, m := newRecRuntime()
	g := must[*Tensor](t)(rt.Factory("empty", []int64{3, 2}, Float32, CUDA0, false))
	defer g.Release()
	// base [4, 5] at offset 5, view [3, 2] strides [5, 1] at offset 12
	in := geometry{[]int64{4, 5}, []int64{5, 1}, 5}
	out := geometry{[]int64{3, 2}, []int64{5, 1}, 12}
	m.log = nil
	r := must[*Tensor](t)(rt.asStridedBackward(g, in, out))
	if want := []int64{20 * 4}; !slices.Equal(m.log, want) {
		t.Errorf("log %v, want %v", m.log, want)
	}
	if !slices.Equal(r.shape, in.shape) || !slices.Equal(r.strides, in.strides) || r.offset != 0 {
		t.Errorf("result %v %v +%d", r.shape, r.strides, r.offset)
	}
	r.Release()
	if m.live != 3*2*4 {
		t.Errorf("live %d after release", m.live)
	}
}
