package refkern

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
)

// Kernels is gpu.Kernels computed on the host over a Memory: the reference
// the CUDA kernels are tested against, and the kernels of CPU tensors in a
// GPU run. Arithmetic is float32 as in the kernels (opmath); the
// transcendental functions are Go's, which the GPU's approximations match
// to a few ulps.
type Kernels struct {
	Mem *Memory
	// Launches counts the calls, as the device counts cuLaunchKernel.
	Launches int64
}

var _ gpu.Kernels = (*Kernels)(nil)

// New returns kernels over mem.
func New(mem *Memory) *Kernels { return &Kernels{Mem: mem} }

func (k *Kernels) load(t gpu.DType, addr uint64) (float32, error) {
	b, err := k.Mem.Bytes(addr, t.Size())
	if err != nil {
		return 0, err
	}
	switch t {
	case kernels.F32:
		return math.Float32frombits(binary.LittleEndian.Uint32(b)), nil
	case kernels.F16:
		return kernels.F16ToF32(binary.LittleEndian.Uint16(b)), nil
	case kernels.BF16:
		return kernels.BF16ToF32(binary.LittleEndian.Uint16(b)), nil
	case kernels.I64:
		return float32(int64(binary.LittleEndian.Uint64(b))), nil
	case kernels.F64:
		return float32(math.Float64frombits(binary.LittleEndian.Uint64(b))), nil
	case kernels.I32:
		return float32(int32(binary.LittleEndian.Uint32(b))), nil
	case kernels.B8:
		return float32(b[0]), nil
	case kernels.U8, kernels.I8, kernels.I16:
		return float32(smallBits(t, b)), nil
	}
	return 0, fmt.Errorf("refkern: no element type %q", t)
}

func (k *Kernels) store(t gpu.DType, addr uint64, v float32) error {
	b, err := k.Mem.Bytes(addr, t.Size())
	if err != nil {
		return err
	}
	switch t {
	case kernels.F32:
		binary.LittleEndian.PutUint32(b, math.Float32bits(v))
	case kernels.F16:
		binary.LittleEndian.PutUint16(b, kernels.F16Bits(v))
	case kernels.BF16:
		binary.LittleEndian.PutUint16(b, kernels.BF16Bits(v))
	case kernels.I64:
		binary.LittleEndian.PutUint64(b, uint64(truncI64(v)))
	case kernels.F64:
		binary.LittleEndian.PutUint64(b, math.Float64bits(float64(v)))
	case kernels.I32:
		binary.LittleEndian.PutUint32(b, uint32(truncI32(v)))
	case kernels.B8:
		b[0] = boolByte(v)
	case kernels.U8, kernels.I8, kernels.I16:
		putSmall(t, b, smallFromFloat(t, float64(v)))
	default:
		return fmt.Errorf("refkern: no element type %q", t)
	}
	return nil
}

// truncI64 is cvt.rzi.s64.f32: toward zero, NaN to 0, saturating.
func truncI64(v float32) int64 {
	switch {
	case v != v:
		return 0
	case v >= 9.223372e18:
		return math.MaxInt64
	case v <= -9.223372e18:
		return math.MinInt64
	}
	return int64(v)
}

// truncI32 is cvt.rzi.s32.f32: toward zero, NaN to 0, saturating.
func truncI32(v float32) int32 {
	switch {
	case v != v:
		return 0
	case v >= 2147483647:
		return math.MaxInt32
	case v <= -2147483648:
		return math.MinInt32
	}
	return int32(v)
}

func at(base uint64, t gpu.DType, i int64) uint64 { return base + uint64(i*t.Size()) }

// unary and binary run the contiguous kernels.
func (k *Kernels) unary(t gpu.DType, dst, src uint64, n int64, f func(float32) float32) error {
	k.Launches++
	for i := int64(0); i < n; i++ {
		x, err := k.load(t, at(src, t, i))
		if err != nil {
			return err
		}
		if err := k.store(t, at(dst, t, i), f(x)); err != nil {
			return err
		}
	}
	return nil
}

func (k *Kernels) binary(t gpu.DType, dst, a, b uint64, n int64, f func(x, y float32) float32) error {
	k.Launches++
	for i := int64(0); i < n; i++ {
		x, err := k.load(t, at(a, t, i))
		if err != nil {
			return err
		}
		y, err := k.load(t, at(b, t, i))
		if err != nil {
			return err
		}
		if err := k.store(t, at(dst, t, i), f(x, y)); err != nil {
			return err
		}
	}
	return nil
}

// Fill sets dst[0:n) to v.
func (k *Kernels) Fill(t gpu.DType, dst uint64, v float32, n int64) error {
	return k.unary(t, dst, dst, n, func(float32) float32 { return v })
}

// Copy copies n elements.
func (k *Kernels) Copy(t gpu.DType, dst, src uint64, n int64) error {
	return k.unary(t, dst, src, n, func(x float32) float32 { return x })
}

// Cast converts n elements.
func (k *Kernels) Cast(from, to gpu.DType, dst, src uint64, n int64) error {
	k.Launches++
	for i := int64(0); i < n; i++ {
		x, err := k.load(from, at(src, from, i))
		if err != nil {
			return err
		}
		if err := k.store(to, at(dst, to, i), x); err != nil {
			return err
		}
	}
	return nil
}

// Add is dst = a + b.
func (k *Kernels) Add(t gpu.DType, dst, a, b uint64, n int64) error {
	return k.binary(t, dst, a, b, n, func(x, y float32) float32 { return x + y })
}

// Sub is dst = a - b.
func (k *Kernels) Sub(t gpu.DType, dst, a, b uint64, n int64) error {
	return k.binary(t, dst, a, b, n, func(x, y float32) float32 { return x - y })
}

// Mul is dst = a * b.
func (k *Kernels) Mul(t gpu.DType, dst, a, b uint64, n int64) error {
	return k.binary(t, dst, a, b, n, func(x, y float32) float32 { return x * y })
}

// Div is dst = a / b.
func (k *Kernels) Div(t gpu.DType, dst, a, b uint64, n int64) error {
	return k.binary(t, dst, a, b, n, func(x, y float32) float32 { return x / y })
}

// Relu is dst = max(src, 0).
func (k *Kernels) Relu(t gpu.DType, dst, src uint64, n int64) error {
	return k.unary(t, dst, src, n, mapUnary("relu"))
}

// Exp is dst = exp(src).
func (k *Kernels) Exp(t gpu.DType, dst, src uint64, n int64) error {
	return k.unary(t, dst, src, n, mapUnary("exp"))
}

// Sigmoid is dst = sigmoid(src).
func (k *Kernels) Sigmoid(t gpu.DType, dst, src uint64, n int64) error {
	return k.unary(t, dst, src, n, mapUnary("sigmoid"))
}

// Tanh is dst = tanh(src).
func (k *Kernels) Tanh(t gpu.DType, dst, src uint64, n int64) error {
	return k.unary(t, dst, src, n, mapUnary("tanh"))
}

// ReluBackward is dst = input <= 0 ? 0 : grad.
func (k *Kernels) ReluBackward(t gpu.DType, dst, grad, input uint64, n int64) error {
	return k.binary(t, dst, grad, input, n, func(g, x float32) float32 { return MapValue("relu_backward", g, x, 0, 0) })
}

// Scale is dst = alpha * src.
func (k *Kernels) Scale(t gpu.DType, dst, src uint64, alpha float32, n int64) error {
	return k.unary(t, dst, src, n, func(x float32) float32 { return alpha * x })
}

// Axpy is y += alpha * x.
func (k *Kernels) Axpy(t gpu.DType, y, x uint64, alpha float32, n int64) error {
	return k.binary(t, y, y, x, n, func(a, b float32) float32 { return a + alpha*b })
}

// Sum is dst[0] = Σ src[0:n) (sequential f32 sum: the GPU's order differs,
// so results agree to rounding).
func (k *Kernels) Sum(t gpu.DType, dst, src uint64, n int64) error {
	k.Launches++
	var acc float32
	for i := int64(0); i < n; i++ {
		x, err := k.load(t, at(src, t, i))
		if err != nil {
			return err
		}
		acc += x
	}
	return k.store(t, dst, acc)
}

// Matmul is C = A·B with strided A and B.
func (k *Kernels) Matmul(t gpu.DType, c, a, b uint64, m, n, kk int64, as, bs [2]int64) error {
	return k.BatchedMatmul(t, c, a, b, 1, m, n, kk, gpu.Strides3{0, n, 1}, gpu.Strides3{0, as[0], as[1]}, gpu.Strides3{0, bs[0], bs[1]})
}
