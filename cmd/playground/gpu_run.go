package main

import (
	"fmt"
	"io"
)

// gpuRun runs a script on the real-GPU backend. The backend (package gpu,
// build tag cuda) is not built yet, so this reports that plainly.
func gpuRun(backend string, compare bool, path string, src []byte, stdout, stderr io.Writer) int {
	fmt.Fprintf(stderr, "playground: the GPU backend is not available in this build (backend %q, compare %v)\n", backend, compare)
	return 2
}
