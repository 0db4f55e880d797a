// Command compress writes gzip and brotli copies of the built simulator module
// (static/wasm/playground.wasm → .gz, .br) so that the server sends the
// smallest encoding the browser accepts without compressing per request.
//
//	go run ./web/internal/compress [FILE...]
package main

import (
	"fmt"
	"os"
)

func main() {
	files := os.Args[1:]
	if len(files) == 0 {
		files = []string{"static/wasm/playground.wasm"}
	}
	for _, f := range files {
		sizes, err := compressFile(f)
		if err != nil {
			fmt.Fprintf(os.Stderr, "compress: %v\n", err)
			os.Exit(1)
		}
		fmt.Printf("compress: %s raw %d B, gzip %d B, brotli %d B\n", f, sizes.Raw, sizes.Gzip, sizes.Brotli)
	}
}
