package pybind

import (
	"strings"

	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// torch.einsum as torch/functional.py's wrapper: the equation and the
// operands (varargs or one list), or the sublist format (operand,
// [labels], ..., [output]). With 3+ operands the contraction order is
// opt_einsum's (installed and enabled where PyTorch 2.11 was measured):
// torch.EinsumPath.
func init() {
	def("einsum", false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		if len(args) < 2 {
			return nil, py.NewException(py.ValueError, "einsum(): must specify the equation string and at least one operand, or at least one operand and its subscripts list")
		}
		var eq string
		var opsV []py.Value
		if _, ok := tensorArg(args[0]); ok {
			e, ops, err := einsumSublist(args)
			if err != nil {
				return nil, err
			}
			eq, opsV = e, ops
		} else {
			s, ok := args[0].(py.Str)
			if !ok {
				return nil, typeErr("einsum(): argument 'equation' (position 1) must be str, not %s", typeName(args[0]))
			}
			eq, opsV = string(s), args[1:]
			if len(opsV) == 1 {
				if es, ok := elems(opsV[0]); ok {
					opsV = es
				}
			}
		}
		ts := make([]*torch.Tensor, len(opsV))
		for i, v := range opsV {
			t, ok := tensorArg(v)
			if !ok {
				return nil, typeErr("einsum(): argument 'tensors' (position 2) must be tuple of Tensors, not %s", typeName(v))
			}
			ts[i] = t
		}
		return h.wrapResult(h.rt.Einsum(eq, ts, torch.EinsumPath(eq, ts)))
	})
}

// einsumSublist converts einsum(op1, [0, 1], op2, [1, 2], [0, 2]) to an
// equation as torch/functional.py's parse_subscript does (0-25: A-Z,
// 26-51: a-z, Ellipsis: ...).
func einsumSublist(args []py.Value) (string, []py.Value, error) {
	sub := func(v py.Value) (string, error) {
		es, ok := elems(v)
		if !ok {
			return "", typeErr("einsum(): expected a list of subscripts, got %s", typeName(v))
		}
		var b strings.Builder
		for _, e := range es {
			if e == py.Ellipsis {
				b.WriteString("...")
				continue
			}
			n, ok := intArg(e)
			if !ok {
				return "", typeErr("einsum(): expected subscript to be of type int but got %s", typeName(e))
			}
			switch {
			case n >= 0 && n < 26:
				b.WriteByte(byte('A' + n))
			case n >= 26 && n < 52:
				b.WriteByte(byte('a' + n - 26))
			default:
				return "", py.NewException(py.ValueError, "einsum(): subscript in subscript list is not within the valid range [0, 52)")
			}
		}
		return b.String(), nil
	}
	var ops []py.Value
	var parts []string
	i := 0
	for ; i+1 < len(args); i += 2 {
		ops = append(ops, args[i])
		s, err := sub(args[i+1])
		if err != nil {
			return "", nil, err
		}
		parts = append(parts, s)
	}
	eq := strings.Join(parts, ",")
	if i < len(args) {
		s, err := sub(args[i])
		if err != nil {
			return "", nil, err
		}
		eq += "->" + s
	}
	return eq, ops, nil
}
