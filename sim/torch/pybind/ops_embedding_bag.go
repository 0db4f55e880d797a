package pybind

import (
	"github.com/gpumem/playground/sim/py"
)

// torch.embedding_bag(weight, indices, offsets, scale_grad_by_freq=False,
// mode=0, sparse=False, per_sample_weights=None, include_last_offset=False,
// padding_idx=None) -> (output, offset2bag, bag_size, max_indices)
// (sim/torch/ops_embedding_bag.go; F.embedding_bag's Python part is
// prelude/torch/nn/_functional_more.py).
func init() {
	def("embedding_bag", false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		a := &fnArgs{name: "embedding_bag", args: args, kwargs: kwargs, it: it}
		w, idx, offs := a.tensor(0, "weight"), a.tensor(1, "indices"), a.tensor(2, "offsets")
		_ = a.bool(3, "scale_grad_by_freq", false)
		mode := a.int(4, "mode", 0)
		sparse := a.bool(5, "sparse", false)
		psw := a.optTensor(6, "per_sample_weights")
		last := a.bool(7, "include_last_offset", false)
		if a.err != nil {
			return nil, a.err
		}
		out, o2b, bs, mi, err := h.rt.EmbeddingBag(w, idx, offs, psw, mode, sparse, last)
		if err != nil {
			return nil, pyErr(err)
		}
		return it.NewTuple([]py.Value{h.wrap(out), h.wrap(o2b), h.wrap(bs), h.wrap(mi)}), nil
	})
}
