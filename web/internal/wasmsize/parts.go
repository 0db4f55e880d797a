package wasmsize

import (
	"bytes"
	"compress/gzip"
	"sort"
	"strings"
)

// Part is what one part of the module costs: raw bytes and gzip of them alone.
type Part struct {
	Name      string
	Raw, Gzip int
	Count     int // functions in the part, for code parts
}

// GzipLen is the length of b gzipped at the best compression, as the
// module's .gz is.
func GzipLen(b []byte) int {
	var g bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&g, gzip.BestCompression)
	zw.Write(b)
	zw.Close()
	return g.Len()
}

// PackageOf maps a wasm function name ("github.com_x_y.(*T).m",
// "runtime.f", "type:.eq.[2]string") to its Go package ("github.com_x_y",
// "runtime", "type:").
func PackageOf(name string) string {
	off := 0
	if strings.HasPrefix(name, "github.com") {
		off = len("github.com")
	}
	if i := strings.IndexAny(name[off:], ".["); i >= 0 {
		return name[:off+i]
	}
	return name
}

// FuncParts returns every function as a part, largest raw first; gzip is
// computed for the first top only (all when top ≤ 0).
func (m *Module) FuncParts(top int) []Part {
	out := make([]Part, len(m.Funcs))
	for i, f := range m.Funcs {
		out[i] = Part{Name: f.Name, Raw: len(f.Body), Count: 1}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Raw > out[j].Raw })
	bodies := map[string][]byte{}
	for _, f := range m.Funcs {
		bodies[f.Name] = f.Body
	}
	for i := range out {
		if top > 0 && i >= top {
			break
		}
		out[i].Gzip = GzipLen(bodies[out[i].Name])
	}
	return out
}

// PackageParts returns the code of each Go package (its function bodies
// concatenated), largest gzip first.
func (m *Module) PackageParts() []Part {
	code := map[string][]byte{}
	count := map[string]int{}
	for _, f := range m.Funcs {
		p := PackageOf(f.Name)
		code[p] = append(code[p], f.Body...)
		count[p]++
	}
	out := make([]Part, 0, len(code))
	for p, b := range code {
		out = append(out, Part{Name: p, Raw: len(b), Gzip: GzipLen(b), Count: count[p]})
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Gzip > out[j].Gzip || out[i].Gzip == out[j].Gzip && out[i].Name < out[j].Name
	})
	return out
}
