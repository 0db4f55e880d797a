package gpuexec

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
	"github.com/gpumem/playground/sim/torch"
)

// Integer tensors (int64, int32) compute in 64-bit integers
// (kernels.MapOpmathInt: fill, casts between them, neg, abs, add, sub,
// mul, affine) and sum in int64 on the host-free path below. The
// simulation hands scalars and literal values over as float64: an integer
// beyond 2^53 may already be rounded there, so such operands leave the
// result not computed rather than approximate.

// maxExactInt is 2^53: every integer of smaller magnitude is a float64.
const maxExactInt = 1 << 53

// exactInt reports whether v is an integer that float64 holds exactly
// as the script wrote it (|v| ≤ 2^53).
func exactInt(v float64) bool {
	return v == math.Trunc(v) && math.Abs(v) <= maxExactInt
}

// intScalarsOK reports whether the scalars of an integer map kernel are
// exact: integers of at most 2^53 in magnitude, for fill any value of at
// most 2^53 (a float fill truncates toward zero, as PyTorch's cast).
func intScalarsOK(op kernels.MapOp, in, out kernels.DType, s0, s1 float64) bool {
	if !kernels.MapOpmathInt(op, in, out) {
		return true
	}
	if op == "fill" {
		return math.Abs(s0) <= maxExactInt
	}
	if op == "clamp" { // a missing bound is ±inf (kernels.IntScalar)
		return (exactInt(s0) || math.IsInf(s0, -1)) && (exactInt(s1) || math.IsInf(s1, 1))
	}
	return exactInt(s0) && exactInt(s1)
}

// exactValues reports whether vals are exact for type t: int64 and int32
// values of at most 2^53 in magnitude (larger ones may have been rounded
// to float64 by the simulation).
func exactValues(t kernels.DType, vals []float64) bool {
	if t != kernels.I64 && t != kernels.I32 {
		return true
	}
	for _, v := range vals {
		if math.Abs(v) > maxExactInt || v != v {
			return false
		}
	}
	return true
}

// arangeInt64 is arange into int64: the generator kernel (float32, exact
// to 2^24) while every value is within 2^24, else computed on the host in
// int64, exact while start, step and the last value are within 2^53, or
// whatever they are when the model sent them exactly (ints = [start, step]:
// Python integers beyond 2^53), wrapping as PyTorch's int64 arithmetic.
// (Every value and product of the kernel is within 2^24 when
// |start| + n·|step| is.)
func (e *Executor) arangeInt64(k gpu.Kernels, out operand, n int64, start, step float64, ints []int64) error {
	if len(ints) == 2 && (!sameInt(start, ints[0]) || !sameInt(step, ints[1])) {
		vals := make([]int64, n)
		for i := range vals {
			vals[i] = ints[0] + int64(i)*ints[1]
		}
		return e.intValues(out, vals)
	}
	if !exactInt(start) || !exactInt(step) || !exactInt(start+float64(n)*step) {
		return errUnsupported("arange into int64 beyond 2^53 or fractional")
	}
	if math.Abs(start)+float64(n)*math.Abs(step) <= 1<<24 {
		return k.Random(kernels.RandArange, out.kt, out.addr, n, 0, 0, float32(start), float32(step))
	}
	vals := make([]float64, n)
	s, d := int64(start), int64(step)
	for i := range vals {
		vals[i] = float64(s + int64(i)*d)
	}
	return e.values(out, vals)
}

// ReadInts returns an integer or bool tensor's values in row-major order
// as int64, exactly (Read's float64 stops at 2^53): torch.IntReader, which
// print, .item() and .tolist() of integer tensors use.
func (e *Executor) ReadInts(t torch.ExecTensor) ([]int64, error) {
	if !e.computed[t.Storage] {
		return nil, torch.ErrNotComputed
	}
	o, err := e.resolve(t)
	if err != nil {
		return nil, err
	}
	if o.kt != kernels.I64 && o.kt != kernels.I32 && o.kt != kernels.B8 && !kernels.SmallInt(o.kt) {
		return nil, fmt.Errorf("gpuexec: ReadInts of a %s tensor", o.kt)
	}
	n := t.Numel()
	if n == 0 {
		return []int64{}, nil
	}
	lo, hi := span(o.shape, o.strides)
	size := o.kt.Size()
	raw := make([]byte, (hi-lo+1)*size)
	if o.cuda() {
		if err := e.dev.CopyFromDevice(raw, o.addr+uint64(lo*size)); err != nil {
			return nil, fmt.Errorf("gpuexec: reading a tensor: %w", err)
		}
	} else {
		b, err := e.host.Bytes(o.addr+uint64(lo*size), (hi-lo+1)*size)
		if err != nil {
			return nil, err
		}
		copy(raw, b)
	}
	out := make([]int64, n)
	idx := make([]int64, len(o.shape))
	for i := range out {
		off := -lo
		for d := range idx {
			off += idx[d] * o.strides[d]
		}
		b := raw[off*size:]
		switch o.kt {
		case kernels.I64:
			out[i] = int64(binary.LittleEndian.Uint64(b))
		case kernels.I32:
			out[i] = int64(int32(binary.LittleEndian.Uint32(b)))
		case kernels.U8, kernels.I8, kernels.I16:
			out[i] = smallValue(o.kt, b)
		default:
			out[i] = int64(b[0])
		}
		for d := len(idx) - 1; d >= 0; d-- {
			idx[d]++
			if idx[d] < o.shape[d] {
				break
			}
			idx[d] = 0
		}
	}
	return out, nil
}

// sameInt reports whether the float64 s is exactly the integer v (not v
// rounded: 2^53 + 1 arrives as 2^53).
func sameInt(s float64, v int64) bool { return exactInt(s) && int64(s) == v }

// isIntType reports an integer type: int64, int32, or the small ones
// (uint8, int8, int16).
func isIntType(t kernels.DType) bool {
	return t == kernels.I64 || t == kernels.I32 || kernels.SmallInt(t)
}

// exactIntScalars computes the integer ops whose scalars reach beyond
// 2^53: the model sends Python integers exactly in op.Ints (as long as
// op.Scalars) for fill, tensor literals (values), the scalar affine map
// (+, −, × by a number) and comparisons with a number. The float64
// scalars cannot carry them, so the number is uploaded as a one-element
// int64 operand that the tensor form of the op broadcasts (values are
// encoded on the host). It reports false when every scalar is exact in
// float64 (the usual path) or the op is none of these.
func (e *Executor) exactIntScalars(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) (done bool, err error) {
	if len(op.Ints) == 0 || len(op.Ints) != len(op.Scalars) {
		return false, nil
	}
	big := false
	for i, v := range op.Ints {
		big = big || !sameInt(op.Scalars[i], v)
	}
	if !big {
		return false, nil
	}
	inInt := len(ins) == 1 && isIntType(ins[0].kt)
	cmp := strings.TrimSuffix(string(op.Kind), "_scalar")
	switch {
	case op.Kind == torch.ExecValues && isIntType(out.kt):
		return true, e.intValues(out, op.Ints)
	case op.Kind == torch.ExecFill && isIntType(out.kt):
		return true, e.withIntScalars(k, out.cuda(), op.Ints[:1], func(c []operand) error {
			return e.mapPromoted(k, "copy", out, c, 0, 0)
		})
	case op.Kind == torch.ExecAffine && inInt && isIntType(out.kt) && len(op.Ints) == 2:
		return true, e.withIntScalars(k, out.cuda(), op.Ints, func(c []operand) error {
			if err := e.mapPromoted(k, "mul", out, []operand{ins[0], c[0]}, 0, 0); err != nil {
				return err
			}
			return e.mapPromoted(k, "add", out, []operand{out, c[1]}, 1, 0)
		})
	case cmp != string(op.Kind) && inInt && out.kt == kernels.B8:
		if _, ok := kernels.MapOpByName(kernels.MapOp(cmp)); !ok {
			return false, nil
		}
		return true, e.withIntScalars(k, out.cuda(), op.Ints[:1], func(c []operand) error {
			return e.mapPromoted(k, kernels.MapOp(cmp), out, []operand{ins[0], c[0]}, 0, 0)
		})
	}
	return false, nil
}

// withIntScalars runs f with vals as 0-dim int64 operands on the device
// (cuda) or the host, freed after f's kernels are done.
func (e *Executor) withIntScalars(k gpu.Kernels, cuda bool, vals []int64, f func([]operand) error) (err error) {
	t, err := e.tempAlloc(cuda, int64(8*len(vals)))
	if err != nil {
		return err
	}
	defer func() {
		if serr := e.syncIf(cuda); err == nil {
			err = serr
		}
		if ferr := e.tempFree(t); err == nil {
			err = ferr
		}
	}()
	raw := make([]byte, 8*len(vals))
	ops := make([]operand, len(vals))
	for i, v := range vals {
		binary.LittleEndian.PutUint64(raw[8*i:], uint64(v))
		ops[i] = tempOperand(temp{t.addr + uint64(8*i), 8, cuda}, kernels.I64, []int64{})
	}
	if cuda {
		err = e.dev.CopyToDevice(t.addr, raw)
	} else {
		var b []byte
		if b, err = e.host.Bytes(t.addr, int64(len(raw))); err == nil {
			copy(b, raw)
		}
	}
	if err != nil {
		return err
	}
	return f(ops)
}

// intValues is values for integer literals read exactly: the int64s (an
// int32 output keeps the low 32 bits) staged as a contiguous int64 tensor
// and copied into out.
func (e *Executor) intValues(out operand, vals []int64) error {
	n := numel(out.shape)
	if int64(len(vals)) != n {
		return fmt.Errorf("gpuexec: %d values for %d elements", len(vals), n)
	}
	if n == 0 {
		return nil
	}
	return e.withIntScalars(e.kern(out.cuda()), out.cuda(), vals, func(c []operand) error {
		src := c[0]
		src.shape, src.strides = out.shape, contiguousStrides(out.shape)
		return e.mapPromoted(e.kern(out.cuda()), "copy", out, []operand{src}, 0, 0)
	})
}
