package gpuexec

import (
	"encoding/binary"
	"math"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
)

func numel(shape []int64) int64 {
	n := int64(1)
	for _, s := range shape {
		n *= s
	}
	return n
}

// contiguous reports row-major layout (size-1 dimensions ignored).
func contiguous(shape, strides []int64) bool {
	want := int64(1)
	for d := len(shape) - 1; d >= 0; d-- {
		if shape[d] == 1 {
			continue
		}
		if strides[d] != want {
			return false
		}
		want *= shape[d]
	}
	return true
}

func contiguousStrides(shape []int64) []int64 {
	st := make([]int64, len(shape))
	acc := int64(1)
	for d := len(shape) - 1; d >= 0; d-- {
		st[d] = acc
		acc *= max(shape[d], 1)
	}
	return st
}

// span is the lowest and highest element offset a view touches.
func span(shape, strides []int64) (lo, hi int64) {
	for d, s := range shape {
		if s == 0 {
			return 0, -1
		}
		ext := (s - 1) * strides[d]
		if ext < 0 {
			lo += ext
		} else {
			hi += ext
		}
	}
	return lo, hi
}

// decode reads one element.
func decode(t kernels.DType, b []byte) float64 {
	switch t {
	case kernels.F32:
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
	case kernels.F16:
		return float64(kernels.F16ToF32(binary.LittleEndian.Uint16(b)))
	case kernels.BF16:
		return float64(kernels.BF16ToF32(binary.LittleEndian.Uint16(b)))
	case kernels.I64:
		return float64(int64(binary.LittleEndian.Uint64(b)))
	case kernels.B8:
		return float64(b[0])
	case kernels.F64:
		return math.Float64frombits(binary.LittleEndian.Uint64(b))
	case kernels.I32:
		return float64(int32(binary.LittleEndian.Uint32(b)))
	case kernels.U8, kernels.I8, kernels.I16:
		return float64(smallValue(t, b))
	}
	return math.NaN()
}

// broadcastStrides aligns an operand to shape (right-aligned): dimensions
// it lacks or has as 1 get stride 0. ok is false if it does not broadcast.
func broadcastStrides(shape, inShape, inStrides []int64) ([]int64, bool) {
	out := make([]int64, len(shape))
	off := len(shape) - len(inShape)
	if off < 0 {
		return nil, false
	}
	for d := range inShape {
		switch {
		case inShape[d] == shape[off+d]:
			out[off+d] = inStrides[d]
		case inShape[d] == 1:
			out[off+d] = 0
		default:
			return nil, false
		}
	}
	return out, true
}

// collapse merges the dimensions of shape that every operand walks as one
// (stride[d] == stride[d+1]·shape[d+1]) and drops size-1 dimensions. It
// returns the merged shape and each operand's strides, outermost first.
func collapse(shape []int64, strides [][]int64) ([]int64, [][]int64) {
	var cs []int64
	cst := make([][]int64, len(strides))
	for d := range shape {
		if shape[d] == 1 {
			continue
		}
		if n := len(cs); n > 0 {
			merge := true
			for i := range strides {
				if cst[i][n-1] != strides[i][d]*shape[d] {
					merge = false
					break
				}
			}
			if merge {
				cs[n-1] *= shape[d]
				for i := range strides {
					cst[i][n-1] = strides[i][d]
				}
				continue
			}
		}
		cs = append(cs, shape[d])
		for i := range strides {
			cst[i] = append(cst[i], strides[i][d])
		}
	}
	return cs, cst
}

// launchShape pads a collapsed shape to the kernels' rank; ok is false if
// it has more dimensions than they index.
func launchShape(shape []int64, strides [][]int64) (gpu.Shape, []gpu.Strided, bool) {
	var sh gpu.Shape
	ops := make([]gpu.Strided, len(strides))
	if len(shape) > kernels.MaxRank {
		return sh, nil, false
	}
	pad := kernels.MaxRank - len(shape)
	for d := 0; d < pad; d++ {
		sh[d] = 1
	}
	copy(sh[pad:], shape)
	for i := range strides {
		copy(ops[i].Strides[pad:], strides[i])
	}
	return sh, ops, true
}

// mapOp launches a map operator over out's shape, the inputs broadcast.
// Only copy converts between types.
func (e *Executor) mapOp(k gpu.Kernels, op kernels.MapOp, out operand, ins []operand, s0, s1 float32) error {
	return e.mapOp64(k, op, out, ins, float64(s0), float64(s1))
}

// mapOp64 is mapOp with float64 scalars: exact for the kernels that
// compute in float64 (kernels.MapOpmath64), rounded to float32 otherwise.
func (e *Executor) mapOp64(k gpu.Kernels, op kernels.MapOp, out operand, ins []operand, s0, s1 float64) error {
	info, ok := kernels.MapOpByName(op)
	if !ok || len(ins) != info.Ins {
		return errUnsupported("no map operator %s with %d inputs", op, len(ins))
	}
	in := out.kt
	first := true
	strides := [][]int64{out.strides}
	for i, x := range ins {
		st, ok := broadcastStrides(out.shape, x.shape, x.strides)
		if !ok {
			return errUnsupported("%s: shape %v does not broadcast to %v", op, x.shape, out.shape)
		}
		switch f, fixed := info.Fixed[i]; {
		case fixed && x.kt != f:
			return errUnsupported("%s: input %d is %s, want %s", op, i, x.kt, f)
		case fixed:
		case first:
			in, first = x.kt, false
		case x.kt != in:
			return errUnsupported("%s over %s and %s", op, in, x.kt)
		}
		strides = append(strides, st)
	}
	if op != "copy" && info.OutType(in) != out.kt {
		return errUnsupported("%s from %s to %s", op, in, out.kt)
	}
	if !info.Supports(in) || (op == "copy" && !info.Supports(out.kt)) {
		return errUnsupported("%s on %s", op, in)
	}
	if numel(out.shape) == 0 {
		return nil
	}
	cs, cst := collapse(out.shape, strides)
	sh, ops, ok := launchShape(cs, cst)
	if !ok {
		return errUnsupported("%s over %d non-mergeable dimensions", op, len(cs))
	}
	ops[0].Addr = out.addr
	strides = strides[:0]
	for i, x := range ins {
		ops[1+i].Addr = x.addr
	}
	for _, o := range ops {
		strides = append(strides, o.Strides[:])
	}
	if !kernels.MapFits32(sh[:], strides...) && !kernels.MapHas64(op) {
		// Only copy and fill have kernels with 64-bit indices.
		return errUnsupported("%s over %v elements: needs 64-bit indices", op, sh)
	}
	if !intScalarsOK(op, in, out.kt, s0, s1) {
		return errUnsupported("%s on %s with scalars %v, %v: not exact integers", op, in, s0, s1)
	}
	return k.Map(op, in, out.kt, sh, ops[0], ops[1:], s0, s1)
}

// encode writes one element (int64 exactly, floats rounded to nearest even).
func encode(t kernels.DType, b []byte, v float64) {
	switch t {
	case kernels.F32:
		binary.LittleEndian.PutUint32(b, math.Float32bits(float32(v)))
	case kernels.F16:
		binary.LittleEndian.PutUint16(b, kernels.F16Bits(float32(v)))
	case kernels.BF16:
		binary.LittleEndian.PutUint16(b, kernels.BF16Bits(float32(v)))
	case kernels.I64:
		binary.LittleEndian.PutUint64(b, uint64(int64(v)))
	case kernels.F64:
		binary.LittleEndian.PutUint64(b, math.Float64bits(v))
	case kernels.I32:
		binary.LittleEndian.PutUint32(b, uint32(int32(v)))
	case kernels.U8, kernels.I8, kernels.I16:
		putSmallValue(t, b, int64(v))
	case kernels.B8:
		b[0] = 0
		if v != 0 {
			b[0] = 1
		}
	}
}
