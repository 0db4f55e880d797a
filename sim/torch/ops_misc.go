package torch

import (
	"math"
	"strings"
)

// BinaryNoGrad is an elementwise op of two tensors without a derivative
// (floor_divide, remainder, bitwise_*): one output of the promoted dtype.
func (rt *Runtime) BinaryNoGrad(op string, a, b *Tensor) (*Tensor, error) {
	if IsDivFamily(op) {
		return rt.DivTensor(op, a, b)
	}
	out, err := rt.pointwiseOut(op, ResultType([]*Tensor{a, b}, nil), a, b)
	if err != nil {
		return nil, err
	}
	if err := bitwiseFloatErr(op, out); err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.binaryNoGradValues(op, out, a, b)
	}
	return out, nil
}

// bitwiseFloatErr is the dtype dispatch error of a bitwise op whose
// result out is floating (its kernels have integral and bool cases only;
// PyTorch has allocated the output, released here).
func bitwiseFloatErr(op string, out *Tensor) error {
	if !strings.HasPrefix(op, "bitwise_") || !out.dtype.IsFloating() {
		return nil
	}
	suffix := "_cpu"
	if out.device.IsCUDA() {
		suffix = "_cuda"
	}
	out.Release()
	return Errorf(NotImplementedError, "\"%s%s\" not implemented for '%s'", op, suffix, out.dtype.cppName())
}

// ScalarNoGrad is BinaryNoGrad with a Python number.
func (rt *Runtime) ScalarNoGrad(op string, a *Tensor, s Scalar) (*Tensor, error) {
	if IsDivFamily(op) {
		return rt.DivScalarOp(op, a, s, false)
	}
	out, err := rt.unaryOut(op, a, scalarResult(a, s))
	if err != nil {
		return nil, err
	}
	return out, bitwiseFloatErr(op, out)
}

// UnaryNoGrad is an elementwise op without a derivative (bitwise_not,
// sign, floor, round, ...): an output like a.
func (rt *Runtime) UnaryNoGrad(op string, a *Tensor) (*Tensor, error) {
	out, err := rt.unaryOut(op, a, a.dtype)
	if err != nil {
		return nil, err
	}
	if err := bitwiseFloatErr(op, out); err != nil {
		return nil, err
	}
	if rt.exec != nil && op == "bitwise_not" {
		kind := ExecKind("bitwise_not")
		if a.dtype == Bool {
			kind = ExecKind("logical_not") // ~ of bool is logical not
		}
		rt.compute1(kind, out, []*Tensor{a})
	}
	return out, nil
}

// Pow is a ** b for two tensors (PowBackward1 saves self, exponent and the
// result).
func (rt *Runtime) Pow(a, b *Tensor) (*Tensor, error) {
	out, err := rt.pointwiseOut("pow", ResultType([]*Tensor{a, b}, nil), a, b)
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		// a tensor exponent: float64 kernels only (pow_tensor); other
		// types are not computed
		rt.compute1(ExecPow, out, []*Tensor{a, b})
	}
	n := rt.record("PowBackward1", a, b)
	if n != nil {
		n.save(a, false)
		n.save(b, false)
		n.save(out, true)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		res := make(gradSlot, 2)
		for i := 0; i < 2; i++ {
			if !n.needsInput(i) {
				continue
			}
			x, err := n.unpack(i)
			if err != nil {
				return res.fail(err)
			}
			r, err := rt.gradLike("pow_backward", g[0], x)
			x.Release()
			if err != nil {
				return res.fail(err)
			}
			s, err := rt.sumTo(r, x.shape)
			r.Release()
			if err != nil {
				return res.fail(err)
			}
			res[i] = s
		}
		return res, nil
	}, out)
	return out, nil
}

// RPowScalar is s ** a (PowBackward2 saves the exponent tensor and result;
// its backward is pow_backward_exponent: grad · (result · log s)).
func (rt *Runtime) RPowScalar(a *Tensor, s Scalar) (*Tensor, error) {
	out, err := rt.unaryOut("pow", a, scalarResult(a, s))
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		// the base as PyTorch wraps it: a 0-dim CPU tensor
		base := rt.wrapScalar(s)
		rt.compute1(ExecPow, out, []*Tensor{base, a})
		base.Release()
	}
	n := rt.record("PowBackward2", a)
	if n != nil {
		n.save(a, false)
		n.save(out, true)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := n.unpack(1)
		if err != nil {
			return nil, err
		}
		defer r.Release()
		t, err := rt.MulScalar(r, Float(math.Log(s.Value())))
		if err != nil {
			return nil, err
		}
		defer t.Release()
		o, err := rt.Mul(g[0], t)
		return []*Tensor{o}, err
	}, out)
	return out, nil
}

// Clamp is torch.clamp(a, min, max) with number bounds (ClampBackward1
// saves self); its backward's values need the bounds (ClampNumbers).
func (rt *Runtime) Clamp(a *Tensor) (*Tensor, error) {
	return rt.clamp(a, nil, ClampDType(a, true))
}

// ClampDType is clamp's result type (result_type of self and the bounds):
// an integer tensor stays integral with integer bounds and becomes the
// default float dtype with a float bound; a bool tensor becomes int64
// (or float32). Floating tensors keep their dtype.
func ClampDType(a *Tensor, floatBound bool) DType {
	switch {
	case a.dtype.IsFloating() || a.dtype.IsComplex():
		return a.dtype
	case floatBound:
		return Float32
	case a.dtype == Bool:
		return Int64
	}
	return a.dtype
}

// clamp is Clamp whose backward computes grad where lo <= self <= hi
// (bounds nil: the backward's values are not computed).
func (rt *Runtime) clamp(a *Tensor, bounds []float64, dt DType) (*Tensor, error) {
	return rt.unaryGradDT("clamp", "ClampBackward1", a, dt, saveSelf, func(g, self, _ *Tensor) (*Tensor, error) {
		out, err := rt.pointwiseOut("clamp_backward", g.dtype, g, self)
		if err == nil && rt.exec != nil {
			if bounds == nil {
				rt.markNotComputed(out)
			} else {
				rt.compute1("clamp_backward", out, []*Tensor{g, self}, bounds...)
			}
		}
		return out, err
	})
}

// ClampInplace is clamp_ (ClampBackward1 saves the original self: PyTorch
// clones it first only when it is needed; clamp_ keeps self's old values
// via the node's saved tensor — modelled as saving the tensor itself).
// Its values: the bounds (lo, hi; ±inf for none) clamp t in place; the
// backward's are not computed (self's old values are not kept).
func (rt *Runtime) ClampInplace(t *Tensor, lo, hi float64) (*Tensor, error) {
	if err := rt.inplace(t); err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.compute1(ExecClamp, t, []*Tensor{t}, lo, hi)
	}
	n := rt.record("ClampBackward1", t)
	if n != nil {
		n.rebase(func(n *Node, g []*Tensor) ([]*Tensor, error) {
			o, err := rt.pointwiseOut("clamp_backward", g[0].dtype, g[0], g[0])
			if err == nil && rt.exec != nil {
				rt.markNotComputed(o)
			}
			return []*Tensor{o}, err
		}, t)
	}
	return t.Retain(), nil
}

// UnaryInplaceResult is an in-place unary op whose backward needs the
// result (sigmoid_, tanh_, exp_): the node saves t itself after the op.
func (rt *Runtime) UnaryInplaceResult(op, name string, t *Tensor) (*Tensor, error) {
	if err := rt.inplace(t); err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.compute1(ExecKind(op), t, []*Tensor{t})
	}
	n := rt.record(name, t)
	if n != nil {
		// saved before the history is set, as ReluInplace: a pack hook
		// runs once it is, also for a view (rebaseView)
		n.save(t, true)
		n.rebase(func(n *Node, g []*Tensor) ([]*Tensor, error) {
			r, err := n.unpack(0)
			if err != nil {
				return nil, err
			}
			defer r.Release()
			o, err := rt.gradLike(op+"_backward", g[0], r)
			return []*Tensor{o}, err
		}, t)
	}
	return t.Retain(), nil
}

// Where is torch.where(cond, a, b) (WhereBackward0 saves the condition).
func (rt *Runtime) Where(cond, a, b *Tensor) (*Tensor, error) {
	if cond.dtype != Bool {
		return nil, Errorf(RuntimeError, "where expected condition to be a boolean tensor, but got a tensor with dtype %s", cond.dtype.cppName())
	}
	out, err := rt.pointwiseOut("where", ResultType([]*Tensor{a, b}, nil), cond, a, b)
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.compute1(ExecWhere, out, []*Tensor{cond, a, b})
	}
	n := rt.record("WhereBackward0", a, b)
	if n != nil {
		n.save(cond, false)
	}
	as, bs := cloneShape(a.shape), cloneShape(b.shape)
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		res := make(gradSlot, 2)
		for i, s := range [][]int64{as, bs} {
			if !n.needsInput(i) {
				continue
			}
			r, err := rt.whereGrad(n, i, g[0])
			if err != nil {
				return res.fail(err)
			}
			t, err := rt.sumTo(r, s)
			r.Release()
			if err != nil {
				return res.fail(err)
			}
			res[i] = t
		}
		return res, nil
	}, out)
	return out, nil
}

// Cat is torch.cat(ts, dim) (CatBackward0: the backward slices the
// gradient, views only).
func (rt *Runtime) Cat(ts []*Tensor, dim int64) (*Tensor, error) {
	if len(ts) == 0 {
		return nil, Errorf(ValueError, "torch.cat(): expected a non-empty list of Tensors")
	}
	ref := ts[0]
	d, err := wrapDim(dim, len(ref.shape))
	if err != nil {
		return nil, err
	}
	shape := cloneShape(ref.shape)
	shape[d] = 0
	dt := ResultType(ts, nil)
	for i, t := range ts {
		if len(t.shape) != len(shape) {
			return nil, Errorf(RuntimeError, "Tensors must have same number of dimensions: got %d and %d", len(shape), len(t.shape))
		}
		for j := range shape {
			if j != d && t.shape[j] != ref.shape[j] {
				return nil, Errorf(RuntimeError, "Sizes of tensors must match except in dimension %d. Expected size %d but got size %d for tensor number %d in the list.", d, ref.shape[j], t.shape[j], i)
			}
		}
		shape[d] += t.shape[d]
	}
	dev, err := commonDevice("cat", ts...)
	if err != nil {
		return nil, err
	}
	out, err := rt.empty("cat", shape, nil, dt, dev)
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.compute(ExecCat, []*Tensor{out}, ts, nil, []int64{int64(d), 0})
	}
	n := rt.record("CatBackward0", ts...)
	sizes := make([]int64, len(ts))
	for i, t := range ts {
		sizes[i] = t.shape[d]
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		res := make(gradSlot, len(sizes))
		off := int64(0)
		for i, s := range sizes {
			if n.needsInput(i) {
				v, err := rt.Slice(g[0], int64(d), off, off+s, 1, true, true)
				if err != nil {
					return res.fail(err)
				}
				res[i] = v
			}
			off += s
		}
		return res, nil
	}, out)
	return out, nil
}

// Stack is torch.stack(ts, dim): cat of unsqueezed inputs (StackBackward0).
func (rt *Runtime) Stack(ts []*Tensor, dim int64) (*Tensor, error) {
	if len(ts) == 0 {
		return nil, Errorf(RuntimeError, "stack expects a non-empty TensorList")
	}
	for i, t := range ts {
		if !sameShape(t.shape, ts[0].shape) {
			return nil, Errorf(RuntimeError, "stack expects each tensor to be equal size, but got %s at entry 0 and %s at entry %d", shapeList(ts[0].shape), shapeList(t.shape), i)
		}
	}
	d, err := wrapDim(dim, len(ts[0].shape)+1)
	if err != nil {
		return nil, err
	}
	shape := append(cloneShape(ts[0].shape[:d]), int64(len(ts)))
	shape = append(shape, ts[0].shape[d:]...)
	dev, err := commonDevice("stack", ts...)
	if err != nil {
		return nil, err
	}
	out, err := rt.empty("stack", shape, nil, ResultType(ts, nil), dev)
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.compute(ExecCat, []*Tensor{out}, ts, nil, []int64{int64(d), 1})
	}
	n := rt.record("StackBackward0", ts...)
	k := len(ts)
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		res := make(gradSlot, k)
		for i := 0; i < k; i++ {
			if n.needsInput(i) {
				v, err := rt.Select(g[0], int64(d), int64(i))
				if err != nil {
					return res.fail(err)
				}
				res[i] = v
			}
		}
		return res, nil
	}, out)
	return out, nil
}

// Norm is torch.norm / linalg.vector_norm over dims (NormBackward1 saves
// self and the result), of order 2 for its backward's values.
func (rt *Runtime) Norm(t *Tensor, dims []int64, keepdim bool) (*Tensor, error) {
	return rt.normOrder(t, 2, dims, keepdim)
}

// normOrder is Norm of order p (the backward's values need it).
func (rt *Runtime) normOrder(t *Tensor, p float64, dims []int64, keepdim bool) (*Tensor, error) {
	dt := t.dtype
	if !dt.IsFloating() && !dt.IsComplex() {
		return nil, Errorf(RuntimeError, "linalg.vector_norm: Expected a floating point or complex tensor as input. Got %s", dt.cppName())
	}
	out, err := rt.reduceOut("linalg_vector_norm", t, dims, keepdim, dt)
	if err != nil {
		return nil, err
	}
	if err := rt.reduceKernel(t, dims, 4); err != nil {
		out.Release()
		return nil, err
	}
	n := rt.record("LinalgVectorNormBackward0", t)
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
		// norm_backward's temporaries (q18): p=2 is grad * (self /
		// norm).masked_fill_(norm == 0, 0), p=1 self.sgn() * grad
		var tmp []*Tensor
		defer func() { releaseAll(tmp) }()
		if p == 1 || p == 2 {
			t, err := rt.pointwiseOut("norm_backward", self.dtype, self)
			if err != nil {
				return nil, err
			}
			tmp = append(tmp, t)
		}
		if p == 2 {
			t, err := rt.pointwiseOut("eq", Bool, g[0])
			if err != nil {
				return nil, err
			}
			tmp = append(tmp, t)
		}
		r, err := rt.pointwiseOut("norm_backward", self.dtype, self, self)
		if err == nil {
			rt.reduceBackValues(n, r, g[0], ExecNormBack, []float64{p}, copyDims(dims), 0)
		}
		if len(tmp) == 2 {
			tmp[0], tmp[1] = tmp[1], tmp[0] // the mask dies first
		}
		return []*Tensor{r}, err
	}, out)
	return out, nil
}

// Var is torch.var / std over dims (VarBackward0 saves self), unbiased
// (correction 1) for its backward's values.
func (rt *Runtime) Var(op string, t *Tensor, dims []int64, keepdim bool) (*Tensor, error) {
	return rt.varCorrected(op, t, dims, keepdim, 1)
}

// varCorrected is Var with the correction its backward's values need.
func (rt *Runtime) varCorrected(op string, t *Tensor, dims []int64, keepdim bool, correction float64) (*Tensor, error) {
	if !t.dtype.IsFloating() && !t.dtype.IsComplex() {
		return nil, Errorf(RuntimeError, "std and var only support floating point and complex dtypes")
	}
	out, err := rt.reduceOut(op, t, dims, keepdim, t.dtype)
	if err != nil {
		return nil, err
	}
	if err := rt.reduceKernel(t, dims, 16); err != nil { // WelfordData
		out.Release()
		return nil, err
	}
	n := rt.record(capitalize(op)+"Backward0", t)
	if n != nil {
		n.save(t, false)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		self, err := n.unpack(0)
		if err != nil {
			return nil, err
		}
		defer self.Release()
		r, err := rt.pointwiseOut(op+"_backward", self.dtype, self, self)
		if err == nil {
			kind := ExecVarBack
			if op == "std" {
				kind = ExecStdBack
			}
			rt.reduceBackValues(n, r, g[0], kind, []float64{correction}, copyDims(dims), 0)
		}
		return []*Tensor{r}, err
	}, out)
	return out, nil
}

// Randperm is torch.randperm(n) (int64).
func (rt *Runtime) Randperm(n int64, dev Device) (*Tensor, error) {
	return rt.Factory("randperm", []int64{n}, Int64, dev, false)
}

// ScalarTensor is the zero-dim CPU tensor PyTorch wraps a Python number in
// (no GPU memory).
func (rt *Runtime) ScalarTensor(s Scalar) *Tensor { return rt.wrapScalar(s) }

// ViewDType is Tensor.view(dtype) between dtypes of the same size: an alias
// with another element type.
func (rt *Runtime) ViewDType(t *Tensor, dt DType) (*Tensor, error) {
	v := rt.Alias(t)
	v.dtype = dt
	return v, nil
}

// DataPtr is Tensor.data_ptr(): the device address of the first element
// (block address + offset × element size); addr gives a block's address.
func (t *Tensor) DataPtr(addr func(Block) uint64) uint64 {
	if t.storage == nil || t.storage.block == nil {
		return 0
	}
	return addr(t.storage.block) + uint64(t.offset*t.dtype.Size())
}

// IsInference is Tensor.is_inference(): made under inference_mode.
func (t *Tensor) IsInference() bool { return t.inference }

// IndexTensor is t[..., idx, ...] with one integer index tensor at dim d
// (advanced indexing, aten::index): a new tensor of shape
// t.shape[:d] + idx.shape + t.shape[d+1:]; IndexBackward0 saves the
// indices and its backward allocates a zero tensor like self (index_put_).
// A bool mask selects an unknown number of elements: the simulator does
// not know values, so every element is taken to be selected (an upper
// bound); a run that computes values reads the mask (PyTorch's nonzero
// synchronises too) and allocates the selected count, as PyTorch does.
func (rt *Runtime) IndexTensor(t *Tensor, d int, idx *Tensor) (*Tensor, error) {
	return rt.indexAlong("IndexBackward0", t, d, idx)
}

// IndexSelect is torch.index_select(t, dim, index): a 1-d (or 0-d) integer
// index on t's device; the result has index.numel() at dim, and
// IndexSelectBackward0 saves the index and allocates zeros like self
// (index_select_backward: zeros(...).index_add_).
func (rt *Runtime) IndexSelect(t *Tensor, dim int64, idx *Tensor) (*Tensor, error) {
	d, err := wrapDim(dim, max(len(t.shape), 1))
	if err != nil {
		return nil, err
	}
	if len(idx.shape) > 1 {
		return nil, Errorf(IndexError, "index_select(): Index is supposed to be a vector")
	}
	if idx.dtype != Int64 && idx.dtype != Int32 {
		return nil, Errorf(RuntimeError, "index_select(): Expected dtype int32 or int64 for index")
	}
	if idx.device != t.device {
		return nil, Errorf(RuntimeError, "Input, output and indices must be on the current device")
	}
	if len(idx.shape) == 0 {
		v, err := rt.View(idx, []int64{1})
		if err != nil {
			return nil, err
		}
		defer v.Release()
		idx = v
	}
	if len(t.shape) == 0 {
		return nil, Errorf(IndexError, "index_select() of a 0-d tensor is not simulated")
	}
	return rt.indexAlong("IndexSelectBackward0", t, d, idx)
}

// indexAlong is IndexTensor with the backward node's name.
func (rt *Runtime) indexAlong(node string, t *Tensor, d int, idx *Tensor) (*Tensor, error) {
	if d >= len(t.shape) {
		return nil, Errorf(IndexError, "too many indices for tensor of dimension %d", len(t.shape))
	}
	var shape []int64
	mask := idx.dtype == Bool || idx.dtype == Uint8
	if mask {
		k := len(idx.shape)
		if d+k > len(t.shape) {
			return nil, Errorf(IndexError, "too many indices for tensor of dimension %d", len(t.shape))
		}
		for j := 0; j < k; j++ {
			if idx.shape[j] != t.shape[d+j] { // expandTensors' check (question q12)
				return nil, Errorf(IndexError, "The shape of the mask %s at index %d does not match the shape of the indexed tensor %s at index %d", shapeList(idx.shape), j, shapeList(t.shape), d+j)
			}
		}
		shape = append(cloneShape(t.shape[:d]), rt.maskCount(idx))
		shape = append(shape, t.shape[d+k:]...)
	} else if idx.dtype.IsIntegral(false) {
		shape = append(cloneShape(t.shape[:d]), idx.shape...)
		shape = append(shape, t.shape[d+1:]...)
	} else {
		return nil, Errorf(IndexError, "tensors used as indices must be long, int, byte or bool tensors")
	}
	if idx.device != t.device && !(idx.device.Type == CPU) {
		return nil, Errorf(RuntimeError, "indices should be either on cpu or on the same device as the indexed tensor (%s)", idx.device)
	}
	// aten::index materialises its indices (make_info) before its output;
	// index_select uses the index as it is.
	s := &scratch{rt: rt}
	if node == "IndexBackward0" {
		if err := rt.indexInfoScratch(s, t, idx); err != nil {
			s.release()
			return nil, err
		}
	}
	out, err := rt.empty("index", shape, nil, t.dtype, t.device)
	if err != nil {
		s.release()
		return nil, err
	}
	if rt.exec != nil {
		rt.compute(ExecIndex, []*Tensor{out}, []*Tensor{t, idx}, nil, []int64{int64(d)})
	}
	s.release()
	n := rt.record(node, t)
	if n != nil {
		n.save(idx, false)
	}
	in, dt, dev := cloneShape(t.shape), t.dtype, t.device
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.empty("index_backward", in, nil, dt, dev)
		if err == nil && node == "IndexBackward0" {
			// index_backward: _index_put_impl_(zeros, indices, grad,
			// accumulate=True, unsafe=True), sorted on CUDA.
			err = rt.indexBackwardScratch(n, r, d, g[0])
		}
		if err == nil && rt.exec != nil {
			if sv, release, ok := rt.savedForValues(n, 0); ok {
				rt.compute(ExecIndexBack, []*Tensor{r}, []*Tensor{g[0], sv[0]}, nil, []int64{int64(d), NoSkipIndex})
				release()
			}
		}
		return []*Tensor{r}, err
	}, out)
	return out, nil
}

// maskCount is the number of elements a bool mask selects: its true
// elements when values are computed, else all of them (the simulator's
// upper bound).
func (rt *Runtime) maskCount(mask *Tensor) int64 {
	if rt.exec != nil && (mask.dtype == Bool || mask.dtype == Uint8) {
		if vals, err := rt.Values(mask); err == nil {
			n := int64(0)
			for _, v := range vals {
				if v != 0 {
					n++
				}
			}
			return n
		}
	}
	return numel(mask.shape)
}

// IndexPut is t[idx] = v with an index tensor (index_put_, in place).
// dst is the view of t that the key's basic items select and idx its index
// along some dim (nil when the key is not one the model takes apart); v is
// the value tensor, nil for a Python number. index_put_'s temporaries (see
// indexPutScratch) are taken and freed around the write.
func (rt *Runtime) IndexPut(t, dst, idx, v *Tensor) (*Tensor, error) {
	if err := rt.inplace(t); err != nil {
		return nil, err
	}
	if dst != nil && idx != nil {
		s := &scratch{rt: rt}
		err := rt.indexPutScratch(s, dst, idx, v)
		s.release()
		if err != nil {
			return nil, err
		}
	}
	return t.Retain(), nil
}

// IndexPutValues computes index_put_'s values after IndexPut (a run with
// values only): dst (t or the view that t[key]'s basic items select) gets
// v (nil: the number value) at idx along dim d, added when accumulate is
// set. idx nil (an index the executor cannot take) marks dst not computed.
func (rt *Runtime) IndexPutValues(dst *Tensor, d int, idx, v *Tensor, value float64, accumulate bool) {
	rt.indexPutValues(dst, d, idx, v, value, nil, accumulate)
}

// indexPutValues is IndexPutValues; exact, when set, is the number value
// as an integer (appended to Ints for the executor: float64 rounds it
// beyond 2^53).
func (rt *Runtime) indexPutValues(dst *Tensor, d int, idx, v *Tensor, value float64, exact *int64, accumulate bool) {
	if rt.exec == nil {
		return
	}
	if idx == nil {
		rt.markNotComputed(dst)
		return
	}
	acc := int64(0)
	if accumulate {
		acc = 1
	}
	ins := []*Tensor{dst, idx}
	var scalars []float64
	if v != nil {
		ins = append(ins, v)
	} else {
		scalars = []float64{value}
	}
	ints := []int64{int64(d), acc}
	if v == nil && exact != nil {
		ints = append(ints, *exact)
	}
	rt.compute(ExecIndexPut, []*Tensor{dst}, ins, scalars, ints)
}

// PoolOut is the pooling output size (pooling_output_shape).
func PoolOut(in, k, s, p, d int64, ceil bool) int64 { return poolOut(in, k, s, p, d, ceil) }
