package torch

import (
	"fmt"
	"testing"
)

// TestGroupNormMemory replays the allocations measured in
// testdata/questions/q17_norm_act.out (forward "F", backward "B"; requested
// sizes, -n frees the tensor of size n).
func TestGroupNormMemory(t *testing.T) {
	cases := []struct {
		name       string
		shape      []int64
		groups     int64
		dt         DType
		weight     bool // weight and bias given
		xGrad      bool
		pGrad      bool
		fwd, bwd   []int64
		wantStride string
	}{
		{"f32 affine", []int64{8, 32, 16, 16}, 8, Float32, true, true, true,
			[]int64{262144, 256, 256, 1024, 1024, -1024, -1024},
			[]int64{262144, 128, 128, 1024, 1024, 256, 256, 1024, -256, -256, -1024, -1024, -1024}, "[8192 256 16 1]"},
		{"f32 no affine", []int64{8, 32, 16, 16}, 8, Float32, false, true, false,
			[]int64{262144, 256, 256},
			[]int64{262144, 1024, 1024, 256, 256, -256, -256, -1024, -1024}, "[8192 256 16 1]"},
		{"x without grad", []int64{8, 32, 16, 16}, 8, Float32, true, false, true,
			[]int64{262144, 256, 256, 1024, 1024, -1024, -1024},
			[]int64{128, 128, 1024, 1024, -1024, -1024}, "[8192 256 16 1]"},
		{"f16 affine (half stats)", []int64{8, 32, 16, 16}, 8, Float16, true, true, true,
			[]int64{131072, 128, 128, 1024, 1024, -1024, -1024},
			[]int64{131072, 64, 64, 1024, 1024, 256, 256, 1024, -256, -256, -1024, -1024, -1024}, "[8192 256 16 1]"},
		{"HxW 1", []int64{64, 32}, 4, Float32, true, true, true,
			[]int64{8192, 1024, 1024},
			[]int64{8192, 128, 128, 8192, 8192, 1024, 1024, -1024, -1024, -8192, -8192}, "[32 1]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rt, m := newRecRuntime()
			x := must[*Tensor](t)(rt.Factory("empty", c.shape, c.dt, CUDA0, c.xGrad))
			var w, b *Tensor
			if c.weight {
				w = must[*Tensor](t)(rt.Factory("empty", []int64{c.shape[1]}, c.dt, CUDA0, c.pGrad))
				b = must[*Tensor](t)(rt.Factory("empty", []int64{c.shape[1]}, c.dt, CUDA0, c.pGrad))
			}
			m.log = nil
			y := must[*Tensor](t)(rt.GroupNorm(x, c.groups, w, b, 1e-5))
			compareLog(t, "forward", m.log, c.fwd)
			if fmt.Sprint(y.strides) != c.wantStride || y.gradFn == nil || y.gradFn.name != "NativeGroupNormBackward0" {
				t.Fatalf("output strides %v grad_fn %v", y.strides, y.gradFn)
			}
			g := must[*Tensor](t)(rt.Factory("empty", c.shape, c.dt, CUDA0, false))
			m.log = nil
			if err := rt.Backward([]*Tensor{y}, []*Tensor{g}, BackwardOptions{}); err != nil {
				t.Fatal(err)
			}
			// the measured kernel allocations, then the saved mean/rstd freed
			compareLog(t, "backward", m.log[:len(c.bwd)], c.bwd)
		})
	}
}

// TestGroupNormChannelsLast checks that a channels-last input is copied by
// a recorded contiguous() (CloneBackward0) before native_group_norm.
func TestGroupNormChannelsLast(t *testing.T) {
	rt, m := newRecRuntime()
	x0 := must[*Tensor](t)(rt.Factory("empty", []int64{8, 32, 16, 16}, Float32, CUDA0, true))
	x := must[*Tensor](t)(rt.ContiguousFormat(x0, ChannelsLast))
	m.log = nil
	y := must[*Tensor](t)(rt.GroupNorm(x, 8, nil, nil, 1e-5))
	compareLog(t, "forward", m.log, []int64{262144, 262144, 256, 256})
	if e := y.gradFn.next[0]; e.Fn == nil || e.Fn.name != "CloneBackward0" {
		t.Errorf("input edge %v, want CloneBackward0", e.Fn)
	}
}

// TestGroupNormErrors checks PyTorch's messages.
func TestGroupNormErrors(t *testing.T) {
	rt, _ := newRecRuntime()
	x := must[*Tensor](t)(rt.Factory("empty", []int64{8, 30, 4, 4}, Float32, CUDA0, false))
	w29 := must[*Tensor](t)(rt.Factory("empty", []int64{29}, Float32, CUDA0, false))
	xl := must[*Tensor](t)(rt.Factory("empty", []int64{2, 4, 3}, Int64, CUDA0, false))
	xh := must[*Tensor](t)(rt.Factory("empty", []int64{2, 4, 3}, BFloat16, CUDA0, false))
	w4 := must[*Tensor](t)(rt.Factory("empty", []int64{4}, Float32, CUDA0, false))
	for _, c := range []struct {
		name string
		run  func() (*Tensor, error)
		want string
	}{
		{"groups", func() (*Tensor, error) { return rt.GroupNorm(x, 7, nil, nil, 1e-5) }, "Expected number of channels in input to be divisible by num_groups, but got input of shape [8, 30, 4, 4] and num_groups=7"},
		{"weight", func() (*Tensor, error) { return rt.GroupNorm(x, 3, w29, nil, 1e-5) }, "Expected weight to be a vector of size equal to the number of channels in input, but got weight of shape [29] and input of shape [8, 30, 4, 4]"},
		{"bias", func() (*Tensor, error) { return rt.GroupNorm(x, 3, nil, w29, 1e-5) }, "Expected bias to be a vector of size equal to the number of channels in input, but got bias of shape [0] and input of shape [8, 30, 4, 4]"},
		{"long", func() (*Tensor, error) { return rt.GroupNorm(xl, 2, nil, nil, 1e-5) }, `"GroupNormKernelImpl" not implemented for 'Long'`},
		{"mixed", func() (*Tensor, error) { return rt.GroupNorm(xh, 2, w4, w4, 1e-5) }, "expected scalar type BFloat16 but found Float"},
		{"negative", func() (*Tensor, error) { return rt.GroupNorm(x, -1, nil, nil, 1e-5) }, "Expected num groups to be greater than 0, got -1"},
	} {
		if _, err := c.run(); err == nil || err.Error() != c.want {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// TestInstanceNormMemory replays q17's instance-norm traces: repeats of the
// weight, bias and running stats, batch norm on [1, N*C, ...], the running
// statistics' mean(0) (training only); the result a ViewBackward0 view.
func TestInstanceNormMemory(t *testing.T) {
	for _, c := range []struct {
		name           string
		affine, track  bool
		useStats       bool
		fwd            []int64
		bn             string
		weightGradSize int64
	}{
		{"plain", false, false, true, []int64{524288, 512, 512}, "NativeBatchNormBackward0", 0},
		{"affine", true, false, true, []int64{512, 512, 524288, 512, 512, -512}, "CudnnBatchNormBackward0", 64},
		{"track", false, true, true, []int64{512, 512, 524288, 512, 512, 64, -64, 64, -64}, "NativeBatchNormBackward0", 0},
		{"affine track", true, true, true, []int64{512, 512, 512, 512, 524288, 512, 512, 64, -64, 64, -64, -512}, "CudnnBatchNormBackward0", 64},
		{"affine track eval", true, true, false, []int64{512, 512, 512, 512, 524288, -512}, "CudnnBatchNormBackward0", 64},
	} {
		t.Run(c.name, func(t *testing.T) {
			rt, m := newRecRuntime()
			x := must[*Tensor](t)(rt.Factory("empty", []int64{8, 16, 32, 32}, Float32, CUDA0, true))
			a := InstanceNormArgs{X: x, UseInputStats: c.useStats, Momentum: 0.1, Eps: 1e-5}
			if c.affine {
				a.Weight = must[*Tensor](t)(rt.Factory("empty", []int64{16}, Float32, CUDA0, true))
				a.Bias = must[*Tensor](t)(rt.Factory("empty", []int64{16}, Float32, CUDA0, true))
			}
			if c.track {
				a.RunningMean = must[*Tensor](t)(rt.Factory("empty", []int64{16}, Float32, CUDA0, false))
				a.RunningVar = must[*Tensor](t)(rt.Factory("empty", []int64{16}, Float32, CUDA0, false))
			}
			m.log = nil
			y := must[*Tensor](t)(rt.InstanceNorm(a))
			compareLog(t, "forward", m.log, c.fwd)
			if y.gradFn == nil || y.gradFn.name != "ViewBackward0" || y.gradFn.next[0].Fn.name != c.bn {
				t.Fatalf("grad_fn %v", y.gradFn)
			}
			if fmt.Sprint(y.shape) != "[8 16 32 32]" {
				t.Errorf("shape %v", y.shape)
			}
			if c.affine {
				g := must[*Tensor](t)(rt.Factory("empty", y.shape, Float32, CUDA0, false))
				if err := rt.Backward([]*Tensor{y}, []*Tensor{g}, BackwardOptions{}); err != nil {
					t.Fatal(err)
				}
				if a.Weight.grad == nil || a.Weight.grad.Numel()*4 != c.weightGradSize {
					t.Errorf("weight grad %v", a.Weight.grad)
				}
			}
		})
	}
	rt, _ := newRecRuntime()
	x := must[*Tensor](t)(rt.Factory("empty", []int64{2, 4, 3, 3}, Float32, CUDA0, false))
	if _, err := rt.InstanceNorm(InstanceNormArgs{X: x}); err == nil || err.Error() != "Expected running_mean and running_var to be defined when use_input_stats is false" {
		t.Errorf("eval without stats: %v", err)
	}
}

// TestRmsNormMemory replays q17's rms_norm traces: the fused path (Y, rstd
// in the accumulation dtype; backward dX, dgamma; strided inputs copied and
// the copy freed) and the composite path of a weight of another dtype.
func TestRmsNormMemory(t *testing.T) {
	for _, c := range []struct {
		name       string
		dt, wdt    DType
		transposed bool
		node       string
		fwd, bwd   []int64
	}{
		{"f32", Float32, Float32, false, "FusedRmsNormBackward0", []int64{2097152, 4096}, []int64{2097152, 2048}},
		{"f16", Float16, Float16, false, "FusedRmsNormBackward0", []int64{1048576, 4096}, []int64{1048576, 1024}},
		{"transposed", Float32, Float32, true, "FusedRmsNormBackward0", []int64{2097152, 2097152, 4096, -2097152},
			[]int64{2097152, 2097152, 2048, -2097152}},
		{"f16 x, f32 w (composite)", Float16, Float32, false, "ToCopyBackward0",
			[]int64{2097152, 2097152, 4096, 4096, -4096, -2097152, 2097152, 2097152, 1048576, -2097152}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			rt, m := newRecRuntime()
			var x *Tensor
			if c.transposed {
				x0 := must[*Tensor](t)(rt.Factory("empty", []int64{128, 8, 512}, c.dt, CUDA0, false))
				x = must[*Tensor](t)(rt.Transpose(x0, 0, 1))
				x.requiresGrad = true
			} else {
				x = must[*Tensor](t)(rt.Factory("empty", []int64{8, 128, 512}, c.dt, CUDA0, true))
			}
			w := must[*Tensor](t)(rt.Factory("empty", []int64{512}, c.wdt, CUDA0, true))
			m.log = nil
			y := must[*Tensor](t)(rt.RmsNorm(x, []int64{512}, w, nil))
			compareLog(t, "forward", m.log, c.fwd)
			if y.gradFn == nil || y.gradFn.name != c.node || y.dtype != c.dt || fmt.Sprint(y.strides) != "[65536 512 1]" {
				t.Fatalf("grad_fn %v dtype %v strides %v", y.gradFn, y.dtype, y.strides)
			}
			if c.bwd == nil {
				return
			}
			g := must[*Tensor](t)(rt.Factory("empty", y.shape, c.dt, CUDA0, false))
			m.log = nil
			if err := rt.Backward([]*Tensor{y}, []*Tensor{g}, BackwardOptions{}); err != nil {
				t.Fatal(err)
			}
			compareLog(t, "backward", m.log[:len(c.bwd)], c.bwd)
		})
	}
	rt, _ := newRecRuntime()
	x := must[*Tensor](t)(rt.Factory("empty", []int64{4, 10}, Float32, CUDA0, false))
	xl := must[*Tensor](t)(rt.Factory("empty", []int64{4, 10}, Int64, CUDA0, false))
	w9 := must[*Tensor](t)(rt.Factory("empty", []int64{9}, Float32, CUDA0, false))
	for _, c := range []struct {
		name string
		run  func() (*Tensor, error)
		want string
	}{
		{"shape", func() (*Tensor, error) { return rt.RmsNorm(x, []int64{8}, nil, nil) }, "Given normalized_shape=[8], expected input with shape [*8], but got input of size[4, 10]"},
		{"weight", func() (*Tensor, error) { return rt.RmsNorm(x, []int64{10}, w9, nil) }, "Expected weight to be of same shape as normalized_shape, but got weight of shape [9] and normalized_shape = [10]"},
		{"long", func() (*Tensor, error) { return rt.RmsNorm(xl, []int64{10}, nil, nil) }, `"LayerNormKernelImpl" not implemented for 'Long'`},
	} {
		if _, err := c.run(); err == nil || err.Error() != c.want {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}
