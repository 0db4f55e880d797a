package kernels

import (
	"embed"
	"fmt"
	"sort"
)

//go:embed *.ptx
var ptxFiles embed.FS

// ParamKind is how a kernel parameter is passed. All kinds travel as one
// 8-byte slot (gorgonia.org/cu copies 8 bytes per parameter); an F32 scalar
// occupies the low 4 bytes of its slot.
type ParamKind string

// Parameter kinds.
const (
	Ptr    ParamKind = "ptr" // a device address (.u64)
	U64    ParamKind = "u64" // an element count, size or stride (.u64)
	Scalar ParamKind = "f32" // a float scalar (.f32)
	// Scalar64 is a float64 scalar (.f64): the s0/s1 of the map kernels
	// that compute in float64 (MapOpmath64).
	Scalar64 ParamKind = "f64"
)

// Param is one parameter of a kernel entry.
type Param struct {
	Name string
	Kind ParamKind
}

// Entry is one kernel entry point of a module.
type Entry struct {
	Name   string  // the .entry name, e.g. "add_f16"
	Doc    string  // what it computes, in CUDA C terms
	Params []Param // in declaration order
}

// Module is one PTX file: a family of kernels loaded together.
type Module struct {
	Name    string  // file name without ".ptx"
	PTX     string  // the embedded text
	Entries []Entry // every entry point it defines
}

// Modules returns the embedded modules with their entry points, sorted by
// name. It fails only if the binary was built with PTX files missing.
func Modules() ([]Module, error) {
	specs := moduleSpecs()
	out := make([]Module, 0, len(specs))
	for _, s := range specs {
		text, err := ptxFiles.ReadFile(s.name + ".ptx")
		if err != nil {
			return nil, fmt.Errorf("kernels: embedded module %s: %w", s.name, err)
		}
		out = append(out, Module{Name: s.name, PTX: string(text), Entries: s.entries()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// moduleSpec generates one PTX file.
type moduleSpec struct {
	name    string
	kernels []kernelSpec
}

// kernelSpec generates one entry point.
type kernelSpec interface {
	entry() Entry
	body() string // the PTX of the .entry, from ".visible .entry" to "}"
}

func (m moduleSpec) entries() []Entry {
	out := make([]Entry, len(m.kernels))
	for i, k := range m.kernels {
		out[i] = k.entry()
	}
	return out
}

// moduleSpecs lists every generated module.
func moduleSpecs() []moduleSpec {
	specs := []moduleSpec{elementwiseModule(), reduceModule(), matmulModule()}
	specs = append(specs, mapModules()...)
	specs = append(specs, smallModules()...)
	return append(specs, randomModule(), rowsModule(), nnModule(), pickModule(), philoxModule(), linalgF64Module())
}
