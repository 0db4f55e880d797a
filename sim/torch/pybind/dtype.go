package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// DTypeObj is a torch.dtype (torch.float32, ...): one object per dtype and
// run, so `t.dtype is torch.float32` holds.
type DTypeObj struct {
	py.Base
	d torch.DType
}

// Type is torch.dtype.
func (*DTypeObj) Type() *py.Class { return dtypeClass }

// Repr is "torch.float32".
func (o *DTypeObj) Repr(it *py.Interp) (string, error) { return o.d.String(), nil }

var dtypeClass = py.NewHostClass(py.ClassSpec{
	Name: "dtype", Module: "torch",
	Props: map[string]py.PropSpec{
		"is_floating_point": {Get: func(it *py.Interp, self py.Value) (py.Value, error) {
			return py.Bool(self.(*DTypeObj).d.IsFloating()), nil
		}},
		"is_complex": {Get: func(it *py.Interp, self py.Value) (py.Value, error) {
			return py.Bool(self.(*DTypeObj).d.IsComplex()), nil
		}},
		"is_signed": {Get: func(it *py.Interp, self py.Value) (py.Value, error) {
			d := self.(*DTypeObj).d
			return py.Bool(d != torch.Uint8 && d != torch.Bool), nil
		}},
		"itemsize": {Get: func(it *py.Interp, self py.Value) (py.Value, error) {
			return py.Int(self.(*DTypeObj).d.Size()), nil
		}},
	},
})

// dtype returns the run's object for d (a new reference).
func (h *Host) dtype(d torch.DType) py.Value {
	o, ok := h.dtypes[d]
	if !ok {
		o = &DTypeObj{d: d}
		h.dtypes[d] = o // the host keeps this first reference for the run
	}
	return py.IncRef(o)
}

// DeviceObj is a torch.device.
type DeviceObj struct {
	py.Base
	d torch.Device
}

// Type is torch.device.
func (*DeviceObj) Type() *py.Class { return deviceClass }

// Repr is device(type='cuda', index=0).
func (o *DeviceObj) Repr(it *py.Interp) (string, error) { return o.d.Repr(), nil }

// Str is "cuda:0".
func (o *DeviceObj) Str(it *py.Interp) (string, error) { return o.d.String(), nil }

// Hash hashes the device value.
func (o *DeviceObj) Hash(it *py.Interp) (int64, error) {
	return int64(o.d.Type)*1000 + int64(o.d.Index), nil
}

// Compare implements == and != by value (also against strings).
func (o *DeviceObj) Compare(it *py.Interp, op py.Op, other py.Value, reflected bool) (py.Value, error) {
	if op != py.OpEq && op != py.OpNe {
		return py.NotImplemented, nil
	}
	var d torch.Device
	switch x := other.(type) {
	case *DeviceObj:
		d = x.d
	case py.Str:
		dd, err := torch.ParseDevice(string(x))
		if err != nil {
			return py.NotImplemented, nil
		}
		d = dd
	default:
		return py.NotImplemented, nil
	}
	return py.Bool((d == o.d) == (op == py.OpEq)), nil
}

func newDevice(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
	var spec, index py.Value = nil, py.None
	if err := py.UnpackArgs("device", args, kwargs, "type", &spec, "index?", &index); err != nil {
		return nil, err
	}
	if spec == py.None {
		return nil, invalidCombination("device", args, kwargs,
			"(torch.device device)\n      didn't match because some of the arguments have invalid types: (!NoneType!)",
			"(str type, int index = -1)")
	}
	d, _, err := deviceArg(spec)
	if err != nil {
		return nil, err
	}
	if index != py.None {
		n, ok := intArg(index)
		if !ok {
			return nil, typeErr("device(): argument 'index' must be int, not %s", typeName(index))
		}
		if d.Index >= 0 {
			return nil, runtimeErr("type (string) must not include an index because index was passed explicitly: %s", d)
		}
		d.Index = int(n)
	}
	return &DeviceObj{d: d}, nil
}

var deviceClass = py.NewHostClass(py.ClassSpec{
	Name: "device", Module: "torch", New: newDevice,
	Props: map[string]py.PropSpec{
		"type": {Get: func(it *py.Interp, self py.Value) (py.Value, error) {
			return py.Str(self.(*DeviceObj).d.TypeName()), nil
		}},
		"index": {Get: func(it *py.Interp, self py.Value) (py.Value, error) {
			if i := self.(*DeviceObj).d.Index; i >= 0 {
				return py.Int(i), nil
			}
			return py.None, nil
		}},
	},
})
