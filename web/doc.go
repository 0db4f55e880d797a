// Package web serves the browser playground: one page rendered with templ
// (package views), the editor and views bundle, Go's wasm_exec.js and the
// simulator compiled to WebAssembly, all embedded in the binary (package
// static) so that the playground works offline.
//
// The simulator runs in the browser; the server only serves files. Use it as
//
//	srv, err := web.NewServer(web.Options{})
//	if err != nil { ... }
//	http.ListenAndServe(":8080", srv)
//
// or call srv.ListenAndServe(ctx, addr), which shuts down when ctx ends.
//
// Assets live under /static/v/<hash>/<name>, where <hash> is a digest of the
// content: those responses are immutable and cached for a year, and the
// page (no-cache) always names the current ones. The wasm module is sent
// precompressed, brotli or gzip by Accept-Encoding, as application/wasm.
package web
