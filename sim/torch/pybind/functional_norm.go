package pybind

import (
	"fmt"
	"strings"

	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// F.batch_norm(input, running_mean, running_var, weight=None, bias=None,
// training=False, momentum=0.1, eps=1e-05), with functional.py's
// _verify_batch_size check in training.
func init() {
	functionalOps["batch_norm"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x := a.tensor(0, "input")
		rm, rv := a.optTensor(1, "running_mean"), a.optTensor(2, "running_var")
		w, b := a.optTensor(3, "weight"), a.optTensor(4, "bias")
		training := a.bool(5, "training", false)
		mom := a.float(6, "momentum", 0.1)
		eps := a.float(7, "eps", 1e-5)
		if a.err != nil {
			return nil, a.err
		}
		if training {
			sh := x.Shape()
			if len(sh) < 2 {
				return nil, py.NewException(py.IndexError, "tuple index out of range")
			}
			prod := sh[0]
			for _, s := range sh[2:] {
				prod *= s
			}
			if prod == 1 {
				parts := make([]string, len(sh))
				for i, s := range sh {
					parts[i] = fmt.Sprint(s)
				}
				return nil, py.NewException(py.ValueError, "Expected more than 1 value per channel when training, got input size torch.Size(["+strings.Join(parts, ", ")+"])")
			}
		}
		return h.rt.BatchNorm(torch.BatchNormArgs{X: x, RunningMean: rm, RunningVar: rv, Weight: w, Bias: b, Training: training, Eps: eps, Momentum: mom})
	}
}
