package gpuexec

import (
	"fmt"

	"github.com/gpumem/playground/sim/torch"
)

// Pooling geometry over 1 to 3 spatial axes: the ExecOp's Ints read as a
// window (2-d ops send 8 or 9 ints, 3-d ones 12; adaptive pooling nil for
// 2-d, [dims] otherwise) and the input's and output's spatial sizes,
// turned into per-axis windows for windowTableN.

// poolGeom is one pooling op's sizes and windows: np planes (batch ×
// channels), the input's and output's spatial sizes, each axis's
// windows, and for a sliding average its kernel, stride and padding.
type poolGeom struct {
	sd                  int
	np                  int64
	in, out             []int64
	axes                []axisWindows
	adaptive            bool
	kernel, stride, pad []int64
	includePad          bool
	override            int64
}

// plane, l and table are the input plane's element count, the number of
// output positions, and the gather table [L, K] (padding: plane()).
func (g poolGeom) plane() int64 { return numel(g.in) }
func (g poolGeom) l() int64     { return numel(g.out) }
func (g poolGeom) table() (vals []float64, l, kk int64) {
	return windowTableN(g.axes, g.in)
}

// poolSpatial splits a pooling operand with sd spatial dims ([N, C,
// *spatial] or unbatched [C, *spatial]) into its plane count and spatial
// sizes.
func poolSpatial(shape []int64, sd int) (np int64, sp []int64, err error) {
	r := len(shape)
	if sd < 1 || sd > 3 || (r != sd+1 && r != sd+2) {
		return 0, nil, errUnsupported("%d-d pooling of a %d-d operand", sd, r)
	}
	return numel(shape[:r-sd]), shape[r-sd:], nil
}

// sizes reads x's and y's planes for sd spatial dims (the same planes
// in both) into g.
func (g *poolGeom) sizes(x, y []int64) error {
	np, in, err := poolSpatial(x, g.sd)
	if err != nil {
		return err
	}
	ny, out, err := poolSpatial(y, g.sd)
	if err != nil {
		return err
	}
	if np != ny || len(x) != len(y) {
		return errUnsupported("pooling of %v into %v", x, y)
	}
	g.np, g.in, g.out = np, in, out
	if numel(in) > 1<<24 {
		return errUnsupported("pooling plane of %d elements (indices are f32 in the kernels)", numel(in))
	}
	return nil
}

// sliding sets sliding windows (kernel, stride, padding, dilation per
// axis; dl nil: 1).
func (g *poolGeom) sliding(ks, st, pd, dl []int64) error {
	for i := range g.sd {
		d := int64(1)
		if dl != nil {
			d = dl[i]
		}
		if ks[i] < 1 || st[i] < 1 || d < 1 || pd[i] < 0 {
			return fmt.Errorf("gpuexec: pooling window kernel %v stride %v padding %v dilation %v", ks, st, pd, dl)
		}
		g.axes = append(g.axes, slidingAxis(g.in[i], g.out[i], ks[i], st[i], pd[i], d))
	}
	g.kernel, g.stride, g.pad = ks, st, pd
	return nil
}

// adaptiveWindows sets adaptive pooling's windows.
func (g *poolGeom) adaptiveWindows() {
	g.adaptive = true
	for i := range g.sd {
		g.axes = append(g.axes, adaptiveAxis(g.in[i], g.out[i]))
	}
}

// maxPoolGeom reads ExecMaxPool's Ints (kernel, stride, padding,
// dilation: sd each) or ExecAdaptiveMaxPool's ([sd]) for input x and
// output y.
func maxPoolGeom(kind torch.ExecKind, ints []int64, x, y []int64) (poolGeom, error) {
	var g poolGeom
	if kind == torch.ExecAdaptiveMaxPool {
		if len(ints) != 1 {
			return g, fmt.Errorf("gpuexec: adaptive_max_pool takes [dims], got %v", ints)
		}
		g.sd = int(ints[0])
		if err := g.sizes(x, y); err != nil {
			return g, err
		}
		g.adaptiveWindows()
		return g, nil
	}
	g.sd = len(ints) / 4
	if len(ints)%4 != 0 || g.sd < 1 || g.sd > 3 {
		return g, fmt.Errorf("gpuexec: max_pool takes 4 ints per spatial dim, got %d", len(ints))
	}
	if err := g.sizes(x, y); err != nil {
		return g, err
	}
	d := g.sd
	return g, g.sliding(ints[:d], ints[d:2*d], ints[2*d:3*d], ints[3*d:4*d])
}

// avgPoolGeom reads ExecAvgPool's Ints: nil (2-d adaptive), [sd]
// (adaptive), or kernel, stride, padding (sd each), ceil_mode,
// count_include_pad, divisor_override (0: none).
func avgPoolGeom(ints []int64, x, y []int64) (poolGeom, error) {
	var g poolGeom
	switch {
	case len(ints) <= 1:
		g.sd = 2
		if len(ints) == 1 {
			g.sd = int(ints[0])
		}
		if err := g.sizes(x, y); err != nil {
			return g, err
		}
		g.adaptiveWindows()
		return g, nil
	case len(ints)%3 != 0 || len(ints) < 6 || len(ints) > 12:
		return g, fmt.Errorf("gpuexec: avg_pool takes 3 ints per spatial dim and 3 flags, got %d", len(ints))
	}
	g.sd = len(ints)/3 - 1
	if err := g.sizes(x, y); err != nil {
		return g, err
	}
	d := g.sd
	g.includePad, g.override = ints[3*d+1] != 0, ints[3*d+2]
	return g, g.sliding(ints[:d], ints[d:2*d], ints[2*d:3*d], nil)
}

// backDims is the number of spatial dims of ExecMaxPoolBack's Ints (nil:
// 2-d, [dims] otherwise).
func backDims(ints []int64) (int, error) {
	switch len(ints) {
	case 0:
		return 2, nil
	case 1:
		return int(ints[0]), nil
	}
	return 0, fmt.Errorf("gpuexec: max_pool backward takes nil or [dims], got %v", ints)
}

// firstIndices is each output position's initial max index: the first
// non-padding entry of its table row (PyTorch starts at the window's first
// valid element), 0 if none.
func firstIndices(vals []float64, l, kk, pad int64) []float64 {
	first := make([]float64, l)
	for i := range l {
		for _, v := range vals[i*kk : (i+1)*kk] {
			if int64(v) != pad {
				first[i] = v
				break
			}
		}
	}
	return first
}
