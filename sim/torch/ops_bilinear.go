package torch

// F.bilinear (nn.Bilinear), PyTorch 2.11's Linear.cpp: composite —
// inputs flattened to 2-d (views), at::_trilinear(x1, weight, x2,
// expand1={1,3}, expand2={0}, expand3={1,2}, sumdim={2,3}), reshaped to
// the output shape (a view), plus the bias (out of place: the trilinear
// result dies). _trilinear (TrilinearBackward0) zero-fills its output and
// loops over unroll_dim 1 (the output features): two sumproduct_pair
// contractions per slice (bmm, or a mul when nothing is summed), each
// result freed before the next slice. Its backward is three more
// _trilinear calls with the roles of the expand and sum dims swapped
// (grad_i1, grad_i2, grad_i3, in that order, those needed). Measured in
// q22 (Bilinear items).

// Bilinear is F.bilinear(x1, x2, weight, bias) (bias may be nil).
func (rt *Runtime) Bilinear(x1, x2, w, b *Tensor) (*Tensor, error) {
	if x1.Dim() != x2.Dim() {
		return nil, Errorf(RuntimeError, "bilinear(): input dimensions do not match: got %d and %d", x1.Dim(), x2.Dim())
	}
	if x1.Dim() == 0 || w.Dim() != 3 {
		return nil, Errorf(RuntimeError, "bilinear(): expected inputs of at least 1 dimension and a 3-d weight, got %dD and %dD", x1.Dim(), w.Dim())
	}
	nd := x1.Dim()
	for i := 0; i < nd-1; i++ {
		if x1.shape[i] != x2.shape[i] {
			return nil, Errorf(RuntimeError, "bilinear(): input batch dimensions do not match: got %d and %d", x1.shape[i], x2.shape[i])
		}
	}
	if x1.shape[nd-1] != w.shape[1] {
		return nil, Errorf(RuntimeError, "bilinear(): input1 size does not match weight size: got %d but expected %d", x1.shape[nd-1], w.shape[1])
	}
	if x2.shape[nd-1] != w.shape[2] {
		return nil, Errorf(RuntimeError, "bilinear(): input2 size does not match weight size: got %d but expected %d", x2.shape[nd-1], w.shape[2])
	}
	if b != nil && (b.Dim() == 0 || b.shape[0] != w.shape[0]) {
		got := int64(0)
		if b.Dim() > 0 {
			got = b.shape[0]
		}
		return nil, Errorf(RuntimeError, "bilinear(): bias size does not match weight size: got %d but expected %d", got, w.shape[0])
	}
	outShape := append(cloneShape(x1.shape[:nd-1]), w.shape[0])
	f1, err := rt.Reshape(x1, []int64{-1, x1.shape[nd-1]})
	if err != nil {
		return nil, err
	}
	defer f1.Release()
	f2, err := rt.Reshape(x2, []int64{-1, x2.shape[nd-1]})
	if err != nil {
		return nil, err
	}
	defer f2.Release()
	t, err := rt.Trilinear(f1, w, f2, []int64{1, 3}, []int64{0}, []int64{1, 2}, []int64{2, 3}, 1)
	if err != nil {
		return nil, err
	}
	out, err := rt.Reshape(t, outShape)
	t.Release()
	if err != nil || b == nil {
		return out, err
	}
	defer out.Release()
	return rt.Add(out, b, 1)
}

// Trilinear is at::_trilinear(i1, i2, i3, expand1, expand2, expand3,
// sumdim, unroll_dim) with its TrilinearBackward0.
func (rt *Runtime) Trilinear(i1, i2, i3 *Tensor, e1, e2, e3, sumdim []int64, unroll int64) (*Tensor, error) {
	var out *Tensor
	err := rt.noGrad(func() error {
		var err error
		out, err = rt.trilinearKernel(i1, i2, i3, e1, e2, e3, sumdim, unroll)
		return err
	})
	if err != nil {
		return nil, err
	}
	n := rt.record("TrilinearBackward0", i1, i2, i3)
	if n != nil {
		n.saveIf(n.anyNeeded(1, 2), i1, false)
		n.saveIf(n.anyNeeded(0, 2), i2, false)
		n.saveIf(n.anyNeeded(0, 1), i3, false)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		res := make(gradSlot, 3)
		if g[0] == nil {
			return res, nil
		}
		ins := make([]*Tensor, 3)
		defer func() { releaseAll(ins) }()
		for i := range ins {
			if n.anyNeeded(others(i)...) {
				t, err := n.unpack(i)
				if err != nil {
					return res.fail(err)
				}
				ins[i] = t
			}
		}
		ex := [][]int64{e1, e2, e3}
		for i := 0; i < 3; i++ {
			if !n.needsInput(i) {
				continue
			}
			args := [3]*Tensor{ins[0], ins[1], ins[2]}
			dims := [3][]int64{ex[0], ex[1], ex[2]}
			args[i], dims[i] = g[0], sumdim
			r, err := rt.trilinearKernel(args[0], args[1], args[2], dims[0], dims[1], dims[2], ex[i], 1)
			if err != nil {
				return res.fail(err)
			}
			res[i] = r
		}
		return res, nil
	}, out)
	return out, nil
}

// others lists the indices of {0, 1, 2} other than i.
func others(i int) []int {
	var o []int
	for j := 0; j < 3; j++ {
		if j != i {
			o = append(o, j)
		}
	}
	return o
}

// trilinearKernel is _trilinear's body (no autograd).
func (rt *Runtime) trilinearKernel(i1, i2, i3 *Tensor, e1, e2, e3, sumdim []int64, unroll int64) (*Tensor, error) {
	total := int64(i1.Dim() + len(e1))
	if unroll < 0 || unroll >= total {
		return nil, Errorf(RuntimeError, "unroll_dim must be in [0,%d]", total-1)
	}
	bits := func(l []int64) []bool {
		b := make([]bool, total)
		for _, d := range l {
			if d >= 0 && d < total {
				b[d] = true
			}
		}
		return b
	}
	x1, x2, x3, sum := bits(e1), bits(e2), bits(e3), bits(sumdim)
	t := [3]*Tensor{i1.Retain(), i2.Retain(), i3.Retain()}
	defer func() { releaseAll(t[:]) }()
	var outSize, sum12, sum23 []int64
	unrollSize := int64(-1)
	for i := int64(0); i < total; i++ {
		s := int64(0)
		for j, ex := range [3][]bool{x1, x2, x3} {
			if ex[i] {
				u, err := rt.Unsqueeze(t[j], i)
				if err != nil {
					return nil, err
				}
				t[j].Release()
				t[j] = u
				if j == 2 && sum[i] && i != unroll {
					sum12 = append(sum12, i)
				}
				continue
			}
			if i >= int64(t[j].Dim()) {
				return nil, Errorf(RuntimeError, "_trilinear: dimension out of range")
			}
			s = t[j].shape[i]
			if j == 2 && sum[i] && i != unroll {
				sum23 = append(sum23, i)
			}
		}
		if sum[i] {
			outSize = append(outSize, 1)
		} else {
			outSize = append(outSize, s)
		}
		if i == unroll {
			unrollSize = s
		}
	}
	mul := func(ex []bool) int64 {
		if ex[unroll] {
			return 0
		}
		return 1
	}
	m1, m2, m3 := mul(x1), mul(x2), mul(x3)
	out, err := rt.empty("_trilinear", outSize, nil, i1.dtype, i1.device)
	if err != nil {
		return nil, err
	}
	if t[0].Numel() != 0 && t[1].Numel() != 0 && t[2].Numel() != 0 {
		for k := int64(0); k < unrollSize; k++ {
			if err := rt.trilinearSlice(t, k, unroll, [3]int64{m1, m2, m3}, sum12, sum23); err != nil {
				out.Release()
				return nil, err
			}
		}
	}
	// output.squeeze_(i) for the summed dims: the same storage
	var shape, strides []int64
	for i, s := range out.shape {
		if !sum[i] {
			shape = append(shape, s)
			strides = append(strides, out.strides[i])
		}
	}
	out.storage.retain()
	r := rt.newTensorOn(out.storage, shape, strides, 0, out.dtype)
	out.Release()
	return r, nil
}

// trilinearSlice is one unrolled step: the two sumproduct_pair results
// (the first freed once the second exists, the second after it is added
// into the output in place).
func (rt *Runtime) trilinearSlice(t [3]*Tensor, k, unroll int64, m [3]int64, sum12, sum23 []int64) error {
	var sl [3]*Tensor
	defer func() { releaseAll(sl[:]) }()
	for j := range sl {
		s, err := rt.Slice(t[j], unroll, k*m[j], k*m[j]+1, 1, true, true)
		if err != nil {
			return err
		}
		sl[j] = s
	}
	buf, err := rt.sumproductPair(sl[0], sl[1], sum12)
	if err != nil {
		return err
	}
	buf2, err := rt.sumproductPair(buf, sl[2], sum23)
	buf.Release()
	if err != nil {
		return err
	}
	buf2.Release()
	return nil
}
