package pybind

import (
	"fmt"

	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// F.elu/elu_, softplus, mish, hardswish, hardtanh/hardtanh_, relu6,
// logsigmoid and glu, with functional.py's Python-side checks (hardtanh's
// bounds, glu of a scalar). Parameters that only change values (alpha,
// beta, threshold, bounds) are read and checked for type but do not change
// memory.
func init() {
	F := functionalOps
	F["elu"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x := a.tensor(0, "input")
		alpha := a.float(1, "alpha", 1)
		inplace := a.bool(2, "inplace", false)
		if a.err != nil {
			return nil, a.err
		}
		if inplace {
			return h.rt.EluInplace(x, alpha)
		}
		return h.rt.Elu(x, alpha)
	}
	F["elu_"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x := a.tensor(0, "input")
		alpha := a.float(1, "alpha", 1)
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.EluInplace(x, alpha)
	}
	F["softplus"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x := a.tensor(0, "input")
		beta := a.float(1, "beta", 1)
		th := a.float(2, "threshold", 20)
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.Softplus(x, beta, th)
	}
	inplaceAct := func(out, in func(rt *torch.Runtime, x *torch.Tensor) (*torch.Tensor, error)) fImpl {
		return func(h *Host, a *fnArgs) (*torch.Tensor, error) {
			x := a.tensor(0, "input")
			inplace := a.bool(1, "inplace", false)
			if a.err != nil {
				return nil, a.err
			}
			if inplace {
				return in(h.rt, x)
			}
			return out(h.rt, x)
		}
	}
	F["mish"] = inplaceAct((*torch.Runtime).Mish, (*torch.Runtime).MishInplace)
	F["hardswish"] = inplaceAct((*torch.Runtime).Hardswish, (*torch.Runtime).HardswishInplace)
	F["relu6"] = inplaceAct(func(rt *torch.Runtime, x *torch.Tensor) (*torch.Tensor, error) { return rt.Hardtanh(x, 0, 6) },
		func(rt *torch.Runtime, x *torch.Tensor) (*torch.Tensor, error) { return rt.HardtanhInplace(x, 0, 6) })
	hardtanh := func(inplaceOnly bool) fImpl {
		return func(h *Host, a *fnArgs) (*torch.Tensor, error) {
			x := a.tensor(0, "input")
			lo := a.float(1, "min_val", -1)
			hi := a.float(2, "max_val", 1)
			inplace := inplaceOnly || a.bool(3, "inplace", false)
			if a.err != nil {
				return nil, a.err
			}
			if !inplaceOnly && lo > hi {
				return nil, py.NewException(py.ValueError, "min_val cannot be greater than max_val")
			}
			if inplace {
				return h.rt.HardtanhInplace(x, lo, hi)
			}
			return h.rt.Hardtanh(x, lo, hi)
		}
	}
	F["hardtanh"] = hardtanh(false)
	F["hardtanh_"] = hardtanh(true)
	F["logsigmoid"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x := a.tensor(0, "input")
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.LogSigmoid(x)
	}
	F["glu"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x := a.tensor(0, "input")
		dim := a.int(1, "dim", -1)
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.Glu(x, dim)
	}
}

// F.dropout1d/2d/3d(input, p=0.5, training=True, inplace=False): the
// dimension rules of functional.py (dropout1d refuses other than 2-d/3-d
// inputs; dropout2d/3d only warn), the unbatched input unsqueezed to a
// batch of one, then feature_dropout.
func init() {
	for k, batched := range map[int]int{1: 3, 2: 4, 3: 5} {
		k, batched := k, batched
		functionalOps[fmt.Sprintf("dropout%dd", k)] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
			x := a.tensor(0, "input")
			pv := a.v(1, "p")
			p := a.float(1, "p", 0.5)
			train := a.bool(2, "training", true)
			inplace := a.bool(3, "inplace", false)
			if a.err != nil {
				return nil, a.err
			}
			if p < 0 || p > 1 {
				ps := "0.5"
				if pv != nil {
					s, err := a.it.Str(pv)
					if err != nil {
						return nil, err
					}
					ps = s
				}
				return nil, py.NewException(py.ValueError, "dropout probability has to be between 0 and 1, but got "+ps)
			}
			nd := x.Dim()
			if k == 1 && nd != 2 && nd != 3 {
				return nil, runtimeErr("dropout1d: Expected 2D or 3D input, but received a %dD input. Note that dropout1d exists to provide channel-wise dropout on inputs with 1 spatial dimension, a channel dimension, and an optional batch dimension (i.e. 2D or 3D inputs).", nd)
			}
			// dropout2d treats a 3-d input as batched (N, C, L), as PyTorch
			// still does
			if k == 2 || nd == batched {
				return h.rt.FeatureDropout(x, p, train, inplace)
			}
			u, err := h.rt.Unsqueeze(x, 0)
			if err != nil {
				return nil, err
			}
			defer u.Release()
			r, err := h.rt.FeatureDropout(u, p, train, inplace)
			if err != nil {
				return nil, err
			}
			defer r.Release()
			if inplace {
				// unsqueeze_/squeeze_ change x's own shape and back: x itself
				return x.Retain(), nil
			}
			return h.rt.Squeeze(r, []int64{0})
		}
	}
}

// F.selu/selu_, celu/celu_, hardsigmoid, softshrink, hardshrink,
// threshold/threshold_, softsign and tanhshrink.
func init() {
	F := functionalOps
	unaryIn := func(out, in func(rt *torch.Runtime, x *torch.Tensor) (*torch.Tensor, error), inplaceOnly bool) fImpl {
		return func(h *Host, a *fnArgs) (*torch.Tensor, error) {
			x := a.tensor(0, "input")
			inplace := inplaceOnly || a.bool(1, "inplace", false)
			if a.err != nil {
				return nil, a.err
			}
			if inplace {
				return in(h.rt, x)
			}
			return out(h.rt, x)
		}
	}
	F["selu"] = unaryIn((*torch.Runtime).Selu, (*torch.Runtime).SeluInplace, false)
	F["selu_"] = unaryIn((*torch.Runtime).Selu, (*torch.Runtime).SeluInplace, true)
	F["hardsigmoid"] = unaryIn((*torch.Runtime).Hardsigmoid, (*torch.Runtime).HardsigmoidInplace, false)
	celu := func(inplaceOnly bool) fImpl {
		return func(h *Host, a *fnArgs) (*torch.Tensor, error) {
			x := a.tensor(0, "input")
			alpha := a.float(1, "alpha", 1)
			inplace := inplaceOnly || a.bool(2, "inplace", false)
			if a.err != nil {
				return nil, a.err
			}
			if inplace {
				return h.rt.CeluInplace(x, alpha)
			}
			return h.rt.Celu(x, alpha)
		}
	}
	F["celu"] = celu(false)
	F["celu_"] = celu(true)
	for name, f := range map[string]func(rt *torch.Runtime, x *torch.Tensor, l float64) (*torch.Tensor, error){
		"softshrink": (*torch.Runtime).Softshrink, "hardshrink": (*torch.Runtime).Hardshrink,
	} {
		f := f
		F[name] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
			x := a.tensor(0, "input")
			l := a.float(1, "lambd", 0.5)
			if a.err != nil {
				return nil, a.err
			}
			return f(h.rt, x, l)
		}
	}
	threshold := func(inplaceOnly bool) fImpl {
		return func(h *Host, a *fnArgs) (*torch.Tensor, error) {
			x := a.tensor(0, "input")
			if a.err == nil && (a.v(1, "threshold") == nil || a.v(2, "value") == nil) {
				a.err = typeErr("threshold() missing required argument")
			}
			th := a.float(1, "threshold", 0)
			v := a.float(2, "value", 0)
			inplace := inplaceOnly || a.bool(3, "inplace", false)
			if a.err != nil {
				return nil, a.err
			}
			if inplace {
				return h.rt.ThresholdInplace(x, th, v)
			}
			return h.rt.Threshold(x, th, v)
		}
	}
	F["threshold"] = threshold(false)
	F["threshold_"] = threshold(true)
	for name, f := range map[string]func(rt *torch.Runtime, x *torch.Tensor) (*torch.Tensor, error){
		"softsign": (*torch.Runtime).Softsign, "tanhshrink": (*torch.Runtime).Tanhshrink,
	} {
		f := f
		F[name] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
			x := a.tensor(0, "input")
			if a.err != nil {
				return nil, a.err
			}
			return f(h.rt, x)
		}
	}
}
