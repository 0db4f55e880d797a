// Command wasmsize prints the size map of a WebAssembly module built by the
// Go toolchain without -s: the largest functions, the code of each Go
// package and the regions of the data section, raw and gzipped alone (see
// package wasmsize).
//
//	go run ./web/internal/wasmsize/cmd/wasmsize [-top 50] [-match REGEXP] FILE
package main

import (
	"flag"
	"fmt"
	"os"
	"regexp"

	"github.com/gpumem/playground/web/internal/wasmsize"
)

func main() {
	top := flag.Int("top", 50, "how many of the largest functions to list")
	match := flag.String("match", "", "list only the functions whose name matches this regular expression")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: wasmsize [-top N] [-match REGEXP] FILE")
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *top, *match); err != nil {
		fmt.Fprintf(os.Stderr, "wasmsize: %v\n", err)
		os.Exit(1)
	}
}

func run(path string, top int, match string) error {
	re, err := regexp.Compile(match)
	if err != nil {
		return fmt.Errorf("-match: %w", err)
	}
	mod, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	m, err := wasmsize.Parse(mod)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return m.WriteMap(os.Stdout, mod, top, re)
}
