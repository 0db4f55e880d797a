package torch

func colMajor(shape, strides []int64) bool {
	return len(shape) == 2 && strides[0] == 1 && strides[1] == shape[0]
}

func (rt *Runtime) checkMM(op string, a, b *Tensor) error {
	if op == "mm" {
		if err := checkSameDevice("mm", []string{"self", "mat2"}, a, b); err != nil {
			return err
		}
	}
	if len(a.shape) != 2 {
		return Errorf(RuntimeError, "self must be a matrix")
	}
	if len(b.shape) != 2 {
		return Errorf(RuntimeError, "mat2 must be a matrix")
	}
	if a.shape[1] != b.shape[0] {
		return Errorf(RuntimeError, "mat1 and mat2 shapes cannot be multiplied (%sx%d and %sx%d)", itoa(a.shape[0]), a.shape[1], itoa(b.shape[0]), b.shape[1])
	}
	if a.dtype != b.dtype {
		return Errorf(RuntimeError, "expected mat1 and mat2 to have the same dtype, but got: %s != %s", typeMetaName(a.dtype), typeMetaName(b.dtype))
	}
	if _, err := commonDevice(op, a, b); err != nil {
		return err
	}
	return nil
}

// gemmOut allocates a GEMM output and, on the GPU, the cuBLAS workspace of
// the running thread (fetched with the handle after the output exists).
// operands are the matrices as cublasCommonArgs prepares them (mat2 before
// mat1 for a row-major result): one cuBLAS cannot read in place (neither
// dense nor a column- or row-major matrix, e.g. an expanded gradient) is
// first copied contiguous, and the copy is freed once the GEMM is queued.
func (rt *Runtime) gemmOut(op string, shape []int64, dt DType, dev Device, lt bool, operands ...*Tensor) (*Tensor, error) {
	out, err := rt.empty(op, shape, nil, dt, dev)
	if err != nil {
		return nil, err
	}
	var copies []*Tensor
	defer func() {
		for _, c := range copies {
			c.Release()
		}
	}()
	if dev.IsCUDA() {
		for _, t := range operands {
			if !cublasNeedsCopy(t) {
				continue
			}
			c, err := rt.cloneContiguous(t)
			if err != nil {
				out.Release()
				return nil, err
			}
			copies = append(copies, c)
		}
		if err := intKernelErr(gemmKernel(op), dt, dev); err != nil {
			out.Release()
			return nil, err
		}
	}
	if dev.IsCUDA() && numel(shape) > 0 {
		if err := rt.workspace(false); err != nil {
			out.Release()
			return nil, err
		}
		if lt {
			if err := rt.workspace(true); err != nil {
				out.Release()
				return nil, err
			}
		}
	}
	return out, nil
}

// cublasNeedsCopy is prepare_matrix_for_cublas's test: a 2-D matrix that is
// neither non-overlapping and dense nor a column- or row-major matrix with
// a leading dimension cuBLAS accepts is cloned contiguous.
func cublasNeedsCopy(t *Tensor) bool {
	if t != nil && len(t.shape) == 3 {
		return batchNeedsCopy(t)
	}
	if t == nil || len(t.shape) != 2 || isNonOverlappingAndDense(t.shape, t.strides) {
		return false
	}
	st, sz := t.strides, t.shape
	if st[0] == 1 && st[1] >= max(1, sz[0]) {
		return false
	}
	if st[1] == 1 && st[0] >= max(1, sz[1]) {
		return false
	}
	return true
}

// batchNeedsCopy is prepare_batch_matrix_for_cublas's test for a bmm
// operand (a contiguous result: row-major or transposed matrices with a
// usable leading dimension pass as they are; else a contiguous tensor
// with non-zero matrix strides; anything else, e.g. the expanded gradient
// of a sum, is cloned contiguous; q053's einsum backward).
func batchNeedsCopy(t *Tensor) bool {
	st, sz := t.strides, t.shape
	if st[2] == 1 && st[1] >= max(1, sz[2]) {
		return false
	}
	if st[1] == 1 && st[2] >= max(1, sz[1]) {
		return false
	}
	return !(isContiguous(sz, st) && st[1] != 0 && st[2] != 0)
}

// Mm is torch.mm (MmBackward0).
func (rt *Runtime) Mm(a, b *Tensor) (*Tensor, error) {
	if err := rt.checkMM("mm", a, b); err != nil {
		return nil, err
	}
	out, err := rt.gemmOut("mm", []int64{a.shape[0], b.shape[1]}, a.dtype, a.device, false, b, a)
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.compute1(ExecMatmul, out, []*Tensor{a, b})
	}
	n := rt.record("MmBackward0", a, b)
	if n != nil {
		n.saveIf(n.needsInput(1), a, false)
		n.saveIf(n.needsInput(0), b, false)
		aS, aSt, bS, bSt := cloneShape(a.shape), cloneShape(a.strides), cloneShape(b.shape), cloneShape(b.strides)
		n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
			return rt.mmBackward(n, g[0], -1, 0, 1, aS, aSt, bS, bSt)
		}, out)
	}
	return out, nil
}

// mmBackward computes the gradients of a (mat1) and b (mat2) for mm and
// addmm; selfIx is addmm's bias input (-1 for mm).
func (rt *Runtime) mmBackward(n *Node, g *Tensor, selfIx, aIx, bIx int, aS, aSt, bS, bSt []int64) ([]*Tensor, error) {
	res := make(gradSlot, len(n.next))
	if selfIx >= 0 && n.needsInput(selfIx) {
		res[selfIx] = g.Retain()
	}
	grad1 := func() error {
		if !n.needsInput(aIx) {
			return nil
		}
		mat2, err := n.unpack(1)
		if err != nil {
			return err
		}
		defer mat2.Release()
		res[aIx], err = rt.mmMat1Backward(g, mat2, aS, aSt)
		return err
	}
	grad2 := func() error {
		if !n.needsInput(bIx) {
			return nil
		}
		mat1, err := n.unpack(0)
		if err != nil {
			return err
		}
		defer mat1.Release()
		res[bIx], err = rt.mmMat2Backward(g, mat1, bS, bSt)
		return err
	}
	// MmBackward0 computes mat2's gradient before mat1's (recorded on the
	// GPU: sim/torch/testdata/questions/q6_linear_nobias_backward.out);
	// AddmmBackward0 mat1's first (oracle case p021_gpt_block).
	order := []func() error{grad1, grad2}
	if selfIx < 0 {
		order = []func() error{grad2, grad1}
	}
	for _, f := range order {
		if err := f(); err != nil {
			return res.fail(err)
		}
	}
	return res, nil
}

// mmMat1Backward is mm_mat1_backward.
func (rt *Runtime) mmMat1Backward(g, mat2 *Tensor, s, st []int64) (*Tensor, error) {
	if colMajor(s, st) {
		gt, err := rt.T(g)
		if err != nil {
			return nil, err
		}
		defer gt.Release()
		m, err := rt.Mm(mat2, gt)
		if err != nil {
			return nil, err
		}
		defer m.Release()
		return rt.T(m)
	}
	m2t, err := rt.T(mat2)
	if err != nil {
		return nil, err
	}
	defer m2t.Release()
	return rt.Mm(g, m2t)
}

// mmMat2Backward is mm_mat2_backward.
func (rt *Runtime) mmMat2Backward(g, mat1 *Tensor, s, st []int64) (*Tensor, error) {
	if colMajor(s, st) {
		gt, err := rt.T(g)
		if err != nil {
			return nil, err
		}
		defer gt.Release()
		m, err := rt.Mm(gt, mat1)
		if err != nil {
			return nil, err
		}
		defer m.Release()
		return rt.T(m)
	}
	m1t, err := rt.T(mat1)
	if err != nil {
		return nil, err
	}
	defer m1t.Release()
	return rt.Mm(m1t, g)
}

// Addmm is torch.addmm(bias, mat1, mat2) with beta = alpha = 1. A 1-D
// contiguous bias of a 2-D product takes cuBLASLt's bias epilogue, which
// uses the separate cuBLASLt workspace.
func (rt *Runtime) Addmm(bias, a, b *Tensor) (*Tensor, error) {
	if err := checkSameDevice("addmm", []string{"self", "mat1", "mat2"}, bias, a, b); err != nil {
		return nil, err
	}
	if err := rt.checkMM("addmm", a, b); err != nil {
		return nil, err
	}
	shape := []int64{a.shape[0], b.shape[1]}
	if !expandable(bias.shape, shape) {
		return nil, Errorf(RuntimeError, "The expanded size of the tensor (%d) must match the existing size (%d) at non-singleton dimension %d.  Target sizes: %s.  Tensor sizes: %s", shape[len(shape)-1], lastOr(bias.shape), len(bias.shape)-1, shapeList(shape), shapeList(bias.shape))
	}
	dt := a.dtype
	lt := len(bias.shape) == 1 && bias.shape[0] == b.shape[1] && bias.IsContiguous() &&
		(dt == Float32 || dt == Float16 || dt == BFloat16 || dt == Float64) &&
		b.shape[0] > 1 && b.shape[1] > 1 && a.shape[0] > 1 && a.shape[1] > 1
	out, err := rt.gemmOut("addmm", shape, dt, a.device, lt, b, a)
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.compute1(ExecMatmul, out, []*Tensor{a, b})
		rt.compute1(ExecAdd, out, []*Tensor{out, bias}, 1)
	}
	n := rt.record("AddmmBackward0", bias, a, b)
	if n != nil {
		n.saveIf(n.needsInput(2), a, false)
		n.saveIf(n.needsInput(1), b, false)
		aS, aSt, bS, bSt := cloneShape(a.shape), cloneShape(a.strides), cloneShape(b.shape), cloneShape(b.strides)
		n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
			return rt.mmBackward(n, g[0], 0, 1, 2, aS, aSt, bS, bSt)
		}, out)
	}
	return out, nil
}

// Bmm is torch.bmm (BmmBackward0).
func (rt *Runtime) Bmm(a, b *Tensor) (*Tensor, error) {
	if len(a.shape) != 3 || len(b.shape) != 3 {
		return nil, Errorf(RuntimeError, "batch1 must be a 3D tensor")
	}
	if a.shape[0] != b.shape[0] || a.shape[2] != b.shape[1] {
		return nil, Errorf(RuntimeError, "Expected size for first two dimensions of batch2 tensor to be: [%d, %d] but got: [%d, %d].", a.shape[0], a.shape[2], b.shape[0], b.shape[1])
	}
	if a.dtype != b.dtype {
		return nil, Errorf(RuntimeError, "expected scalar type %s but found %s", a.dtype.cppName(), b.dtype.cppName())
	}
	out, err := rt.gemmOut("bmm", []int64{a.shape[0], a.shape[1], b.shape[2]}, a.dtype, a.device, false, b, a)
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.compute1(ExecMatmul, out, []*Tensor{a, b})
	}
	n := rt.record("BmmBackward0", a, b)
	if n != nil {
		// the generated node holds mat2_ before self_ (the order the
		// formulas name them), and release_variables frees them in that
		// order (recorded on an H200: oracle case q041)
		n.saveIf(n.needsInput(0), b, false)
		n.saveIf(n.needsInput(1), a, false)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		res := make(gradSlot, 2)
		// BmmBackward0 computes mat2's gradient before self's, as
		// MmBackward0 does (recorded on an H200 with the memory history:
		// the [B, K, N] gradient is allocated first)
		if n.needsInput(1) {
			m1, err := n.unpack(1)
			if err != nil {
				return res.fail(err)
			}
			m1t, err := rt.Transpose(m1, 1, 2)
			m1.Release()
			if err != nil {
				return res.fail(err)
			}
			r, err := rt.Bmm(m1t, g[0])
			m1t.Release()
			if err != nil {
				return res.fail(err)
			}
			res[1] = r
		}
		if n.needsInput(0) {
			m2, err := n.unpack(0)
			if err != nil {
				return res.fail(err)
			}
			m2t, err := rt.Transpose(m2, 1, 2)
			m2.Release()
			if err != nil {
				return res.fail(err)
			}
			r, err := rt.Bmm(g[0], m2t)
			m2t.Release()
			if err != nil {
				return res.fail(err)
			}
			res[0] = r
		}
		return res, nil
	}, out)
	return out, nil
}

// Matmul is torch.matmul / the @ operator, following at::matmul's cases.
func (rt *Runtime) Matmul(a, b *Tensor) (*Tensor, error) {
	da, db := len(a.shape), len(b.shape)
	switch {
	case da == 0 || db == 0:
		return nil, Errorf(RuntimeError, "both arguments to matmul need to be at least 1D, but they are %dD and %dD", da, db)
	case da == 1 && db == 1:
		if a.shape[0] != b.shape[0] {
			return nil, Errorf(RuntimeError, "inconsistent tensor size, expected tensor [%d] and src [%d] to have the same number of elements, but got %d and %d elements respectively", a.shape[0], b.shape[0], a.shape[0], b.shape[0])
		}
		out, err := rt.gemmOut("dot", nil, a.dtype, a.device, false)
		if err != nil {
			return nil, err
		}
		if rt.exec != nil {
			rt.compute1(ExecMatmul, out, []*Tensor{a, b})
		}
		n := rt.record("DotBackward0", a, b)
		if n != nil {
			n.saveIf(n.needsInput(1), a, false)
			n.saveIf(n.needsInput(0), b, false)
		}
		n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
			res := make(gradSlot, 2)
			for i := 0; i < 2; i++ {
				if n.needsInput(i) {
					o, err := n.unpack(1 - i)
					if err != nil {
						return res.fail(err)
					}
					r, err := rt.Mul(g[0], o)
					o.Release()
					if err != nil {
						return res.fail(err)
					}
					res[i] = r
				}
			}
			return res, nil
		}, out)
		return out, nil
	case da == 2 && db == 1:
		if err := rt.mvIntErr(a, b); err != nil {
			return nil, err
		}
		bu, err := rt.Unsqueeze(b, 1)
		if err != nil {
			return nil, err
		}
		defer bu.Release()
		m, err := rt.Mm(a, bu)
		if err != nil {
			return nil, err
		}
		defer m.Release()
		return rt.Squeeze(m, []int64{1})
	case da == 1 && db == 2:
		au, err := rt.Unsqueeze(a, 0)
		if err != nil {
			return nil, err
		}
		defer au.Release()
		m, err := rt.Mm(au, b)
		if err != nil {
			return nil, err
		}
		defer m.Release()
		return rt.Squeeze(m, []int64{0})
	case da == 2 && db == 2:
		return rt.Mm(a, b)
	case da >= 3 && (db == 1 || db == 2):
		// fold the batch into the rows: reshape(-1, k).mm(b), _unsafe_view back
		k := a.shape[da-1]
		a2, err := rt.Reshape(a, []int64{-1, k})
		if err != nil {
			return nil, err
		}
		defer a2.Release()
		b2 := b.Retain()
		if db == 1 {
			b2.Release()
			b2, err = rt.Unsqueeze(b, 1)
			if err != nil {
				return nil, err
			}
		}
		defer b2.Release()
		m, err := rt.Mm(a2, b2)
		if err != nil {
			return nil, err
		}
		defer m.Release()
		shape := cloneShape(a.shape[:da-1])
		if db == 2 {
			shape = append(shape, b.shape[1])
		}
		return rt.unsafeView(m, shape)
	default:
		return rt.batchedMatmul(a, b)
	}
}

// unsafeView is at::_unsafe_view: a view that records UnsafeViewBackward0.
func (rt *Runtime) unsafeView(t *Tensor, shape []int64) (*Tensor, error) {
	st := viewStrides(t.shape, t.strides, shape)
	if st == nil {
		return rt.Reshape(t, shape)
	}
	in := cloneShape(t.shape)
	return rt.makeView(t, shape, st, t.offset, "UnsafeViewBackward0", func(n *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.Reshape(g[0], in)
		return []*Tensor{r}, err
	}), nil
}

// batchedMatmul is matmul's general case: broadcast batch dims, expand,
// reshape to 3-D, bmm, view back.
func (rt *Runtime) batchedMatmul(a, b *Tensor) (*Tensor, error) {
	da, db := len(a.shape), len(b.shape)
	var n, m1, m2, p int64
	var batchA, batchB []int64
	if da == 1 {
		n, m1 = 1, a.shape[0]
	} else {
		n, m1 = a.shape[da-2], a.shape[da-1]
		batchA = a.shape[:da-2]
	}
	if db == 1 {
		m2, p = b.shape[0], 1
	} else {
		m2, p = b.shape[db-2], b.shape[db-1]
		batchB = b.shape[:db-2]
	}
	if m1 != m2 {
		return nil, Errorf(RuntimeError, "Expected size for first two dimensions of batch2 tensor to be: [%d, %d] but got: [%d, %d].", numel(batchA), m1, numel(batchB), m2)
	}
	batch, err := broadcastShapes(batchA, batchB)
	if err != nil {
		return nil, err
	}
	bn := numel(batch)
	ea, err := rt.Expand(a, append(cloneShape(batch), n, m1))
	if da == 1 {
		ea.Release()
		au, _ := rt.Unsqueeze(a, 0)
		ea, err = rt.Expand(au, append(cloneShape(batch), n, m1))
		au.Release()
	}
	if err != nil {
		return nil, err
	}
	defer ea.Release()
	var eb *Tensor
	if db == 1 {
		bu, _ := rt.Unsqueeze(b, 1)
		eb, err = rt.Expand(bu, append(cloneShape(batch), m2, p))
		bu.Release()
	} else {
		eb, err = rt.Expand(b, append(cloneShape(batch), m2, p))
	}
	if err != nil {
		return nil, err
	}
	defer eb.Release()
	ra, err := rt.Reshape(ea, []int64{bn, n, m1})
	if err != nil {
		return nil, err
	}
	defer ra.Release()
	rb, err := rt.Reshape(eb, []int64{bn, m2, p})
	if err != nil {
		return nil, err
	}
	defer rb.Release()
	o, err := rt.Bmm(ra, rb)
	if err != nil {
		return nil, err
	}
	defer o.Release()
	shape := cloneShape(batch)
	if da > 1 {
		shape = append(shape, n)
	}
	if db > 1 {
		shape = append(shape, p)
	}
	return rt.unsafeView(o, shape)
}

// Linear is F.linear (at::linear): addmm for 2-D inputs with bias (and
// contiguous 3-D ones, viewed), else matmul then an in-place bias add.
func (rt *Runtime) Linear(x, w, bias *Tensor) (*Tensor, error) {
	if x, w, bias, release, err := rt.autocastArgs("linear", x, w, bias); err != nil {
		return nil, err
	} else if release != nil {
		defer release()
		return rt.linear(x, w, bias)
	}
	return rt.linear(x, w, bias)
}

func (rt *Runtime) linear(x, w, bias *Tensor) (*Tensor, error) {
	if len(w.shape) != 2 {
		wt, err := rt.T(w)
		if err != nil {
			return nil, err
		}
		defer wt.Release()
		return rt.Matmul(x, wt)
	}
	wt, err := rt.T(w)
	if err != nil {
		return nil, err
	}
	defer wt.Release()
	if x.Dim() >= 1 && x.shape[x.Dim()-1] != w.shape[1] {
		return nil, Errorf(RuntimeError, "mat1 and mat2 shapes cannot be multiplied (%sx%d and %dx%d)", itoa(numel(x.shape[:x.Dim()-1])), x.shape[x.Dim()-1], w.shape[1], w.shape[0])
	}
	if bias != nil && x.Dim() == 2 {
		return rt.Addmm(bias, x, wt)
	}
	if bias != nil && x.Dim() == 3 && x.IsContiguous() {
		x2, err := rt.View(x, []int64{x.shape[0] * x.shape[1], x.shape[2]})
		if err != nil {
			return nil, err
		}
		defer x2.Release()
		o, err := rt.Addmm(bias, x2, wt)
		if err != nil {
			return nil, err
		}
		defer o.Release()
		return rt.View(o, []int64{x.shape[0], x.shape[1], o.shape[1]})
	}
	out, err := rt.Matmul(x, wt)
	if err != nil || bias == nil {
		return out, err
	}
	r, err := rt.InplaceBinary("add", out, bias, Scalar{}, 1)
	out.Release()
	return r, err
}

func itoa(v int64) string { return Int(v).String() }

// cppName is the dtype as c10 prints it in error messages ("Float", "Half").
func (d DType) cppName() string {
	switch d {
	case Float32:
		return "Float"
	case Float16:
		return "Half"
	case Float64:
		return "Double"
	case BFloat16:
		return "BFloat16"
	case Int64:
		return "Long"
	case Int32:
		return "Int"
	case Int16:
		return "Short"
	case Int8:
		return "Char"
	case Uint8:
		return "Byte"
	case Bool:
		return "Bool"
	}
	return capitalize(d.Name())
}
