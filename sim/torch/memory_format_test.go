package torch

import (
	"testing"
)

// TestMemoryFormatStrides checks the channels-last strides, the format
// suggest_memory_format derives from strides (ambiguous cases included)
// and is_contiguous(memory_format=...).
func TestMemoryFormatStrides(t *testing.T) {
	cases := []struct {
		name           string
		shape, strides []int64
		suggest        MemoryFormat
		contig, cl     bool
	}{
		{"nchw", []int64{64, 3, 32, 32}, []int64{3072, 1024, 32, 1}, ContiguousFormat, true, false},
		{"nhwc", []int64{64, 3, 32, 32}, []int64{3072, 1, 96, 3}, ChannelsLast, false, true},
		{"nhwc weight", []int64{32, 3, 3, 3}, []int64{27, 1, 9, 3}, ChannelsLast, false, true},
		{"C=1 both", []int64{2, 1, 4, 4}, []int64{16, 16, 4, 1}, ContiguousFormat, true, true},
		{"N111 contiguous", []int64{4, 1, 1, 1}, []int64{1, 1, 1, 1}, ContiguousFormat, true, true},
		{"HW=1 nchw", []int64{2, 8, 1, 1}, []int64{8, 1, 1, 1}, ContiguousFormat, true, true},
		{"zero C stride", []int64{2, 3, 4, 4}, []int64{48, 0, 12, 3}, ContiguousFormat, false, false},
		{"nhwc sliced (not dense)", []int64{2, 3, 4, 2}, []int64{48, 1, 12, 6}, ChannelsLast, false, false},
		{"3-d", []int64{3, 4, 4}, []int64{16, 4, 1}, ContiguousFormat, true, false},
		{"ndhwc", []int64{2, 3, 4, 4, 4}, []int64{192, 1, 48, 12, 3}, ChannelsLast3d, false, false},
	}
	for _, c := range cases {
		x := &Tensor{shape: c.shape, strides: c.strides}
		if got := x.SuggestMemoryFormat(); got != c.suggest {
			t.Errorf("%s: suggest %d, want %d", c.name, got, c.suggest)
		}
		if got := x.IsContiguousIn(ContiguousFormat); got != c.contig {
			t.Errorf("%s: is_contiguous %v, want %v", c.name, got, c.contig)
		}
		if got := x.IsContiguousIn(ChannelsLast); got != c.cl {
			t.Errorf("%s: is_contiguous(channels_last) %v, want %v", c.name, got, c.cl)
		}
	}
	if got := channelsLastStrides([]int64{64, 3, 32, 32}); !sameShape(got, []int64{3072, 1, 96, 3}) {
		t.Errorf("channels_last strides %v", got)
	}
	if got := channelsLastStrides([]int64{2, 3, 4, 5, 6}); !sameShape(got, []int64{360, 1, 90, 18, 3}) {
		t.Errorf("channels_last_3d strides %v", got)
	}
}

// TestToContiguousFormat checks .to/.contiguous/.clone with a memory
// format: a copy only when the format changes, in the asked format, and
// PyTorch's errors for a rank the format does not fit.
func TestToContiguousFormat(t *testing.T) {
	rt, a := newTestRuntime(t)
	x := must[*Tensor](t)(rt.Factory("empty", []int64{64, 3, 32, 32}, Float32, CUDA0, false))
	check(t, a, "x", 786432, -1, -1)
	xc := must[*Tensor](t)(rt.ToFormat(x, Float32, CUDA0, false, ChannelsLast))
	check(t, a, "x channels_last", 2*786432, -1, -1)
	if !sameShape(xc.Strides(), []int64{3072, 1, 96, 3}) || xc.IsContiguous() {
		t.Errorf("to(channels_last): strides %v", xc.Strides())
	}
	same := must[*Tensor](t)(rt.ToFormat(xc, Float32, CUDA0, false, ChannelsLast))
	if same != xc {
		t.Errorf("to(channels_last) of a channels_last tensor copied")
	}
	same.Release()
	c2 := must[*Tensor](t)(rt.ContiguousFormat(xc, ChannelsLast))
	if c2 != xc {
		t.Errorf("contiguous(channels_last) copied")
	}
	c2.Release()
	back := must[*Tensor](t)(rt.Contiguous(xc))
	if !back.IsContiguous() || back == xc {
		t.Errorf("contiguous() of channels_last: strides %v", back.Strides())
	}
	check(t, a, "contiguous copy", 3*786432, -1, -1)
	cl := must[*Tensor](t)(rt.CloneFormat(x, ChannelsLast))
	if !cl.IsContiguousIn(ChannelsLast) {
		t.Errorf("clone(channels_last): strides %v", cl.Strides())
	}
	pre := must[*Tensor](t)(rt.Clone(xc))
	if !pre.IsContiguousIn(ChannelsLast) {
		t.Errorf("clone() of channels_last lost the format: %v", pre.Strides())
	}
	v := must[*Tensor](t)(rt.Factory("empty", []int64{3, 4, 4}, Float32, CUDA0, false))
	if _, err := rt.ContiguousFormat(v, ChannelsLast); err == nil {
		t.Errorf("contiguous(channels_last) of a 3-d tensor: no error")
	}
	if _, err := rt.ContiguousFormat(v, PreserveFormat); err == nil {
		t.Errorf("contiguous(preserve_format): no error")
	}
	releaseAll([]*Tensor{x, xc, back, cl, pre, v})
	check(t, a, "released", 0, -1, -1)
}

// TestConvChannelsLast checks a channels-last convolution: output, batch
// norm, ReLU and max-pool outputs keep the format, q035's measured NHWC
// forward workspace is taken, and a contiguous input with a channels-last
// weight is copied to channels_last for cuDNN.
func TestConvChannelsLast(t *testing.T) {
	rt, a := newTestRuntime(t)
	w := must[*Tensor](t)(rt.Factory("empty", []int64{32, 3, 3, 3}, Float32, CUDA0, false))
	wc := must[*Tensor](t)(rt.ToFormat(w, Float32, CUDA0, false, ChannelsLast))
	x := must[*Tensor](t)(rt.Factory("empty", []int64{64, 3, 32, 32}, Float32, CUDA0, false))
	xc := must[*Tensor](t)(rt.ToFormat(x, Float32, CUDA0, false, ChannelsLast))
	base := a.Stats().Allocated
	a.ResetPeakStats()
	y := must[*Tensor](t)(rt.Conv2d(xc, wc, nil, [2]int64{1, 1}, [2]int64{1, 1}, [2]int64{1, 1}, 1))
	if !y.IsContiguousIn(ChannelsLast) {
		t.Errorf("conv output strides %v, want channels_last", y.Strides())
	}
	check(t, a, "conv", base+8388608, -1, base+8388608+790016)
	y.Release()
	// contiguous input, channels-last weight: input.contiguous(channels_last)
	a.ResetPeakStats()
	y = must[*Tensor](t)(rt.Conv2d(x, wc, nil, [2]int64{1, 1}, [2]int64{1, 1}, [2]int64{1, 1}, 1))
	if !y.IsContiguousIn(ChannelsLast) {
		t.Errorf("conv (NCHW input, NHWC weight) output strides %v", y.Strides())
	}
	check(t, a, "conv with input copy", base+8388608, -1, base+786432+8388608+790016)
	mean := must[*Tensor](t)(rt.Factory("zeros", []int64{32}, Float32, CUDA0, false))
	vr := must[*Tensor](t)(rt.Factory("ones", []int64{32}, Float32, CUDA0, false))
	bw := must[*Tensor](t)(rt.Factory("ones", []int64{32}, Float32, CUDA0, false))
	bb := must[*Tensor](t)(rt.Factory("zeros", []int64{32}, Float32, CUDA0, false))
	before := a.Stats().Allocated
	bn := must[*Tensor](t)(rt.BatchNorm(BatchNormArgs{X: y, RunningMean: mean, RunningVar: vr, Weight: bw, Bias: bb, Training: true, Eps: 1e-5, Momentum: 0.1}))
	if !bn.IsContiguousIn(ChannelsLast) {
		t.Errorf("batch norm output strides %v", bn.Strides())
	}
	check(t, a, "batch norm (no input copy)", before+8388608, -1, -1) // save_mean/var die: no grad
	r := must[*Tensor](t)(rt.Relu(bn))
	p := must[*Tensor](t)(rt.MaxPool2d(r, [2]int64{2, 2}, [2]int64{2, 2}, [2]int64{0, 0}, [2]int64{1, 1}, false))
	if !r.IsContiguousIn(ChannelsLast) || !p.IsContiguousIn(ChannelsLast) {
		t.Errorf("relu/max_pool strides %v %v", r.Strides(), p.Strides())
	}
	releaseAll([]*Tensor{w, wc, x, xc, y, mean, vr, bw, bb, bn, r, p})
	check(t, a, "released", 0, -1, -1)
}
