package gpuexec

import (
	"fmt"
	"math"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
	"github.com/gpumem/playground/sim/torch"
)

// The reductions of the pointwise family: sum/mean over any dims, max/min
// with indices, argmax/argmin, var/std and norm. Each lays its input out
// as rows (kept dims outer, reduced dims inner), through a contiguous
// scratch copy when the dims do not merge into that form.

// reducedDims marks the dims of a rank-r tensor that dims (an ExecOp's
// Ints; none: all) reduce.
func reducedDims(kind torch.ExecKind, dims []int64, r int) ([]bool, error) {
	red := make([]bool, r)
	if len(dims) == 0 {
		for d := range red {
			red[d] = true
		}
	}
	for _, d := range dims {
		if d < 0 {
			d += int64(r)
		}
		if d < 0 || d >= int64(r) {
			return nil, fmt.Errorf("gpuexec: %s over dim %d of a %d-d tensor", kind, d, r)
		}
		red[d] = true
	}
	return red, nil
}

// reduction is an input laid out as rows: rows.Count() rows (the kept
// dims, row-major) of rows.Inner elements of type kt at addr.
type reduction struct {
	addr uint64
	kt   kernels.DType
	rows gpu.Rows
	// flat is set when the rows are a contiguous [Count, Inner] scratch
	// the caller may overwrite.
	flat bool
}

// asRows lays in out as rows for the reduction over red, in type acc.
// With flat, or when the dims do not merge or in's type is not acc, in is
// copied into a contiguous scratch (kept dims first) added to *temps.
func (e *Executor) asRows(k gpu.Kernels, in operand, red []bool, acc kernels.DType, flat bool, temps *[]temp) (reduction, error) {
	var oShape, oSt, iShape, iSt []int64
	for d := range in.shape {
		if red[d] {
			iShape, iSt = append(iShape, in.shape[d]), append(iSt, in.strides[d])
		} else {
			oShape, oSt = append(oShape, in.shape[d]), append(oSt, in.strides[d])
		}
	}
	ics, icst := collapse(iShape, [][]int64{iSt})
	ocs, ocst := collapse(oShape, [][]int64{oSt})
	if !flat && in.kt == acc && len(ics) <= 1 && len(ocs) <= 3 {
		rows := gpu.Rows{Outer: [3]int64{1, 1, 1}, Inner: 1}
		if len(ics) == 1 {
			rows.Inner, rows.InnerStride = ics[0], icst[0][0]
		}
		if numel(iShape) == 0 {
			rows.Inner = 0
		}
		pad := 3 - len(ocs)
		copy(rows.Outer[pad:], ocs)
		copy(rows.OuterStrides[pad:], ocst[0])
		return reduction{addr: in.addr, kt: acc, rows: rows}, nil
	}
	shape := append(append([]int64{}, oShape...), iShape...)
	strides := append(append([]int64{}, oSt...), iSt...)
	kk, rr := numel(oShape), numel(iShape)
	t, err := e.tempAlloc(in.cuda(), kk*rr*acc.Size())
	if err != nil {
		return reduction{}, err
	}
	*temps = append(*temps, t)
	src := in
	src.shape, src.strides = shape, strides
	if err := e.mapOp(k, "copy", tempOperand(t, acc, shape), []operand{src}, 0, 0); err != nil {
		return reduction{}, err
	}
	return reduction{addr: t.addr, kt: acc, flat: true,
		rows: gpu.Rows{Outer: [3]int64{1, 1, kk}, OuterStrides: [3]int64{0, 0, rr}, Inner: rr, InnerStride: 1}}, nil
}

// operand is the rows as a contiguous [Count, Inner] operand (flat only).
func (r reduction) operand(cuda bool) operand {
	shape := []int64{r.rows.Count(), r.rows.Inner}
	return operand{t: torch.ExecTensor{CUDA: cuda}, kt: r.kt, addr: r.addr, shape: shape, strides: contiguousStrides(shape)}
}

// withTemps runs fn with a scratch list freed (after the device's work)
// when it returns.
func (e *Executor) withTemps(fn func(temps *[]temp) error) (err error) {
	var temps []temp
	defer func() {
		if ferr := e.freeTemps(temps); err == nil {
			err = ferr
		}
	}()
	return fn(&temps)
}

// scratch allocates a contiguous operand of shape and type kt in *temps.
func (e *Executor) scratch(cuda bool, kt kernels.DType, shape []int64, temps *[]temp) (operand, error) {
	t, err := e.tempAlloc(cuda, numel(shape)*kt.Size())
	if err != nil {
		return operand{}, err
	}
	*temps = append(*temps, t)
	return tempOperand(t, kt, shape), nil
}

// intoOut runs fn into out when out is contiguous of type acc, else into
// a scratch of type acc copied (converted) into out afterwards.
func (e *Executor) intoOut(k gpu.Kernels, out operand, acc kernels.DType, temps *[]temp, fn func(dst operand) error) error {
	if out.kt == acc && contiguous(out.shape, out.strides) {
		return fn(out)
	}
	r, err := e.scratch(out.cuda(), acc, out.shape, temps)
	if err != nil {
		return err
	}
	if err := fn(r); err != nil {
		return err
	}
	return e.mapOp(k, "copy", out, []operand{r}, 0, 0)
}

// floatAcc is the type a reduction of t accumulates in: t for the float
// types, f32 for int64 and bool.
func floatAcc(t kernels.DType) kernels.DType {
	switch t {
	case kernels.F32, kernels.F16, kernels.BF16:
		return t
	}
	return kernels.F32
}

// sumAcc is the type sum/mean into t accumulate in: float64 in float64
// (reduce_rows_f64, as PyTorch's double sums), int64 in int64
// (reduce_rows_s64: PyTorch sums integers and bools into int64 exactly),
// else floatAcc(t).
func sumAcc(t kernels.DType) kernels.DType {
	if t == kernels.F64 || t == kernels.I64 {
		return t
	}
	return floatAcc(t)
}

// reducePromoted is sum/mean over the dims in op.Ints (all if none), into
// out of any type (sumAcc: an int64 output sums in int64), an output of
// another type than the accumulation gets a converted copy.
func (e *Executor) reducePromoted(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) error {
	if len(ins) != 1 {
		return fmt.Errorf("gpuexec: %s takes 1 input", op.Kind)
	}
	in := ins[0]
	red, err := reducedDims(op.Kind, op.Ints, len(in.shape))
	if err != nil {
		return err
	}
	acc := sumAcc(out.kt)
	if acc == kernels.I64 && op.Kind == torch.ExecMean {
		return errUnsupported("mean into int64")
	}
	return e.withTemps(func(temps *[]temp) error {
		r, err := e.asRows(k, in, red, acc, false, temps)
		if err != nil {
			return err
		}
		if r.rows.Count() != numel(out.shape) {
			return errUnsupported("%s output shape %v for input %v", op.Kind, out.shape, in.shape)
		}
		return e.intoOut(k, out, acc, temps, func(dst operand) error {
			if r.rows.Inner == 0 { // the sum over nothing; the mean of nothing is NaN
				v := float32(0)
				if op.Kind == torch.ExecMean {
					v = float32(math.NaN())
				}
				return e.mapOp(k, "fill", dst, nil, v, 0)
			}
			scale := 1.0
			if op.Kind == torch.ExecMean {
				scale = 1 / float64(r.rows.Inner)
			}
			return k.ReduceRows(acc, dst.addr, r.addr, scale, r.rows)
		})
	})
}

// pick is max/min (values and, for the _dim kinds, indices), amax/amin
// and argmax/argmin over op.Ints.
func (e *Executor) pick(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) error {
	if len(ins) != 1 {
		return fmt.Errorf("gpuexec: %s takes 1 input", op.Kind)
	}
	in := ins[0]
	mode := kernels.PickMax
	switch op.Kind {
	case torch.ExecMinAll, torch.ExecMinDim, torch.ExecArgmin:
		mode = kernels.PickMin
	}
	if in.kt != floatAcc(in.kt) && in.kt != kernels.F64 && !isIntType(in.kt) { // integers: compared in int64
		return errUnsupported("%s of %s", op.Kind, in.kt)
	}
	red, err := reducedDims(op.Kind, op.Ints, len(in.shape))
	if err != nil {
		return err
	}
	var val, idx uint64
	outs := []operand{out}
	switch op.Kind {
	case torch.ExecArgmax, torch.ExecArgmin:
		if out.kt != kernels.I64 {
			return errUnsupported("%s into %s", op.Kind, out.kt)
		}
		idx = out.addr
	case torch.ExecMaxDim, torch.ExecMinDim:
		if len(op.Out) != 2 {
			return fmt.Errorf("gpuexec: %s takes values and indices", op.Kind)
		}
		io, err := e.resolve(op.Out[1])
		if err != nil {
			return err
		}
		if io.kt != kernels.I64 || out.kt != in.kt {
			return errUnsupported("%s into %s and %s", op.Kind, out.kt, io.kt)
		}
		val, idx = out.addr, io.addr
		outs = append(outs, io)
	default:
		if out.kt != in.kt {
			return errUnsupported("%s into %s", op.Kind, out.kt)
		}
		val = out.addr
	}
	for _, o := range outs {
		if !contiguous(o.shape, o.strides) {
			return errUnsupported("%s into a non-contiguous tensor", op.Kind)
		}
	}
	return e.withTemps(func(temps *[]temp) error {
		r, err := e.asRows(k, in, red, in.kt, false, temps)
		if err != nil {
			return err
		}
		if r.rows.Inner == 0 || r.rows.Count() != numel(out.shape) {
			return errUnsupported("%s of shape %v into %v", op.Kind, in.shape, out.shape)
		}
		return k.Pick(mode, in.kt, val, idx, r.addr, r.rows)
	})
}

// moments is var/std over op.Ints with the correction Scalars[0]:
// Σ(x − mean)² / max(0, n − correction) (two passes in f32), std its
// square root.
func (e *Executor) moments(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) error {
	if len(ins) != 1 || len(op.Scalars) < 1 {
		return fmt.Errorf("gpuexec: %s takes 1 input and a correction", op.Kind)
	}
	in := ins[0]
	if (in.kt != floatAcc(in.kt) && in.kt != kernels.F64) || out.kt != in.kt {
		return errUnsupported("%s of %s into %s", op.Kind, in.kt, out.kt)
	}
	red, err := reducedDims(op.Kind, op.Ints, len(in.shape))
	if err != nil {
		return err
	}
	acc := redAcc(in.kt)
	return e.withTemps(func(temps *[]temp) error {
		r, err := e.asRows(k, in, red, acc, true, temps)
		if err != nil {
			return err
		}
		n := r.rows.Inner
		if r.rows.Count() != numel(out.shape) || n == 0 {
			return errUnsupported("%s of shape %v into %v", op.Kind, in.shape, out.shape)
		}
		rows := r.operand(in.cuda())
		mean, err := e.scratch(in.cuda(), acc, []int64{r.rows.Count(), 1}, temps)
		if err != nil {
			return err
		}
		if err := k.ReduceRows(acc, mean.addr, r.addr, opScale(acc, 1/float64(n)), r.rows); err != nil {
			return err
		}
		if err := e.mapOp(k, "sub", rows, []operand{rows, mean}, 1, 0); err != nil {
			return err
		}
		if err := e.mapOp(k, "square", rows, []operand{rows}, 0, 0); err != nil {
			return err
		}
		scale := opScale(acc, 1/math.Max(0, float64(n)-op.Scalars[0]))
		return e.intoOut(k, out, acc, temps, func(dst operand) error {
			if err := k.ReduceRows(acc, dst.addr, r.addr, scale, r.rows); err != nil {
				return err
			}
			if op.Kind == torch.ExecStd {
				return e.mapOp(k, "sqrt", dst, []operand{dst}, 0, 0)
			}
			return nil
		})
	})
}

// norm is the vector norm of order Scalars[0] (1, 2 or inf) over op.Ints:
// Σ|x|, √Σx² or max|x|, accumulated in f32.
func (e *Executor) norm(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) error {
	if len(ins) != 1 || len(op.Scalars) < 1 {
		return fmt.Errorf("gpuexec: norm takes 1 input and an order")
	}
	in, p := ins[0], op.Scalars[0]
	if p != 1 && p != 2 && !math.IsInf(p, 1) {
		return errUnsupported("norm of order %v", p)
	}
	if (out.kt != floatAcc(out.kt) && out.kt != kernels.F64) || (in.kt == kernels.F64) != (out.kt == kernels.F64) {
		return errUnsupported("norm of %s into %s", in.kt, out.kt)
	}
	red, err := reducedDims(op.Kind, op.Ints, len(in.shape))
	if err != nil {
		return err
	}
	acc := redAcc(out.kt)
	return e.withTemps(func(temps *[]temp) error {
		r, err := e.asRows(k, in, red, acc, true, temps)
		if err != nil {
			return err
		}
		if r.rows.Count() != numel(out.shape) {
			return errUnsupported("norm of shape %v into %v", in.shape, out.shape)
		}
		rows := r.operand(in.cuda())
		f := kernels.MapOp("abs")
		if p == 2 {
			f = "square"
		}
		if err := e.mapOp(k, f, rows, []operand{rows}, 0, 0); err != nil {
			return err
		}
		return e.intoOut(k, out, acc, temps, func(dst operand) error {
			if r.rows.Inner == 0 {
				return e.mapOp(k, "fill", dst, nil, 0, 0)
			}
			if math.IsInf(p, 1) {
				return k.Pick(kernels.PickMax, acc, dst.addr, 0, r.addr, r.rows)
			}
			if err := k.ReduceRows(acc, dst.addr, r.addr, 1, r.rows); err != nil {
				return err
			}
			if p == 2 {
				return e.mapOp(k, "sqrt", dst, []operand{dst}, 0, 0)
			}
			return nil
		})
	})
}

// allAny is all()/any() over every element: (x != 0) as f32 in a scratch,
// its min (all) or max (any) by the pick kernel, stored into the bool out
// (non-zero → True). An empty input gives True for all, False for any.
func (e *Executor) allAny(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) error {
	if len(ins) != 1 {
		return fmt.Errorf("gpuexec: %s takes 1 input", op.Kind)
	}
	if (out.kt != kernels.B8 && out.kt != kernels.U8) || len(out.shape) != 0 { // uint8 gives uint8
		return errUnsupported("%s into %s %v", op.Kind, out.kt, out.shape)
	}
	in := ins[0]
	if numel(in.shape) == 0 {
		v := float32(0)
		if op.Kind == torch.ExecAll {
			v = 1
		}
		return e.mapOp(k, "fill", out, nil, v, 0)
	}
	return e.withTemps(func(temps *[]temp) error {
		nz, err := e.scratch(in.cuda(), kernels.B8, in.shape, temps)
		if err != nil {
			return err
		}
		if err := e.mapPromoted(k, "ne_scalar", nz, []operand{in}, 0, 0); err != nil {
			return err
		}
		f, err := e.scratch(in.cuda(), kernels.F32, in.shape, temps)
		if err != nil {
			return err
		}
		if err := e.mapOp(k, "copy", f, []operand{nz}, 0, 0); err != nil {
			return err
		}
		r, err := e.scratch(in.cuda(), kernels.F32, nil, temps)
		if err != nil {
			return err
		}
		kind := torch.ExecMaxAll
		if op.Kind == torch.ExecAll {
			kind = torch.ExecMinAll
		}
		if err := e.pick(k, &torch.ExecOp{Kind: kind, Out: []torch.ExecTensor{r.t}}, r, []operand{f}); err != nil {
			return err
		}
		return e.mapOp(k, "copy", out, []operand{r}, 0, 0)
	})
}
