package torch

// F.prelu (PyTorch 2.11): at::prelu is composite — it checks the weight,
// reshapes a 1-d weight to [1, C, 1, ...] (a view: ViewBackward0) and calls
// _prelu_kernel, a TensorIterator binary op (output laid out like the
// input). PreluKernelBackward0 (_prelu_kernel_backward) is one
// TensorIterator with two outputs, grad_input and grad_weight, BOTH of the
// input's full shape, allocated in that order whatever is needed; the
// unneeded one dies with the backward's result, and the engine sums
// grad_weight down to the weight's shape (validate_outputs' sum_to, with
// its reduction scratch). Measured in q22 (PReLU items).

// Prelu is F.prelu(x, weight).
func (rt *Runtime) Prelu(x, w *Tensor) (*Tensor, error) {
	if x.dtype != w.dtype {
		return nil, Errorf(RuntimeError, "prelu: Type promoting not supported. Got %s and %s", x.dtype.cppName(), w.dtype.cppName())
	}
	nd := x.Dim()
	if w.Numel() != 1 {
		if nd == 0 {
			return nil, Errorf(RuntimeError, "Not allow zero-dim input tensor.")
		}
		channels := int64(1)
		if nd > 1 {
			channels = x.shape[1]
		}
		if channels != w.Numel() {
			return nil, Errorf(RuntimeError, "Mismatch of parameter numbers and input channel size. Found parameter numbers = %d and channel size = %d.", w.Numel(), channels)
		}
	}
	if w.Dim() > 1 {
		return nil, Errorf(RuntimeError, "prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = %d", w.Dim())
	}
	weight := w.Retain()
	if nd != w.Dim() {
		shape := make([]int64, nd)
		for i := range shape {
			shape[i] = 1
		}
		if nd > 1 {
			shape[1] = w.Numel()
		}
		weight.Release()
		var err error
		if weight, err = rt.Reshape(w, shape); err != nil {
			return nil, err
		}
	}
	defer weight.Release()
	out, err := rt.pointwiseOut("_prelu_kernel", x.dtype, x, weight)
	if err != nil {
		return nil, err
	}
	n := rt.record("PreluKernelBackward0", x, weight)
	if n != nil {
		n.save(x, false)
		n.save(weight, false)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		self, err := n.unpack(0)
		if err != nil {
			return nil, err
		}
		defer self.Release()
		wt, err := n.unpack(1)
		if err != nil {
			return nil, err
		}
		defer wt.Release()
		var outs [2]*Tensor
		for i := range outs {
			if outs[i], err = rt.pointwiseOut("_prelu_kernel_backward", self.dtype, self, wt, g[0]); err != nil {
				outs[0].Release()
				return nil, err
			}
		}
		res := make(gradSlot, 2)
		for i, t := range outs {
			if n.needsInput(i) {
				res[i] = t.Retain()
			}
			t.Release()
		}
		return res, nil
	}, out)
	return out, nil
}
