package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// cudaDeviceArg checks the device argument of the torch.cuda memory
// functions: the simulated machine has one GPU, so an integer ordinal other
// than 0 (or -1, the current device) fails as in PyTorch's caching
// allocator ("Invalid device argument N: did you call init?"). Other forms
// (None, strings, torch.device) are accepted here.
func cudaDeviceArg(name string, args []py.Value, kwargs []py.Kwarg) error {
	if err := pyMaxPositional(name, args, 0, 1); err != nil {
		return err
	}
	v := argOr(args, kwargs, 0, "device")
	if v == nil {
		return nil
	}
	if _, isBool := v.(py.Bool); isBool {
		return nil
	}
	var dev *torch.Device
	if s, isStr := v.(py.Str); isStr {
		d, err := torch.ParseDevice(string(s))
		if err != nil {
			return pyErr(err) // "nope": PyTorch's device-string error (question q12)
		}
		dev = &d
	}
	if d, isDev := v.(*DeviceObj); isDev {
		dev = &d.d
	}
	if dev != nil {
		// question q12: "cpu" is a ValueError, "cuda:1" the ordinal error
		if dev.Type != torch.CUDA {
			return py.NewException(py.ValueError, "Expected a cuda device, but got: "+dev.String())
		}
		if dev.Index > 0 {
			return runtimeErr("Invalid device argument %s: did you call init?", string(rune(byte(dev.Index)&0x7f)))
		}
	}
	if n, ok := v.(py.Int); ok && n != 0 && n != -1 {
		// PyTorch formats the index as a char (question q11: 7 prints as
		// "\a", 99 as "c")
		return runtimeErr("Invalid device argument %s: did you call init?", string(rune(byte(n)&0x7f)))
	}
	return nil
}
