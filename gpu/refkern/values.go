package refkern

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
)

// MapValue is the value of a map operator (kernels.MapOps) at x0, x1 with
// scalars s0, s1, in float32 as the kernels compute it.
func MapValue(op kernels.MapOp, x0, x1, s0, s1 float32) float32 {
	f := func(v float64) float32 { return float32(v) }
	x := float64(x0)
	switch op {
	case "fill":
		return s0
	case "copy":
		return x0
	case "neg":
		return -x0
	case "relu":
		if x0 <= 0 {
			return 0
		}
		return x0
	case "gelu":
		return f(x / 2 * (1 + math.Erf(x/math.Sqrt2)))
	case "gelu_tanh":
		return f(x / 2 * (1 + math.Tanh(math.Sqrt(2/math.Pi)*(x+0.044715*x*x*x))))
	case "sigmoid":
		return f(1 / (1 + math.Exp(-x)))
	case "tanh":
		return f(math.Tanh(x))
	case "exp":
		return f(math.Exp(x))
	case "log":
		return f(math.Log(x))
	case "sqrt":
		return f(math.Sqrt(x))
	case "rsqrt":
		return f(1 / math.Sqrt(x))
	case "abs":
		return f(math.Abs(x))
	case "square":
		return x0 * x0
	case "floor":
		return f(math.Floor(x))
	case "ceil":
		return f(math.Ceil(x))
	case "trunc":
		return f(math.Trunc(x))
	case "round":
		return f(math.RoundToEven(x))
	case "sign":
		return f(signOf(x))
	case "reciprocal":
		return 1 / x0
	case "affine":
		return f(x*float64(s0) + float64(s1))
	case "pow":
		return f(math.Pow(x, float64(s0)))
	case "add":
		return f(x + float64(s0)*float64(x1))
	case "sub":
		return x0 - s0*x1
	case "mul":
		return x0 * x1
	case "div":
		return x0 / x1
	case "maximum":
		return f(math.Max(x, float64(x1)))
	case "relu_backward":
		if x1 <= 0 {
			return 0
		}
		return x0
	case "gelu_backward":
		y := float64(x1)
		cdf := 0.5 * (1 + math.Erf(y/math.Sqrt2))
		pdf := math.Exp(-y*y/2) / math.Sqrt(2*math.Pi)
		return f(x * (cdf + y*pdf))
	case "gelu_tanh_backward":
		y := float64(x1)
		beta, kappa := math.Sqrt(2/math.Pi), 0.044715
		t := math.Tanh(beta * (y + kappa*y*y*y))
		return f(x * (0.5*(1+t) + 0.5*y*(1-t*t)*beta*(1+3*kappa*y*y)))
	case "sigmoid_backward":
		return x0 * x1 * (1 - x1)
	case "tanh_backward":
		return x0 * (1 - x1*x1)
	}
	return float32(math.NaN())
}

func mapUnary(op kernels.MapOp) func(float32) float32 {
	return func(x float32) float32 { return MapValue(op, x, 0, 0, 0) }
}

// Map is the strided elementwise kernel.
func (k *Kernels) Map(op kernels.MapOp, in, t gpu.DType, shape gpu.Shape, dst gpu.Strided, srcs []gpu.Strided, s064, s164 float64) error {
	s0, s1 := float32(s064), float32(s164)
	info, ok := kernels.MapOpByName(op)
	if !ok {
		return fmt.Errorf("refkern: no map operator %q", op)
	}
	if len(srcs) != info.Ins {
		return fmt.Errorf("refkern: map %s takes %d inputs, got %d", op, info.Ins, len(srcs))
	}
	if op != "copy" && info.OutType(in) != t {
		return fmt.Errorf("refkern: map %s from %s to %s: only copy converts", op, in, t)
	}
	k.Launches++
	n := int64(1)
	for _, d := range shape {
		if d < 0 {
			return fmt.Errorf("refkern: map over shape %v", shape)
		}
		n *= d
	}
	raw := op == "copy" && in == t
	var idx [kernels.MaxRank]int64
	for i := int64(0); i < n; i++ {
		rem := i
		for d := kernels.MaxRank - 1; d >= 0; d-- {
			idx[d] = rem % shape[d]
			rem /= shape[d]
		}
		addr := func(s gpu.Strided, t gpu.DType) uint64 {
			off := int64(0)
			for d := range idx {
				off += idx[d] * s.Strides[d]
			}
			return at(s.Addr, t, off)
		}
		if raw {
			src, err := k.Mem.Bytes(addr(srcs[0], in), in.Size())
			if err != nil {
				return err
			}
			out, err := k.Mem.Bytes(addr(dst, t), t.Size())
			if err != nil {
				return err
			}
			copy(out, src)
			continue
		}
		if kernels.MapOpmathInt(op, in, t) {
			if err := k.mapInt(op, in, t, addr(dst, t), srcs, addr, kernels.IntScalar(s064), kernels.IntScalar(s164)); err != nil {
				return err
			}
			continue
		}
		if kernels.MapOpmath64(op, in, t) {
			if err := k.map64(op, in, t, addr(dst, t), srcs, addr, s064, s164); err != nil {
				return err
			}
			continue
		}
		var xs [3]float32
		for j, s := range srcs {
			jt := info.InType(j, in)
			v, err := k.load(jt, addr(s, jt))
			if err != nil {
				return err
			}
			xs[j] = v
		}
		y, ok := pointwiseValue(op, xs, s0, s1)
		if kernels.DivOp(op) {
			y, ok = float32(divFloat(op, in, float64(xs[0]), float64(xs[1]), float64(s0), float64(s1))), true
		}
		if !ok {
			y = MapValue(op, xs[0], xs[1], s0, s1)
		}
		if err := k.store(t, addr(dst, t), y); err != nil {
			return err
		}
	}
	return nil
}

// RandomValue is element i of a generator kernel (float32 as the kernel).
func RandomValue(kind kernels.RandKind, seed, counter, i uint64, s0, s1 float32) float32 {
	switch kind {
	case kernels.RandArange:
		return s0 + float32(i)*s1
	case kernels.RandUniform:
		u := float32(kernels.Hash(seed, counter, i)>>40) * (1.0 / (1 << 24))
		return s0 + u*(s1-s0)
	}
	z := kernels.Hash(seed, counter, i)
	u1 := float64(z>>40+1) / (1 << 24)
	u2 := float64(z&0xffffff) / (1 << 24)
	return s0 + s1*float32(math.Sqrt(-2*math.Log(u1))*math.Cos(2*math.Pi*u2))
}

// Random fills dst[0:n) from the generator.
func (k *Kernels) Random(kind kernels.RandKind, t gpu.DType, dst uint64, n int64, seed, counter uint64, s0, s1 float32) error {
	k.Launches++
	for i := int64(0); i < n; i++ {
		v := RandomValue(kind, seed, counter, uint64(i), s0, s1)
		if t == kernels.I64 && kind == kernels.RandArange {
			if err := k.storeI64(at(dst, t, i), int64(v)); err != nil {
				return err
			}
			continue
		}
		if err := k.store(t, at(dst, t, i), v); err != nil {
			return err
		}
	}
	return nil
}

func (k *Kernels) storeI64(addr uint64, v int64) error {
	b, err := k.Mem.Bytes(addr, 8)
	if err != nil {
		return err
	}
	binary.LittleEndian.PutUint64(b, uint64(v))
	return nil
}

func (k *Kernels) loadI64(addr uint64) (int64, error) {
	b, err := k.Mem.Bytes(addr, 8)
	if err != nil {
		return 0, err
	}
	return int64(binary.LittleEndian.Uint64(b)), nil
}

// RandInt fills int64 dst[0:n) with lo + Hash % span.
func (k *Kernels) RandInt(dst uint64, n int64, seed, counter uint64, lo, span int64) error {
	if span <= 0 {
		return fmt.Errorf("refkern: randint over an empty range (span %d)", span)
	}
	k.Launches++
	for i := int64(0); i < n; i++ {
		v := lo + int64(kernels.Hash(seed, counter, uint64(i))%uint64(span))
		if err := k.storeI64(at(dst, kernels.I64, i), v); err != nil {
			return err
		}
	}
	return nil
}

// ReduceRows sums each row (f32 sequential sum), times scale.
func (k *Kernels) ReduceRows(t gpu.DType, dst, src uint64, scale64 float64, r gpu.Rows) error {
	if t == kernels.F64 {
		return k.reduceRows64(dst, src, scale64, r)
	}
	if t == kernels.I64 {
		return k.reduceRowsInt(dst, src, r)
	}
	scale := float32(scale64)
	k.Launches++
	rows := r.Count()
	for row := int64(0); row < rows; row++ {
		c2 := row % r.Outer[2]
		c1 := row / r.Outer[2] % r.Outer[1]
		c0 := row / r.Outer[2] / r.Outer[1]
		base := c0*r.OuterStrides[0] + c1*r.OuterStrides[1] + c2*r.OuterStrides[2]
		var acc float32
		for j := int64(0); j < r.Inner; j++ {
			x, err := k.load(t, at(src, t, base+j*r.InnerStride))
			if err != nil {
				return err
			}
			acc += x
		}
		if err := k.store(t, at(dst, t, row), acc*scale); err != nil {
			return err
		}
	}
	return nil
}

// Softmax runs the softmax kernels' computation row by row.
func (k *Kernels) Softmax(mode kernels.SoftmaxMode, t gpu.DType, dst, a, b uint64, o, d, q int64, sdst, sa, sb gpu.Strides3) error {
	k.Launches++
	if t == kernels.F64 {
		return k.softmax64(mode, dst, a, b, o, d, q, sdst, sa, sb)
	}
	for r := int64(0); r < o*q; r++ {
		oi, qi := r/q, r%q
		off := func(s gpu.Strides3, j int64) int64 { return oi*s[0] + qi*s[1] + j*s[2] }
		xs := make([]float64, d)
		ys := make([]float64, d)
		for j := int64(0); j < d; j++ {
			x, err := k.load(t, at(a, t, off(sa, j)))
			if err != nil {
				return err
			}
			xs[j] = float64(x)
			if mode == kernels.SoftmaxBwd || mode == kernels.LogSoftmaxBwd {
				y, err := k.load(t, at(b, t, off(sb, j)))
				if err != nil {
					return err
				}
				ys[j] = float64(y)
			}
		}
		out := make([]float64, d)
		switch mode {
		case kernels.SoftmaxFwd, kernels.LogSoftmaxFwd:
			m := math.Inf(-1)
			for _, x := range xs {
				m = math.Max(m, x)
			}
			s := 0.0
			for _, x := range xs {
				s += math.Exp(x - m)
			}
			for j, x := range xs {
				if mode == kernels.SoftmaxFwd {
					out[j] = math.Exp(x-m) / s
				} else {
					out[j] = x - m - math.Log(s)
				}
			}
		case kernels.SoftmaxBwd:
			s := 0.0
			for j := range xs {
				s += xs[j] * ys[j]
			}
			for j := range xs {
				out[j] = ys[j] * (xs[j] - s)
			}
		case kernels.LogSoftmaxBwd:
			s := 0.0
			for _, x := range xs {
				s += x
			}
			for j := range xs {
				out[j] = xs[j] - math.Exp(ys[j])*s
			}
		default:
			return fmt.Errorf("refkern: no softmax mode %q", mode)
		}
		for j := int64(0); j < d; j++ {
			if err := k.store(t, at(dst, t, off(sdst, j)), float32(out[j])); err != nil {
				return err
			}
		}
	}
	return nil
}

// NLLLoss is nll_loss or its backward (see gpu.Kernels).
func (k *Kernels) NLLLoss(backward bool, t gpu.DType, dst, src, target uint64, n, sn, sc, st, ignore int64, mean bool) error {
	k.Launches++
	if t == kernels.F64 {
		return k.nll64(backward, dst, src, target, n, sn, sc, st, ignore, mean)
	}
	var acc, cnt float32
	tgts := make([]int64, n)
	for i := int64(0); i < n; i++ {
		c, err := k.loadI64(at(target, kernels.I64, i*st))
		if err != nil {
			return err
		}
		tgts[i] = c
		if c == ignore {
			continue
		}
		cnt++
		if !backward {
			x, err := k.load(t, at(src, t, i*sn+c*sc))
			if err != nil {
				return err
			}
			acc -= x
		}
	}
	if !backward {
		if mean {
			acc /= cnt
		}
		return k.store(t, dst, acc)
	}
	g, err := k.load(t, src)
	if err != nil {
		return err
	}
	w := -g
	if mean {
		w /= cnt
	}
	for i, c := range tgts {
		if c == ignore {
			continue
		}
		if err := k.store(t, at(dst, t, int64(i)*sn+c*sc), w); err != nil {
			return err
		}
	}
	return nil
}

// BatchedMatmul is C[z] = A[z]·B[z] with f32 accumulation.
func (k *Kernels) BatchedMatmul(t gpu.DType, c, a, b uint64, batch, m, n, kk int64, cs, as, bs gpu.Strides3) error {
	k.Launches++
	if t == kernels.F64 {
		return k.bmm64(c, a, b, batch, m, n, kk, cs, as, bs)
	}
	for z := int64(0); z < batch; z++ {
		for i := int64(0); i < m; i++ {
			for j := int64(0); j < n; j++ {
				var acc float32
				for p := int64(0); p < kk; p++ {
					x, err := k.load(t, at(a, t, z*as[0]+i*as[1]+p*as[2]))
					if err != nil {
						return err
					}
					y, err := k.load(t, at(b, t, z*bs[0]+p*bs[1]+j*bs[2]))
					if err != nil {
						return err
					}
					acc += x * y
				}
				if err := k.store(t, at(c, t, z*cs[0]+i*cs[1]+j*cs[2]), acc); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// signOf is (0 < x) − (x < 0): NaN and ±0 give 0 (ATen's sign_kernel).
func signOf(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}
