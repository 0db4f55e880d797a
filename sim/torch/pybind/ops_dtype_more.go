package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// LayoutObj is a torch.layout (torch.strided, torch.sparse_coo, ...). Every
// simulated tensor is strided: Tensor.layout is the module's torch.strided,
// so `t.layout is torch.strided` holds.
type LayoutObj struct {
	py.Base
	name string
}

// Type is torch.layout.
func (*LayoutObj) Type() *py.Class { return layoutClass }

// Repr is "torch.strided".
func (o *LayoutObj) Repr(it *py.Interp) (string, error) { return "torch." + o.name, nil }

var layoutClass = py.NewHostClass(py.ClassSpec{Name: "layout", Module: "torch"})

// layouts are the layouts PyTorch exports in the torch module.
var layouts = []string{"strided", "sparse_coo", "sparse_csr", "sparse_csc", "sparse_bsr", "sparse_bsc", "_mkldnn", "jagged"}

// addLayouts puts torch.layout and its values into m.
func addLayouts(it *py.Interp, m *py.Module) {
	m.Set(it, "layout", layoutClass)
	for _, name := range layouts {
		m.Add(it, name, &LayoutObj{name: name})
	}
}

// stridedLayout is torch.strided (a new reference).
func stridedLayout(it *py.Interp) (py.Value, error) {
	m, err := it.Import("torch")
	if err != nil {
		return nil, err
	}
	return it.GetAttr(m, "strided")
}

// torch.result_type, promote_types and can_cast: dtype arithmetic, no
// memory.
func init() {
	def("result_type", false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		a, b := argOr(args, kwargs, 0, "tensor"), argOr(args, kwargs, 1, "other")
		if len(args)+len(kwargs) != 2 || a == nil || b == nil {
			return nil, typeErr("result_type() received an invalid combination of arguments - got (%s), but expected one of:\n * (Tensor tensor, Tensor other)\n * (Number scalar, Tensor tensor)\n * (Tensor tensor, Number other)\n * (Number scalar1, Number scalar2)\n", gotTypes(args, kwargs))
		}
		var ts []*torch.Tensor
		var ks []torch.ScalarKind
		for _, v := range []py.Value{a, b} {
			if t, ok := tensorArg(v); ok {
				ts = append(ts, t)
				continue
			}
			s, ok := scalarArg(v)
			if !ok {
				return nil, typeErr("result_type() received an invalid combination of arguments - got (%s), but expected one of:\n * (Tensor tensor, Tensor other)\n * (Number scalar, Tensor tensor)\n * (Tensor tensor, Number other)\n * (Number scalar1, Number scalar2)\n", gotTypes(args, kwargs))
			}
			ks = append(ks, s.Kind)
		}
		return h.dtype(torch.ResultType(ts, ks)), nil
	})
	two := func(name, a, b string) func(args []py.Value, kwargs []py.Kwarg) (torch.DType, torch.DType, error) {
		return func(args []py.Value, kwargs []py.Kwarg) (torch.DType, torch.DType, error) {
			var ds [2]torch.DType
			for i, n := range []string{a, b} {
				v := argOr(args, kwargs, i, n)
				d, ok, err := dtypeArg(v)
				if err != nil {
					return 0, 0, err
				}
				if !ok {
					return 0, 0, typeErr("%s(): argument '%s' (position %d) must be torch.dtype, not %s", name, n, i+1, typeName(v))
				}
				ds[i] = d
			}
			return ds[0], ds[1], nil
		}
	}
	promote := two("promote_types", "type1", "type2")
	def("promote_types", false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		a, b, err := promote(args, kwargs)
		if err != nil {
			return nil, err
		}
		return h.dtype(torch.PromoteTypes(a, b)), nil
	})
	cast := two("can_cast", "from_", "to")
	def("can_cast", false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		from, to, err := cast(args, kwargs)
		if err != nil {
			return nil, err
		}
		return py.Bool(canCast(from, to)), nil
	})
}

// canCast is c10::canCast: no complex → real, floating → integral, or
// non-bool → bool.
func canCast(from, to torch.DType) bool {
	switch {
	case from.IsComplex() && !to.IsComplex():
		return false
	case from.IsFloating() && to.IsIntegral(false):
		return false
	case from != torch.Bool && to == torch.Bool:
		return false
	}
	return true
}
