package pybind

import (
	"errors"
	"fmt"

	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// OutOfMemoryError is torch.OutOfMemoryError (= torch.cuda.OutOfMemoryError),
// a RuntimeError subclass whose __module__ is "torch", as in PyTorch.
var OutOfMemoryError = py.NewExceptionClass("OutOfMemoryError", "torch", py.RuntimeError)

// pyErr turns an error of package torch into the Python exception scripts
// see; Python exceptions pass through unchanged.
func pyErr(err error) error {
	if err == nil {
		return nil
	}
	var inst *py.Instance
	if errors.As(err, &inst) {
		return err
	}
	var te *torch.Error
	if !errors.As(err, &te) {
		return py.NewException(py.RuntimeError, err.Error())
	}
	cls := py.RuntimeError
	switch te.Kind {
	case torch.TypeError:
		cls = py.TypeError
	case torch.ValueError:
		cls = py.ValueError
	case torch.IndexError:
		cls = py.IndexError
	case torch.NotImplementedError:
		cls = py.NotImplementedError
	case torch.OutOfMemoryError:
		cls = OutOfMemoryError
	}
	return py.NewException(cls, te.Msg)
}

// typeErr builds a TypeError.
func typeErr(format string, args ...any) error {
	return py.NewException(py.TypeError, fmt.Sprintf(format, args...))
}

// runtimeErr builds a RuntimeError.
func runtimeErr(format string, args ...any) error {
	return py.NewException(py.RuntimeError, fmt.Sprintf(format, args...))
}
