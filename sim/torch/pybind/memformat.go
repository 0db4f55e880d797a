package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// MemoryFormatObj is a torch.memory_format (torch.preserve_format,
// torch.contiguous_format, torch.channels_last, torch.channels_last_3d).
// Tensor.to, .contiguous, .clone and .is_contiguous honour it (strides in
// that format); factories accept it (memory_format=...) and keep the
// input's strides for *_like factories, contiguous ones otherwise.
type MemoryFormatObj struct {
	py.Base
	name string
}

// Type is torch.memory_format.
func (*MemoryFormatObj) Type() *py.Class { return memoryFormatClass }

// Repr is "torch.preserve_format".
func (o *MemoryFormatObj) Repr(it *py.Interp) (string, error) { return "torch." + o.name, nil }

var memoryFormatClass = py.NewHostClass(py.ClassSpec{Name: "memory_format", Module: "torch"})

// memoryFormats are the names PyTorch exports in the torch module.
var memoryFormats = []string{"contiguous_format", "preserve_format", "channels_last", "channels_last_3d"}

// addMemoryFormats puts torch.memory_format and its values into m.
func addMemoryFormats(it *py.Interp, m *py.Module) {
	m.Set(it, "memory_format", memoryFormatClass)
	for _, name := range memoryFormats {
		m.Add(it, name, &MemoryFormatObj{name: name})
	}
}

// memoryFormatArg reads a memory_format= argument (None or absent: ok
// false).
func memoryFormatArg(v py.Value) (torch.MemoryFormat, bool, error) {
	if v == nil || v == py.None {
		return torch.PreserveFormat, false, nil
	}
	o, ok := v.(*MemoryFormatObj)
	if !ok {
		return 0, false, typeErr("memory_format must be torch.memory_format, not %s", typeName(v))
	}
	mf, _ := torch.MemoryFormatNamed(o.name)
	return mf, true, nil
}
