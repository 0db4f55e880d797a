package torch

// BlockDiag is torch.block_diag(*tensors) (CompositeExplicitAutograd,
// BlockDiagBackward0): one zero-filled [Σrows, Σcols] tensor of the inputs'
// result type, each input (0-d: 1×1, 1-d: one row) copied into its block.
// The backward hands each input a slice view of the gradient (squeezed for
// 0-d inputs; 1-d inputs get [1, n], which the engine sums to [n]).
func (rt *Runtime) BlockDiag(ts []*Tensor) (*Tensor, error) {
	if len(ts) == 0 {
		return rt.empty("block_diag", []int64{1, 0}, nil, Float32, CPUDevice)
	}
	dev := ts[0].device
	for i, t := range ts {
		if t.device != dev {
			return nil, Errorf(RuntimeError, "torch.block_diag: input tensors must all be on the same device. Input 0 is on device %s and input %d is on device %s", dev, i, t.device)
		}
	}
	dt := ResultType(ts, nil)
	rows, cols := make([]int64, len(ts)), make([]int64, len(ts))
	var r0, c0 int64
	for i, t := range ts {
		nd := len(t.shape)
		if nd > 2 {
			return nil, Errorf(RuntimeError, "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input %d has %d dimensions", i, nd)
		}
		rows[i], cols[i] = 1, 1
		switch nd {
		case 2:
			rows[i], cols[i] = t.shape[0], t.shape[1]
		case 1:
			cols[i] = t.shape[0]
		}
		r0 += rows[i]
		c0 += cols[i]
	}
	out, err := rt.empty("block_diag", []int64{r0, c0}, nil, dt, dev)
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.markNotComputed(out)
	}
	n := rt.record("BlockDiagBackward0", ts...)
	shapes := make([][]int64, len(ts))
	for i, t := range ts {
		shapes[i] = cloneShape(t.shape)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		res := make(gradSlot, len(shapes))
		var r, c int64
		for i, s := range shapes {
			if !n.needsInput(i) {
				r += rows[i]
				c += cols[i]
				continue
			}
			if len(s) == 1 && s[0] == 0 {
				z, err := rt.empty("zeros", []int64{0}, nil, g[0].dtype, g[0].device)
				if err != nil {
					return res.fail(err)
				}
				res[i] = z
				continue
			}
			v, err := rt.blockView(g[0], r, c, rows[i], cols[i], len(s) == 0)
			if err != nil {
				return res.fail(err)
			}
			res[i] = v
			r += rows[i]
			c += cols[i]
		}
		return res, nil
	}, out)
	return out, nil
}

// blockView is grad.slice(0, r, r+h).slice(1, c, c+w) (squeezed to 0-d).
func (rt *Runtime) blockView(g *Tensor, r, c, h, w int64, scalar bool) (*Tensor, error) {
	a, err := rt.Slice(g, 0, r, r+h, 1, true, true)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	b, err := rt.Slice(a, 1, c, c+w, 1, true, true)
	if err != nil || !scalar {
		return b, err
	}
	defer b.Release()
	return rt.Squeeze(b, nil)
}
