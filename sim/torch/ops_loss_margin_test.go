package torch

import "testing"

// marginInput describes one input of a loss call: shape, dtype, whether it
// requires grad, and (transposed) whether it is passed as a 2-d .t() view.
type marginInput struct {
	shape      []int64
	dt         DType
	grad       bool
	transposed bool
}

func f32In(grad bool, shape ...int64) marginInput {
	return marginInput{shape: shape, dt: Float32, grad: grad}
}
func i64In(shape ...int64) marginInput { return marginInput{shape: shape, dt: Int64} }

// TestMarginLossesMemory checks the allocations (requested bytes: +alloc,
// -free), grad_fn names and shapes of the margin/embedding losses, forward
// and backward (inputs and the backward's seed gradient are allocated
// before each log starts). The sequences are q23's H100 traces
// (testdata/questions/q23_losses_optim.out) at smaller sizes.
func TestMarginLossesMemory(t *testing.T) {
	cases := []struct {
		name     string
		in       []marginInput
		call     func(rt *Runtime, in []*Tensor) (*Tensor, error)
		gradFn   string
		shape    []int64
		fwd, bwd []int64
	}{
		// the difference, the negation (saved by the product), the
		// product, + margin (freed: product, difference); clamp_min_'s
		// clone of the original; mean. Backward: mean's gradient,
		// clamp_min's zero/mask/result, add passes it, the product's
		// gradient, sub's negation
		{"margin_ranking mean", []marginInput{f32In(true, 100), f32In(false, 100), f32In(false, 100)},
			func(rt *Runtime, in []*Tensor) (*Tensor, error) {
				return rt.MarginRankingLoss(in[0], in[1], in[2], 0.1, "mean")
			},
			"MeanBackward0", nil,
			[]int64{400, 400, 400, 400, -400, -400, 400, 4, -400},
			[]int64{400, 4, 100, 400, -100, -4, -400, -400, 400, -400, -400}},
		// zeros, margin - x, clamp_min_'s clone, two (mask, where), the
		// sum, mean; locals freed in reverse. Backward: where's 0-dim zero
		// before each result
		{"hinge mean", []marginInput{f32In(true, 10, 10), f32In(false, 10, 10)},
			func(rt *Runtime, in []*Tensor) (*Tensor, error) {
				return rt.HingeEmbeddingLoss(in[0], in[1], 1, "mean")
			},
			"MeanBackward0", nil,
			[]int64{400, 400, 400, 100, 400, 100, 400, 400, 4, -400, -400, -400, -400, -400},
			[]int64{400, 4, 400, -4, -100, 4, 400, -4, -400, -100, 4, 100, 400, -100, -4, -400, -400, 400, -400, -400}},
		// the input-sized result keeps its storage; the reduction's
		// scalar is copied in and freed
		{"soft_margin mean", []marginInput{f32In(true, 10, 10), f32In(false, 10, 10)},
			func(rt *Runtime, in []*Tensor) (*Tensor, error) { return rt.SoftMarginLoss(in[0], in[1], "mean") },
			"SoftMarginLossBackward0", nil,
			[]int64{400, 4, -4},
			[]int64{400, 400, 400, -400, -400, 400, -400}},
		{"soft_margin none", []marginInput{f32In(true, 10, 10), f32In(false, 10, 10)},
			func(rt *Runtime, in []*Tensor) (*Tensor, error) { return rt.SoftMarginLoss(in[0], in[1], "none") },
			"SoftMarginLossBackward0", []int64{10, 10},
			[]int64{400},
			[]int64{400, 400, 400, -400, -400, 400, -400}},
		{"cosine_embedding none", []marginInput{f32In(true, 4, 25), f32In(true, 4, 25), f32In(false, 4)},
			func(rt *Runtime, in []*Tensor) (*Tensor, error) {
				return rt.CosineEmbeddingLoss(in[0], in[1], in[2], 0.2, "none")
			},
			"AddBackward0", []int64{4},
			[]int64{400, 16, -400, 400, 16, 16, -16, -400, 400, 16, 16, -16, -400, 16, 16, 16, 16, 16, 16, 4, 16, 4, 16, 16, -16, -16, -16, -16, -16, -16},
			[]int64{4, 16, -4, -4, 4, 16, -4, -4, 4, 4, 16, -4, -4, -16, -16, 16, -16, -16, 16, 16, 16, 16, -16, -16, -16, 16, -16, -16, 16, 16, -16, -16, -16, 16, 16, -16, -16, -16, 400, 400, -16, -400, 400, 400, -16, -400, 400, 400, -16, -400, -400}},
		// two pairwise distances (difference, + eps saved by the norm,
		// the norm), + margin, - d_neg (saved by clamp_min), clamp_min
		{"triplet mean", []marginInput{f32In(true, 4, 25), f32In(true, 4, 25), f32In(true, 4, 25)},
			func(rt *Runtime, in []*Tensor) (*Tensor, error) {
				return rt.TripletMarginLoss(in[0], in[1], in[2], 1, 2, 1e-6, false, "mean")
			},
			"MeanBackward0", nil,
			[]int64{400, 400, 16, -400, 400, 400, 16, -400, 16, 16, 16, -16, 4, -16},
			[]int64{16, 4, 4, 16, -4, -4, -16, -16, 16, 400, 4, 400, -4, -400, -16, -400, -16, 400, 400, 4, 400, -4, -400, -16, -400, -16, 400, -400}},
		// the result, the [nframe] temporary summed into it
		{"multi_margin mean", []marginInput{f32In(true, 10, 10), i64In(10)},
			func(rt *Runtime, in []*Tensor) (*Tensor, error) {
				return rt.MultiMarginLoss(in[0], in[1], 1, 1, nil, "mean")
			},
			"MultiMarginLossBackward0", nil,
			[]int64{4, 40, -40},
			[]int64{400}},
		// a transposed input is copied contiguous (after the result), in
		// forward and backward (after grad_input)
		{"multi_margin transposed", []marginInput{{shape: []int64{10, 10}, dt: Float32, grad: true, transposed: true}, i64In(10)},
			func(rt *Runtime, in []*Tensor) (*Tensor, error) {
				return rt.MultiMarginLoss(in[0], in[1], 1, 1, nil, "mean")
			},
			"MultiMarginLossBackward0", nil,
			[]int64{4, 400, 40, -40, -400},
			[]int64{400, 400, -400, 400, -400}},
		{"multi_margin 1-d none", []marginInput{f32In(true, 100), i64In(1)},
			func(rt *Runtime, in []*Tensor) (*Tensor, error) {
				return rt.MultiMarginLoss(in[0], in[1], 2, 1, nil, "none")
			},
			"MultiMarginLossBackward0", []int64{1},
			[]int64{4},
			[]int64{400}},
		// exp(x) - y * x, then the Stirling term's six temporaries, the
		// mask, masked_fill, add_ in place
		{"poisson_nll full", []marginInput{f32In(true, 10, 10), f32In(false, 10, 10)},
			func(rt *Runtime, in []*Tensor) (*Tensor, error) {
				return rt.PoissonNLLLoss(in[0], in[1], true, true, 1e-8, "mean")
			},
			"MeanBackward0", nil,
			[]int64{400, 400, 400, -400, 400, 400, 400, 400, 400, 400, 400, -400, -400, -400, -400, -400, -400, 100, 400, -400, -100, -400, 4, -400},
			[]int64{400, 400, 400, -400, -400, 400, -400, -400}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rt, m := newRecRuntime()
			in := make([]*Tensor, len(c.in))
			for i, d := range c.in {
				x := must[*Tensor](t)(rt.Factory("empty", d.shape, d.dt, CUDA0, d.grad))
				if d.transposed {
					x = must[*Tensor](t)(rt.Transpose(x, 0, 1))
				}
				in[i] = x
			}
			m.log = nil
			l, err := c.call(rt, in)
			if err != nil {
				t.Fatal(err)
			}
			compareLog(t, "forward", m.log, c.fwd)
			if l.gradFn == nil || l.gradFn.name != c.gradFn {
				t.Errorf("grad_fn %v, want %s", l.gradFn, c.gradFn)
			}
			if !sameShape(l.shape, c.shape) {
				t.Errorf("shape %v, want %v", l.shape, c.shape)
			}
			g := must[*Tensor](t)(rt.Factory("empty", l.shape, Float32, CUDA0, false))
			m.log = nil
			if err := rt.Backward([]*Tensor{l}, []*Tensor{g}, BackwardOptions{}); err != nil {
				t.Fatal(err)
			}
			compareLog(t, "backward", m.log, c.bwd)
		})
	}
}

// TestMarginLossesErrors checks PyTorch's messages for bad arguments.
func TestMarginLossesErrors(t *testing.T) {
	rt, _ := newRecRuntime()
	mk := func(dt DType, grad bool, shape ...int64) *Tensor {
		return must[*Tensor](t)(rt.Factory("empty", shape, dt, CUDA0, grad))
	}
	x, x6, y45 := mk(Float32, true, 4, 5), mk(Float32, true, 4, 6), mk(Float32, true, 4, 5)
	tgt, tgt2, tgt7 := mk(Int64, false, 4), mk(Float32, false, 4, 1), mk(Int64, false, 7)
	cases := []struct {
		name string
		run  func() error
		want string
	}{
		{"margin_ranking size", func() error {
			_, err := rt.MarginRankingLoss(mk(Float32, true, 4), mk(Float32, false, 5), mk(Float32, false, 4), 0, "mean")
			return err
		},
			"The size of tensor a (4) must match the size of tensor b (5) at non-singleton dimension 0"},
		{"cosine target 2-d", func() error { _, err := rt.CosineEmbeddingLoss(x, y45, tgt2, 0, "mean"); return err },
			"0D or 1D target tensor expected, multi-target not supported"},
		{"cosine 1-d target 1-d inputs", func() error {
			_, err := rt.CosineEmbeddingLoss(mk(Float32, true, 5), mk(Float32, true, 5), mk(Float32, false, 4), 0, "mean")
			return err
		}, "1D target tensor expects 2D input tensors, but found inputs with sizes [5] and [5]."},
		{"cosine sizes", func() error { _, err := rt.CosineEmbeddingLoss(x, x6, mk(Float32, false, 4), 0, "mean"); return err },
			"The size of tensor a (5) must match the size of tensor b (6) at non-singleton dimension 1"},
		{"triplet dims", func() error {
			_, err := rt.TripletMarginLoss(x, y45, mk(Float32, true, 5), 1, 2, 1e-6, false, "mean")
			return err
		},
			"The anchor, positive, and negative tensors are expected to have the same number of dimensions, but got: anchor 2D, positive 2D, and negative 1D inputs"},
		{"multi_margin p", func() error { _, err := rt.MultiMarginLoss(x, tgt, 3, 1, nil, "mean"); return err },
			"multi_margin_loss: Invalid p, expected 1 or 2 but got 3"},
		{"multi_margin target", func() error { _, err := rt.MultiMarginLoss(x, tgt7, 1, 1, nil, "mean"); return err },
			"inconsistent target size, expected 4 but got [7]"},
		{"multi_margin weight", func() error { _, err := rt.MultiMarginLoss(x, tgt, 1, 1, mk(Float32, false, 9), "mean"); return err },
			"inconsistent weight size, expected 5 but got [9]"},
		{"multi_margin 3-d", func() error {
			_, err := rt.MultiMarginLoss(mk(Float32, true, 2, 4, 5), tgt, 1, 1, nil, "mean")
			return err
		},
			"Expected non-empty vector or matrix with optional 0-dim batch size, but got: [2, 4, 5]"},
		{"soft_margin target grad", func() error { _, err := rt.SoftMarginLoss(x, y45, "mean"); return err },
			"The function 'soft_margin_loss' is not differentiable with respect to argument 'target'. This input cannot have requires_grad True."},
	}
	for _, c := range cases {
		err := c.run()
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}
