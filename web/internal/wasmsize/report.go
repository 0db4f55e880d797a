package wasmsize

import (
	"fmt"
	"io"
	"regexp"
)

// WriteMap writes the size map of the module (whole size mod): the top
// largest functions whose name matches match (nil: all), the code of every
// package and the data regions, each raw and gzipped alone.
func (m *Module) WriteMap(w io.Writer, mod []byte, top int, match *regexp.Regexp) error {
	var code int
	for _, f := range m.Funcs {
		code += len(f.Body)
	}
	fmt.Fprintf(w, "module %d B, gzip %d B; code %d B in %d functions, data section %d B, other sections %d B\n",
		len(mod), GzipLen(mod), code, len(m.Funcs), m.DataSize, len(m.Other))

	fmt.Fprintf(w, "\nlargest functions (raw, gzip alone):\n")
	n := 0
	for _, f := range m.FuncParts(0) {
		if n == top {
			break
		}
		if match != nil && !match.MatchString(f.Name) {
			continue
		}
		n++
		fmt.Fprintf(w, "  %8d %7d  %s\n", f.Raw, f.Gzip, f.Name)
	}

	fmt.Fprintf(w, "\ncode per package (raw, gzip alone, functions):\n")
	for _, p := range m.PackageParts() {
		fmt.Fprintf(w, "  %8d %7d %6d  %s\n", p.Raw, p.Gzip, p.Count, p.Name)
	}

	regions, err := m.Regions()
	if err != nil {
		return fmt.Errorf("data regions: %w", err)
	}
	fmt.Fprintf(w, "\ndata regions (raw, gzip alone):\n")
	for _, r := range regions {
		if len(r.Data) > 0 {
			fmt.Fprintf(w, "  %8d %7d  %s\n", len(r.Data), GzipLen(r.Data), r.Name)
		}
	}
	return nil
}
