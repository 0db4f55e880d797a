package profile

import (
	"fmt"
	"sort"
	"strings"
)

// OOMFormat selects the text of the CUDA out-of-memory error, which changed
// several times between PyTorch releases (allocator spec §10.2–§10.3).
type OOMFormat int

// Out-of-memory message formats, newest first.
const (
	// OOM211 is the 2.11 text: "… GPU 0 has a total capacity of … Of the
	// allocated memory …" with the docs.pytorch.org link (≈2.7 and later).
	OOM211 OOMFormat = iota
	// OOM23 is the ≈2.3–2.6 text: as OOM211 but linking
	// pytorch.org/…#environment-variables.
	OOM23
	// OOM21 is the ≈2.1–2.2 text: no "allowed" part, no private-pool part.
	OOM21
	// OOM110 is the 1.10–2.0 parenthesis form followed by the
	// max_split_size_mb advice.
	OOM110
	// OOM19 is the ≤1.9 parenthesis form with nothing after it.
	OOM19
)

// String names the format by the PyTorch versions that used it.
func (f OOMFormat) String() string {
	switch f {
	case OOM211:
		return "2.11"
	case OOM23:
		return "2.3-2.6"
	case OOM21:
		return "2.1-2.2"
	case OOM110:
		return "1.10-2.0"
	case OOM19:
		return "<=1.9"
	}
	return fmt.Sprintf("OOMFormat(%d)", int(f))
}

// AddressModel parametrises the simulated device's virtual-address allocator
// (sim/alloc's SimDevice and its driver model, driverva.go): the window
// [Base, Base+Span) the simulated cudaMalloc hands out 32 MiB-multiple chunks
// from, as the CUDA driver does (fitted to real addresses recorded on an
// H200, sim/alloc/testdata/driver_va_h200.txt, and on an H100,
// driver_va_h100.txt).
//
// Upward says where the driver reserves a new chunk: at the bottom of the
// heap, later chunks above earlier ones, as PyTorch's own processes showed
// on an H100 (sim/alloc/testdata/driver_va_h100.txt; it decides which of two
// equal free blocks best fit takes in q051 and q055), or at its top, going
// down, as the GPU backend's single long process showed on an H200.
type AddressModel struct {
	Base   uint64 // lowest address of the window
	Span   uint64 // size of the window in bytes
	Upward bool   // new chunks from the bottom of the heap up
}

// Note says where one figure of a profile comes from.
type Note struct {
	Field    string // Profile field name, e.g. "TotalMemory"
	Measured bool   // true: measured on the real device; false: estimate or public value
	Source   string // how it was obtained
}

// Profile is one simulated device with one PyTorch version.
type Profile struct {
	Name    string // identifier used on the command line and in requests, e.g. "h100-80gb-pt2.11"
	Title   string // human-readable description
	GPUName string // torch.cuda.get_device_name() as it prints

	TotalMemory int64 // torch.cuda.get_device_properties().total_memory (cudaMemGetInfo total)

	// ContextBytes is the memory the process holds outside PyTorch's allocator
	// as NVML reports it: NVML's per-process figure (quoted in the 2.x OOM
	// message) is reserved + ContextBytes.
	ContextBytes int64
	// DriverUsedAtInit is total − free from cuMemGetInfo right after the CUDA
	// context is created; the simulated device's free memory is
	// TotalMemory − DriverUsedAtInit − (bytes the allocator holds).
	DriverUsedAtInit int64

	ComputeMajor, ComputeMinor int // compute capability
	MultiProcessors            int // props.multi_processor_count

	CuBLASWorkspace   int64 // bytes of the per-handle cuBLAS workspace (0: not allocated through the caching allocator)
	CuBLASLtWorkspace int64 // bytes of the separate cuBLASLt workspace (0: none)

	TorchVersion string    // torch.__version__
	OOMFormat    OOMFormat // out-of-memory message text

	// LegacyFraction selects the pre-2.5 memory-fraction semantics (spec §11):
	// any set_per_process_memory_fraction call, even with 1.0, installs a limit
	// of fraction × cudaMemGetInfo total, prints "allowed" and enables GC.
	LegacyFraction bool
	// WorkspacesCounted says whether cuBLAS workspaces go through the caching
	// allocator (and so show in its counters); false for the 1.x era.
	WorkspacesCounted bool

	Address AddressModel

	Measured []Note // provenance of the figures above
}

// MeasuredNote returns the note for field, if the profile has one.
func (p Profile) MeasuredNote(field string) (Note, bool) {
	for _, n := range p.Measured {
		if n.Field == field {
			return n, true
		}
	}
	return Note{}, false
}

// DefaultName is the name of the default profile.
const DefaultName = "h100-80gb-pt2.11"

// Default returns the measured H100 80GB HBM3 + PyTorch 2.11 profile.
func Default() Profile {
	p, _ := Lookup(DefaultName)
	return p
}

// All returns every profile, default first, then by name.
func All() []Profile {
	out := make([]Profile, 0, len(profiles))
	for _, p := range profiles {
		out = append(out, clone(p))
	}
	sort.SliceStable(out, func(i, j int) bool {
		if (out[i].Name == DefaultName) != (out[j].Name == DefaultName) {
			return out[i].Name == DefaultName
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// Lookup returns the profile called name ("" means the default).
func Lookup(name string) (Profile, error) {
	if name == "" {
		name = DefaultName
	}
	for _, p := range profiles {
		if p.Name == name {
			return clone(p), nil
		}
	}
	names := make([]string, 0, len(profiles))
	for _, p := range profiles {
		names = append(names, p.Name)
	}
	sort.Strings(names)
	return Profile{}, fmt.Errorf("profile: unknown profile %q (known: %s)", name, strings.Join(names, ", "))
}

// clone copies p so that callers cannot modify the table through Measured.
func clone(p Profile) Profile {
	p.Measured = append([]Note(nil), p.Measured...)
	return p
}
