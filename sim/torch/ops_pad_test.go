package torch

import "testing"

// TestPadUpsampleMeasured replays F.pad, F.interpolate's kernels,
// pixel_shuffle and one_hot against PyTorch 2.11's allocator events (q18;
// the backward gets a contiguous ones_like gradient).
func TestPadUpsampleMeasured(t *testing.T) {
	pad := func(mode PadMode, p ...int64) func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
		return func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
			return rt.Pad(in(2, 3, 8, 9), p, mode, nil)
		}
	}
	up := func(mode UpsampleMode, out ...int64) func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
		return func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
			return rt.Upsample(in(2, 3, 8, 9), mode, out, false)
		}
	}
	runTraceCases(t, []traceCase{
		{"constant", pad(PadConstant, 1, 2, 3, 4), "+1:4320", "+1:1728", "ConstantPadNdBackward0"},
		{"constant negative", pad(PadConstant, -1, 2, 0, -2), "+1:1440", "+1:1728", "ConstantPadNdBackward0"},
		{"reflect", pad(PadReflect, 1, 1, 2, 2), "+1:3168", "+1:1728", "ReflectionPad2DBackward0"},
		{"replicate", pad(PadReplicate, 1, 1, 2, 2), "+1:3168", "+1:1728", "ReplicationPad2DBackward0"},
		{"reflect 1d", func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
			return rt.Pad(in(2, 3, 10), []int64{2, 3}, PadReflect, nil)
		}, "+1:360", "+1:240", "ReflectionPad1DBackward0"},
		{"replicate 3d", func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
			return rt.Pad(in(2, 3, 4, 5, 6), []int64{1, 1, 1, 1, 1, 1}, PadReplicate, nil)
		}, "+1:8064", "+1:2880", "ReplicationPad3DBackward0"},
		{"circular", pad(PadCircular, 1, 1, 2, 2), "+1:3168", "-", "CopySlices"},
		{"nearest x2", up(UpsampleNearest, 16, 18), "+1:6912", "+1:1728", "UpsampleNearest2DBackward0"},
		{"bilinear", up(UpsampleBilinear, 16, 20), "+1:7680", "+1:1728", "UpsampleBilinear2DBackward0"},
		{"bicubic", up(UpsampleBicubic, 16, 18), "+1:6912", "+1:1728", "UpsampleBicubic2DBackward0"},
		{"nearest-exact", up(UpsampleNearestExact, 16, 18), "+1:6912", "+1:1728", "UpsampleNearestExact2DBackward0"},
		{"trilinear", func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
			return rt.Upsample(in(2, 3, 4, 5, 6), UpsampleTrilinear, []int64{8, 10, 12}, false)
		}, "+1:23040", "+1:2880", "UpsampleTrilinear3DBackward0"},
		{"pixel_shuffle", func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
			return rt.PixelShuffle(in(2, 12, 5, 6), 2, false)
		}, "+1:2880", "+1:2880", "PixelShuffleBackward0"},
		{"pixel_unshuffle", func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
			return rt.PixelShuffle(in(2, 3, 10, 12), 2, true)
		}, "+1:2880", "+1:2880", "PixelUnshuffleBackward0"},
		{"hstack 2-d", func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
			return rt.Hstack([]*Tensor{in(3, 4), in(3, 5)})
		}, "+1:108", "+1:48 +2:60", "CatBackward0"},
	})
}

// TestPadErrors checks PyTorch's messages for bad pad/pixel_shuffle/
// one_hot arguments (q18).
func TestPadErrors(t *testing.T) {
	rt, _ := newRecRuntime()
	mk := func(dt DType, s ...int64) *Tensor { return must[*Tensor](t)(rt.Factory("empty", s, dt, CUDA0, false)) }
	x4, x2 := mk(Float32, 2, 3, 4, 4), mk(Float32, 5, 6)
	one := 1.0
	for _, c := range []struct {
		name string
		run  func() (*Tensor, error)
		want string
	}{
		{"reflect size", func() (*Tensor, error) { return rt.Pad(x4, []int64{4, 4}, PadReflect, nil) }, "Padding size 2 is not supported for 4D input tensor."},
		{"odd", func() (*Tensor, error) { return rt.Pad(x2, []int64{1, 2, 3}, PadConstant, nil) }, "Padding length must be divisible by 2"},
		{"too long", func() (*Tensor, error) { return rt.Pad(x2, []int64{1, 1, 1, 1, 1, 1}, PadConstant, nil) }, "Padding length should be less than or equal to two times the input dimension but got padding length 6 and input of dimension 2"},
		{"reflect 2-d", func() (*Tensor, error) { return rt.Pad(x2, []int64{1, 1, 1, 1}, PadReflect, nil) }, "Padding size 4 is not supported for 2D input tensor."},
		{"replicate value", func() (*Tensor, error) { return rt.Pad(mk(Float32, 2, 3, 4), []int64{1, 1}, PadReplicate, &one) }, "Padding mode \"replicate\" doesn't take in value argument"},
		{"shuffle channels", func() (*Tensor, error) { return rt.PixelShuffle(mk(Float32, 1, 6, 4, 4), 2, false) }, "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of upscale_factor, but input.size(-3)=6 is not divisible by 4"},
		{"shuffle 2-d", func() (*Tensor, error) { return rt.PixelShuffle(x2, 2, false) }, "pixel_shuffle expects input to have at least 3 dimensions, but got input with 2 dimension(s)"},
		{"one_hot float", func() (*Tensor, error) { return rt.OneHot(x2, 3) }, "one_hot is only applicable to index tensor of type LongTensor."},
		{"one_hot -1", func() (*Tensor, error) { return rt.OneHot(mk(Int64, 6), -1) }, "F.one_hot(num_classes=-1) is not simulated: its output size depends on the values (pass num_classes)"},
		{"diag 3-d", func() (*Tensor, error) { return rt.Diag(mk(Float32, 2, 3, 4), 0) }, "diag(): Supports 1D or 2D tensors. Got 3D"},
		{"movedim repeated", func() (*Tensor, error) { return rt.Movedim(x2, []int64{0, 0}, []int64{0, 1}) }, "movedim: repeated dim in `source` ([0, 0])"},
		{"movedim length", func() (*Tensor, error) { return rt.Movedim(x2, []int64{0, 1}, []int64{0}) }, "movedim: Invalid source or destination dims: source ([0, 1] dims) should contain the same number of dims as destination ([0] dims)"},
		{"dot 2-d", func() (*Tensor, error) { return rt.Dot("dot", x2, mk(Float32, 5)) }, "1D tensors expected, but got 2D and 1D tensors"},
		{"outer 2-d", func() (*Tensor, error) { return rt.Outer(x2, mk(Float32, 5)) }, "outer: Expected 1-D argument self, but got 2-D"},
		{"tensordot", func() (*Tensor, error) { return rt.Tensordot(x2, x2, []int64{-1}, []int64{0}) }, "contracted dimensions need to match, but first has size 6 in dim -1 and second has size 5 in dim 0"},
		{"hstack empty", func() (*Tensor, error) { return rt.Hstack(nil) }, "hstack expects a non-empty TensorList"},
		{"tile negative", func() (*Tensor, error) { return rt.Tile(x2, []int64{-1, 2}) }, "Trying to create tensor with negative dimension -5: [-5, 12]"},
		{"broadcast_to", func() (*Tensor, error) { return rt.Expand(x2, []int64{4, 5}) }, "The expanded size of the tensor (5) must match the existing size (6) at non-singleton dimension 1.  Target sizes: [4, 5].  Tensor sizes: [5, 6]"},
	} {
		if _, err := c.run(); err == nil || err.Error() != c.want {
			t.Errorf("%s: %v\nwant %q", c.name, err, c.want)
		}
	}
	if o := must[*Tensor](t)(rt.OneHot(mk(Int64, 4, 5), 7)); o.dtype != Int64 || shapeList(o.shape) != "[4, 5, 7]" {
		t.Errorf("one_hot: %s %s", o.dtype.cppName(), shapeList(o.shape))
	}
}
