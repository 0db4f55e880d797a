package torch

import "math"

// inner, kron, linalg.cross, trace, dist and diff (PyTorch 2.11; q20).
// inner and kron are CompositeImplicitAutograd (tensordot / a mul between
// two _unsafe_views), diff is composite (narrow views and a sub per order,
// cat for prepend/append, logical_xor for bool), trace_cuda is
// diagonal().sum() under TraceBackward0, dist is norm(self - other) under
// DistBackward0.

// Inner is torch.inner(a, b).
func (rt *Runtime) Inner(a, b *Tensor) (*Tensor, error) {
	if len(a.shape) == 0 || len(b.shape) == 0 {
		return rt.Mul(a, b)
	}
	if a.shape[len(a.shape)-1] != b.shape[len(b.shape)-1] {
		return nil, Errorf(RuntimeError, "inner() the last dimension must match on both input tensors but got shapes %s and %s", shapeList(a.shape), shapeList(b.shape))
	}
	return rt.Tensordot(a, b, []int64{-1}, []int64{-1})
}

// Kron is torch.kron(a, b): _unsafe_view(a, [a0, 1, a1, 1, ...]) *
// _unsafe_view(b, [1, b0, 1, b1, ...]), then _unsafe_view of the product
// to the result shape (UnsafeViewBackward0).
func (rt *Runtime) Kron(a, b *Tensor) (*Tensor, error) {
	nd := max(len(a.shape), len(b.shape))
	pa, pb := nd-len(a.shape), nd-len(b.shape)
	ar := make([]int64, 2*nd)
	br := make([]int64, 2*nd)
	res := make([]int64, nd)
	for i := 0; i < nd; i++ {
		ar[2*i], ar[2*i+1], br[2*i] = 1, 1, 1
		if i >= pa {
			ar[2*i] = a.shape[i-pa]
		}
		br[2*i+1] = 1
		if i >= pb {
			br[2*i+1] = b.shape[i-pb]
		}
		res[i] = ar[2*i] * br[2*i+1]
	}
	av, err := rt.unsafeView(a, ar)
	if err != nil {
		return nil, err
	}
	defer av.Release()
	bv, err := rt.unsafeView(b, br)
	if err != nil {
		return nil, err
	}
	defer bv.Release()
	m, err := rt.Mul(av, bv)
	if err != nil {
		return nil, err
	}
	defer m.Release()
	return rt.unsafeView(m, res)
}

// LinalgCross is torch.linalg.cross(a, b, dim) (torch.cross with a dim):
// one contiguous output of the broadcast shape; LinalgCrossBackward0
// saves both and computes other's gradient linalg_cross(grad, self), then
// self's linalg_cross(other, grad).
func (rt *Runtime) LinalgCross(a, b *Tensor, dim int64) (*Tensor, error) {
	if len(a.shape) != len(b.shape) {
		return nil, Errorf(RuntimeError, "linalg.cross: inputs must have the same number of dimensions.")
	}
	shape, err := broadcastShapes(a.shape, b.shape)
	if err != nil {
		return nil, err
	}
	d, err := wrapDim(dim, max(len(shape), 1))
	if err != nil {
		return nil, err
	}
	if len(shape) == 0 || a.shape[d] != 3 || b.shape[d] != 3 {
		var sa, sb int64
		if len(shape) > 0 {
			sa, sb = a.shape[d], b.shape[d]
		}
		return nil, Errorf(RuntimeError, "linalg.cross: inputs dimension %d must have length 3. Got %d and %d", dim, sa, sb)
	}
	dev, err := commonDevice("linalg_cross", a, b)
	if err != nil {
		return nil, err
	}
	out, err := rt.empty("linalg_cross", shape, nil, ResultType([]*Tensor{a, b}, nil), dev)
	if err != nil {
		return nil, err
	}
	n := rt.record("LinalgCrossBackward0", a, b)
	if n != nil {
		n.saveIf(n.needsInput(1), a, false)
		n.saveIf(n.needsInput(0), b, false)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		res := make(gradSlot, 2)
		for _, i := range []int{1, 0} {
			if !n.needsInput(i) {
				continue
			}
			o, err := n.unpack(1 - i) // other's gradient needs self (slot 0)
			if err != nil {
				return res.fail(err)
			}
			r, err := rt.pointwiseOut("linalg_cross", g[0].dtype, g[0], o)
			o.Release()
			if err != nil {
				return res.fail(err)
			}
			res[i] = r
		}
		return res, nil
	}, out)
	return out, nil
}

// DefaultCrossDim is torch.cross's dim when none is given: the first
// dimension of size 3 of the broadcast shape (deprecated in PyTorch).
func DefaultCrossDim(a, b *Tensor) (int64, error) {
	shape, err := broadcastShapes(a.shape, b.shape)
	if err != nil {
		return 0, err
	}
	for i, s := range shape {
		if s == 3 {
			return int64(i), nil
		}
	}
	return 0, Errorf(RuntimeError, "no dimension of size 3 in input")
}

// Trace is torch.trace(a) of a matrix: diagonal().sum() (an int64 result
// for integral inputs, via reduce_cast's converted copy); TraceBackward0
// allocates zeros(n*m), an int64 arange of the diagonal's positions
// (freed), and views the zeros as [n, m].
func (rt *Runtime) Trace(a *Tensor) (*Tensor, error) {
	if len(a.shape) != 2 {
		return nil, Errorf(RuntimeError, "expected a matrix")
	}
	var out *Tensor
	err := rt.noGrad(func() error {
		dg, err := rt.Diagonal(a, 0, 0, 1)
		if err != nil {
			return err
		}
		defer dg.Release()
		out, err = rt.Sum(dg, nil, false, nil)
		return err
	})
	if err != nil {
		return nil, err
	}
	in, dt, dev := cloneShape(a.shape), a.dtype, a.device
	n := rt.record("TraceBackward0", a)
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		z, err := rt.empty("zeros", []int64{in[0] * in[1]}, nil, dt, dev)
		if err != nil {
			return nil, err
		}
		cnt := int64(0)
		if in[0]*in[1] > 0 {
			cnt = (in[0]*in[1]-1)/(in[1]+1) + 1
		}
		s := &scratch{rt: rt}
		_, err = s.alloc(cnt*8, "arange", "trace_backward's diagonal positions")
		s.release()
		if err != nil {
			z.Release()
			return nil, err
		}
		if rt.exec != nil {
			rt.markNotComputed(z)
		}
		v, err := rt.View(z, in)
		z.Release()
		return []*Tensor{v}, err
	}, out)
	return out, nil
}

// Dist is torch.dist(a, b, p): norm(a - b, p), the difference freed after
// the 0-dim result (and the reduction's scratch).
func (rt *Runtime) Dist(a, b *Tensor, p float64) (*Tensor, error) {
	var out *Tensor
	err := rt.noGrad(func() error {
		d, err := rt.Sub(a, b, 1)
		if err != nil {
			return err
		}
		defer d.Release()
		if !d.dtype.IsFloating() && !d.dtype.IsComplex() {
			return Errorf(RuntimeError, "linalg.vector_norm: Expected a floating point or complex tensor as input. Got %s", d.dtype.cppName())
		}
		out, err = rt.reduceOut("norm", d, nil, false, d.dtype)
		if err != nil {
			return err
		}
		if err := rt.reduceKernel(d, nil, accSize(d.dtype)); err != nil {
			out.Release()
			return err
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	n := rt.record("DistBackward0", a, b)
	if n != nil {
		n.save(a, false)
		n.save(b, false)
		n.save(out, true)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		res := make(gradSlot, 2)
		var saved [3]*Tensor
		for i := range saved {
			t, err := n.unpack(i)
			if err != nil {
				releaseAll(saved[:])
				return res.fail(err)
			}
			saved[i] = t
		}
		defer releaseAll(saved[:])
		for _, i := range []int{1, 0} { // other's gradient first
			if !n.needsInput(i) {
				continue
			}
			r, err := rt.distGrad(g[0], saved[0], saved[1], saved[2], p, i == 1)
			if err != nil {
				return res.fail(err)
			}
			res[i] = r
		}
		return res, nil
	}, out)
	return out, nil
}

// distGrad is norm_backward(grad, self - other, p, result), negated for
// other: the difference lives to the end of the expression.
func (rt *Runtime) distGrad(g, a, b, norm *Tensor, p float64, neg bool) (*Tensor, error) {
	var c exprChain
	d := c.then(func() (*Tensor, error) { return rt.Sub(a, b, 1) })
	nb := c.then(func() (*Tensor, error) { return rt.normBackwardAll(g, d, norm, p) })
	if c.err == nil && nb == nil {
		c.release()
		if neg {
			return nil, Errorf(RuntimeError, "Expected a proper Tensor but got None (or an undefined Tensor in C++) for argument #0 'self'")
		}
		return nil, nil
	}
	if neg {
		c.then(func() (*Tensor, error) { return rt.Neg(nb) })
	}
	return c.result()
}

// normBackwardAll is norm_backward over every element (FunctionsManual.cpp)
// for order p: nil (an undefined gradient) for p = 0.
func (rt *Runtime) normBackwardAll(g, self, norm *Tensor, p float64) (*Tensor, error) {
	var c exprChain
	switch {
	case p == 0:
		return nil, nil
	case p == 1: // self.sgn() * grad
		s := c.then(func() (*Tensor, error) { return rt.unaryOut("sgn", self, self.dtype) })
		c.then(func() (*Tensor, error) { return rt.Mul(s, g) })
	case p == 2: // grad * (self / norm).masked_fill_(norm == 0, 0)
		q := c.then(func() (*Tensor, error) { return rt.Div(self, norm) })
		c.then(func() (*Tensor, error) { return rt.CompareNumber("eq", norm, Int(0)) })
		c.then(func() (*Tensor, error) { return rt.Mul(g, q) })
	case math.IsInf(p, 0):
		// mask = self_abs.eq(norm).logical_or(self_abs.isnan());
		// self.sgn() * ((grad / mask.sum(dim, true)) * mask)
		var locals exprChain
		defer locals.release()
		ab := locals.then(func() (*Tensor, error) { return rt.unaryOut("abs", self, self.dtype) })
		mask := locals.then(func() (*Tensor, error) {
			var m exprChain
			e := m.then(func() (*Tensor, error) { return rt.Compare("eq", ab, norm) })
			n := m.then(func() (*Tensor, error) { return rt.CompareScalar("isnan", ab) })
			m.then(func() (*Tensor, error) { return rt.pointwiseOut("logical_or", Bool, e, n) })
			return m.result()
		})
		if locals.err != nil {
			return nil, locals.err
		}
		dims := make([]int64, len(self.shape))
		for i := range dims {
			dims[i] = int64(i)
		}
		sum := c.then(func() (*Tensor, error) { return rt.Sum(mask, dims, true, nil) })
		q := c.then(func() (*Tensor, error) { return rt.Div(g, sum) })
		m := c.then(func() (*Tensor, error) { return rt.Mul(q, mask) })
		s := c.then(func() (*Tensor, error) { return rt.unaryOut("sgn", self, self.dtype) })
		c.then(func() (*Tensor, error) { return rt.Mul(s, m) })
		return c.result()
	default:
		// self_scaled = self * self.abs().pow_(p - 2) (p < 2: self.sgn() *
		// self.abs().pow_(p - 1)); scale_v = grad / norm.pow(p - 1) with the
		// norm == 0 entries filled; self_scaled * scale_v
		var locals exprChain
		defer locals.release()
		scaled := locals.then(func() (*Tensor, error) {
			var s exprChain
			if p < 2 {
				sg := s.then(func() (*Tensor, error) { return rt.unaryOut("sgn", self, self.dtype) })
				ab := s.then(func() (*Tensor, error) { return rt.unaryOut("abs", self, self.dtype) })
				s.then(func() (*Tensor, error) { return rt.Mul(sg, ab) })
			} else {
				ab := s.then(func() (*Tensor, error) { return rt.unaryOut("abs", self, self.dtype) })
				s.then(func() (*Tensor, error) { return rt.Mul(self, ab) })
			}
			return s.result()
		})
		scale := locals.then(func() (*Tensor, error) {
			var s exprChain
			pw := s.then(func() (*Tensor, error) { return rt.PowScalar(norm, Float(p-1)) })
			s.then(func() (*Tensor, error) { return rt.Div(g, pw) })
			return s.result()
		})
		locals.then(func() (*Tensor, error) { return rt.CompareNumber("eq", norm, Int(0)) })
		if locals.err != nil {
			return nil, locals.err
		}
		locals.ts[2].Release() // the mask dies after masked_fill_
		locals.ts = locals.ts[:2]
		return rt.Mul(scaled, scale)
	}
	return c.result()
}

// Diff is torch.diff(a, n, dim, prepend, append).
func (rt *Runtime) Diff(a *Tensor, n, dim int64, prepend, appendT *Tensor) (*Tensor, error) {
	if len(a.shape) == 0 {
		return nil, Errorf(RuntimeError, "diff expects input to be at least one-dimensional")
	}
	if n < 0 {
		return nil, Errorf(RuntimeError, "order must be non-negative but got %d", n)
	}
	d, err := wrapDim(dim, len(a.shape))
	if err != nil {
		return nil, err
	}
	if n == 0 {
		z, err := rt.ZerosLike(a)
		if err != nil {
			return nil, err
		}
		defer z.Release()
		return rt.CopyInplace(z, a)
	}
	cur := a.Retain()
	if prepend != nil || appendT != nil {
		var parts []*Tensor
		if prepend != nil {
			parts = append(parts, prepend)
		}
		parts = append(parts, a)
		if appendT != nil {
			parts = append(parts, appendT)
		}
		c, err := rt.Cat(parts, int64(d))
		cur.Release()
		if err != nil {
			return nil, err
		}
		// diff's local `a` keeps the cat alive until diff_helper returns
		defer c.Release()
		cur = c.Retain()
	}
	outLen := cur.shape[d] - 1
	if n > cur.shape[d] {
		n = cur.shape[d]
	}
	for i := int64(0); i < n; i++ {
		// narrow(result, dim, 1, len) - narrow(result, dim, 0, len): the
		// right operand's view first
		lo, err := rt.Slice(cur, int64(d), 0, outLen, 1, true, true)
		if err != nil {
			cur.Release()
			return nil, err
		}
		hi, err := rt.Slice(cur, int64(d), 1, 1+outLen, 1, true, true)
		if err != nil {
			lo.Release()
			cur.Release()
			return nil, err
		}
		var r *Tensor
		if a.dtype == Bool {
			r, err = rt.Compare("logical_xor", hi, lo)
		} else {
			r, err = rt.Sub(hi, lo, 1)
		}
		hi.Release()
		lo.Release()
		cur.Release()
		if err != nil {
			return nil, err
		}
		cur = r
		outLen--
	}
	return cur, nil
}
