package torch

// torch.floor, ceil, round, trunc and sign: a new tensor like the input,
// of its dtype; their backward is zeros_like(grad) (FloorBackward0, …,
// derivatives.yaml). floor/ceil/round/trunc of an integral tensor is
// self.clone() in PyTorch: a copy on a GPU run.

// roundNodes are the ops' autograd node names.
var roundNodes = map[string]string{
	"floor": "FloorBackward0", "ceil": "CeilBackward0", "round": "RoundBackward0",
	"trunc": "TruncBackward0", "sign": "SignBackward0",
}

// RoundLike is torch.floor/ceil/round/trunc/sign (op names it).
func (rt *Runtime) RoundLike(op string, a *Tensor) (*Tensor, error) {
	name, ok := roundNodes[op]
	if !ok {
		return nil, Errorf(RuntimeError, "%s is not a rounding op", op)
	}
	kind := ExecKind(op)
	if op != "sign" && a.dtype.IsIntegral(true) {
		kind = ExecCopy
	}
	return rt.unaryGradKind(op, kind, name, a, a.dtype, saveNone, func(g, _, _ *Tensor) (*Tensor, error) {
		return rt.ZerosLike(g)
	})
}
