package refkern

import (
	"encoding/binary"
	"fmt"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
)

// mapInt is one element of a map kernel that computes in 64-bit integers
// (kernels.MapOpmathInt): int32 inputs sign-extended, the operator in
// int64 with two's complement wrapping, an int32 result the low 32 bits.
func (k *Kernels) mapInt(op kernels.MapOp, in, t gpu.DType, dst uint64, srcs []gpu.Strided, addr func(gpu.Strided, gpu.DType) uint64, s0, s1 int64) error {
	info, _ := kernels.MapOpByName(op)
	var xs [3]int64
	for j, s := range srcs {
		jt := info.InType(j, in)
		v, err := k.loadInt(jt, addr(s, jt))
		if err != nil {
			return err
		}
		xs[j] = v
	}
	x, y := xs[0], xs[1]
	var r int64
	switch op {
	case "fill":
		r = s0
	case "copy":
		r = x
	case "neg":
		r = -x
	case "abs":
		r = x
		if x < 0 {
			r = -x
		}
	case "add":
		r = x + y*s0
	case "sub":
		r = x - y*s0
	case "mul":
		r = x * y
	case "affine":
		r = x*s0 + s1
	case "where":
		r = xs[2]
		if x != 0 {
			r = y
		}
	case "masked_fill":
		r = x
		if y != 0 {
			r = s0
		}
	case "maximum":
		r = max(x, y)
	case "minimum":
		r = min(x, y)
	case "clamp":
		r = min(max(x, s0), s1)
	case "eq", "ne", "lt", "le", "gt", "ge":
		r = cmpInt(string(op), x, y)
	case "eq_scalar", "ne_scalar", "lt_scalar", "le_scalar", "gt_scalar", "ge_scalar":
		r = cmpInt(string(op[:2]), x, s0)
	default:
		if v, ok := mapIntMore(op, x, y, s0); ok {
			r = v
			break
		}
		if !kernels.DivOp(op) {
			return fmt.Errorf("refkern: no integer map operator %q", op)
		}
		r = divInt(op, x, y, s0)
	}
	return k.storeInt(t, dst, r)
}

// loadInt is kernels' loadS64: int64 as is, int32 sign-extended, bool
// 0 or 1.
func (k *Kernels) loadInt(t gpu.DType, a uint64) (int64, error) {
	b, err := k.Mem.Bytes(a, t.Size())
	if err != nil {
		return 0, err
	}
	if t == kernels.I32 {
		return int64(int32(binary.LittleEndian.Uint32(b))), nil
	}
	if t == kernels.B8 {
		return int64(b[0]), nil
	}
	if kernels.SmallInt(t) {
		return smallBits(t, b), nil
	}
	return int64(binary.LittleEndian.Uint64(b)), nil
}

// cmpInt is the comparison c of x and y as 1 or 0.
func cmpInt(c string, x, y int64) int64 {
	var r bool
	switch c {
	case "eq":
		r = x == y
	case "ne":
		r = x != y
	case "lt":
		r = x < y
	case "le":
		r = x <= y
	case "gt":
		r = x > y
	case "ge":
		r = x >= y
	}
	if r {
		return 1
	}
	return 0
}

// storeInt is kernels' storeS64: int64 as is, int32 the low 32 bits, bool
// as v ≠ 0.
func (k *Kernels) storeInt(t gpu.DType, a uint64, v int64) error {
	b, err := k.Mem.Bytes(a, t.Size())
	if err != nil {
		return err
	}
	if t == kernels.B8 {
		b[0] = 0
		if v != 0 {
			b[0] = 1
		}
		return nil
	}
	if t == kernels.I32 {
		binary.LittleEndian.PutUint32(b, uint32(v))
		return nil
	}
	if kernels.SmallInt(t) {
		putSmall(t, b, v)
		return nil
	}
	binary.LittleEndian.PutUint64(b, uint64(v))
	return nil
}

// reduceRowsInt is ReduceRows over int64 rows: summed in int64, wrapping,
// unscaled, as kernels' reduce_rows_s64.
func (k *Kernels) reduceRowsInt(dst, src uint64, r gpu.Rows) error {
	k.Launches++
	t := kernels.I64
	for row := int64(0); row < r.Count(); row++ {
		c2 := row % r.Outer[2]
		c1 := row / r.Outer[2] % r.Outer[1]
		c0 := row / r.Outer[2] / r.Outer[1]
		base := c0*r.OuterStrides[0] + c1*r.OuterStrides[1] + c2*r.OuterStrides[2]
		var acc int64
		for j := int64(0); j < r.Inner; j++ {
			x, err := k.loadInt(t, at(src, t, base+j*r.InnerStride))
			if err != nil {
				return err
			}
			acc += x
		}
		if err := k.storeInt(t, at(dst, t, row), acc); err != nil {
			return err
		}
	}
	return nil
}
