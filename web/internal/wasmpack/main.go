// Command wasmpack rewrites a WebAssembly module built by the Go toolchain so
// that it compresses better, without changing what it does: the data section
// is rewritten with fewer, longer segments (see Pack). The Makefile runs it
// on the simulator module before precompressing it.
//
//	go run ./web/internal/wasmpack FILE...
//
// Each FILE is rewritten in place, only when packing changes it.
package main

import (
	"bytes"
	"fmt"
	"os"
)

func main() {
	for _, f := range os.Args[1:] {
		if err := packFile(f); err != nil {
			fmt.Fprintf(os.Stderr, "wasmpack: %v\n", err)
			os.Exit(1)
		}
	}
}

// packFile packs one module in place and says what changed.
func packFile(path string) error {
	mod, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("reading module: %w", err)
	}
	out, st, err := Pack(mod, DefaultMaxGap)
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
