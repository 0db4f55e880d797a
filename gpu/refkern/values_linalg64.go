package refkern

import (
	"math"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
)

// The float64 kernels of module linalg_f64 (kernels/matmul_f64.go,
// softmax_f64.go): bmm, softmax and nll_loss computed in float64, in the
// same order as the GPU's threads.

// bmm64 is bmm_f64: each element's dot product with fma in k order.
func (k *Kernels) bmm64(c, a, b uint64, batch, m, n, kk int64, cs, as, bs gpu.Strides3) error {
	t := kernels.F64
	for z := int64(0); z < batch; z++ {
		for i := int64(0); i < m; i++ {
			for j := int64(0); j < n; j++ {
				var acc float64
				for p := int64(0); p < kk; p++ {
					x, err := k.load64(t, at(a, t, z*as[0]+i*as[1]+p*as[2]))
					if err != nil {
						return err
					}
					y, err := k.load64(t, at(b, t, z*bs[0]+p*bs[1]+j*bs[2]))
					if err != nil {
						return err
					}
					acc = math.FMA(x, y, acc)
				}
				if err := k.store64(t, at(c, t, z*cs[0]+i*cs[1]+j*cs[2]), acc); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// softmax64 is softmax_<mode>_f64, row by row in order.
func (k *Kernels) softmax64(mode kernels.SoftmaxMode, dst, a, b uint64, o, d, q int64, sdst, sa, sb gpu.Strides3) error {
	t := kernels.F64
	for r := int64(0); r < o*q; r++ {
		oi, qi := r/q, r%q
		off := func(s gpu.Strides3, j int64) int64 { return oi*s[0] + qi*s[1] + j*s[2] }
		xs, ys := make([]float64, d), make([]float64, d)
		for j := int64(0); j < d; j++ {
			x, err := k.load64(t, at(a, t, off(sa, j)))
			if err != nil {
				return err
			}
			xs[j] = x
			if mode == kernels.SoftmaxBwd || mode == kernels.LogSoftmaxBwd {
				if ys[j], err = k.load64(t, at(b, t, off(sb, j))); err != nil {
					return err
				}
			}
		}
		out := make([]float64, d)
		switch mode {
		case kernels.SoftmaxFwd, kernels.LogSoftmaxFwd:
			m := -math.MaxFloat64
			for _, x := range xs {
				m = math.Max(m, x)
			}
			var sum float64
			for _, x := range xs {
				sum += math.Exp(x - m)
			}
			lse := math.Log(sum) + m
			for j, x := range xs {
				if mode == kernels.SoftmaxFwd {
					out[j] = math.Exp(x-m) / sum
				} else {
					out[j] = x - lse
				}
			}
		case kernels.SoftmaxBwd:
			var dot float64
			for j := range xs {
				dot = math.FMA(xs[j], ys[j], dot)
			}
			for j := range xs {
				out[j] = ys[j] * (xs[j] - dot)
			}
		case kernels.LogSoftmaxBwd:
			var sum float64
			for _, g := range xs {
				sum += g
			}
			for j := range xs {
				out[j] = xs[j] - math.Exp(ys[j])*sum
			}
		}
		for j, v := range out {
			if err := k.store64(t, at(dst, t, off(sdst, int64(j))), v); err != nil {
				return err
			}
		}
	}
	return nil
}

// nll64 is nll_loss[_backward]_f64.
func (k *Kernels) nll64(backward bool, dst, src, target uint64, n, sn, sc, st, ignore int64, mean bool) error {
	t := kernels.F64
	var acc, cnt float64
	tgts := make([]int64, n)
	for i := int64(0); i < n; i++ {
		c, err := k.loadI64(at(target, kernels.I64, i*st))
		if err != nil {
			return err
		}
		if tgts[i] = c; c == ignore {
			continue
		}
		cnt++
		if !backward {
			x, err := k.load64(t, at(src, t, i*sn+c*sc))
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
		return k.store64(t, dst, acc)
	}
	g, err := k.load64(t, src)
	if err != nil {
		return err
	}
	if mean {
		g /= cnt
	}
	for i, c := range tgts {
		if c != ignore {
			if err := k.store64(t, at(dst, t, int64(i)*sn+c*sc), -g); err != nil {
				return err
			}
		}
	}
	return nil
}
