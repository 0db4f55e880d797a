package pybind

import (
	"sort"

	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// fnArgs gives F.* implementations positional-or-keyword access.
type fnArgs struct {
	name   string
	args   []py.Value
	kwargs []py.Kwarg
	it     *py.Interp
	err    error
}

func (a *fnArgs) v(i int, key string) py.Value { return argOr(a.args, a.kwargs, i, key) }

func (a *fnArgs) tensor(i int, key string) *torch.Tensor {
	if a.err != nil {
		return nil
	}
	t, err := tensorOf(a.name, key, a.v(i, key))
	a.err = err
	return t
}

func (a *fnArgs) optTensor(i int, key string) *torch.Tensor {
	if a.err != nil {
		return nil
	}
	t, err := optTensor(a.name, key, a.v(i, key))
	a.err = err
	return t
}

func (a *fnArgs) int(i int, key string, def int64) int64 {
	if a.err != nil {
		return 0
	}
	n, err := intOf(a.name, key, a.v(i, key), def)
	a.err = err
	return n
}

func (a *fnArgs) float(i int, key string, def float64) float64 {
	if a.err != nil {
		return 0
	}
	f, err := floatOf(a.name, key, a.v(i, key), def)
	a.err = err
	return f
}

func (a *fnArgs) bool(i int, key string, def bool) bool {
	if a.err != nil {
		return false
	}
	b, err := boolOf(a.it, a.v(i, key), def)
	a.err = err
	return b
}

func (a *fnArgs) str(i int, key string, def string) string {
	if a.err != nil {
		return ""
	}
	s, err := strOf(a.name, key, a.v(i, key), def)
	a.err = err
	return s
}

// pair reads an int or a pair of ints (kernel_size=3 or (3, 3)).
func (a *fnArgs) pair(i int, key string, def [2]int64) [2]int64 {
	if a.err != nil {
		return def
	}
	v := a.v(i, key)
	if v == nil || v == py.None {
		return def
	}
	l, err := intList(a.name, key, v)
	if err != nil {
		a.err = err
		return def
	}
	if len(l) == 1 {
		return [2]int64{l[0], l[0]}
	}
	if len(l) != 2 {
		a.err = typeErr("%s(): argument '%s' must be an int or a pair of ints", a.name, key)
		return def
	}
	return [2]int64{l[0], l[1]}
}

// reduction reads reduction= (with the legacy size_average/reduce ignored).
func (a *fnArgs) reduction(i int) string {
	r := a.str(i, "reduction", "mean")
	if a.err == nil && r != "mean" && r != "sum" && r != "none" {
		a.err = py.NewException(py.ValueError, r+" is not a valid value for reduction")
	}
	return r
}

type fImpl func(h *Host, a *fnArgs) (*torch.Tensor, error)

// functionalOps are torch.nn.functional's functions.
var functionalOps = map[string]fImpl{}

func init() {
	F := functionalOps
	F["linear"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x, w, b := a.tensor(0, "input"), a.tensor(1, "weight"), a.optTensor(2, "bias")
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.Linear(x, w, b)
	}
	unary := map[string]func(rt *torch.Runtime, t *torch.Tensor) (*torch.Tensor, error){
		"relu": (*torch.Runtime).Relu, "sigmoid": (*torch.Runtime).Sigmoid, "tanh": (*torch.Runtime).Tanh,
		"silu": (*torch.Runtime).Silu,
	}
	for name, f := range unary {
		F[name] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
			x := a.tensor(0, "input")
			inplace := a.bool(1, "inplace", false)
			if a.err != nil {
				return nil, a.err
			}
			if inplace && name == "relu" {
				return h.rt.ReluInplace(x)
			}
			return f(h.rt, x)
		}
	}
	// F.gelu(input, approximate='none')
	F["gelu"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x := a.tensor(0, "input")
		approx := a.str(1, "approximate", "none")
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.Gelu(x, approx)
	}
	F["relu_"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x := a.tensor(0, "input")
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.ReluInplace(x)
	}
	for _, name := range []string{"softmax", "log_softmax"} {
		F[name] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
			x := a.tensor(0, "input")
			dim := a.int(1, "dim", -2)
			if dim == -2 && x != nil {
				if dv := a.v(1, "dim"); dv == nil || dv == py.None {
					// F.softmax's implicit dim (_get_softmax_dim; PyTorch
					// also warns that it is deprecated)
					switch len(x.Shape()) {
					case 0, 1, 3:
						dim = 0
					default:
						dim = 1
					}
				}
			}
			var dtp *torch.DType
			if d, ok, err := dtypeArg(a.v(3, "dtype")); err != nil {
				return nil, err
			} else if ok {
				dtp = &d
			}
			if a.err != nil {
				return nil, a.err
			}
			return h.rt.Softmax(x, dim, name == "log_softmax", dtp)
		}
	}
	F["dropout"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x := a.tensor(0, "input")
		p := a.float(1, "p", 0.5)
		train := a.bool(2, "training", true)
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.Dropout(x, p, train)
	}
	F["layer_norm"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x := a.tensor(0, "input")
		var shape []int64
		if a.err == nil {
			shape, a.err = intList("layer_norm", "normalized_shape", a.v(1, "normalized_shape"))
		}
		w, b := a.optTensor(2, "weight"), a.optTensor(3, "bias")
		eps := a.float(4, "eps", 1e-5)
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.LayerNorm(x, shape, w, b, eps)
	}
	F["embedding"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		idx, w := a.tensor(0, "input"), a.tensor(1, "weight")
		pad := int64(-1)
		if v := a.v(2, "padding_idx"); v != nil && v != py.None && a.err == nil {
			pad = a.int(2, "padding_idx", -1)
			if pad < 0 && w != nil && w.Dim() > 0 {
				pad += w.Shape()[0]
			}
		}
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.Embedding(idx, w, pad)
	}
	F["avg_pool2d"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x := a.tensor(0, "input")
		k := a.pair(1, "kernel_size", [2]int64{1, 1})
		s := a.pair(2, "stride", k)
		p := a.pair(3, "padding", [2]int64{0, 0})
		ceil := a.bool(4, "ceil_mode", false)
		cip := a.bool(5, "count_include_pad", true)
		var div int64
		if v := a.v(6, "divisor_override"); v != nil && v != py.None && a.err == nil {
			div = a.int(6, "divisor_override", 0)
		}
		if a.err != nil {
			return nil, a.err
		}
		if x.Dim() < 3 {
			return nil, runtimeErr("avg_pool2d: expected a 3D or 4D input")
		}
		sh := x.Shape()
		n := len(sh)
		var out [2]int64
		for i := 0; i < 2; i++ {
			out[i] = torch.PoolOut(sh[n-2+i], k[i], s[i], p[i], 1, ceil)
		}
		win := &torch.PoolWindow{Kernel: k, Stride: s, Padding: p, Ceil: ceil, CountIncludePad: cip, Divisor: div}
		return h.rt.AvgPool2d("avg_pool2d", x, out, win)
	}
	F["adaptive_avg_pool2d"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x := a.tensor(0, "input")
		o := a.pair(1, "output_size", [2]int64{1, 1})
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.AvgPool2d("adaptive_avg_pool2d", x, o, nil)
	}
	F["mse_loss"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x, y := a.tensor(0, "input"), a.tensor(1, "target")
		r := a.reduction(4)
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.MseLoss(x, y, r)
	}
	// cross_entropy: functional_loss_more.go
	F["nll_loss"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x, y := a.tensor(0, "input"), a.tensor(1, "target")
		r := a.reduction(6) // (input, target, weight, size_average, ignore_index, reduce, reduction)
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.NllLoss(x, y, r)
	}
}

func (h *Host) buildFunctional(it *py.Interp) (*py.Module, error) {
	m := it.NewModule("torch.nn.functional")
	names := make([]string, 0, len(functionalOps))
	for n := range functionalOps {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		if _, ok := functionalValues[name]; ok {
			continue
		}
		f := functionalOps[name]
		m.Add(it, name, py.NewBuiltin(name, func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			a := &fnArgs{name: name, args: args, kwargs: kwargs, it: it}
			t, err := f(h, a)
			if err != nil {
				return h.opDone(nil, pyErr(err))
			}
			return h.opDone(h.wrap(t), nil)
		}))
	}
	h.addFunctionalValues(it, m)
	return m, nil
}
