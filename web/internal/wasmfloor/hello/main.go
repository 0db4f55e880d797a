//go:build js && wasm

// Command hello is the floor of a Go wasm module: the runtime, fmt and
// syscall/js, built like the playground's module ("make wasm-floor").
package main

import (
	"fmt"
	"syscall/js"
)

func main() {
	js.Global().Set("x", js.FuncOf(func(this js.Value, a []js.Value) any { return fmt.Sprint(a[0].String()) }))
	select {}
}
