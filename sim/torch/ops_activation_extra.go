package torch

// The remaining pointwise activations of torch.nn.functional, with the
// memory measured in testdata/questions/q17_norm_act.out: selu/celu (ATen
// runs elu with their constants: EluBackward0 / CeluBackward0 save self;
// in place EluBackward1 / CeluBackward1 save the result), hardsigmoid,
// softshrink, hardshrink and threshold (their node saves self; in place,
// hardsigmoid_ and threshold_ save a clone of self taken before the op),
// and the composites softsign = x / (|x| + 1) and tanhshrink = x - tanh(x).

var (
	actSelu        = actSpec{op: "elu", dispatch: "elu_cuda", node: "EluBackward0", inNode: "EluBackward1"}
	actCelu        = actSpec{op: "elu", dispatch: "elu_cuda", node: "CeluBackward0", inNode: "CeluBackward1"}
	actHardsigmoid = actSpec{op: "hardsigmoid", dispatch: "hardsigmoid_cuda", node: "HardsigmoidBackward0", inNode: "HardsigmoidBackward0", inClone: true}
	actSoftshrink  = actSpec{op: "softshrink", dispatch: "softshrink_cuda", node: "SoftshrinkBackward0"}
	actHardshrink  = actSpec{op: "hardshrink", dispatch: "hardshrink_cuda", node: "HardshrinkBackward0"}
	actThreshold   = actSpec{op: "threshold", node: "ThresholdBackward0", inNode: "ThresholdBackward1", inClone: true, ints: true}
)

// Selu is F.selu(x).
func (rt *Runtime) Selu(a *Tensor) (*Tensor, error) { return rt.activation(actSelu, a) }

// SeluInplace is F.selu(x, inplace=True).
func (rt *Runtime) SeluInplace(a *Tensor) (*Tensor, error) { return rt.activationInplace(actSelu, a) }

// Celu is F.celu(x, alpha).
func (rt *Runtime) Celu(a *Tensor, alpha float64) (*Tensor, error) { return rt.activation(actCelu, a) }

// CeluInplace is F.celu(x, alpha, inplace=True).
func (rt *Runtime) CeluInplace(a *Tensor, alpha float64) (*Tensor, error) {
	return rt.activationInplace(actCelu, a)
}

// Hardsigmoid is F.hardsigmoid(x).
func (rt *Runtime) Hardsigmoid(a *Tensor) (*Tensor, error) { return rt.activation(actHardsigmoid, a) }

// HardsigmoidInplace is F.hardsigmoid(x, inplace=True).
func (rt *Runtime) HardsigmoidInplace(a *Tensor) (*Tensor, error) {
	return rt.activationInplace(actHardsigmoid, a)
}

// Softshrink is F.softshrink(x, lambd).
func (rt *Runtime) Softshrink(a *Tensor, lambd float64) (*Tensor, error) {
	return rt.activation(actSoftshrink, a)
}

// Hardshrink is F.hardshrink(x, lambd).
func (rt *Runtime) Hardshrink(a *Tensor, lambd float64) (*Tensor, error) {
	return rt.activation(actHardshrink, a)
}

// Threshold is F.threshold(x, threshold, value).
func (rt *Runtime) Threshold(a *Tensor, th, value float64) (*Tensor, error) {
	return rt.activation(actThreshold, a)
}

// ThresholdInplace is F.threshold_ / F.threshold(..., inplace=True).
func (rt *Runtime) ThresholdInplace(a *Tensor, th, value float64) (*Tensor, error) {
	return rt.activationInplace(actThreshold, a)
}

// Softsign is F.softsign: input / (input.abs() + 1), recorded op by op.
func (rt *Runtime) Softsign(a *Tensor) (*Tensor, error) {
	ab, err := rt.Abs(a)
	if err != nil {
		return nil, err
	}
	d, err := rt.AddScalar(ab, Int(1))
	ab.Release()
	if err != nil {
		return nil, err
	}
	defer d.Release()
	return rt.Div(a, d)
}

// Tanhshrink is F.tanhshrink: input - input.tanh(), recorded op by op.
func (rt *Runtime) Tanhshrink(a *Tensor) (*Tensor, error) {
	t, err := rt.Tanh(a)
	if err != nil {
		return nil, err
	}
	defer t.Release()
	return rt.Sub(a, t, 1)
}
