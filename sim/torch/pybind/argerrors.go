package pybind

import (
	"strings"

	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// AcceleratorError is torch.AcceleratorError, the RuntimeError subclass
// PyTorch 2.11 raises for CUDA runtime failures such as an invalid device
// ordinal.
var AcceleratorError = py.NewExceptionClass("AcceleratorError", "torch", py.RuntimeError)

// invalidCombination is the error of PyTorch's argument parser for a call
// that matches none of a function's signatures (question q12):
//
//	fn() received an invalid combination of arguments - got (int, tuple,
//	device=str), but expected one of:
//	 * (signature)
//	 * (signature)
//
// Each sig is one signature line without the leading " * ", possibly
// followed by PyTorch's "didn't match because …" line.
func invalidCombination(fn string, args []py.Value, kwargs []py.Kwarg, sigs ...string) error {
	var b strings.Builder
	b.WriteString(fn)
	b.WriteString("() received an invalid combination of arguments - got (")
	b.WriteString(gotTypes(args, kwargs))
	b.WriteString("), but expected one of:\n")
	for _, s := range sigs {
		b.WriteString(" * ")
		b.WriteString(s)
		b.WriteString("\n")
	}
	return py.NewException(py.TypeError, b.String())
}

// gotTypes lists the argument types as PyTorch's parser prints them:
// positional type names, then name=type for keywords.
func gotTypes(args []py.Value, kwargs []py.Kwarg) string {
	parts := make([]string, 0, len(args)+len(kwargs))
	for _, a := range args {
		parts = append(parts, typeName(a))
	}
	for _, k := range kwargs {
		parts = append(parts, k.Name+"="+typeName(k.Value))
	}
	return strings.Join(parts, ", ")
}

// cudaOrdinal fails as PyTorch does when a tensor is placed on a CUDA
// device the machine does not have (the simulated machine has one GPU).
func cudaOrdinal(d torch.Device) error {
	if d.Type == torch.CUDA && d.Index > 0 {
		return py.NewException(AcceleratorError, "CUDA error: invalid device ordinal\n"+
			"GPU device may be out of range, do you have enough GPUs?\n"+
			"CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\n"+
			"For debugging consider passing CUDA_LAUNCH_BLOCKING=1\n"+
			"Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n")
	}
	return nil
}

// Signatures of the factories whose mistakes are reported with
// invalidCombination (PyTorch 2.11's wording, question q12).
const (
	factoryKwSig = "torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, bool pin_memory = False, bool requires_grad = False)"
	fullSigNames = "(tuple of ints size, Number fill_value, *, tuple of names names, " + factoryKwSig
	fullSigOut   = "(tuple of ints size, Number fill_value, *, Tensor out = None, " + factoryKwSig
)

// randintSigs are torch.randint's four signatures.
var randintSigs = []string{
	"(int high, tuple of ints size, *, torch.Generator generator, Tensor out = None, " + factoryKwSig,
	"(int high, tuple of ints size, *, Tensor out = None, " + factoryKwSig,
	"(int low, int high, tuple of ints size, *, torch.Generator generator, Tensor out = None, " + factoryKwSig,
	"(int low, int high, tuple of ints size, *, Tensor out = None, " + factoryKwSig,
}
