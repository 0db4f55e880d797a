package pybind

import (
	"github.com/gpumem/playground/sim/py"
)

// noArgs is the check of a METH_NOARGS Tensor method (nelement, data_ptr,
// element_size): CPython rejects any argument with "TensorBase.<name>()
// takes no arguments (N given)". args[0] is self.
func noArgs(name string, args []py.Value, kwargs []py.Kwarg) error {
	if n := len(args) - 1 + len(kwargs); n > 0 {
		return typeErr("TensorBase.%s() takes no arguments (%d given)", name, n)
	}
	return nil
}

// metaNoArgs names the Tensor methods PyTorch defines as METH_NOARGS.
var metaNoArgs = map[string]bool{"nelement": true, "element_size": true, "data_ptr": true, "dim": true, "ndimension": true}

// maxPositional is the check of PyTorch's argument parser for a method with
// a single signature: more than max positional arguments (self not counted)
// raise "<name>() takes M positional argument(s) but N was/were given".
func maxPositional(name string, args []py.Value, max int) error {
	n := len(args) - 1
	if n <= max {
		return nil
	}
	return typeErr("%s() takes %d positional argument%s but %d %s given", name, max, plural(max), n, wasWere(n))
}

// pyMaxPositional is CPython's check of a Python function's positional
// argument count (torch.cuda.empty_cache and friends are Python functions):
// "<name>() takes [from min to] max positional arguments but N were given".
func pyMaxPositional(name string, args []py.Value, min, max int) error {
	n := len(args)
	if n <= max {
		return nil
	}
	if min == max {
		return typeErr("%s() takes %d positional argument%s but %d %s given", name, max, plural(max), n, wasWere(n))
	}
	return typeErr("%s() takes from %d to %d positional arguments but %d %s given", name, min, max, n, wasWere(n))
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func wasWere(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
}
