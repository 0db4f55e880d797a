//go:build js && wasm

// Command interp is the Python interpreter of the simulator (sim/py) alone,
// without the PyTorch model, built like the playground's module: the size
// it measures ("make wasm-floor") is what the interpreter costs before any op.
package main

import (
	"context"
	"syscall/js"

	"github.com/gpumem/playground/sim/py"
)

func main() {
	js.Global().Set("x", js.FuncOf(func(this js.Value, a []js.Value) any {
		it := py.New(py.Options{})
		err := it.ExecScript(context.Background(), []byte(a[0].String()))
		return err == nil
	}))
	select {}
}
