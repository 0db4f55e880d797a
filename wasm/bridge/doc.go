// Package bridge is the JSON boundary between the browser and the simulator:
// it decodes one request, calls sim.Run, and encodes everything the page
// draws (output, Python error, the whole event stream) as one JSON document.
//
// It has no logic of its own beyond translation, so that the wasm entry
// (package main in the parent folder, GOOS=js) stays a thin layer of
// syscall/js glue and the translation is testable natively. The JSON is read
// and written by hand (decode.go, encode.go), byte for byte as encoding/json
// would, which keeps that package's reflection out of the wasm module.
package bridge
