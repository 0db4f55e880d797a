package torch

import "testing"

// TestMoreLossesMemory checks the allocations (requested bytes: +alloc,
// -free), grad_fn names and output shapes of smooth_l1/huber/kl_div and
// cross_entropy's label-smoothing and probability-target branches, forward
// and backward (x: 100 floats requiring grad; the backward's seed gradient
// is allocated before the log starts).
func TestMoreLossesMemory(t *testing.T) {
	type lossFn func(rt *Runtime, x, y, idx *Tensor) (*Tensor, error)
	ce := func(a CrossEntropyArgs) lossFn {
		return func(rt *Runtime, x, y, idx *Tensor) (*Tensor, error) {
			if a.LabelSmoothing > 0 && a.IgnoreIndex != -1 {
				return rt.CrossEntropyFull(x, idx, a)
			}
			return rt.CrossEntropyFull(x, y, a)
		}
	}
	cases := []struct {
		name     string
		fn       lossFn
		gradFn   string
		shape    []int64
		fwd, bwd []int64
	}{
		// structured: result-sized first buffer freed, the second kept
		// (MseLoss's model); backward: zeros_like(input)
		{"smooth_l1 mean", func(rt *Runtime, x, y, _ *Tensor) (*Tensor, error) { return rt.SmoothL1Loss(x, y, "mean", 1) },
			"SmoothL1LossBackward0", nil, []int64{400, 400, -400}, []int64{400}},
		{"smooth_l1 none", func(rt *Runtime, x, y, _ *Tensor) (*Tensor, error) { return rt.SmoothL1Loss(x, y, "none", 1) },
			"SmoothL1LossBackward0", []int64{10, 10}, []int64{400}, []int64{400}},
		// beta 0 is l1_loss: sub (saved by AbsBackward0), abs, mean
		{"smooth_l1 beta=0", func(rt *Runtime, x, y, _ *Tensor) (*Tensor, error) { return rt.SmoothL1Loss(x, y, "mean", 0) },
			"MeanBackward0", nil, []int64{400, 400, 4, -400}, nil},
		// huber: loss, apply_loss_reduction's result, loss freed
		{"huber sum", func(rt *Runtime, x, y, _ *Tensor) (*Tensor, error) { return rt.HuberLoss(x, y, "sum", 0.5) },
			"HuberLossBackward0", nil, []int64{400, 4, -400}, []int64{400}},
		// xlogy(t, t) - t * x: the product first, then xlogy, the
		// difference; sum; / size(0)
		{"kl_div batchmean", func(rt *Runtime, x, y, _ *Tensor) (*Tensor, error) { return rt.KLDiv(x, y, "batchmean", false) },
			"DivBackward0", nil, []int64{400, 400, 400, -400, -400, 4, -400, 4, -4}, nil},
		// exp(t) * (t - x): the difference first; exp(t) is saved
		{"kl_div log_target none", func(rt *Runtime, x, y, _ *Tensor) (*Tensor, error) { return rt.KLDiv(x, y, "none", true) },
			"MulBackward0", []int64{10, 10}, []int64{400, 400, 400, -400}, nil},
		// log_softmax, nll (out, total_weight), sum(1) + neg, eq mask,
		// ~mask, count (saved by the div; the sum runs on an int64 copy
		// of the mask), total, div, then ret * c and
		// (1 - ls) * nll, add; then the locals ret, smooth_loss, nll
		// (the mask is saved by MaskedFillBackward0, the log_softmax
		// output by its node)
		{"ce label smoothing mean", ce(CrossEntropyArgs{Reduction: "mean", IgnoreIndex: -100, LabelSmoothing: 0.1}),
			"AddBackward0", nil, []int64{400, 4, 4, 40, 40, -40, 10, 10, 8, 80, -80, 4, 4, -4, -10, 4, 4, 4, -4, -4, -4, -40, -4}, nil},
		// probability targets: log_softmax, t * (1 - ls) + ls / C
		// (saved by the product), input * target, sum, neg,
		// / (numel / C)
		{"ce prob ls mean", ce(CrossEntropyArgs{Reduction: "mean", IgnoreIndex: -1, LabelSmoothing: 0.1}),
			"DivBackward1", nil, []int64{400, 400, 400, -400, 400, 4, 4, 4, -4, -4, -400}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rt, m := newRecRuntime()
			x := must[*Tensor](t)(rt.Factory("empty", []int64{10, 10}, Float32, CUDA0, true))
			y := must[*Tensor](t)(rt.Factory("empty", []int64{10, 10}, Float32, CUDA0, false))
			idx := must[*Tensor](t)(rt.Factory("empty", []int64{10}, Int64, CUDA0, false))
			m.log = nil
			l, err := c.fn(rt, x, y, idx)
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
			if c.bwd == nil {
				return
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

// TestMoreLossesErrors checks PyTorch's messages for bad arguments.
func TestMoreLossesErrors(t *testing.T) {
	rt, _ := newRecRuntime()
	x := must[*Tensor](t)(rt.Factory("empty", []int64{4, 5}, Float32, CUDA0, true))
	i := must[*Tensor](t)(rt.Factory("empty", []int64{4, 5}, Int64, CUDA0, false))
	idx := must[*Tensor](t)(rt.Factory("empty", []int64{4}, Int64, CUDA0, false))
	cases := []struct {
		name string
		run  func() error
		want string
	}{
		{"beta<0", func() error { _, err := rt.SmoothL1Loss(x, x, "mean", -1); return err },
			"smooth_l1_loss does not support negative values for beta."},
		{"delta=0", func() error { _, err := rt.HuberLoss(x, x, "mean", 0); return err },
			"huber_loss does not support non-positive values for delta."},
		{"kl_div int", func() error { _, err := rt.KLDiv(x, i, "mean", false); return err },
			"kl_div: Integral inputs not supported."},
		{"ce ls>1", func() error {
			_, err := rt.CrossEntropyFull(x, idx, CrossEntropyArgs{Reduction: "mean", IgnoreIndex: -100, LabelSmoothing: 1.5})
			return err
		}, "label_smoothing must be between 0.0 and 1.0. Got: 1.5"},
		{"ce prob int target", func() error {
			_, err := rt.CrossEntropyFull(x, i, CrossEntropyArgs{Reduction: "mean", IgnoreIndex: -100})
			return err
		}, "Expected floating point type for target with class probabilities, got Long"},
		{"ce prob ignore_index", func() error {
			_, err := rt.CrossEntropyFull(x, x, CrossEntropyArgs{Reduction: "mean", IgnoreIndex: 3})
			return err
		}, "ignore_index is not supported for floating point target"},
		{"smooth_l1 int", func() error { _, err := rt.SmoothL1Loss(i, i, "mean", 1); return err },
			"\"smooth_l1_loss_cuda\" not implemented for 'Long'"},
	}
	for _, c := range cases {
		err := c.run()
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}
