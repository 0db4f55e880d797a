package pybind

import (
	"math"

	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// torch.linspace, logspace and eye with the values of a GPU run, computed
// on the host in the arithmetic of PyTorch's CUDA kernels
// (RangeFactories.cu, TensorFactories.cu) and written as the tensor's
// values: linspace's halves count from start and from end
// (start + step·i below steps/2, end − step·(steps − i − 1) above, each a
// fused multiply-add), in float for float32/float16/bfloat16 and double
// for float64; integral dtypes step in float and truncate; logspace
// raises base to those points.
// In the simulator they only allocate.

func init() {
	for _, name := range []string{"linspace", "logspace"} {
		def(name, false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			start, err := floatOf(name, "start", argOr(args, kwargs, 0, "start"), 0)
			if err != nil {
				return nil, err
			}
			end, err := floatOf(name, "end", argOr(args, kwargs, 1, "end"), 0)
			if err != nil {
				return nil, err
			}
			n, err := intOf(name, "steps", argOr(args, kwargs, 2, "steps"), 0)
			if err != nil {
				return nil, err
			}
			if n < 0 {
				return nil, runtimeErr("number of steps must be non-negative")
			}
			base := 10.0
			if name == "logspace" {
				if base, err = floatOf(name, "base", argOr(args, kwargs, 3, "base"), 10); err != nil {
					return nil, err
				}
			}
			o, err := h.factoryKw(it, kwargs)
			if err != nil {
				return nil, err
			}
			t, err := h.rt.Factory(name, []int64{n}, o.dtype(torch.Float32), o.dev, o.rg)
			if err == nil && h.rt.Computing() {
				vals := linspaceValues(t.DType(), start, end, n)
				if name == "logspace" {
					vals = logspaceValues(t.DType(), base, start, end, n)
				}
				h.rt.Init(t, torch.ExecValues, vals...)
			}
			return h.wrapResult(t, err)
		})
	}
	def("eye", false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		n, err := intOf("eye", "n", argOr(args, kwargs, 0, "n"), 0)
		if err != nil {
			return nil, err
		}
		m, err := intOf("eye", "m", argOr(args, kwargs, 1, "m"), n)
		if err != nil {
			return nil, err
		}
		if n < 0 || m < 0 {
			return nil, runtimeErr("n must be greater or equal to 0, got %d", min(n, m))
		}
		o, err := h.factoryKw(it, kwargs)
		if err != nil {
			return nil, err
		}
		t, err := h.rt.Factory("eye", []int64{n, m}, o.dtype(torch.Float32), o.dev, o.rg)
		if err == nil && h.rt.Computing() {
			vals := make([]float64, n*m)
			for i := int64(0); i < min(n, m); i++ {
				vals[i*m+i] = 1
			}
			h.rt.Init(t, torch.ExecValues, vals...)
		}
		return h.wrapResult(t, err)
	})
}

// linspaceValues are linspace's n points from start to end in dtype dt.
func linspaceValues(dt torch.DType, start, end float64, n int64) []float64 {
	vals := make([]float64, n)
	if n == 0 {
		return vals
	}
	if n == 1 {
		vals[0] = castTo(dt, start)
		return vals
	}
	half := n / 2
	// nvcc contracts start + step·i and end − step·k into fused
	// multiply-adds (recorded on an H200: linspace(-1, 1, 7)[3] is
	// −2.9802e-08, not 0): one rounding each, in float or double
	fma32 := func(a, b, c float32) float32 { return float32(math.FMA(float64(a), float64(b), float64(c))) }
	switch {
	case dt == torch.Float64:
		step := (end - start) / float64(n-1)
		for i := range vals {
			if int64(i) < half {
				vals[i] = math.FMA(step, float64(i), start)
			} else {
				vals[i] = math.FMA(-step, float64(n-int64(i)-1), end)
			}
		}
	case dt.IsFloating():
		s, e := float32(start), float32(end)
		step := (e - s) / float32(n-1)
		for i := range vals {
			if int64(i) < half {
				vals[i] = float64(fma32(step, float32(i), s))
			} else {
				vals[i] = float64(fma32(-step, float32(n-int64(i)-1), e))
			}
		}
	default: // integral: the ends in the dtype, the step in float
		s, e := float32(math.Trunc(start)), float32(math.Trunc(end))
		step := (e - s) / float32(n-1)
		for i := range vals {
			var v float32
			if int64(i) < half {
				v = fma32(step, float32(i), s)
			} else {
				v = fma32(-step, float32(n-int64(i)-1), e)
			}
			vals[i] = math.Trunc(float64(v))
		}
	}
	return vals
}

// logspaceValues are base raised to linspace's points (the exponents in
// the dtype's opmath, as the CUDA kernel computes them).
func logspaceValues(dt torch.DType, base, start, end float64, n int64) []float64 {
	pts := linspaceValues(torch.Float64, start, end, n)
	if dt != torch.Float64 {
		pts = linspaceValues(torch.Float32, start, end, n)
	}
	vals := make([]float64, n)
	for i, p := range pts {
		if dt == torch.Float64 {
			vals[i] = math.Pow(base, p)
		} else {
			vals[i] = castTo(dt, float64(float32(math.Pow(float64(float32(base)), p))))
		}
	}
	return vals
}

// castTo is v in dtype dt as the kernel computes it before its store:
// float64 unchanged, float16/bfloat16/float32 in float (the store to the
// half types rounds to nearest even from there), integral types
// truncated.
func castTo(dt torch.DType, v float64) float64 {
	switch {
	case dt == torch.Float64:
		return v
	case dt.IsFloating():
		return float64(float32(v))
	}
	return math.Trunc(v)
}
