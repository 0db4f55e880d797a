package pybind

import (
	"sync"

	"github.com/gpumem/playground/sim/py"
)

var (
	classesOnce    sync.Once
	tensorClassV   *py.Class
	parameterClass *py.Class
)

// initClasses builds torch.Tensor and nn.Parameter on first use, after
// every ops_*.go file has filled the operation table.

func initClasses() {
	classesOnce.Do(func() {
		tensorClassV = py.NewHostClass(py.ClassSpec{
			Name: "Tensor", Module: "torch",
			Methods: tensorMethods(),
			Props:   tensorProps(),
		})
		parameterClass = py.NewHostClass(py.ClassSpec{
			Name: "Parameter", Module: "torch.nn.parameter", Base: tensorClassV,
			New: newParameter,
		})
	})
}
