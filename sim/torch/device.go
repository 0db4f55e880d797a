package torch

import (
	"fmt"
	"strconv"
	"strings"
)

// DeviceType is cpu or cuda.
type DeviceType uint8

// Device types.
const (
	CPU DeviceType = iota
	CUDA
)

// Device is torch.device. Index is -1 for a device given without an index
// ("cuda"); tensors always carry a concrete index.
type Device struct {
	Type  DeviceType
	Index int
}

// CPUDevice is torch.device("cpu").
var CPUDevice = Device{CPU, -1}

// CUDA0 is torch.device("cuda:0"), the only GPU the simulator has.
var CUDA0 = Device{CUDA, 0}

// IsCUDA reports a GPU device.
func (d Device) IsCUDA() bool { return d.Type == CUDA }

// TypeName is "cpu" or "cuda".
func (d Device) TypeName() string {
	if d.Type == CUDA {
		return "cuda"
	}
	return "cpu"
}

// String is str(device): "cuda:0", "cuda", "cpu".
func (d Device) String() string {
	if d.Index >= 0 {
		return d.TypeName() + ":" + strconv.Itoa(d.Index)
	}
	return d.TypeName()
}

// Repr is repr(device): device(type='cuda', index=0).
func (d Device) Repr() string {
	if d.Index >= 0 {
		return fmt.Sprintf("device(type='%s', index=%d)", d.TypeName(), d.Index)
	}
	return fmt.Sprintf("device(type='%s')", d.TypeName())
}

// Concrete fills in the index a tensor gets on the device ("cuda" → cuda:0;
// cpu keeps no index).
func (d Device) Concrete() Device {
	if d.Type == CUDA && d.Index < 0 {
		return CUDA0
	}
	if d.Type == CPU {
		return CPUDevice
	}
	return d
}

// ParseDevice parses "cpu", "cuda", "cuda:0" the way torch.device does.
func ParseDevice(s string) (Device, error) {
	s = strings.TrimSpace(s)
	typ, idx, hasIdx := strings.Cut(s, ":")
	var d Device
	switch typ {
	case "cpu":
		d = Device{CPU, -1}
	case "cuda":
		d = Device{CUDA, -1}
	default:
		return Device{}, Errorf(RuntimeError, "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type at start of device string: %s", s)
	}
	if hasIdx {
		n, err := strconv.Atoi(idx)
		if err != nil || n < 0 {
			return Device{}, Errorf(RuntimeError, "Invalid device string: '%s'", s)
		}
		d.Index = n
	}
	return d, nil
}
