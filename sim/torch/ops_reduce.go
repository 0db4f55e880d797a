package torch

import "sort"

// reduceShape is the output shape of a reduction over dims (nil: all).
func reduceShape(shape []int64, dims []int64, keepdim bool) ([]int64, []bool, error) {
	red := make([]bool, len(shape))
	if len(dims) == 0 {
		for i := range red {
			red[i] = true
		}
	} else {
		for _, d := range dims {
			w, err := wrapDim(d, len(shape))
			if err != nil {
				return nil, nil, err
			}
			if len(shape) == 0 {
				continue
			}
			if red[w] {
				return nil, nil, Errorf(RuntimeError, "dim %d appears multiple times in the list of dims", w)
			}
			red[w] = true
		}
	}
	var out []int64
	for i, s := range shape {
		switch {
		case !red[i]:
			out = append(out, s)
		case keepdim:
			out = append(out, 1)
		}
	}
	return out, red, nil
}

// reduceOut allocates a reduction's output.
func (rt *Runtime) reduceOut(op string, t *Tensor, dims []int64, keepdim bool, dt DType) (*Tensor, error) {
	shape, _, err := reduceShape(t.shape, dims, keepdim)
	if err != nil {
		return nil, err
	}
	return rt.empty(op, shape, nil, dt, t.device)
}

// sumDType is the accumulation dtype of sum: integers and bool sum to int64.
func sumDType(d DType) DType {
	if d.IsIntegral(true) {
		return Int64
	}
	return d
}

// Sum is torch.sum(t, dims, keepdim, dtype) (dims nil: everything).
func (rt *Runtime) Sum(t *Tensor, dims []int64, keepdim bool, dt *DType) (*Tensor, error) {
	odt := sumDType(t.dtype)
	if dt != nil {
		odt = *dt
	}
	out, err := rt.reduceOut("sum", t, dims, keepdim, odt)
	if err != nil {
		return nil, err
	}
	cast, err := rt.reduceInputCast("sum", t, odt) // reduce_cast.go
	if err != nil {
		out.Release()
		return nil, err
	}
	err = rt.reduceKernel(t, dims, accSize(t.dtype))
	cast.Release()
	if err != nil {
		out.Release()
		return nil, err
	}
	if rt.exec != nil {
		rt.compute(ExecSum, []*Tensor{out}, []*Tensor{t}, nil, dims)
	}
	in, inDT := cloneShape(t.shape), t.dtype
	name := "SumBackward1"
	if dims == nil {
		name = "SumBackward0"
	}
	n := rt.record(name, t)
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.sumBackward(g[0], in, dims, keepdim)
		if err != nil || r.dtype == inDT {
			return []*Tensor{r}, err
		}
		c, err := rt.toDType(r, inDT)
		r.Release()
		return []*Tensor{c}, err
	}, out)
	return out, nil
}

// sumBackward is sum_backward: the gradient unsqueezed back and expanded
// (a view, no memory).
func (rt *Runtime) sumBackward(g *Tensor, in []int64, dims []int64, keepdim bool) (*Tensor, error) {
	cur := g.Retain()
	if !keepdim && len(dims) > 0 && len(in) > 0 {
		ws := make([]int, 0, len(dims))
		for _, d := range dims {
			w, _ := wrapDim(d, len(in))
			ws = append(ws, w)
		}
		sort.Ints(ws)
		for _, w := range ws {
			u, err := rt.Unsqueeze(cur, int64(w))
			cur.Release()
			if err != nil {
				return nil, err
			}
			cur = u
		}
	}
	e, err := rt.Expand(cur, in)
	cur.Release()
	return e, err
}

// Mean is torch.mean(t, dims, keepdim).
func (rt *Runtime) Mean(t *Tensor, dims []int64, keepdim bool, dt *DType) (*Tensor, error) {
	odt := t.dtype
	if dt != nil {
		odt = *dt
	}
	if !odt.IsFloating() && !odt.IsComplex() {
		// As aten's mean meta function: the dtype argument is named
		// "Optional", the dtypes as c10 prints them ("Long").
		what, bad := "Input", t.dtype
		if dt != nil {
			what, bad = "Optional", *dt
		}
		return nil, Errorf(RuntimeError, "mean(): could not infer output dtype. %s dtype must be either a floating point or complex dtype. Got: %s", what, bad.cppName())
	}
	out, err := rt.reduceOut("mean", t, dims, keepdim, odt)
	if err != nil {
		return nil, err
	}
	if err := rt.reduceKernel(t, dims, accSize(t.dtype)); err != nil {
		out.Release()
		return nil, err
	}
	if rt.exec != nil {
		rt.compute(ExecMean, []*Tensor{out}, []*Tensor{t}, nil, dims)
	}
	in := cloneShape(t.shape)
	_, red, _ := reduceShape(in, dims, keepdim)
	cnt := int64(1)
	for i, r := range red {
		if r {
			cnt *= in[i]
		}
	}
	name := "MeanBackward1"
	if dims == nil {
		name = "MeanBackward0"
	}
	n := rt.record(name, t)
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		e, err := rt.sumBackward(g[0], in, dims, keepdim)
		if err != nil {
			return nil, err
		}
		defer e.Release()
		r, err := rt.DivScalar(e, Int(cnt))
		return []*Tensor{r}, err
	}, out)
	return out, nil
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	b := []byte(s)
	if b[0] >= 'a' && b[0] <= 'z' {
		b[0] -= 32
	}
	return string(b)
}

// sumTo is at::sum_to: g summed down to shape (g itself when shapes agree).
func (rt *Runtime) sumTo(g *Tensor, shape []int64) (*Tensor, error) {
	if len(shape) == 0 {
		if len(g.shape) == 0 {
			return g.Retain(), nil
		}
		return rt.Sum(g, nil, false, nil)
	}
	lead := len(g.shape) - len(shape)
	var dims []int64
	for i := 0; i < lead; i++ {
		dims = append(dims, int64(i))
	}
	for i := lead; i < len(g.shape); i++ {
		if shape[i-lead] == 1 && g.shape[i] != 1 {
			dims = append(dims, int64(i))
		}
	}
	cur := g.Retain()
	if len(dims) > 0 {
		s, err := rt.Sum(g, dims, true, nil)
		cur.Release()
		if err != nil {
			return nil, err
		}
		cur = s
	}
	if lead > 0 {
		v, err := rt.View(cur, shape)
		cur.Release()
		return v, err
	}
	return cur, nil
}

// MaxDim is torch.max(t, dim, keepdim) → (values, indices) (MaxBackward0
// saves indices; index_select_backward allocates the input's size).
func (rt *Runtime) MaxDim(op string, t *Tensor, dim int64, keepdim bool) (*Tensor, *Tensor, error) {
	vals, err := rt.reduceOut(op, t, []int64{dim}, keepdim, t.dtype)
	if err != nil {
		return nil, nil, err
	}
	idx, err := rt.reduceOut(op, t, []int64{dim}, keepdim, Int64)
	if err != nil {
		vals.Release()
		return nil, nil, err
	}
	if err := rt.reduceKernel(t, []int64{dim}, 16); err != nil { // pair<acc, int64>
		vals.Release()
		idx.Release()
		return nil, nil, err
	}
	in, dt, dev := cloneShape(t.shape), t.dtype, t.device
	name := "MaxBackward0"
	if op == "min" {
		name = "MinBackward0"
	}
	n := rt.record(name, t)
	if n != nil {
		n.save(idx, true)
		n.fn = func(n *Node, g []*Tensor) ([]*Tensor, error) {
			r, err := rt.empty("index_select_backward", in, nil, dt, dev)
			if err == nil {
				rt.reduceBackValues(n, r, g[0], ExecSelectBack, nil, []int64{dim}, 0)
			}
			return []*Tensor{r}, err
		}
		n.setHistory(vals, nil)
	}
	if rt.exec != nil {
		kind := ExecMaxDim
		if op == "min" {
			kind = ExecMinDim
		}
		rt.compute(kind, []*Tensor{vals, idx}, []*Tensor{t}, nil, []int64{dim})
	}
	return vals, idx, nil
}

// MaxAll is torch.max(t) / min / amax / amin over everything (saves self
// and result; evenly_distribute_backward allocates like self). max/min's
// backward counts NaN as equal to a NaN result, amax/amin's does not.
func (rt *Runtime) MaxAll(op string, t *Tensor) (*Tensor, error) {
	nanEq := 1.0
	if op == "amax" || op == "amin" {
		op, nanEq = op[1:], 0
	}
	out, err := rt.reduceOut(op, t, nil, false, t.dtype)
	if err != nil {
		return nil, err
	}
	if err := rt.reduceKernel(t, nil, max(4, t.dtype.Size())); err != nil {
		out.Release()
		return nil, err
	}
	name := "MaxBackward1"
	if op == "min" {
		name = "MinBackward1"
	}
	n := rt.record(name, t)
	if n != nil {
		n.save(t, false)
		n.save(out, true)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		self, err := n.unpack(0)
		if err != nil {
			return nil, err
		}
		defer self.Release()
		mask, err := rt.CompareScalar("eq", self)
		if err != nil {
			return nil, err
		}
		defer mask.Release()
		var ins []*Tensor
		if rt.exec != nil {
			res, err := n.unpack(1)
			if err == nil && res != nil {
				defer res.Release()
				ins = []*Tensor{g[0], self, res}
			}
		}
		if ins == nil {
			r, err := rt.gradLike("evenly_distribute_backward", g[0], self)
			return []*Tensor{r}, err
		}
		r, err := rt.gradValues("evenly_distribute_backward", g[0], self, ExecEvenlyBack, ins, []float64{nanEq}, nil)
		return []*Tensor{r}, err
	}, out)
	if rt.exec != nil {
		kind := ExecMaxAll
		if op == "min" {
			kind = ExecMinAll
		}
		rt.compute1(kind, out, []*Tensor{t})
	}
	return out, nil
}

// Argmax is torch.argmax/argmin (int64, no gradient).
func (rt *Runtime) Argmax(op string, t *Tensor, dim *int64, keepdim bool) (*Tensor, error) {
	var dims []int64
	if dim != nil {
		dims = []int64{*dim}
	}
	out, err := rt.reduceOut(op, t, dims, keepdim, Int64)
	if err != nil {
		return nil, err
	}
	if err := rt.reduceKernel(t, dims, 16); err != nil {
		out.Release()
		return nil, err
	}
	if rt.exec != nil {
		switch op {
		case "argmax":
			rt.compute(ExecArgmax, []*Tensor{out}, []*Tensor{t}, nil, pickDims(dim))
		case "argmin":
			rt.compute(ExecArgmin, []*Tensor{out}, []*Tensor{t}, nil, pickDims(dim))
		default:
			rt.markNotComputed(out)
		}
	}
	return out, nil
}

// AllAny is t.all() / t.any() over every element (2.11's all_all_out /
// any_all_out on CUDA): a 0-dim bool result (uint8 for a uint8 input),
// reduced straight from t's dtype (make_reduction casts on the fly, no
// bool copy of t) with a 1-byte accumulator for the reduction scratch.
// An empty t gives True for all and False for any.
func (rt *Runtime) AllAny(op string, t *Tensor) (*Tensor, error) {
	dt := Bool
	if t.dtype == Uint8 {
		dt = Uint8
	}
	out, err := rt.reduceOut(op, t, nil, false, dt)
	if err != nil {
		return nil, err
	}
	if err := rt.reduceKernel(t, nil, 1); err != nil {
		out.Release()
		return nil, err
	}
	if rt.exec != nil {
		kind := ExecAll
		if op == "any" {
			kind = ExecAny
		}
		rt.compute1(kind, out, []*Tensor{t})
	}
	return out, nil
}
