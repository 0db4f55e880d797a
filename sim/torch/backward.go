package torch

// Backward is Tensor.backward(gradient, retain_graph, create_graph, inputs)
// through torch.autograd.backward: a missing gradient of a scalar output is
// made with ones_like (alive until backward returns), then the engine runs.
func (rt *Runtime) Backward(roots []*Tensor, grads []*Tensor, opts BackwardOptions) error {
	made, err := rt.makeGrads(roots, grads)
	if err != nil {
		return err
	}
	if _, err = rt.RunBackward(roots, made, opts); err != nil {
		return &BackwardFailure{Err: err, Grads: made}
	}
	releaseAll(made)
	return nil
}

// BackwardFailure is the error of a backward that failed in the engine,
// with the gradients it ran with (owned: the receiver must Release them).
// In PyTorch the exception's traceback keeps torch.autograd.backward's
// frame, whose grad_tensors_ keep these alive until the exception dies.
type BackwardFailure struct {
	Err   error
	Grads []*Tensor
}

func (e *BackwardFailure) Error() string { return e.Err.Error() }

// Unwrap gives the engine's error.
func (e *BackwardFailure) Unwrap() error { return e.Err }

// Grad is torch.autograd.grad: the gradients of outputs with respect to
// inputs (owned; nil entries for unused inputs with allow_unused).
func (rt *Runtime) Grad(outputs, inputs, grads []*Tensor, opts BackwardOptions) ([]*Tensor, error) {
	made, err := rt.makeGrads(outputs, grads)
	if err != nil {
		return nil, err
	}
	defer releaseAll(made)
	opts.Inputs = inputs
	opts.Capture = true
	return rt.RunBackward(outputs, made, opts)
}

// makeGrads is _make_grads: given gradients are used as they are (new
// references); missing ones of scalar outputs that require grad become
// ones_like(output).
func (rt *Runtime) makeGrads(outs, grads []*Tensor) ([]*Tensor, error) {
	made := make([]*Tensor, len(outs))
	for i, o := range outs {
		var g *Tensor
		if i < len(grads) {
			g = grads[i]
		}
		if g != nil {
			if !sameShape(g.shape, o.shape) {
				releaseAll(made)
				return nil, Errorf(RuntimeError, "Mismatch in shape: grad_output[%d] has a shape of torch.Size(%s) and output[%d] has a shape of torch.Size(%s).", i, shapeList(g.shape), i, shapeList(o.shape))
			}
			made[i] = g.Retain()
			continue
		}
		if o.RequiresGrad() {
			if o.Numel() != 1 {
				releaseAll(made)
				return nil, Errorf(RuntimeError, "grad can be implicitly created only for scalar outputs")
			}
			if !o.dtype.IsFloating() {
				releaseAll(made)
				return nil, Errorf(RuntimeError, "grad can be implicitly created only for real scalar outputs but got %s", o.dtype)
			}
			one, err := rt.OnesLike(o)
			if err != nil {
				releaseAll(made)
				return nil, err
			}
			made[i] = one
		}
	}
	for i, m := range made {
		if m == nil {
			releaseAll(made)
			return nil, Errorf(RuntimeError, "element %d of tensors does not require grad and does not have a grad_fn", i)
		}
	}
	return made, nil
}

// RetainGrad is Tensor.retain_grad().
func (rt *Runtime) RetainGrad(t *Tensor) error {
	if !t.RequiresGrad() {
		return Errorf(RuntimeError, "can't retain_grad on Tensor that has requires_grad=False")
	}
	if t.IsLeaf() || t.retainsGrad {
		return nil
	}
	t.retainsGrad = true
	if t.gradFn.retainGrad == nil {
		t.gradFn.retainGrad = map[int]*Tensor{}
	}
	t.gradFn.retainGrad[t.outputNr] = t
	return nil
}
