package refkern

import (
	"fmt"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
)

// Index is the index kernel (kernels.IndexMode): gather, scatter or
// scatter_add of elements by an int64 index operand.
func (k *Kernels) Index(mode kernels.IndexMode, t gpu.DType, shape gpu.Shape, dst, src, idx gpu.Strided, dimStride, dimSize, skip int64) error {
	switch mode {
	case kernels.IndexGather, kernels.IndexScatter:
	case kernels.IndexScatterAdd:
		if !kernels.ScatterAdds(t) {
			return fmt.Errorf("refkern: index %s of %s: no kernel accumulates it", mode, t)
		}
	default:
		return fmt.Errorf("refkern: no index mode %q", mode)
	}
	k.Launches++
	n := int64(1)
	for _, d := range shape {
		if d < 0 {
			return fmt.Errorf("refkern: index over shape %v", shape)
		}
		n *= d
	}
	var c [kernels.MaxRank]int64
	off := func(s gpu.Strided) int64 {
		o := int64(0)
		for d := range c {
			o += c[d] * s.Strides[d]
		}
		return o
	}
	for i := int64(0); i < n; i++ {
		rem := i
		for d := kernels.MaxRank - 1; d >= 0; d-- {
			c[d] = rem % shape[d]
			rem /= shape[d]
		}
		v, err := k.loadI64(at(idx.Addr, kernels.I64, off(idx)))
		if err != nil {
			return err
		}
		if v == skip {
			continue
		}
		if v < 0 {
			v += dimSize
		}
		if v < 0 || v >= dimSize {
			continue
		}
		do, so := off(dst), off(src)
		if mode == kernels.IndexGather {
			so += v * dimStride
		} else {
			do += v * dimStride
		}
		if mode == kernels.IndexScatterAdd && t != kernels.F32 {
			if err := k.scatterAddWide(t, at(dst.Addr, t, do), at(src.Addr, t, so)); err != nil {
				return err
			}
			continue
		}
		if mode == kernels.IndexScatterAdd {
			a, err := k.load(t, at(src.Addr, t, so))
			if err != nil {
				return err
			}
			b, err := k.load(t, at(dst.Addr, t, do))
			if err != nil {
				return err
			}
			if err := k.store(t, at(dst.Addr, t, do), b+a); err != nil {
				return err
			}
			continue
		}
		from, err := k.Mem.Bytes(at(src.Addr, t, so), t.Size())
		if err != nil {
			return err
		}
		to, err := k.Mem.Bytes(at(dst.Addr, t, do), t.Size())
		if err != nil {
			return err
		}
		copy(to, from)
	}
	return nil
}

// scatterAddWide is scatter_add's element add for f64 (in float64) and
// the integers (int64 adds wrapping in the type, as the GPU's u32/u64
// atomics).
func (k *Kernels) scatterAddWide(t gpu.DType, dst, src uint64) error {
	if t == kernels.F64 {
		a, err := k.load64(t, src)
		if err != nil {
			return err
		}
		b, err := k.load64(t, dst)
		if err != nil {
			return err
		}
		return k.store64(t, dst, b+a)
	}
	a, err := k.loadInt(t, src)
	if err != nil {
		return err
	}
	b, err := k.loadInt(t, dst)
	if err != nil {
		return err
	}
	return k.storeInt(t, dst, b+a)
}
