package torch

import "fmt"

// F.interpolate's ATen kernels (upsample_nearest{1,2,3}d,
// _upsample_nearest_exact{1,2,3}d, upsample_linear1d, upsample_bilinear2d,
// upsample_bicubic2d, upsample_trilinear3d, the _aa variants), PyTorch
// 2.11. Measured in q18 (contiguous inputs): the forward allocates its
// output, the backward one input-sized grad_input, nothing else. The
// output keeps the input's suggested memory format (channels_last stays
// channels_last); the channels-last kernels' extra temporaries (q18: the
// nearest forward allocates and frees an output- and an input-sized
// buffer, the bilinear backward copies grad_output) are not modelled.

// UpsampleMode names the kernel family of an interpolation.
type UpsampleMode string

// The interpolation kernels.
const (
	UpsampleNearest      UpsampleMode = "nearest"
	UpsampleNearestExact UpsampleMode = "nearest-exact"
	UpsampleLinear       UpsampleMode = "linear"
	UpsampleBilinear     UpsampleMode = "bilinear"
	UpsampleBicubic      UpsampleMode = "bicubic"
	UpsampleTrilinear    UpsampleMode = "trilinear"
)

// upsampleNodeName is the grad_fn name of a mode over k spatial dims.
func upsampleNodeName(mode UpsampleMode, k int, antialias bool) string {
	base := map[UpsampleMode]string{
		UpsampleNearest: "UpsampleNearest", UpsampleNearestExact: "UpsampleNearestExact",
		UpsampleLinear: "UpsampleLinear", UpsampleBilinear: "UpsampleBilinear",
		UpsampleBicubic: "UpsampleBicubic", UpsampleTrilinear: "UpsampleTrilinear",
	}[mode]
	aa := ""
	if antialias {
		aa = "Aa"
	}
	return fmt.Sprintf("%s%dD%sBackward0", base, k, aa)
}

// Upsample runs one interpolation kernel on x ([N, C, spatial...]) to
// the spatial size out.
func (rt *Runtime) Upsample(x *Tensor, mode UpsampleMode, out []int64, antialias bool) (*Tensor, error) {
	k := len(x.shape) - 2
	if k < 1 || k != len(out) {
		return nil, Errorf(RuntimeError, "It is expected output_size equals to %d, but got size %d", max(k, 0), len(out))
	}
	if !x.dtype.IsFloating() && mode != UpsampleNearest && mode != UpsampleNearestExact {
		return nil, Errorf(NotImplementedError, "\"upsample_%s%dd_out_frame\" not implemented for '%s'", mode, k, x.dtype.cppName())
	}
	for i, s := range out {
		if s <= 0 || x.shape[2+i] <= 0 {
			return nil, Errorf(RuntimeError, "Input and output sizes should be greater than 0, but got input (%s) and output (%s)", shapeX(x.shape[2:]), shapeX(out))
		}
	}
	shape := append(cloneShape(x.shape[:2]), out...)
	op := fmt.Sprintf("upsample_%s%dd", mode, k)
	y, err := rt.empty(op, shape, formatStridesOf(shape, suggestMemoryFormat(x)), x.dtype, x.device)
	if err != nil {
		return nil, err
	}
	in, dt, dev := cloneShape(x.shape), x.dtype, x.device
	n := rt.record(upsampleNodeName(mode, k, antialias), x)
	n.finish(func(_ *Node, g []*Tensor) ([]*Tensor, error) {
		return rt.gradInputContig(op+"_backward", g[0], in, formatStridesOf(in, suggestMemoryFormat(g[0])), dt, dev)
	}, y)
	return y, nil
}
