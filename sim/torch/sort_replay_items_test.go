package torch

import "fmt"

// q16Items maps items of q16_sort_scan_select.out to their replays. Masks
// are all true: the simulator selects every element without values.
func q16Items() map[string]q16Item {
	items := map[string]q16Item{}
	f64 := Float64
	f32 := Float32
	sortOp := func(dim int64, desc bool, stable *bool) func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
		return func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
			v, i, err := rt.Sort(in[0], dim, desc, stable)
			return []*Tensor{v, i}, err
		}
	}
	yes := true
	for _, n := range []int64{100, 2048, 2049, 4096, 4097, 5000, 100000, 1000000} {
		items[fmt.Sprintf("sort f32 [%d]", n)] = q16Item{rnd(Float32, false, n), sortOp(-1, false, nil)}
	}
	items["sort f32 [5000] bwd"] = q16Item{rnd(Float32, true, 5000), sortOp(-1, false, nil)}
	items["sort f32 [100] bwd"] = q16Item{rnd(Float32, true, 100), sortOp(-1, false, nil)}
	items["sort f32 [100] stable"] = q16Item{rnd(Float32, false, 100), sortOp(-1, false, &yes)}
	items["sort f32 [5000] stable desc"] = q16Item{rnd(Float32, false, 5000), sortOp(-1, true, &yes)}
	for _, bn := range [][2]int64{{4, 5000}, {127, 5000}, {128, 5000}, {200, 5000}, {32, 100}, {64, 3000}, {2, 1000000}} {
		items[fmt.Sprintf("sort f32 [%d,%d]", bn[0], bn[1])] = q16Item{rnd(Float32, false, bn[0], bn[1]), sortOp(-1, false, nil)}
	}
	items["sort f32 [32,100] bwd"] = q16Item{rnd(Float32, true, 32, 100), sortOp(1, true, nil)}
	items["sort f32 [4,5000] bwd"] = q16Item{rnd(Float32, true, 4, 5000), sortOp(-1, false, nil)}
	items["sort f32 [5000,4] dim0"] = q16Item{rnd(Float32, false, 5000, 4), sortOp(0, false, nil)}
	items["sort f32 [100,64] dim0"] = q16Item{rnd(Float32, false, 100, 64), sortOp(0, false, nil)}
	items["sort f32 [5000,4].t() dim1"] = q16Item{rnd(Float32, false, 5000, 4), onT(sortOp(1, false, nil))}
	items["sort f32 [8,5000,3] dim1"] = q16Item{rnd(Float32, false, 8, 5000, 3), sortOp(1, false, nil)}
	items["sort f32 [64,100].t() dim0"] = q16Item{rnd(Float32, false, 64, 100), onT(sortOp(0, false, nil))}
	for _, n := range []int64{1024, 1025, 5000} {
		items[fmt.Sprintf("sort i64 [%d]", n)] = q16Item{rnd(Int64, false, n), sortOp(-1, false, nil)}
	}
	items["sort float16 [5000]"] = q16Item{rnd(Float16, false, 5000), sortOp(-1, false, nil)}
	items["sort bfloat16 [5000]"] = q16Item{rnd(BFloat16, false, 5000), sortOp(-1, false, nil)}
	items["sort float64 [5000]"] = q16Item{rnd(Float64, false, 5000), sortOp(-1, false, nil)}
	items["sort i32 [5000]"] = q16Item{rnd(Int32, false, 5000), sortOp(-1, false, nil)}
	items["sort bool [5000]"] = q16Item{rnd(Bool, false, 5000), sortOp(-1, false, nil)}
	items["sort f32 0-dim"] = q16Item{rnd(Float32, true), sortOp(-1, false, nil)}
	items["sort f32 [0,5]"] = q16Item{rnd(Float32, false, 0, 5), sortOp(-1, false, nil)}
	items["argsort f32 [4,5000]"] = q16Item{rnd(Float32, false, 4, 5000), func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
		r, err := rt.Argsort(in[0], -1, true, nil)
		return []*Tensor{r}, err
	}}
	items["argsort f32 [5000] stable"] = q16Item{rnd(Float32, false, 5000), func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
		r, err := rt.Argsort(in[0], -1, false, &yes)
		return []*Tensor{r}, err
	}}
	items["msort f32 [100,8]"] = q16Item{rnd(Float32, true, 100, 8), one((*Runtime).Msort)}

	topk := func(k, dim int64, largest, sorted bool) func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
		return func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
			v, i, err := rt.Topk(in[0], k, dim, largest, sorted)
			return []*Tensor{v, i}, err
		}
	}
	for _, nk := range [][2]int64{{1000, 10}, {100000, 10}, {1000000, 10}, {1000000, 1000}, {1000000, 5000}} {
		items[fmt.Sprintf("topk f32 [%d] k=%d", nk[0], nk[1])] = q16Item{rnd(Float32, false, nk[0]), topk(nk[1], -1, true, true)}
	}
	items["topk f32 [1000000] k=10 unsorted"] = q16Item{rnd(Float32, false, 1000000), topk(10, -1, true, false)}
	items["topk f32 [1000000] k=1000 unsorted"] = q16Item{rnd(Float32, false, 1000000), topk(1000, -1, true, false)}
	for _, bnk := range [][3]int64{{64, 1000, 5}, {64, 50000, 100}, {32, 32000, 50}, {1, 32000, 50}, {8, 128, 128}, {128, 4096, 1024}, {16, 200000, 2048}} {
		items[fmt.Sprintf("topk f32 [%d,%d] k=%d", bnk[0], bnk[1], bnk[2])] = q16Item{rnd(Float32, false, bnk[0], bnk[1]), topk(bnk[2], -1, true, true)}
	}
	items["topk f32 [64,50000] k=100 unsorted"] = q16Item{rnd(Float32, false, 64, 50000), topk(100, -1, true, false)}
	items["topk f32 [64,1000] k=5 smallest"] = q16Item{rnd(Float32, false, 64, 1000), topk(5, -1, false, true)}
	items["topk f16 [32,32000] k=50"] = q16Item{rnd(Float16, false, 32, 32000), topk(50, -1, true, true)}
	items["topk i64 [64,1000] k=5"] = q16Item{rnd(Int64, false, 64, 1000), topk(5, -1, true, true)}
	items["topk f32 [1000,64] k=5 dim0"] = q16Item{rnd(Float32, false, 1000, 64), topk(5, 0, true, true)}
	items["topk f32 [64,1000] k=5 bwd"] = q16Item{rnd(Float32, true, 64, 1000), topk(5, -1, true, true)}
	items["topk f32 [1000000] k=1000 bwd"] = q16Item{rnd(Float32, true, 1000000), topk(1000, -1, true, true)}
	items["topk f32 [100] k=0"] = q16Item{rnd(Float32, false, 100), topk(0, -1, true, true)}
	items["topk f32 0-dim k=1"] = q16Item{rnd(Float32, false), topk(1, -1, true, true)}

	scan := func(f func(*Runtime, *Tensor, int64, *DType) (*Tensor, error), dim int64, dt *DType) func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
		return func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
			r, err := f(rt, in[0], dim, dt)
			return []*Tensor{r}, err
		}
	}
	cumsum, cumprod := (*Runtime).Cumsum, (*Runtime).Cumprod
	items["cumsum f32 [1000] dim=0"] = q16Item{rnd(Float32, false, 1000), scan(cumsum, 0, nil)}
	items["cumsum f32 [1000000] dim=0"] = q16Item{rnd(Float32, false, 1000000), scan(cumsum, 0, nil)}
	items["cumsum f32 [64, 1000] dim=1"] = q16Item{rnd(Float32, false, 64, 1000), scan(cumsum, 1, nil)}
	items["cumsum f32 [64, 1000] dim=0"] = q16Item{rnd(Float32, false, 64, 1000), scan(cumsum, 0, nil)}
	items["cumsum f32 [8, 1000, 16] dim=1"] = q16Item{rnd(Float32, false, 8, 1000, 16), scan(cumsum, 1, nil)}
	items["cumsum f32 [64,1000].t() dim=1"] = q16Item{rnd(Float32, false, 64, 1000), onT(scan(cumsum, 1, nil))}
	items["cumsum f32 [64,1000] bwd dim1"] = q16Item{rnd(Float32, true, 64, 1000), scan(cumsum, 1, nil)}
	items["cumsum f32 [64,1000] bwd dim0"] = q16Item{rnd(Float32, true, 64, 1000), scan(cumsum, 0, nil)}
	items["cumsum f32 [1000000] bwd"] = q16Item{rnd(Float32, true, 1000000), scan(cumsum, 0, nil)}
	items["cumsum f32 [64,1] bwd"] = q16Item{rnd(Float32, true, 64, 1), scan(cumsum, 1, nil)}
	items["cumsum i64 [1000]"] = q16Item{rnd(Int64, false, 1000), scan(cumsum, 0, nil)}
	items["cumsum i32 [1000]"] = q16Item{rnd(Int32, false, 1000), scan(cumsum, 0, nil)}
	items["cumsum bool [64,1000]"] = q16Item{rnd(Bool, false, 64, 1000), scan(cumsum, 1, nil)}
	items["cumsum f16 [64,1000] bwd"] = q16Item{rnd(Float16, true, 64, 1000), scan(cumsum, 1, nil)}
	items["cumsum f32 dtype=f64 bwd"] = q16Item{rnd(Float32, true, 64, 1000), scan(cumsum, 1, &f64)}
	items["cumsum f16 dtype=f32 bwd"] = q16Item{rnd(Float16, true, 64, 1000), scan(cumsum, 1, &f32)}
	items["cumprod f32 [64,100] bwd"] = q16Item{rnd(Float32, true, 64, 100), scan(cumprod, 1, nil)}
	items["cumprod f32 [64,100] bwd dim0"] = q16Item{rnd(Float32, true, 64, 100), scan(cumprod, 0, nil)}
	items["cumprod f32 [1000] bwd"] = q16Item{rnd(Float32, true, 1000), scan(cumprod, 0, nil)}
	items["cumprod f32 [1000000] bwd"] = q16Item{rnd(Float32, true, 1000000), scan(cumprod, 0, nil)}
	items["cumprod i64 [1000]"] = q16Item{rnd(Int64, false, 1000), scan(cumprod, 0, nil)}
	items["cumprod f16 dtype=f32 bwd"] = q16Item{rnd(Float16, true, 64, 100), scan(cumprod, 1, &f32)}

	flip := func(dims ...int64) func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
		return func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
			r, err := rt.Flip(in[0], dims)
			return []*Tensor{r}, err
		}
	}
	items["flip f32 [64,1000] (0,) bwd"] = q16Item{rnd(Float32, true, 64, 1000), flip(0)}
	items["flip f32 [64,1000] (1,) bwd"] = q16Item{rnd(Float32, true, 64, 1000), flip(1)}
	items["flip f32 [64,1000] (0, 1) bwd"] = q16Item{rnd(Float32, true, 64, 1000), flip(0, 1)}
	items["flip f32 [64,1000] (-1,) bwd"] = q16Item{rnd(Float32, true, 64, 1000), flip(-1)}
	items["flip f32 [64,1000].t() (0,)"] = q16Item{rnd(Float32, false, 64, 1000), onT(flip(0))}
	roll := func(shifts []int64, dims ...int64) func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
		return func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
			r, err := rt.Roll(in[0], shifts, dims)
			return []*Tensor{r}, err
		}
	}
	items["roll f32 [64,1000] 3 dim1 bwd"] = q16Item{rnd(Float32, true, 64, 1000), roll([]int64{3}, 1)}
	items["roll f32 [64,1000] -3 dim0"] = q16Item{rnd(Float32, false, 64, 1000), roll([]int64{-3}, 0)}
	items["roll f32 [64,1000] (1,2) (0,1) bwd"] = q16Item{rnd(Float32, true, 64, 1000), roll([]int64{1, 2}, 0, 1)}
	items["roll f32 [64,1000] 5 flat bwd"] = q16Item{rnd(Float32, true, 64, 1000), roll([]int64{5})}
	items["roll f32 [64,1000].t() 3 dim0"] = q16Item{rnd(Float32, false, 64, 1000), onT(roll([]int64{3}, 0))}
	items["roll f32 [8,16,16,32] (4,4) (1,2) bwd"] = q16Item{rnd(Float32, true, 8, 16, 16, 32), roll([]int64{-4, -4}, 1, 2)}
	repeat := func(reps ...int64) func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
		return func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
			r, err := rt.Repeat(in[0], reps)
			return []*Tensor{r}, err
		}
	}
	items["repeat f32 [64,100] (2,3) bwd"] = q16Item{rnd(Float32, true, 64, 100), repeat(2, 3)}
	items["repeat f32 [100] (4,2) bwd"] = q16Item{rnd(Float32, true, 100), repeat(4, 2)}
	items["repeat f32 [64,100] (1,1) bwd"] = q16Item{rnd(Float32, true, 64, 100), repeat(1, 1)}
	items["repeat f32 [1,1,64] (8,16,1) bwd"] = q16Item{rnd(Float32, true, 1, 1, 64), repeat(8, 16, 1)}
	items["repeat f32 [64,100].t() (2,1)"] = q16Item{rnd(Float32, false, 64, 100), onT(repeat(2, 1))}
	interleave := func(reps int64, dim *int64) func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
		return func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
			r, err := rt.RepeatInterleave(in[0], reps, dim, nil)
			return []*Tensor{r}, err
		}
	}
	d0, d1 := int64(0), int64(1)
	items["repeat_interleave f32 [64,100] 3 dim1 bwd"] = q16Item{rnd(Float32, true, 64, 100), interleave(3, &d1)}
	items["repeat_interleave f32 [64,100] 3 dim0 bwd"] = q16Item{rnd(Float32, true, 64, 100), interleave(3, &d0)}
	items["repeat_interleave f32 [64,100] 2 flat bwd"] = q16Item{rnd(Float32, true, 64, 100), interleave(2, nil)}
	items["repeat_interleave f32 [2,8,128,64] 4 dim1 bwd"] = q16Item{rnd(Float32, true, 2, 8, 128, 64), interleave(4, &d1)}

	lse := func(keep bool, dims ...int64) func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
		return func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
			r, err := rt.Logsumexp(in[0], dims, keep)
			return []*Tensor{r}, err
		}
	}
	items["logsumexp f32 [64, 1000] 1 keep=False bwd"] = q16Item{rnd(Float32, true, 64, 1000), lse(false, 1)}
	items["logsumexp f32 [64, 1000] 1 keep=True bwd"] = q16Item{rnd(Float32, true, 64, 1000), lse(true, 1)}
	items["logsumexp f32 [64, 1000] 0 keep=False bwd"] = q16Item{rnd(Float32, true, 64, 1000), lse(false, 0)}
	items["logsumexp f32 [64, 1000] (0, 1) keep=False bwd"] = q16Item{rnd(Float32, true, 64, 1000), lse(false, 0, 1)}
	items["logsumexp f32 [1000000] 0 keep=False bwd"] = q16Item{rnd(Float32, true, 1000000), lse(false, 0)}
	items["logsumexp f16 [64,1000] 1 bwd"] = q16Item{rnd(Float16, true, 64, 1000), lse(false, 1)}
	items["logsumexp i64 [64,1000] 1"] = q16Item{rnd(Int64, false, 64, 1000), lse(false, 1)}
	prod := func(dims []int64, keep bool, dt *DType) func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
		return func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
			r, err := rt.Prod(in[0], dims, keep, dt)
			return []*Tensor{r}, err
		}
	}
	items["prod f32 [64,100] bwd"] = q16Item{rnd(Float32, true, 64, 100), prod(nil, false, nil)}
	items["prod f32 [64,100] dim1 bwd"] = q16Item{rnd(Float32, true, 64, 100), prod([]int64{1}, false, nil)}
	items["prod f32 [64,100] dim0 keep bwd"] = q16Item{rnd(Float32, true, 64, 100), prod([]int64{0}, true, nil)}
	items["prod i64 [64,100]"] = q16Item{rnd(Int64, false, 64, 100), prod(nil, false, nil)}
	items["prod i32 [64,100] dim1"] = q16Item{rnd(Int32, false, 64, 100), prod([]int64{1}, false, nil)}
	items["prod f16 dtype=f32 [64,100]"] = q16Item{rnd(Float16, true, 64, 100), prod(nil, false, &f32)}

	nonzero := one((*Runtime).Nonzero)
	items["nonzero [1000] frac=1.0"] = q16Item{ones(Bool, 1000), nonzero}
	items["nonzero [64, 100] frac=1.0"] = q16Item{ones(Bool, 64, 100), nonzero}
	items["nonzero [100000] frac=1.0"] = q16Item{ones(Bool, 100000), nonzero}
	items["nonzero f32 [64,100]"] = q16Item{rnd(Float32, false, 64, 100), nonzero}
	items["nonzero 0-dim"] = q16Item{ones(Bool), nonzero}
	items["masked_select [64, 100] mask [64, 100] 1.0 bwd"] = q16Item{both(rnd(Float32, true, 64, 100), ones(Bool, 64, 100)), func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
		r, err := rt.MaskedSelect(in[0], in[1])
		return []*Tensor{r}, err
	}}

	sel := func(op string, k, dim int64, keep bool) func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
		return func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
			v, i, err := rt.SelectDim(op, in[0], k, dim, keep)
			return []*Tensor{v, i}, err
		}
	}
	items["kthvalue f32 [64,1000] k=10 bwd"] = q16Item{rnd(Float32, true, 64, 1000), sel("kthvalue", 10, 1, false)}
	items["kthvalue f32 [64,5000] k=10"] = q16Item{rnd(Float32, false, 64, 5000), sel("kthvalue", 10, -1, false)}
	items["kthvalue f32 [100000] k=5"] = q16Item{rnd(Float32, false, 100000), sel("kthvalue", 5, -1, false)}
	items["median f32 [64,1000] dim1 bwd"] = q16Item{rnd(Float32, true, 64, 1000), sel("median", 0, 1, false)}
	items["mode i64 [64,1000] dim1"] = q16Item{rnd(Int64, false, 64, 1000), sel("mode", 0, 1, false)}
	items["mode f32 [64,1000] dim1 bwd"] = q16Item{rnd(Float32, true, 64, 1000), sel("mode", 0, 1, false)}
	items["median f32 [64,1000] all bwd"] = q16Item{rnd(Float32, true, 64, 1000), one((*Runtime).MedianAll)}
	items["median f32 [100001] all"] = q16Item{rnd(Float32, false, 100001), one((*Runtime).MedianAll)}
	q16bItems(items, sortOp, topk, scan)
	return items
}

// q16bItems adds the follow-up recording's items.
func q16bItems(items map[string]q16Item, sortOp func(int64, bool, *bool) func(*Runtime, []*Tensor) ([]*Tensor, error),
	topk func(int64, int64, bool, bool) func(*Runtime, []*Tensor) ([]*Tensor, error),
	scan func(func(*Runtime, *Tensor, int64, *DType) (*Tensor, error), int64, *DType) func(*Runtime, []*Tensor) ([]*Tensor, error)) {
	yes, no := true, false
	for _, n := range []int64{4097, 4608, 4609, 6000, 9216, 9217, 20000} {
		items[fmt.Sprintf("sort u8 [%d]", n)] = q16Item{rnd(Uint8, false, n), sortOp(-1, false, nil)}
	}
	items["sort bool [20000]"] = q16Item{rnd(Bool, false, 20000), sortOp(-1, false, nil)}
	for _, n := range []int64{5376, 5377, 10752, 10753, 100000} {
		items[fmt.Sprintf("sort f16 [%d]", n)] = q16Item{rnd(Float16, false, n), sortOp(-1, false, nil)}
	}
	items["sort f32 [5000] stable bwd"] = q16Item{rnd(Float32, true, 5000), sortOp(-1, false, &yes)}
	items["sort f32 [4,5000] stable=False bwd"] = q16Item{rnd(Float32, true, 4, 5000), sortOp(-1, false, &no)}
	for _, n := range []int64{1024, 1025, 2048, 4096, 4097, 4608, 5000, 6000, 10000000} {
		items[fmt.Sprintf("nonzero bool [%d]", n)] = q16Item{ones(Bool, n), one((*Runtime).Nonzero)}
	}
	for _, dt := range []DType{Float16, BFloat16, Float64, Int32} {
		d := dt
		items[fmt.Sprintf("cumsum %s [1000000]", dt.Name())] = q16Item{ones(dt, 1000000), scan((*Runtime).Cumsum, 0, &d)}
	}
	items["cumsum f32 [100000]"] = q16Item{rnd(Float32, false, 100000), scan((*Runtime).Cumsum, 0, nil)}
	items["topk f32 [50000,4].t() k=10"] = q16Item{rnd(Float32, false, 50000, 4), onT(topk(10, -1, true, true))}
	items["topk f32 [4000,1000] k=5"] = q16Item{rnd(Float32, false, 4000, 1000), topk(5, -1, true, true)}
	items["topk f32 [2,10000000] k=5"] = q16Item{rnd(Float32, false, 2, 10000000), topk(5, -1, true, true)}
	items["topk f32 [3,100000] k=5000"] = q16Item{rnd(Float32, false, 3, 100000), topk(5000, -1, true, true)}
	items["masked_select [64,100] sum bwd"] = q16Item{both(rnd(Float32, true, 64, 100), ones(Bool, 64, 100)), func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
		r, err := rt.MaskedSelect(in[0], in[1])
		if err != nil {
			return nil, err
		}
		defer r.Release()
		s, err := rt.Sum(r, nil, false, nil)
		return []*Tensor{s}, err
	}}
}

// rnd makes one CUDA tensor of dtype dt (requiring grad when grad).
func rnd(dt DType, grad bool, shape ...int64) func(rt *Runtime) []*Tensor {
	return func(rt *Runtime) []*Tensor {
		x, err := rt.Factory("randn", shape, dt, CUDA0, grad)
		if err != nil {
			panic(err)
		}
		return []*Tensor{x}
	}
}

// ones makes one CUDA tensor of dtype dt.
func ones(dt DType, shape ...int64) func(rt *Runtime) []*Tensor { return rnd(dt, false, shape...) }

// both concatenates two input makers.
func both(a, b func(rt *Runtime) []*Tensor) func(rt *Runtime) []*Tensor {
	return func(rt *Runtime) []*Tensor { return append(a(rt), b(rt)...) }
}

// one adapts a one-tensor op.
func one(f func(*Runtime, *Tensor) (*Tensor, error)) func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
	return func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
		r, err := f(rt, in[0])
		return []*Tensor{r}, err
	}
}

// onT runs op on the transpose of the input (x.t(), a view freed after).
func onT(op func(rt *Runtime, in []*Tensor) ([]*Tensor, error)) func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
	return func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
		v, err := rt.T(in[0])
		if err != nil {
			return nil, err
		}
		defer v.Release()
		return op(rt, []*Tensor{v})
	}
}
