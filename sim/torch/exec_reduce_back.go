package torch

// Backwards of the reductions (max/min, amax/amin, var/std, norm) with
// their values (issue 7). Each allocates exactly as before (the model's
// memory is unchanged) and, on a backend with values, hands the executor
// the gradient, the saved tensors it needs and the reduction's arguments.
// The executor restores the reduced dims of grad (and of a saved result)
// itself: they are the dims Ints, and an operand of lower rank than self
// lacks them (keepdim=False).
const (
	// ExecSelectBack is value_selecting_reduction_backward (max/min over a
	// dim): Out = zeros like self with grad scattered at the indices along
	// dim Ints[0]; In = [grad, int64 indices].
	ExecSelectBack ExecKind = "value_selecting_backward"
	// ExecEvenlyBack is evenly_distribute_backward (max()/min():
	// Scalars[0] = 1, NaN equals NaN) and amax/amin's scale_grad_by_count
	// (Scalars[0] = 0): mask = (self == result), Out = mask·grad/Σmask over
	// the dims Ints (none: all); In = [grad, self, result].
	ExecEvenlyBack ExecKind = "evenly_distribute_backward"
	// ExecVarBack is var_backward: Out = 2/(n − Scalars[0])·grad·(self −
	// mean(self, dims)); In = [grad, self], Ints = the dims (none: all).
	ExecVarBack ExecKind = "var_backward"
	// ExecStdBack is std_backward: var_backward of grad/(2·std) (0 where
	// std is 0), std recomputed from self; operands as ExecVarBack.
	ExecStdBack ExecKind = "std_backward"
	// ExecNormBack is norm_backward of order Scalars[0] (1, 2, inf): sgn(self)·
	// grad, grad·self/norm (0 where norm is 0), sgn(self)·grad·mask/Σmask
	// with mask = |self| == norm or NaN; norm recomputed from self; In =
	// [grad, self], Ints = the dims (none: all).
	ExecNormBack ExecKind = "norm_backward"
)

// gradValues allocates a gradient like gradLike (pointwiseOut of g and x:
// the same memory) and computes it as kind from ins when values are
// computed.
func (rt *Runtime) gradValues(op string, g, x *Tensor, kind ExecKind, ins []*Tensor, scalars []float64, ints []int64) (*Tensor, error) {
	out, err := rt.pointwiseOut(op, g.dtype, g, x)
	if err == nil && rt.exec != nil {
		rt.compute(kind, []*Tensor{out}, ins, scalars, ints)
	}
	return out, err
}

// reduceBackValues computes a reduction's backward into r from grad and the
// saved tensors idx of n (GPU runs only); r stays not computed when one is
// unavailable.
func (rt *Runtime) reduceBackValues(n *Node, r, g *Tensor, kind ExecKind, scalars []float64, ints []int64, idx ...int) {
	if rt.exec == nil || r == nil {
		return
	}
	ts, release, ok := rt.savedForValues(n, idx...)
	if !ok {
		rt.markNotComputed(r)
		return
	}
	defer release()
	rt.compute(kind, []*Tensor{r}, append([]*Tensor{g}, ts...), scalars, ints)
}

// copyDims is dims copied (nil stays nil: all dims).
func copyDims(dims []int64) []int64 {
	if dims == nil {
		return nil
	}
	return append([]int64{}, dims...)
}
