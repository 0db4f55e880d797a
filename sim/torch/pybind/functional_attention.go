package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// F.scaled_dot_product_attention(query, key, value, attn_mask=None,
// dropout_p=0.0, is_causal=False, scale=None, enable_gqa=False).
func init() {
	functionalOps["scaled_dot_product_attention"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		q, k, v := a.tensor(0, "query"), a.tensor(1, "key"), a.tensor(2, "value")
		mask := a.optTensor(3, "attn_mask")
		p := a.float(4, "dropout_p", 0)
		causal := a.bool(5, "is_causal", false)
		scale := 0.0
		if sv := a.v(6, "scale"); sv != nil && sv != py.None {
			scale = a.float(6, "scale", 0)
		}
		gqa := a.bool(7, "enable_gqa", false)
		if a.err != nil {
			return nil, a.err
		}
		if gqa {
			return nil, py.NewException(py.NotImplementedError, "scaled_dot_product_attention(enable_gqa=True) is not simulated")
		}
		if causal && mask != nil {
			return nil, runtimeErr("_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True")
		}
		return h.rt.SDPA(q, k, v, mask, p, causal, scale)
	}
}
