package gpuexec

import (
	"fmt"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
	"github.com/gpumem/playground/sim/torch"
)

// Average pooling (avg_pool1d/2d/3d, adaptive_avg_pool1d/2d/3d) and its
// backward: window sums over the gathered windows divided by PyTorch's
// divisors, and the gradient divided the same way scattered back. The
// 3-d backward follows AveragePool3d.cu and AdaptiveAveragePooling3d.cu:
// the per-window gradient is rounded to the tensor's type before it is
// added (stride 1 without padding: Σ grad · (1/divisor) instead), and a
// non-divisible adaptive window divides by its depth, height and width in
// turn.

// axisSpans lists, per axis and output position, the window's extent
// clipped to the padded input (full: count_include_pad's pool_size
// factor) and to the input itself (inside); adaptive windows have no
// padding.
func (g poolGeom) axisSpans() (full, inside [][]int64) {
	for i, a := range g.axes {
		f, v := make([]int64, len(a)), make([]int64, len(a))
		for o := range a {
			if g.adaptive {
				f[o] = valid(a[o])
				v[o] = f[o]
				continue
			}
			lo := int64(o)*g.stride[i] - g.pad[i]
			hi := min(lo+g.kernel[i], g.in[i]+g.pad[i])
			f[o], v[o] = hi-lo, min(hi, g.in[i])-max(lo, 0)
		}
		full, inside = append(full, f), append(inside, v)
	}
	return full, inside
}

// positionProduct is, for each output position in row-major order, the
// product of the per-axis factors.
func positionProduct(per [][]int64) []float64 {
	l := int64(1)
	for _, p := range per {
		l *= int64(len(p))
	}
	out := make([]float64, 0, l)
	pos := make([]int, len(per))
	for range l {
		v := int64(1)
		for i, p := range per {
			v *= p[pos[i]]
		}
		out = append(out, float64(v))
		odometer(pos, func(i int) int { return len(per[i]) })
	}
	return out
}

// divisors is the per-position divisor of the window sums:
// divisor_override, else the padded window (count_include_pad) or its
// elements inside the input.
func (g poolGeom) divisors() []float64 {
	full, inside := g.axisSpans()
	if g.override != 0 {
		d := make([]float64, g.l())
		for i := range d {
			d[i] = float64(g.override)
		}
		return d
	}
	if g.includePad {
		return positionProduct(full)
	}
	return positionProduct(inside)
}

// valid counts a window's non-padding elements.
func valid(w []int64) int64 {
	n := int64(0)
	for _, v := range w {
		if v >= 0 {
			n++
		}
	}
	return n
}

// avgPool is ExecAvgPool: the window sums divided by the divisor.
func (e *Executor) avgPool(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) error {
	if len(ins) != 1 {
		return fmt.Errorf("gpuexec: avg_pool takes x")
	}
	g, err := avgPoolGeom(op.Ints, ins[0].shape, out.shape)
	if err != nil {
		return err
	}
	vals, l, kk := g.table()
	np := g.np
	if np*l == 0 {
		return nil
	}
	return e.withScratch(out.cuda(), func(s *scratch) error {
		s.acc = redAcc(ins[0].kt)
		xf, err := s.asF32(k, ins[0])
		if err != nil {
			return err
		}
		xf = reshaped(xf, []int64{np, g.plane()})
		tbl, err := s.table(kernels.I64, []int64{l, kk}, vals)
		if err != nil {
			return err
		}
		d, err := s.table(redAcc(ins[0].kt), []int64{l}, g.divisors())
		if err != nil {
			return err
		}
		win, err := s.f32([]int64{np, l, kk})
		if err != nil {
			return err
		}
		if err := e.gatherWindows(k, win, xf, tbl, 0); err != nil {
			return err
		}
		sum, err := s.f32([]int64{np, l})
		if err != nil {
			return err
		}
		if err := e.reduceInto(k, sum, win, false, 2); err != nil {
			return err
		}
		if err := e.mapOp(k, "div", sum, []operand{sum, d}, 0, 0); err != nil {
			return err
		}
		return e.mapOp(k, "copy", out, []operand{reshaped(sum, out.shape)}, 0, 0)
	})
}

// avgBackPlan is how avgPoolBack turns grad into the scattered value:
// divide by each table in turn (rounding to the tensor's type after each
// when round), or scatter grad and multiply the sums by scale.
type avgBackPlan struct {
	divs  [][]float64
	round bool
	scale float64
}

// backPlan is PyTorch's order of operations for g's backward (see the
// file comment) for a tensor of type kt; 1-d and 2-d divide once in
// their accumulate type (f32, f64 for float64) and accumulate in it.
func (g poolGeom) backPlan(kt kernels.DType) avgBackPlan {
	if g.sd != 3 {
		return avgBackPlan{divs: [][]float64{g.divisors()}}
	}
	if g.adaptive {
		full, _ := g.axisSpans()
		atomic := false
		for i := range g.sd {
			atomic = atomic || g.in[i]%g.out[i] != 0
		}
		if !atomic {
			return avgBackPlan{divs: [][]float64{g.divisors()}, round: true}
		}
		var divs [][]float64
		for i := range full {
			per := make([][]int64, len(full))
			for j := range full {
				per[j] = make([]int64, len(full[j]))
				for o := range per[j] {
					per[j][o] = 1
				}
			}
			per[i] = full[i]
			divs = append(divs, positionProduct(per))
		}
		return avgBackPlan{divs: divs, round: true}
	}
	unit := true
	for i := range g.sd {
		unit = unit && g.stride[i] == 1 && g.pad[i] == 0
	}
	if unit {
		d := numel(g.kernel)
		if g.override != 0 {
			d = g.override
		}
		if kt == kernels.F64 { // normFactor in accscalar_t: double
			return avgBackPlan{scale: 1 / float64(d)}
		}
		return avgBackPlan{scale: float64(float32(1) / float32(d))}
	}
	return avgBackPlan{divs: [][]float64{g.divisors()}, round: true}
}

// avgPoolBack is ExecAvgPoolBack: grad/divisor added to every window
// element inside the input.
func (e *Executor) avgPoolBack(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) error {
	if len(ins) != 1 {
		return fmt.Errorf("gpuexec: avg_pool backward takes grad")
	}
	gy := ins[0]
	g, err := avgPoolGeom(op.Ints, out.shape, gy.shape)
	if err != nil {
		return err
	}
	vals, l, kk := g.table()
	np, hw := g.np, g.plane()
	if np*hw == 0 {
		return nil
	}
	plan := g.backPlan(out.kt)
	return e.withScratch(out.cuda(), func(s *scratch) error {
		s.acc = redAcc(out.kt)
		gf, err := s.asF32(k, gy)
		if err != nil {
			return err
		}
		gf = reshaped(gf, []int64{np, l})
		for _, dv := range plan.divs {
			d, err := s.table(redAcc(out.kt), []int64{l}, dv)
			if err != nil {
				return err
			}
			if err := e.mapOp(k, "div", gf, []operand{gf, d}, 0, 0); err != nil {
				return err
			}
			if plan.round {
				if err := s.roundAs(k, gf, out.kt); err != nil {
					return err
				}
			}
		}
		tbl, err := s.table(kernels.I64, []int64{l, kk}, vals)
		if err != nil {
			return err
		}
		acc, err := s.f32([]int64{np, hw})
		if err != nil {
			return err
		}
		if err := e.mapOp(k, "fill", acc, nil, 0, 0); err != nil {
			return err
		}
		if err := e.indexLaunch(k, kernels.IndexScatterAdd, acc.kt, []int64{np, l, kk}, acc, gf, tbl,
			[3][]int64{{hw, 0, 0}, {l, 1, 0}, {0, kk, 1}}, 1, hw, torch.NoSkipIndex); err != nil {
			return err
		}
		if plan.scale != 0 {
			if err := e.mapOp64(k, "affine", acc, []operand{acc}, plan.scale, 0); err != nil {
				return err
			}
		}
		return e.mapOp(k, "copy", out, []operand{reshaped(acc, out.shape)}, 0, 0)
	})
}

// roundAs rounds the f32 scratch x to kt's precision in place (a copy
// through a scratch of type kt); f32 and wider types are left as they are.
func (s *scratch) roundAs(k gpu.Kernels, x operand, kt kernels.DType) error {
	if kt != kernels.F16 && kt != kernels.BF16 {
		return nil
	}
	t, err := s.typed(kt, x.shape)
	if err != nil {
		return err
	}
	if err := s.e.mapOp(k, "copy", t, []operand{x}, 0, 0); err != nil {
		return err
	}
	return s.e.mapOp(k, "copy", x, []operand{t}, 0, 0)
}
