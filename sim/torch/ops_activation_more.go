package torch

// Pointwise activations of torch.nn.functional beyond relu/gelu/silu/
// leaky_relu: elu, softplus, mish, hardswish, hardtanh (and relu6, which
// ATen runs as hardtanh(0, 6)) and logsigmoid, with PyTorch 2.11's memory:
// the out-of-place op allocates its output (empty_like the input) and its
// node saves self; every backward allocates one gradient-sized tensor (the
// *_backward kernel). In place, elu_ has its own derivative (EluBackward1
// saves the result), while mish_, hardswish_ and hardtanh_ (relu6_) reuse
// the out-of-place formula, which needs self: the generated autograd kernel
// saves original_self = self.clone() before the op runs (one input-sized
// copy, kept by the node; measured in testdata/questions/q17_norm_act.*,
// where the grad_fn names show it). Values are not
// computed by the executor (outputs stay "not computed"; in-place targets
// are marked so).

// actSpec describes one activation.
type actSpec struct {
	op       string // ATen op (the allocation's label)
	dispatch string // the CUDA kernel's dispatch name in dtype errors
	node     string // out-of-place backward node
	inNode   string // in-place backward node
	inClone  bool   // in place saves a clone of self (else the result)
	ints     bool   // integer inputs are accepted (hardtanh runs clamp)
}

var (
	actElu       = actSpec{op: "elu", dispatch: "elu_cuda", node: "EluBackward0", inNode: "EluBackward1"}
	actSoftplus  = actSpec{op: "softplus", dispatch: "softplus_cuda", node: "SoftplusBackward0"}
	actMish      = actSpec{op: "mish", dispatch: "mish_cuda", node: "MishBackward0", inNode: "MishBackward0", inClone: true}
	actHardswish = actSpec{op: "hardswish", dispatch: "hardswish_cuda", node: "HardswishBackward0", inNode: "HardswishBackward0", inClone: true}
	actHardtanh  = actSpec{op: "hardtanh", node: "HardtanhBackward0", inNode: "HardtanhBackward0", inClone: true, ints: true}
)

// check refuses the dtypes the op's kernel does not dispatch.
func (s actSpec) check(a *Tensor) error {
	if s.ints {
		if a.dtype == Bool {
			return Errorf(RuntimeError, "Bool inputs not supported for %s", s.op)
		}
		return nil
	}
	if !a.dtype.IsFloating() {
		return Errorf(NotImplementedError, "\"%s\" not implemented for '%s'", s.dispatch, a.dtype.cppName())
	}
	return nil
}

// Elu is F.elu(x, alpha).
func (rt *Runtime) Elu(a *Tensor, alpha float64) (*Tensor, error) { return rt.activation(actElu, a) }

// EluInplace is F.elu(x, alpha, inplace=True) / F.elu_.
func (rt *Runtime) EluInplace(a *Tensor, alpha float64) (*Tensor, error) {
	return rt.activationInplace(actElu, a)
}

// Softplus is F.softplus(x, beta, threshold) (on autocast's fp32 list).
func (rt *Runtime) Softplus(a *Tensor, beta, threshold float64) (*Tensor, error) {
	ins, release, err := rt.autocastFP32(a)
	if err != nil {
		return nil, err
	}
	if release != nil {
		defer release()
		a = ins[0]
	}
	return rt.activation(actSoftplus, a)
}

// Mish is F.mish(x).
func (rt *Runtime) Mish(a *Tensor) (*Tensor, error) { return rt.activation(actMish, a) }

// MishInplace is F.mish(x, inplace=True).
func (rt *Runtime) MishInplace(a *Tensor) (*Tensor, error) { return rt.activationInplace(actMish, a) }

// Hardswish is F.hardswish(x).
func (rt *Runtime) Hardswish(a *Tensor) (*Tensor, error) { return rt.activation(actHardswish, a) }

// HardswishInplace is F.hardswish(x, inplace=True).
func (rt *Runtime) HardswishInplace(a *Tensor) (*Tensor, error) {
	return rt.activationInplace(actHardswish, a)
}

// Hardtanh is F.hardtanh(x, min_val, max_val) (and F.relu6: 0, 6).
func (rt *Runtime) Hardtanh(a *Tensor, lo, hi float64) (*Tensor, error) {
	return rt.activation(actHardtanh, a)
}

// HardtanhInplace is F.hardtanh_ / F.hardtanh(inplace=True) / F.relu6(inplace=True).
func (rt *Runtime) HardtanhInplace(a *Tensor, lo, hi float64) (*Tensor, error) {
	return rt.activationInplace(actHardtanh, a)
}

// activation runs s out of place: the output, and a node saving self whose
// backward allocates one gradient.
func (rt *Runtime) activation(s actSpec, a *Tensor) (*Tensor, error) {
	if err := s.check(a); err != nil {
		return nil, err
	}
	out, err := rt.unaryOut(s.op, a, a.dtype)
	if err != nil {
		return nil, err
	}
	n := rt.record(s.node, a)
	if n != nil {
		n.save(a, false)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		self, err := n.unpack(0)
		if err != nil {
			return nil, err
		}
		defer self.Release()
		r, err := rt.empty(s.op+"_backward", g[0].shape, stridesLike(g[0].shape, g[0].strides), g[0].dtype, g[0].device)
		return []*Tensor{r}, err
	}, out)
	return out, nil
}

// activationInplace runs s in place on t: no allocation unless the node
// saves a clone of self (taken before the op, as the generated kernel
// does); the backward allocates one gradient.
func (rt *Runtime) activationInplace(s actSpec, t *Tensor) (*Tensor, error) {
	if err := s.check(t); err != nil {
		return nil, err
	}
	if err := rt.checkInplace(t); err != nil {
		return nil, err
	}
	var orig *Tensor
	if s.inClone && rt.needsGrad(t) {
		c, err := rt.empty("clone", t.shape, stridesLike(t.shape, t.strides), t.dtype, t.device)
		if err != nil {
			return nil, err
		}
		if rt.exec != nil {
			rt.compute1(ExecCopy, c, []*Tensor{t})
		}
		orig = c
	}
	if err := rt.inplace(t); err != nil {
		releaseAll([]*Tensor{orig})
		return nil, err
	}
	if rt.exec != nil {
		rt.markNotComputed(t)
	}
	n := rt.record(s.inNode, t)
	if n != nil {
		if orig != nil {
			n.save(orig, false)
		} else {
			n.save(t, true)
		}
		n.rebase(func(n *Node, g []*Tensor) ([]*Tensor, error) {
			v, err := n.unpack(0)
			if err != nil {
				return nil, err
			}
			defer v.Release()
			r, err := rt.empty(s.op+"_backward", g[0].shape, stridesLike(g[0].shape, g[0].strides), g[0].dtype, g[0].device)
			return []*Tensor{r}, err
		}, t)
	}
	releaseAll([]*Tensor{orig})
	return t.Retain(), nil
}

// LogSigmoid is F.logsigmoid: log_sigmoid_forward returns the output and a
// buffer, which on CUDA is empty({0}) (no memory); LogSigmoidBackward0
// saves self and the buffer, and log_sigmoid_backward allocates one
// gradient (empty_like(grad_output)).
func (rt *Runtime) LogSigmoid(a *Tensor) (*Tensor, error) {
	if !a.dtype.IsFloating() {
		return nil, Errorf(NotImplementedError, "\"log_sigmoid_forward_cuda\" not implemented for '%s'", a.dtype.cppName())
	}
	out, err := rt.unaryOut("log_sigmoid_forward", a, a.dtype)
	if err != nil {
		return nil, err
	}
	buf, err := rt.empty("log_sigmoid_forward", []int64{0}, nil, a.dtype, a.device)
	if err != nil {
		out.Release()
		return nil, err
	}
	defer buf.Release()
	n := rt.record("LogSigmoidBackward0", a)
	if n != nil {
		n.save(a, false)
		n.save(buf, false)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		self, err := n.unpack(0)
		if err != nil {
			return nil, err
		}
		defer self.Release()
		r, err := rt.empty("log_sigmoid_backward", g[0].shape, stridesLike(g[0].shape, g[0].strides), g[0].dtype, g[0].device)
		return []*Tensor{r}, err
	}, out)
	return out, nil
}
