package gpuexec

import (
	"math"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
	"github.com/gpumem/playground/sim/torch"
)

// The backwards of the reductions (sim/torch/exec_reduce_back.go's kinds),
// composed of map kernels, row sums and the reductions themselves over f32
// scratch, following PyTorch's FunctionsManual.cpp formulas
// (value_selecting_reduction_backward, evenly_distribute_backward,
// scale_grad_by_count, var_backward, std_backward, norm_backward).

// reduceBackward computes the kinds above; done is false for other kinds.
func (e *Executor) reduceBackward(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) (done bool, err error) {
	switch op.Kind {
	case torch.ExecSelectBack, torch.ExecEvenlyBack, torch.ExecVarBack, torch.ExecStdBack, torch.ExecNormBack:
	default:
		return false, nil
	}
	want := map[torch.ExecKind]int{torch.ExecSelectBack: 2, torch.ExecEvenlyBack: 3}[op.Kind]
	if want == 0 {
		want = 2
	}
	if len(ins) != want || (op.Kind != torch.ExecSelectBack && len(op.Scalars) < 1) {
		return true, errUnsupported("%s with %d inputs", op.Kind, len(ins))
	}
	if (out.kt != floatAcc(out.kt) && out.kt != kernels.F64) || op.Kind != torch.ExecSelectBack && !sameShape(out.shape, ins[1].shape) {
		return true, errUnsupported("%s into %s %v", op.Kind, out.kt, out.shape)
	}
	e.bwAcc = redAcc(out.kt)
	defer func() { e.bwAcc = "" }()
	red, err := reducedDims(op.Kind, op.Ints, len(out.shape))
	if err != nil {
		return true, errUnsupported("%v", err)
	}
	if op.Kind == torch.ExecSelectBack && len(op.Ints) != 1 {
		return true, errUnsupported("%s over %d dims", op.Kind, len(op.Ints))
	}
	grad, ok := keepRank(ins[0], red)
	if !ok {
		return true, errUnsupported("%s: grad %v for input %v", op.Kind, ins[0].shape, out.shape)
	}
	return true, e.withTemps(func(temps *[]temp) error {
		switch op.Kind {
		case torch.ExecSelectBack:
			return e.selectBack(k, out, grad, ins[1], red, temps)
		case torch.ExecEvenlyBack:
			return e.evenlyBack(k, out, grad, ins[1], ins[2], red, op.Scalars[0] != 0, temps)
		case torch.ExecVarBack:
			return e.varBack(k, out, grad, ins[1], red, op.Scalars[0], temps)
		case torch.ExecStdBack:
			return e.stdBack(k, op, out, grad, ins[1], red, temps)
		}
		return e.normBack(k, op, out, grad, ins[1], red, temps)
	})
}

// keepRank gives x (a reduction's grad, result or indices) the rank of the
// reduced tensor: the reduced dims it lacks (keepdim=False) are inserted
// with size 1 (PyTorch's unsqueeze_multiple / restore_reduced_dims).
func keepRank(x operand, red []bool) (operand, bool) {
	nred := 0
	for _, r := range red {
		if r {
			nred++
		}
	}
	switch len(x.shape) {
	case len(red):
		return x, true
	case len(red) - nred:
	default:
		return x, false
	}
	shape, strides := make([]int64, len(red)), make([]int64, len(red))
	j := 0
	for d, r := range red {
		if r {
			shape[d] = 1
			continue
		}
		shape[d], strides[d] = x.shape[j], x.strides[j]
		j++
	}
	x.shape, x.strides = shape, strides
	return x, true
}

// keptShape is shape with the reduced dims set to 1 (keepdim=True).
func keptShape(shape []int64, red []bool) []int64 {
	out := append([]int64{}, shape...)
	for d, r := range red {
		if r {
			out[d] = 1
		}
	}
	return out
}

// accOf computes op (a map operator) over ins into a new scratch of shape
// in the backward's accumulate type (f32, or float64 for float64), the
// inputs converted to it first.
func (e *Executor) accOf(k gpu.Kernels, op kernels.MapOp, shape []int64, ins []operand, s0, s1 float64, temps *[]temp) (operand, error) {
	r, err := e.scratch(ins[0].cuda(), e.acc(), shape, temps)
	if err != nil {
		return operand{}, err
	}
	return r, e.mapPromoted(k, op, r, ins, opScale(r.kt, s0), opScale(r.kt, s1))
}

// acc is the accumulate type of the reduction backward that runs: bwAcc
// (set by reduceBackward) or f32.
func (e *Executor) acc() kernels.DType {
	if e.bwAcc == kernels.F64 {
		return kernels.F64
	}
	return kernels.F32
}

// boolOf computes a comparison (or logical op) over ins into a new bool
// scratch of shape.
func (e *Executor) boolOf(k gpu.Kernels, op kernels.MapOp, shape []int64, ins []operand, s0 float32, temps *[]temp) (operand, error) {
	r, err := e.scratch(ins[0].cuda(), kernels.B8, shape, temps)
	if err != nil {
		return operand{}, err
	}
	return r, e.mapOp(k, op, r, ins, s0, 0)
}

// rowSum sums x (an f32 scratch) over the dims red into a new f32 scratch
// of the kept shape (sum(dims, keepdim=True)).
func (e *Executor) rowSum(k gpu.Kernels, x operand, red []bool, temps *[]temp) (operand, error) {
	r, err := e.asRows(k, x, red, e.acc(), false, temps)
	if err != nil {
		return operand{}, err
	}
	s, err := e.scratch(x.cuda(), e.acc(), keptShape(x.shape, red), temps)
	if err != nil {
		return operand{}, err
	}
	if r.rows.Inner == 0 {
		return s, e.mapOp(k, "fill", s, nil, 0, 0)
	}
	return s, k.ReduceRows(e.acc(), s.addr, r.addr, 1, r.rows)
}

// selectBack is value_selecting_reduction_backward: grad where the
// position along the dim equals the index, else 0 (zeros().scatter()).
func (e *Executor) selectBack(k gpu.Kernels, out, grad, idx operand, red []bool, temps *[]temp) error {
	idx, ok := keepRank(idx, red)
	if !ok || idx.kt != kernels.I64 || grad.kt != out.kt {
		return errUnsupported("max/min backward: indices %s %v, grad %s", idx.kt, idx.shape, grad.kt)
	}
	dim := 0
	for d, r := range red {
		if r {
			dim = d
		}
	}
	n := out.shape[dim]
	ar, err := e.scratch(out.cuda(), kernels.I64, []int64{max(n, 1)}, temps)
	if err != nil {
		return err
	}
	if err := k.Random(kernels.RandArange, kernels.I64, ar.addr, n, 0, 0, 0, 1); err != nil {
		return err
	}
	ar.shape, ar.strides = make([]int64, len(out.shape)), make([]int64, len(out.shape))
	for d := range ar.shape {
		ar.shape[d] = 1
	}
	ar.shape[dim], ar.strides[dim] = n, 1
	mask, err := e.boolOf(k, "eq", out.shape, []operand{ar, idx}, 0, temps)
	if err != nil {
		return err
	}
	return e.mapOp(k, "masked_keep", out, []operand{grad, mask}, 0, 0)
}

// evenlyBack is mask·(grad / Σmask) with mask = (self == result), or NaN
// in both when nanEq (evenly_distribute_backward on CUDA; amax/amin's
// scale_grad_by_count without it).
func (e *Executor) evenlyBack(k gpu.Kernels, out, grad, self, result operand, red []bool, nanEq bool, temps *[]temp) error {
	res, ok := keepRank(result, red)
	if !ok || res.kt != self.kt {
		return errUnsupported("max/min backward: result %s %v", result.kt, result.shape)
	}
	mask, err := e.boolOf(k, "eq", self.shape, []operand{self, res}, 0, temps)
	if err != nil {
		return err
	}
	if nanEq {
		n1, err := e.boolOf(k, "isnan", self.shape, []operand{self}, 0, temps)
		if err != nil {
			return err
		}
		n2, err := e.boolOf(k, "isnan", self.shape, []operand{res}, 0, temps)
		if err != nil {
			return err
		}
		if err := e.mapOp(k, "logical_and", n1, []operand{n1, n2}, 0, 0); err != nil {
			return err
		}
		if err := e.mapOp(k, "logical_or", mask, []operand{mask, n1}, 0, 0); err != nil {
			return err
		}
	}
	return e.maskedShare(k, out, grad, mask, nil, red, temps)
}

// maskedShare writes sgn·mask·(grad / Σmask) into out (sgn optional): the
// gradient shared by the positions mask selects in each reduced row.
func (e *Executor) maskedShare(k gpu.Kernels, out, grad, mask operand, sgn *operand, red []bool, temps *[]temp) error {
	mf, err := e.accOf(k, "copy", mask.shape, []operand{mask}, 0, 0, temps)
	if err != nil {
		return err
	}
	cnt, err := e.rowSum(k, mf, red, temps)
	if err != nil {
		return err
	}
	q, err := e.accOf(k, "div", cnt.shape, []operand{grad, cnt}, 0, 0, temps)
	if err != nil {
		return err
	}
	return e.intoOut(k, out, e.acc(), temps, func(dst operand) error {
		if err := e.mapOp(k, "mul", dst, []operand{mf, q}, 0, 0); err != nil {
			return err
		}
		if sgn == nil {
			return nil
		}
		return e.mapOp(k, "mul", dst, []operand{*sgn, dst}, 0, 0)
	})
}

// varBack is var_backward: 2/(n − correction)·grad·(self − mean(self)).
func (e *Executor) varBack(k gpu.Kernels, out, grad, self operand, red []bool, correction float64, temps *[]temp) error {
	n := int64(1)
	for d, r := range red {
		if r {
			n *= self.shape[d]
		}
	}
	sf, err := e.accOf(k, "copy", self.shape, []operand{self}, 0, 0, temps)
	if err != nil {
		return err
	}
	mean, err := e.rowSum(k, sf, red, temps)
	if err != nil {
		return err
	}
	if err := e.mapOp64(k, "affine", mean, []operand{mean}, opScale(mean.kt, 1/float64(n)), 0); err != nil {
		return err
	}
	scale := 2 / (float64(n) - correction)
	g, err := e.accOf(k, "affine", grad.shape, []operand{grad}, scale, 0, temps)
	if err != nil {
		return err
	}
	if err := e.mapOp(k, "sub", sf, []operand{sf, mean}, 1, 0); err != nil {
		return err
	}
	return e.intoOut(k, out, e.acc(), temps, func(dst operand) error {
		return e.mapOp(k, "mul", dst, []operand{g, sf}, 0, 0)
	})
}

// stdBack is std_backward: var_backward of grad/(2·std), 0 where std is 0;
// std is recomputed from self in self's type (PyTorch saves the result).
func (e *Executor) stdBack(k gpu.Kernels, op *torch.ExecOp, out, grad, self operand, red []bool, temps *[]temp) error {
	std, err := e.scratch(self.cuda(), self.kt, keptShape(self.shape, red), temps)
	if err != nil {
		return err
	}
	sop := &torch.ExecOp{Kind: torch.ExecStd, Scalars: op.Scalars[:1], Ints: op.Ints}
	if err := e.moments(k, sop, std, []operand{self}); err != nil {
		return err
	}
	s2, err := e.accOf(k, "affine", std.shape, []operand{std}, 2, 0, temps)
	if err != nil {
		return err
	}
	gv, err := e.accOf(k, "div", std.shape, []operand{grad, s2}, 0, 0, temps)
	if err != nil {
		return err
	}
	zero, err := e.boolOf(k, "eq_scalar", std.shape, []operand{std}, 0, temps)
	if err != nil {
		return err
	}
	if err := e.mapOp(k, "masked_fill", gv, []operand{gv, zero}, 0, 0); err != nil {
		return err
	}
	return e.varBack(k, out, gv, self, red, op.Scalars[0], temps)
}

// normBack is norm_backward of order 1, 2 or inf, the norm recomputed from
// self in self's type (PyTorch saves the result).
func (e *Executor) normBack(k gpu.Kernels, op *torch.ExecOp, out, grad, self operand, red []bool, temps *[]temp) error {
	p := op.Scalars[0]
	if p != 1 && p != 2 && !math.IsInf(p, 1) {
		return errUnsupported("norm backward of order %v", p)
	}
	if p == 1 {
		sg, err := e.accOf(k, "sgn", self.shape, []operand{self}, 0, 0, temps)
		if err != nil {
			return err
		}
		return e.intoOut(k, out, e.acc(), temps, func(dst operand) error {
			return e.mapPromoted(k, "mul", dst, []operand{sg, grad}, 0, 0)
		})
	}
	nv, err := e.scratch(self.cuda(), self.kt, keptShape(self.shape, red), temps)
	if err != nil {
		return err
	}
	if err := e.norm(k, &torch.ExecOp{Kind: torch.ExecNorm, Scalars: []float64{p}, Ints: op.Ints}, nv, []operand{self}); err != nil {
		return err
	}
	if p == 2 {
		r, err := e.accOf(k, "div", self.shape, []operand{self, nv}, 0, 0, temps)
		if err != nil {
			return err
		}
		zero, err := e.boolOf(k, "eq_scalar", nv.shape, []operand{nv}, 0, temps)
		if err != nil {
			return err
		}
		if err := e.mapOp(k, "masked_fill", r, []operand{r, zero}, 0, 0); err != nil {
			return err
		}
		return e.intoOut(k, out, e.acc(), temps, func(dst operand) error {
			return e.mapPromoted(k, "mul", dst, []operand{grad, r}, 0, 0)
		})
	}
	a, err := e.accOf(k, "abs", self.shape, []operand{self}, 0, 0, temps)
	if err != nil {
		return err
	}
	nf, err := e.accOf(k, "copy", nv.shape, []operand{nv}, 0, 0, temps)
	if err != nil {
		return err
	}
	mask, err := e.boolOf(k, "eq", self.shape, []operand{a, nf}, 0, temps)
	if err != nil {
		return err
	}
	nan, err := e.boolOf(k, "isnan", self.shape, []operand{a}, 0, temps)
	if err != nil {
		return err
	}
	if err := e.mapOp(k, "logical_or", mask, []operand{mask, nan}, 0, 0); err != nil {
		return err
	}
	sg, err := e.accOf(k, "sgn", self.shape, []operand{self}, 0, 0, temps)
	if err != nil {
		return err
	}
	return e.maskedShare(k, out, grad, mask, &sg, red, temps)
}
