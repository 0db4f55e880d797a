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
	ExecSgn          ExecKind = "sgn"          // (x > 0) − (x < 0): abs's backward
	execScalarSuffix          = "_scalar"      // eq_scalar...: In[0] compared with Scalars[0]
)

// Reductions of the pointwise family: In[0] reduced over the dims Ints
// (none: all of them); Out has the kept dims (keepdim or not).
const (
	ExecMaxAll ExecKind = "max_all" // Out = the max (amax); NaN if any
	ExecMinAll ExecKind = "min_all"
	ExecMaxDim ExecKind = "max_dim" // Out = [values, int64 indices] (first index of ties)
	ExecMinDim ExecKind = "min_dim"
	ExecArgmax ExecKind = "argmax" // Out = int64 indices
	ExecArgmin ExecKind = "argmin"
	ExecVar    ExecKind = "var"  // Σ(x − mean)² / max(0, n − Scalars[0])
	ExecStd    ExecKind = "std"  // the square root of var
	ExecNorm   ExecKind = "norm" // vector norm of order Scalars[0] (1, 2, inf)
	ExecAll    ExecKind = "all"  // Out (0-dim bool) = every element of In[0] non-zero
	ExecAny    ExecKind = "any"  // Out (0-dim bool) = some element of In[0] non-zero
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
		rt.numberValues(ExecKind(op)+execScalarSuffix, out, a, s)
	}
	return out, err
}

// ClampNumbers is torch.clamp(a, lo, hi) with number bounds (nil: none):
// Clamp with the bounds' values computed, in the output and in the
// backward (clamp_backward: grad where lo <= self <= hi, else 0).
func (rt *Runtime) ClampNumbers(a *Tensor, lo, hi *float64, floatBound bool) (*Tensor, error) {
	l, h := ClampBounds(lo, hi)
	out, err := rt.clamp(a, []float64{l, h}, ClampDType(a, floatBound))
	if err == nil && rt.exec != nil {
		rt.compute1(ExecClamp, out, []*Tensor{a}, l, h)
	}
	return out, err
}

// ClampBounds is clamp's bounds as numbers: −inf and +inf for none.
func ClampBounds(lo, hi *float64) (float64, float64) {
	l, h := math.Inf(-1), math.Inf(1)
	if lo != nil {
		l = *lo
	}
	if hi != nil {
		h = *hi
	}
	return l, h
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
// condition the node saved. The 0 is a 0-dim device tensor of g's dtype,
// allocated before the result and freed after it (measured, q23).
func (rt *Runtime) whereGrad(n *Node, i int, g *Tensor) (*Tensor, error) {
	zero, err := rt.empty("where", []int64{}, nil, g.dtype, g.device)
	if err != nil {
		return nil, err
	}
	defer zero.Release()
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

// VarCorrection is torch.var/std (op) over dims with a correction (1:
// unbiased, 0: population): Var with the values computed.
func (rt *Runtime) VarCorrection(op string, t *Tensor, dims []int64, keepdim bool, correction float64) (*Tensor, error) {
	out, err := rt.varCorrected(op, t, dims, keepdim, correction)
	if err == nil && rt.exec != nil {
		kind := ExecVar
		if op == "std" {
			kind = ExecStd
		}
		rt.compute(kind, []*Tensor{out}, []*Tensor{t}, []float64{correction}, dims)
	}
	return out, err
}

// NormP is torch.norm / linalg.vector_norm of order p over dims: Norm
// with the values computed (orders 1, 2 and inf; others are marked not
// computed).
func (rt *Runtime) NormP(t *Tensor, p float64, dims []int64, keepdim bool) (*Tensor, error) {
	out, err := rt.normOrder(t, p, dims, keepdim)
	if err == nil && rt.exec != nil {
		rt.compute(ExecNorm, []*Tensor{out}, []*Tensor{t}, []float64{p}, dims)
	}
	return out, err
}

// pickDims is the Ints of a pick kind: the dim, or none for all.
func pickDims(dim *int64) []int64 {
	if dim == nil {
		return nil
	}
	return []int64{*dim}
}

// Losses and dropout of the pointwise family. The loss kinds take their
// optional operands as computeOpt does (masks at the end of Ints);
// Ints[0] is the reduction (0 none, 1 mean, 2 sum).
const (
	ExecBCE           ExecKind = "binary_cross_entropy"          // Out = loss; In = [input, target, weight?]
	ExecBCEBack       ExecKind = "binary_cross_entropy_backward" // Out = grad_input; In = [grad, input, target, weight?]
	ExecBCELogits     ExecKind = "bce_with_logits"               // Out = loss; In = [input, target, weight?, pos_weight?]
	ExecBCELogitsBack ExecKind = "bce_with_logits_backward"      // Out = grad_input; In = [grad, input, target, weight?, pos_weight?]
	// ExecDropout is native_dropout in training: Out = [output, bool mask],
	// In = [input], Scalars[0] = p; the mask comes from the executor's
	// generator (not PyTorch's Philox stream), kept with probability 1 − p,
	// output = input·mask/(1 − p).
	ExecDropout ExecKind = "dropout"
	// ExecDropoutBack is native_dropout_backward: Out = grad·mask·Scalars[0],
	// In = [grad, mask].
	ExecDropoutBack ExecKind = "dropout_backward"
)

// unpackOpt unpacks the saved tensors idx of n for a backward's values;
// a tensor saved as nil stays nil. ok is false when one is unavailable.
func unpackOpt(n *Node, idx ...int) (ts []*Tensor, release func(), ok bool) {
	release = func() {
		for _, t := range ts {
			if t != nil {
				t.Release()
			}
		}
	}
	for _, i := range idx {
		t, err := n.unpack(i)
		if err != nil {
			release()
			return nil, func() {}, false
		}
		ts = append(ts, t)
	}
	return ts, release, true
}

// binaryNoGradValues computes BinaryNoGrad's ops that have kernels:
// maximum/minimum, and bitwise and/or/xor of bools (logical_and/or, & and
// |, which equal the logical ops there).
func (rt *Runtime) binaryNoGradValues(op string, out, a, b *Tensor) {
	switch {
	case op == "maximum" || op == "minimum":
		rt.compute1(ExecKind(op), out, []*Tensor{a, b})
	case a.dtype == Bool && b.dtype == Bool && (op == "bitwise_and" || op == "bitwise_or" || op == "bitwise_xor"):
		rt.compute1(ExecKind("logical"+op[len("bitwise"):]), out, []*Tensor{a, b})
	}
}
