package pybind

import (
	"sort"

	"github.com/gpumem/playground/sim/py"
)

// functionalValues are torch.nn.functional functions that return something
// other than one tensor (a tuple: F.max_pool2d(return_indices=True)).
var functionalValues = map[string]func(h *Host, a *fnArgs) (py.Value, error){
	// F.max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1,
	// ceil_mode=False, return_indices=False): the output, or (output,
	// indices) of max_pool2d_with_indices.
	"max_pool2d": func(h *Host, a *fnArgs) (py.Value, error) {
		x := a.tensor(0, "input")
		k := a.pair(1, "kernel_size", [2]int64{1, 1})
		s := a.pair(2, "stride", k)
		p, d := a.pair(3, "padding", [2]int64{0, 0}), a.pair(4, "dilation", [2]int64{1, 1})
		ceil := a.bool(5, "ceil_mode", false)
		withIdx := a.bool(6, "return_indices", false)
		if a.err != nil {
			return nil, a.err
		}
		if !withIdx {
			return h.wrapResult(h.rt.MaxPool2d(x, k, s, p, d, ceil))
		}
		out, idx, err := h.rt.MaxPool2dWithIndices(x, k, s, p, d, ceil)
		if err != nil {
			return nil, pyErr(err)
		}
		return a.it.NewTuple([]py.Value{h.wrap(out), h.wrap(idx)}), nil
	},
}

// addFunctionalValues adds functionalValues to the functional module m.
func (h *Host) addFunctionalValues(it *py.Interp, m *py.Module) {
	names := make([]string, 0, len(functionalValues))
	for n := range functionalValues {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		f := functionalValues[name]
		m.Add(it, name, py.NewBuiltin(name, func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			a := &fnArgs{name: name, args: args, kwargs: kwargs, it: it}
			v, err := f(h, a)
			if err != nil {
				return h.opDone(nil, pyErr(err))
			}
			return h.opDone(v, nil)
		}))
	}
}
