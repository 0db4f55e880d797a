// Package wasmsize maps what a WebAssembly module built by the Go toolchain
// spends its bytes on: the code of every function (named by the module's
// "name" section, so the module must be built without -s), per Go package,
// and the regions of the data section (type descriptors, read-only data, the
// pc tables, initialised variables) found through the runtime's moduledata.
//
// Sizes are given raw and gzipped alone: gzip of a part alone is an upper
// bound of what removing it saves from the gzipped module (parts share
// dictionary context), but it ranks the parts the way the budget sees them.
//
// BenchmarkWasmSize (web/internal/compress) logs the per-package parts; the
// command in ./cmd/wasmsize prints the whole map of a module:
//
//	GOOS=js GOARCH=wasm go build -trimpath -ldflags=-w -o /tmp/p.wasm ./wasm
//	go run ./web/internal/wasmsize/cmd/wasmsize -top 50 /tmp/p.wasm
package wasmsize
