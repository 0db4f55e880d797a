package pybind

import (
	"github.com/gpumem/playground/sim/py"
)

// MemoryFormatObj is a torch.memory_format (torch.preserve_format,
// torch.contiguous_format, torch.channels_last, torch.channels_last_3d).
// Factories accept it (memory_format=...) and, since the simulation keeps
// the input's strides for *_like factories and makes contiguous tensors
// otherwise, it changes no memory event: the optimizers pass
// preserve_format, which is what they get.
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
