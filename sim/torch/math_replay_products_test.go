package torch

import (
	"fmt"
	"math"
)

// posInfinity is p = inf for dist and cdist items.
var posInfinity = math.Inf(1)

// addMathProductItems adds q20's product items (mv, addmv, addbmm, inner,
// kron, cross, cdist) to items.
func addMathProductItems(all map[string]q16Item) {
	items := map[string]q16Item{}
	defer func() {
		for name, it := range items {
			all[name] = q16Item{warm(it.make), it.op}
		}
	}()
	r := func(grad bool, shape ...int64) func(rt *Runtime) []*Tensor { return rnd(Float32, grad, shape...) }
	items["inner [8,16,100]x[100] bwd"] = q16Item{both(r(true, 8, 16, 100), r(true, 100)), two((*Runtime).Inner)}
	items["inner 0-dim bwd"] = q16Item{both(r(true), r(true, 64, 100)), two((*Runtime).Inner)}
	items["mv [1000,512]x[512] bwd"] = q16Item{both(r(true, 1000, 512), r(true, 512)), two((*Runtime).Mv)}
	items["mv t() bwd"] = q16Item{both(r(true, 512, 1000), r(true, 512)), func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
		t, err := rt.T(in[0])
		if err != nil {
			return nil, err
		}
		defer t.Release()
		m, err := rt.Mv(t, in[1])
		return []*Tensor{m}, err
	}}
	items["mv f16 bwd"] = q16Item{both(rnd(Float16, true, 1000, 512), rnd(Float16, true, 512)), two((*Runtime).Mv)}
	items["mv vec-only grad"] = q16Item{both(r(false, 1000, 512), r(true, 512)), two((*Runtime).Mv)}
	addmv := func(beta, alpha float64) func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
		return func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
			o, err := rt.Addmv(in[2], in[0], in[1], beta, alpha)
			return []*Tensor{o}, err
		}
	}
	mvIn := func(bias ...int64) func(rt *Runtime) []*Tensor {
		return both(both(r(true, 1000, 512), r(true, 512)), r(true, bias...))
	}
	items["addmv bwd"] = q16Item{mvIn(1000), addmv(1, 1)}
	items["addmv beta alpha bwd"] = q16Item{mvIn(1000), addmv(0.5, 2)}
	items["addmv beta=0 bwd"] = q16Item{mvIn(1000), addmv(0, 1)}
	items["addmv bcast bias [1] bwd"] = q16Item{mvIn(1), addmv(1, 1)}
	addbmm := func(beta, alpha float64) func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
		return func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
			o, err := rt.Addbmm(in[2], in[0], in[1], beta, alpha, false)
			return []*Tensor{o}, err
		}
	}
	bmmIn := func(bias ...int64) func(rt *Runtime) []*Tensor {
		return both(both(r(true, 8, 64, 32), r(true, 8, 32, 128)), r(true, bias...))
	}
	items["addbmm bwd"] = q16Item{bmmIn(64, 128), addbmm(1, 1)}
	items["addbmm beta alpha bwd"] = q16Item{bmmIn(64, 128), addbmm(0.5, 2)}
	items["addbmm bcast bias [128] bwd"] = q16Item{bmmIn(128), addbmm(1, 1)}
	items["kron [64,64]x[4,4] bwd"] = q16Item{both(r(true, 64, 64), r(true, 4, 4)), two((*Runtime).Kron)}
	items["kron [100]x[10] bwd"] = q16Item{both(r(true, 100), r(true, 10)), two((*Runtime).Kron)}
	items["kron [8,8]x[2,3,4] bwd"] = q16Item{both(r(true, 8, 8), r(true, 2, 3, 4)), two((*Runtime).Kron)}
	cross := func(dim int64) func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
		return two(func(rt *Runtime, a, b *Tensor) (*Tensor, error) { return rt.LinalgCross(a, b, dim) })
	}
	items["cross [1000,3] dim1 bwd"] = q16Item{both(r(true, 1000, 3), r(true, 1000, 3)), cross(1)}
	items["linalg.cross [1000,3] bwd"] = q16Item{both(r(true, 1000, 3), r(true, 1000, 3)), cross(-1)}
	items["linalg.cross bcast [1000,3]x[1,3] bwd"] = q16Item{both(r(true, 1000, 3), r(true, 1, 3)), cross(-1)}
	items["linalg.cross [3,1000] dim0 bwd"] = q16Item{both(r(true, 3, 1000), r(true, 3, 1000)), cross(0)}
	cdist := func(p float64, mode int64) func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
		return two(func(rt *Runtime, a, b *Tensor) (*Tensor, error) { return rt.Cdist(a, b, p, mode) })
	}
	for _, s := range [][2][]int64{{{64, 100, 32}, {64, 200, 32}}, {{4, 10, 8}, {4, 20, 8}}, {{1000, 64}, {500, 64}},
		{{20, 64}, {25, 64}}, {{26, 64}, {10, 64}}, {{2, 3000, 3}, {2, 3000, 3}}} {
		for _, p := range []float64{2, 1} {
			name := fmt.Sprintf("cdist %s x%s p=%.1f bwd", shapeList(s[0]), shapeList(s[1]), p)
			name = fmt.Sprintf("cdist %sx%s p=%.1f bwd", pyList(s[0]), pyList(s[1]), p)
			items[name] = q16Item{both(r(true, s[0]...), r(true, s[1]...)), cdist(p, 0)}
		}
	}
	big := both(r(true, 64, 100, 32), r(true, 64, 200, 32))
	items["cdist p=inf bwd"] = q16Item{big, cdist(posInfinity, 0)}
	items["cdist p=3 bwd"] = q16Item{big, cdist(3, 0)}
	items["cdist p=0"] = q16Item{big, cdist(0, 0)}
	items["addmv_ bwd"] = q16Item{both(both(r(true, 1000, 512), r(true, 512)), cloned(Float32, 1000)), func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
		o, err := rt.AddmvInplace(in[2], in[0], in[1], 1, 1)
		return []*Tensor{o}, err
	}}
	items["addbmm_ bwd"] = q16Item{both(both(r(true, 8, 64, 32), r(true, 8, 32, 128)), cloned(Float32, 64, 128)), func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
		o, err := rt.Addbmm(in[2], in[0], in[1], 1, 1, true)
		return []*Tensor{o}, err
	}}
	items["addbmm large [32,256,256]"] = q16Item{both(both(r(false, 32, 256, 256), r(false, 32, 256, 256)), r(false, 256, 256)), addbmm(1, 1)}
	items["kron i64"] = q16Item{both(rnd(Int64, false, 16, 16), rnd(Int64, false, 4, 4)), two((*Runtime).Kron)}
	items["cross no dim [3,1000]"] = q16Item{both(r(false, 3, 1000), r(false, 3, 1000)), cross(0)}
	items["cross method [8,3,16] dim1"] = q16Item{both(r(true, 8, 3, 16), r(true, 8, 3, 16)), cross(1)}
	items["cdist donot_use_mm large bwd"] = q16Item{big, cdist(2, 2)}
	items["cdist use_mm always small bwd"] = q16Item{both(r(true, 4, 10, 8), r(true, 4, 20, 8)), cdist(2, 1)}
	items["cdist bcast batch [1,100,32]x[8,200,32] bwd"] = q16Item{both(r(true, 1, 100, 32), r(true, 8, 200, 32)), cdist(2, 0)}
	items["cdist x1-only grad mm"] = q16Item{both(r(true, 1000, 64), r(false, 500, 64)), cdist(2, 0)}
	items["cdist f16 mm bwd"] = q16Item{both(rnd(Float16, true, 1000, 64), rnd(Float16, true, 500, 64)), cdist(2, 0)}
}

// pyList writes a shape as Python prints a list: [64, 100, 32].
func pyList(s []int64) string {
	out := "["
	for i, v := range s {
		if i > 0 {
			out += ", "
		}
		out += fmt.Sprint(v)
	}
	return out + "]"
}

// warm makes the inputs and takes the cuBLAS workspaces of both threads
// before the op, as the recording's earlier items had (they are allocated
// once per thread and kept).
func warm(mk func(rt *Runtime) []*Tensor) func(rt *Runtime) []*Tensor {
	return func(rt *Runtime) []*Tensor {
		in := mk(rt)
		prev := rt.th
		for _, th := range []thread{prev, autogradThread} {
			rt.th = th
			if err := rt.workspace(false); err != nil {
				panic(err)
			}
		}
		rt.th = prev
		return in
	}
}
