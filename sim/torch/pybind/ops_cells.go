package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// torch.lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None) and
// torch.gru_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None), the _VF
// functions nn.LSTMCell/nn.GRUCell call (sim/torch/ops_cells.go).
func init() {
	def("lstm_cell", false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		a := &fnArgs{name: "lstm_cell", args: args, kwargs: kwargs, it: it}
		x := a.tensor(0, "input")
		hs := a.tensorSeq(1, "hx")
		wih, whh := a.tensor(2, "w_ih"), a.tensor(3, "w_hh")
		bih, bhh := a.optTensor(4, "b_ih"), a.optTensor(5, "b_hh")
		if a.err != nil {
			return nil, a.err
		}
		if len(hs) != 2 {
			return nil, runtimeErr("lstm_cell expects two hidden states")
		}
		hy, cy, err := h.rt.LstmCell(x, hs[0], hs[1], wih, whh, bih, bhh)
		if err != nil {
			return nil, pyErr(err)
		}
		return it.NewTuple([]py.Value{h.wrap(hy), h.wrap(cy)}), nil
	})
	def("gru_cell", false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		a := &fnArgs{name: "gru_cell", args: args, kwargs: kwargs, it: it}
		x, hx := a.tensor(0, "input"), a.tensor(1, "hx")
		wih, whh := a.tensor(2, "w_ih"), a.tensor(3, "w_hh")
		bih, bhh := a.optTensor(4, "b_ih"), a.optTensor(5, "b_hh")
		if a.err != nil {
			return nil, a.err
		}
		return h.wrapResult(h.rt.GruCell(x, hx, wih, whh, bih, bhh))
	})
}

// tensorSeq reads a tuple or list of tensors (lstm_cell's hx).
func (a *fnArgs) tensorSeq(i int, key string) []*torch.Tensor {
	if a.err != nil {
		return nil
	}
	var elems []py.Value
	switch t := a.v(i, key).(type) {
	case *py.Tuple:
		elems = t.Elems()
	case *py.List:
		elems = t.Elems()
	default:
		a.err = typeErr("%s(): argument '%s' (position %d) must be tuple of Tensors, not %s", a.name, key, i+1, typeName(a.v(i, key)))
		return nil
	}
	out := make([]*torch.Tensor, len(elems))
	for j, e := range elems {
		t, ok := tensorArg(e)
		if !ok {
			a.err = typeErr("%s(): argument '%s' (position %d) must be tuple of Tensors, but found element of type %s at pos %d", a.name, key, i+1, typeName(e), j)
			return nil
		}
		out[j] = t
	}
	return out
}
