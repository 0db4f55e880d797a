//go:build js && wasm

// Command wasm is the simulator's browser entry, built with GOOS=js
// GOARCH=wasm into static/wasm/playground.wasm. It installs three functions
// on the JavaScript global object and then waits forever:
//
//	playgroundRun(jsonRequest) → Promise<jsonResponse>  (see wasm/bridge)
//	playgroundValidateConfig(s) → "" or the allocator's error message
//	playgroundProfiles() → JSON list of device profiles
//
// It has no logic of its own: JSON in, events out, one crossing per call.
package main

import (
	"context"
	"runtime/debug"
	"syscall/js"

	"github.com/gpumem/playground/sim"
	"github.com/gpumem/playground/wasm/bridge"
)

func main() {
	// Collect when the heap has grown 4× (Go's default: 2×). A page's first
	// run starts from an empty heap and otherwise spends about a fifth of its
	// time in ~13 collections (Chromium profile of the default example); the
	// module's memory stays small (~40 MiB instead of ~15 MiB after the GPT
	// example) and the browser tab holds it anyway.
	debug.SetGCPercent(400)
	register()
	select {}
}

// register installs the playground functions and sets playgroundVersion, then
// calls globalThis.playgroundOnReady() if the page defined it.
func register() {
	g := js.Global()
	g.Set("playgroundRun", js.FuncOf(run))
	g.Set("playgroundValidateConfig", js.FuncOf(validateConfig))
	g.Set("playgroundProfiles", js.FuncOf(profiles))
	g.Set("playgroundVersion", sim.Version)
	if cb := g.Get("playgroundOnReady"); cb.Type() == js.TypeFunction {
		cb.Invoke()
	}
}

// run returns a Promise that resolves to the JSON response string. The work
// happens in a goroutine so that the caller gets the Promise at once and the
// page can paint "running…" before the simulation starts.
func run(_ js.Value, args []js.Value) any {
	raw := ""
	if len(args) > 0 && args[0].Type() == js.TypeString {
		raw = args[0].String()
	}
	var executor js.Func
	executor = js.FuncOf(func(_ js.Value, pargs []js.Value) any {
		resolve := pargs[0]
		go func() {
			defer executor.Release()
			out := bridge.Run(context.Background(), []byte(raw))
			resolve.Invoke(string(out))
		}()
		return nil
	})
	return js.Global().Get("Promise").New(executor)
}

// validateConfig returns "" for an accepted allocator setting, else the message.
func validateConfig(_ js.Value, args []js.Value) any {
	if len(args) == 0 || args[0].Type() != js.TypeString {
		return ""
	}
	return bridge.ValidateConfig(args[0].String())
}

// profiles returns the device profiles as JSON.
func profiles(js.Value, []js.Value) any {
	return string(bridge.ProfilesJSON())
}
