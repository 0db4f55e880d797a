package refkern

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
)

// map64 is one element of a map kernel that computes in float64
// (kernels.MapOpmath64): the inputs loaded as float64, the operator in
// float64 (fma where the kernel has one), the result stored from float64.
func (k *Kernels) map64(op kernels.MapOp, in, t gpu.DType, dst uint64, srcs []gpu.Strided, addr func(gpu.Strided, gpu.DType) uint64, s0, s1 float64) error {
	info, _ := kernels.MapOpByName(op)
	var xs [3]float64
	for j, s := range srcs {
		jt := info.InType(j, in)
		v, err := k.load64(jt, addr(s, jt))
		if err != nil {
			return err
		}
		xs[j] = v
	}
	x, y := xs[0], xs[1]
	var r float64
	switch op {
	case "fill":
		r = s0
	case "copy":
		r = x
	case "neg":
		r = -x
	case "add":
		r = math.FMA(y, s0, x)
	case "sub":
		r = x - y*s0
	case "mul":
		r = x * y
	case "div":
		r = x / y
	case "affine":
		r = math.FMA(x, s0, s1)
	case "reciprocal":
		r = 1 / x
	case "abs":
		r = math.Abs(x)
	case "sqrt":
		r = math.Sqrt(x)
	case "relu":
		r = x
		if x <= 0 {
			r = 0
		}
	case "relu_backward":
		r = x
		if y <= 0 {
			r = 0
		}
	case "sigmoid":
		r = 1 / (1 + math.Exp(-x))
	case "tanh": // the kernel's sign(x)·(1 − e)/(1 + e), e = exp(−2|x|)
		e := math.Exp(-2 * math.Abs(x))
		r = math.Copysign((1-e)/(1+e), x)
	case "sigmoid_backward":
		r = x * ((1 - y) * y)
	case "tanh_backward":
		r = x * (1 - y*y)
	case "addcmul":
		r = math.FMA(s0, y*xs[2], x)
	default:
		if v, ok := mathValue64(op, xs, s0, s1); ok {
			r = v
			break
		}
		if !kernels.DivOp(op) {
			return fmt.Errorf("refkern: no float64 map operator %q", op)
		}
		r = divFloat(op, in, x, y, s0, s1)
	}
	return k.store64(t, dst, r)
}

// load64 is kernels' loadF64: float64 as is, integers exactly to 2^53,
// the other types through load (exact in float64).
func (k *Kernels) load64(t gpu.DType, a uint64) (float64, error) {
	switch t {
	case kernels.F64, kernels.I64:
		b, err := k.Mem.Bytes(a, 8)
		if err != nil {
			return 0, err
		}
		u := binary.LittleEndian.Uint64(b)
		if t == kernels.I64 {
			return float64(int64(u)), nil
		}
		return math.Float64frombits(u), nil
	}
	v, err := k.load(t, a)
	return float64(v), err
}

// store64 is kernels' storeF64: float64 as is, integers truncated from
// the double (saturating, NaN to 0 as cvt.rzi), bool as v ≠ 0, the other
// floats through float32.
func (k *Kernels) store64(t gpu.DType, a uint64, v float64) error {
	switch t {
	case kernels.F64, kernels.I64, kernels.I32:
		b, err := k.Mem.Bytes(a, t.Size())
		if err != nil {
			return err
		}
		switch t {
		case kernels.F64:
			binary.LittleEndian.PutUint64(b, math.Float64bits(v))
		case kernels.I64:
			binary.LittleEndian.PutUint64(b, uint64(trunc64(v, math.MinInt64, math.MaxInt64)))
		default:
			binary.LittleEndian.PutUint32(b, uint32(int32(trunc64(v, math.MinInt32, math.MaxInt32))))
		}
		return nil
	case kernels.U8, kernels.I8, kernels.I16:
		return k.storeSmall64(t, a, v)
	case kernels.B8:
		b := float32(0)
		if v != 0 { // NaN too
			b = 1
		}
		return k.store(t, a, b)
	}
	return k.store(t, a, float32(v))
}

// trunc64 is cvt.rzi.s64.f64 / .s32.f64: toward zero, NaN to 0,
// saturating at lo and hi.
func trunc64(v float64, lo, hi int64) int64 {
	switch {
	case v != v:
		return 0
	case v >= float64(hi):
		return hi
	case v <= float64(lo):
		return lo
	}
	return int64(v)
}

// reduceRows64 is ReduceRows over float64 rows: accumulated and scaled in
// float64, as kernels' reduce_rows_f64.
func (k *Kernels) reduceRows64(dst, src uint64, scale float64, r gpu.Rows) error {
	k.Launches++
	t := kernels.F64
	for row := int64(0); row < r.Count(); row++ {
		c2 := row % r.Outer[2]
		c1 := row / r.Outer[2] % r.Outer[1]
		c0 := row / r.Outer[2] / r.Outer[1]
		base := c0*r.OuterStrides[0] + c1*r.OuterStrides[1] + c2*r.OuterStrides[2]
		var acc float64
		for j := int64(0); j < r.Inner; j++ {
			x, err := k.load64(t, at(src, t, base+j*r.InnerStride))
			if err != nil {
				return err
			}
			acc += x
		}
		if err := k.store64(t, at(dst, t, row), acc*scale); err != nil {
			return err
		}
	}
	return nil
}
