// Command wasmpack rewrites a WebAssembly module built by the Go toolchain so
// that it is smaller and compresses better, without changing what it
// computes: the file, line and inlining tables of Go's pc table are removed
// (see StripLines; Go tracebacks then name functions without file:line) and
// the data section is rewritten with fewer, longer segments (see Pack). The
// Makefile runs it on the simulator module before precompressing it.
//
//	go run ./web/internal/wasmpack [-keep-lines] FILE...
//
// Each FILE is rewritten in place, only when this changes it. -keep-lines
// keeps the line tables (for debugging a Go panic in the browser).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
)

func main() {
	keepLines := flag.Bool("keep-lines", false, "keep the file, line and inlining tables of the Go pc table")
	flag.Parse()
	for _, f := range flag.Args() {
		if err := packFile(f, !*keepLines); err != nil {
			fmt.Fprintf(os.Stderr, "wasmpack: %v\n", err)
			os.Exit(1)
		}
	}
}

// packFile packs one module in place and says what changed.
func packFile(path string, stripLines bool) error {
	mod, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("reading module: %w", err)
	}
	in := mod
	if stripLines {
		var ls LineStats
		if in, ls, err = StripLines(mod); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if ls.Funcs > 0 {
			fmt.Printf("wasmpack: %s: line tables of %d functions removed: %d B of pc tables, %d B of inline trees\n", path, ls.Funcs, ls.TableBytes, ls.InlTreeBytes)
		}
	}
	out, st, err := Pack(in, DefaultMaxGap)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if bytes.Equal(out, mod) {
		return nil
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		return fmt.Errorf("writing packed module: %w", err)
	}
	fmt.Printf("wasmpack: %s: %d data segments → %d, %d B → %d B\n", path, st.SegmentsIn, st.SegmentsOut, len(mod), len(out))
	return nil
}
