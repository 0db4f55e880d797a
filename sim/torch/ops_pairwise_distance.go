package torch

// F.pairwise_distance (PyTorch 2.11, Distance.cpp, composite):
// at::norm(x1 - x2 + eps, p, last dim, keepdim) — SubBackward0,
// AddBackward1, NormBackward1 (at::norm with a dim is norm.ScalarOpt_dim,
// whose backward is the same norm_backward as linalg.vector_norm's). The
// difference and the shifted difference are temporaries (the latter saved
// by the norm). Measured in q22 (pairwise_distance items).

// PairwiseDistance is F.pairwise_distance(x1, x2, p, eps, keepdim).
func (rt *Runtime) PairwiseDistance(x1, x2 *Tensor, p, eps float64, keepdim bool) (*Tensor, error) {
	inner := int64(max(x1.Dim(), x2.Dim()) - 1)
	d, err := rt.Sub(x1, x2, 1)
	if err != nil {
		return nil, err
	}
	// the temporaries of x1 - x2 + eps live until the norm is done
	defer d.Release()
	e, err := rt.AddScalar(d, Float(eps))
	if err != nil {
		return nil, err
	}
	defer e.Release()
	out, err := rt.NormP(e, p, []int64{inner}, keepdim)
	if err != nil {
		return nil, err
	}
	if out.gradFn != nil {
		out.gradFn.name = "NormBackward1"
	}
	return out, nil
}
