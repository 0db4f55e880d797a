package pybind

import "github.com/gpumem/playground/sim/torch"

// F.conv_transpose1d/2d/3d(input, weight, bias=None, stride=1, padding=0,
// output_padding=0, groups=1, dilation=1): note groups before dilation, as
// in PyTorch's signature.
func init() {
	for k := 1; k <= 3; k++ {
		k := k
		functionalOps["conv_transpose"+string(rune('0'+k))+"d"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
			x, w, b := a.tensor(0, "input"), a.tensor(1, "weight"), a.optTensor(2, "bias")
			st := a.nTuple(3, "stride", k, 1)
			pd := a.nTuple(4, "padding", k, 0)
			op := a.nTuple(5, "output_padding", k, 0)
			g := a.int(6, "groups", 1)
			dl := a.nTuple(7, "dilation", k, 1)
			if a.err != nil {
				return nil, a.err
			}
			if w.Dim() != k+2 {
				return nil, runtimeErr("Expected %d-dimensional weight for %d-dimensional input, but got %d-dimensional weight of size %v instead", k+2, k+2, w.Dim(), w.Shape())
			}
			return h.rt.ConvTranspose(x, w, b, st, pd, op, dl, g)
		}
	}
}

// F.leaky_relu(input, negative_slope=0.01, inplace=False) and
// F.leaky_relu_(input, negative_slope=0.01): DCGAN's discriminator
// activation (the slope does not change memory; it goes to the values).
func init() {
	functionalOps["leaky_relu"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x := a.tensor(0, "input")
		slope := a.float(1, "negative_slope", 0.01)
		inplace := a.bool(2, "inplace", false)
		if a.err != nil {
			return nil, a.err
		}
		if inplace {
			return h.rt.LeakyReluInplace(x, slope)
		}
		return h.rt.LeakyRelu(x, slope)
	}
	functionalOps["leaky_relu_"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x := a.tensor(0, "input")
		slope := a.float(1, "negative_slope", 0.01)
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.LeakyReluInplace(x, slope)
	}
}
