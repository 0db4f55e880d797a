package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// indexPutTuple is Tensor.index_put_(indices, values, accumulate) (or
// torch.index_put) with several index tensors: element i indexes the dims
// after those of the elements before it (a mask as many as it has).
func indexPutTuple(h *Host, full string, x *torch.Tensor, items []py.Value, vals *torch.Tensor, acc, inplace bool) (py.Value, error) {
	if len(items) > x.Dim() {
		return nil, py.Errorf(py.IndexError, "too many indices for tensor of dimension %d (got %d)", x.Dim(), len(items))
	}
	advs := make([]torch.AdvIndex, 0, len(items))
	d := 0
	for i, it := range items {
		t, ok := it.(*Tensor)
		if !ok {
			return nil, typeErr("expected Tensor as element %d in argument 0, but got %s", i, typeName(it))
		}
		advs = append(advs, torch.AdvIndex{Dim: d, Idx: t.t})
		if dt := t.t.DType(); dt == torch.Bool || dt == torch.Uint8 {
			d += t.t.Dim()
		} else {
			d++
		}
	}
	return h.wrapResult(h.rt.IndexPutMulti(x, advs, vals, 0, acc, inplace))
}
