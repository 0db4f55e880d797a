package torch

import "math"

// ExecKinds of the pointwise family (issue 7). The map operators of
// gpu/kernels with the same names compute them; Out[0] is the result.
const (
	ExecSilu         ExecKind = "silu"          // x / (1 + exp(-x))
	ExecSiluBack     ExecKind = "silu_backward" // In[0] = grad, In[1] = input
	ExecMinimum      ExecKind = "minimum"
	ExecLerp         ExecKind = "lerp"    // In[0] + w·(In[1] − In[0]); w = In[2] or Scalars[0]
	ExecAddcmul      ExecKind = "addcmul" // In[0] + Scalars[0]·In[1]·In[2]
	ExecAddcdiv      ExecKind = "addcdiv" // In[0] + Scalars[0]·In[1]/In[2]
	ExecClamp        ExecKind = "clamp"   // In[0] into [Scalars[0], Scalars[1]] (NaN stays)
	ExecWhere        ExecKind = "where"   // In[0] (bool) ? In[1] : In[2]
	ExecMaskedFill   ExecKind = "masked_fill"
	ExecMaskedKeep   ExecKind = "masked_keep" // In[1] (bool) ? In[0] : Scalars[0]
	ExecLogicalNot   ExecKind = "logical_not"
	ExecIsNaN        ExecKind = "isnan"
	ExecIsInf        ExecKind = "isinf"
	ExecIsFinite     ExecKind = "isfinite"
	ExecNotComputed  ExecKind = "not_computed" // no kernels: marks Out not computed
	execScalarSuffix          = "_scalar"      // eq_scalar...: In[0] compared with Scalars[0]
)

// markNotComputed tells the executor that t's values are no longer known
// (an in-place op without kernels): printing it says so instead of showing
// the values before the op.
func (rt *Runtime) markNotComputed(t *Tensor) {
	rt.compute1(ExecNotComputed, t, nil)
}

// CompareNumber is a comparison (eq, ne, lt, le, gt, ge) of a tensor with
// a Python number: CompareScalar with the number's value computed.
func (rt *Runtime) CompareNumber(op string, a *Tensor, s Scalar) (*Tensor, error) {
	out, err := rt.CompareScalar(op, a)
	if err == nil && rt.exec != nil {
		rt.compute1(ExecKind(op)+execScalarSuffix, out, []*Tensor{a}, s.Value())
	}
	return out, err
}

// ClampNumbers is torch.clamp(a, lo, hi) with number bounds (nil: none):
// Clamp with the bounds' values computed. The backward's values need the
// bounds too and are not computed.
func (rt *Runtime) ClampNumbers(a *Tensor, lo, hi *float64) (*Tensor, error) {
	out, err := rt.Clamp(a)
	if err == nil && rt.exec != nil {
		l, h := math.Inf(-1), math.Inf(1)
		if lo != nil {
			l = *lo
		}
		if hi != nil {
			h = *hi
		}
		rt.compute1(ExecClamp, out, []*Tensor{a}, l, h)
	}
	return out, err
}

// InplacePointwiseScalars is InplacePointwise with the op's numbers:
// lerp_'s weight when it is a number, addcmul_'s and addcdiv_'s value.
func (rt *Runtime) InplacePointwiseScalars(op string, t *Tensor, others []*Tensor, scalars []float64) (*Tensor, error) {
	return rt.inplacePointwise(op, t, others, scalars)
}

// inplacePointwiseValues computes t.op_(others..., scalars...) in place.
func (rt *Runtime) inplacePointwiseValues(op string, t *Tensor, others []*Tensor, scalars []float64) {
	ins := append([]*Tensor{t}, others...)
	switch op {
	case "lerp_":
		if len(others) == 2 || len(scalars) == 1 {
			rt.compute1(ExecLerp, t, ins, scalars...)
			return
		}
	case "addcmul_", "addcdiv_":
		if len(others) == 2 && len(scalars) == 1 {
			rt.compute1(ExecKind(op[:len(op)-1]), t, ins, scalars...)
			return
		}
	case "maximum", "minimum":
		rt.compute1(ExecKind(op), t, ins)
		return
	case "reciprocal_", "sqrt_", "rsqrt_", "abs_", "neg_":
		rt.compute1(ExecKind(op[:len(op)-1]), t, ins[:1])
		return
	}
	rt.markNotComputed(t)
}

// whereGrad is where's backward for input i: where(cond, g, 0) for a,
// where(cond, 0, g) for b, allocated as gradLike (g's shape) with the
// condition the node saved.
func (rt *Runtime) whereGrad(n *Node, i int, g *Tensor) (*Tensor, error) {
	r, err := rt.pointwiseOut("where", g.dtype, g, g)
	if err != nil || rt.exec == nil {
		return r, err
	}
	cond, err := n.unpack(0)
	if err != nil {
		rt.markNotComputed(r)
		return r, nil
	}
	defer cond.Release()
	kind := ExecMaskedKeep // a: g where cond, else 0
	if i == 1 {
		kind = ExecMaskedFill // b: 0 where cond, else g
	}
	rt.compute1(kind, r, []*Tensor{g, cond}, 0)
	return r, nil
}
