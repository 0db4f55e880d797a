package pybind

import (
	"math"
	"strconv"

	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// F.pad, F.interpolate (and F.upsample*), F.pixel_shuffle/unshuffle,
// F.one_hot, F.normalize, F.cosine_similarity: torch/nn/functional.py's
// argument handling and errors over the Go ops.
func init() {
	F := functionalOps
	F["pad"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x := a.tensor(0, "input")
		if a.err != nil {
			return nil, a.err
		}
		pad, err := intList("pad", "pad", a.v(1, "pad"))
		if err != nil {
			return nil, err
		}
		mode := a.str(2, "mode", "constant")
		var value *float64
		if v := a.v(3, "value"); v != nil && v != py.None {
			f := a.float(3, "value", 0)
			value = &f
		}
		if a.err != nil {
			return nil, a.err
		}
		switch torch.PadMode(mode) {
		case torch.PadConstant, torch.PadReflect, torch.PadReplicate, torch.PadCircular:
		default:
			return nil, py.NewException(py.NotImplementedError, "Unrecognised padding mode "+mode)
		}
		return h.rt.Pad(x, pad, torch.PadMode(mode), value)
	}
	F["interpolate"] = interpolate
	F["upsample"] = interpolate
	// F.upsample_nearest / F.upsample_bilinear (deprecated): interpolate
	// with mode "nearest" / "bilinear" and align_corners=True
	for name, mode := range map[string]string{"upsample_nearest": "nearest", "upsample_bilinear": "bilinear"} {
		F[name] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
			args := []py.Value{a.v(0, "input"), a.v(1, "size"), a.v(2, "scale_factor"), py.Str(mode)}
			for i, v := range args {
				if v == nil {
					args[i] = py.None
				}
			}
			if mode == "bilinear" {
				args = append(args, py.True)
			}
			return interpolate(h, &fnArgs{name: "interpolate", args: args, it: a.it})
		}
	}
	F["pixel_shuffle"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x, r := a.tensor(0, "input"), a.int(1, "upscale_factor", 0)
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.PixelShuffle(x, r, false)
	}
	F["pixel_unshuffle"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x, r := a.tensor(0, "input"), a.int(1, "downscale_factor", 0)
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.PixelShuffle(x, r, true)
	}
	F["one_hot"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x, n := a.tensor(0, "tensor"), a.int(1, "num_classes", -1)
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.OneHot(x, n)
	}
	F["normalize"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x, p, d, eps := a.tensor(0, "input"), a.float(1, "p", 2), a.int(2, "dim", 1), a.float(3, "eps", 1e-12)
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.Normalize(x, p, d, eps)
	}
	F["cosine_similarity"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x1, x2, d, eps := a.tensor(0, "x1"), a.tensor(1, "x2"), a.int(2, "dim", 1), a.float(3, "eps", 1e-8)
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.CosineSimilarity(x1, x2, d, eps)
	}
}

// interpolate is F.interpolate(input, size, scale_factor, mode,
// align_corners, recompute_scale_factor, antialias) of PyTorch 2.11.
func interpolate(h *Host, a *fnArgs) (*torch.Tensor, error) {
	x := a.tensor(0, "input")
	mode := a.str(3, "mode", "nearest")
	antialias := a.bool(6, "antialias", false)
	if a.err != nil {
		return nil, a.err
	}
	k := len(x.Shape()) - 2
	spatial := x.Shape()[2:]
	if k < 0 {
		k, spatial = 0, nil
	}
	sizeV, scaleV := a.v(1, "size"), a.v(2, "scale_factor")
	if sizeV == py.None {
		sizeV = nil
	}
	if scaleV == py.None {
		scaleV = nil
	}
	acV := a.v(4, "align_corners")
	if mode == "nearest" || mode == "area" || mode == "nearest-exact" {
		if acV != nil && acV != py.None {
			return nil, py.NewException(py.ValueError, "align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | trilinear")
		}
	}
	var out []int64
	switch {
	case sizeV != nil && scaleV != nil:
		return nil, py.NewException(py.ValueError, "only one of size or scale_factor should be defined")
	case sizeV != nil:
		if es, ok := elems(sizeV); ok {
			l, err := intList("interpolate", "size", sizeV)
			if err != nil {
				return nil, err
			}
			if len(es) != k {
				return nil, py.NewException(py.ValueError, "Input and output must have the same number of spatial dimensions, but got input with spatial dimensions of "+pyIntList(spatial)+" and output size of "+pyTuple(l)+". Please provide input tensor in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format.")
			}
			out = l
		} else {
			n, ok := intArg(sizeV)
			if !ok {
				return nil, typeErr("interpolate(): argument 'size' must be int or tuple of ints, not %s", typeName(sizeV))
			}
			out = make([]int64, k)
			for i := range out {
				out[i] = n
			}
		}
	case scaleV != nil:
		scales := make([]float64, k)
		if es, ok := elems(scaleV); ok {
			if len(es) != k {
				return nil, py.NewException(py.ValueError, "Input and scale_factor must have the same number of spatial dimensions, but got input with spatial dimensions of "+pyIntList(spatial)+" and scale_factor of shape "+pyTupleOf(es)+". Please provide input tensor in (N, C, d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) format.")
			}
			for i, e := range es {
				f, ok := floatArg(e)
				if !ok {
					return nil, typeErr("interpolate(): scale_factor must be a float or a tuple of floats")
				}
				scales[i] = f
			}
		} else {
			f, ok := floatArg(scaleV)
			if !ok {
				return nil, typeErr("interpolate(): scale_factor must be a float or a tuple of floats")
			}
			for i := range scales {
				scales[i] = f
			}
		}
		out = make([]int64, k)
		for i := range out {
			out[i] = int64(math.Floor(float64(spatial[i]) * scales[i]))
		}
	default:
		return nil, py.NewException(py.ValueError, "either size or scale_factor should be defined")
	}
	if antialias && !((mode == "bilinear" || mode == "bicubic") && k == 2) {
		return nil, py.NewException(py.ValueError, "Anti-alias option is restricted to bilinear and bicubic modes and requires a 4-D tensor as input")
	}
	need := map[string]int{"linear": 1, "bilinear": 2, "bicubic": 2, "trilinear": 3}
	if want, ok := need[mode]; ok && k >= 1 && k <= 3 && k != want {
		return nil, py.NewException(py.NotImplementedError, "Got "+itoa(int64(k+2))+"D input, but "+mode+" mode needs "+itoa(int64(want+2))+"D input")
	}
	switch {
	case k < 1 || k > 3 || (mode != "nearest" && mode != "nearest-exact" && mode != "area" && need[mode] == 0):
		return nil, py.NewException(py.NotImplementedError, "Input Error: Only 3D, 4D and 5D input Tensors supported (got "+itoa(int64(k+2))+"D) for the modes: nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact (got "+mode+")")
	case mode == "area" && k == 1:
		return h.rt.AdaptiveAvgPool1d(x, out[0])
	case mode == "area" && k == 2:
		return h.rt.AvgPool2d("adaptive_avg_pool2d", x, [2]int64{out[0], out[1]}, nil)
	case mode == "area":
		return h.rt.AdaptiveAvgPool3d(x, [3]int64{out[0], out[1], out[2]})
	}
	return h.rt.Upsample(x, torch.UpsampleMode(mode), out, antialias)
}

// pyIntList formats ints as a Python list: [4, 4].
func pyIntList(l []int64) string {
	s := "["
	for i, n := range l {
		if i > 0 {
			s += ", "
		}
		s += itoa(n)
	}
	return s + "]"
}

// pyTuple formats ints as a Python tuple: (2, 3, 4).
func pyTuple(l []int64) string {
	s := pyIntList(l)
	s = "(" + s[1:len(s)-1]
	if len(l) == 1 {
		s += ","
	}
	return s + ")"
}

// pyTupleOf formats a sequence's items as a tuple of their str().
func pyTupleOf(es []py.Value) string {
	s := "("
	for i, e := range es {
		if i > 0 {
			s += ", "
		}
		if f, ok := floatArg(e); ok {
			s += strconv.FormatFloat(f, 'g', -1, 64)
		}
	}
	return s + ")"
}
