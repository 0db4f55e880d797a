//go:build js && wasm

package main

import (
	"encoding/json"
	"strings"
	"syscall/js"
	"testing"

	"github.com/gpumem/playground/sim"
	"github.com/gpumem/playground/wasm/bridge"
)

func init() { register() }

// await waits for a JavaScript Promise and returns its resolved value.
func await(t *testing.T, p js.Value) js.Value {
	t.Helper()
	done := make(chan js.Value, 1)
	then := js.FuncOf(func(_ js.Value, args []js.Value) any {
		done <- args[0]
		return nil
	})
	defer then.Release()
	p.Call("then", then)
	return <-done
}

func TestRunCrossesAsJSON(t *testing.T) {
	tests := []struct {
		name string
		req  string
	}{
		{"script", `{"script":"x = 1\nprint(x)\n"}`},
		{"bad profile", `{"script":"print(1)\n","profile":"no-such-gpu"}`},
		{"malformed", `{"script":`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := js.Global().Call("playgroundRun", tt.req)
			if p.Type() != js.TypeObject || p.Get("then").Type() != js.TypeFunction {
				t.Fatalf("playgroundRun returned %v, want a Promise", p.Type())
			}
			v := await(t, p)
			if v.Type() != js.TypeString {
				t.Fatalf("promise resolved to %v, want a JSON string", v.Type())
			}
			var got bridge.Response
			if err := json.Unmarshal([]byte(v.String()), &got); err != nil {
				t.Fatalf("response is not JSON: %v", err)
			}
			if got.Version != sim.Version {
				t.Errorf("version %q, want %q", got.Version, sim.Version)
			}
			// The adapter must give exactly what the bridge gives natively.
			want := bridge.Run(t.Context(), []byte(tt.req))
			if v.String() != string(want) {
				t.Errorf("wasm response differs from bridge.Run:\n got %s\nwant %s", v.String(), want)
			}
			if tt.name != "script" && got.HostError == "" {
				t.Errorf("want a host error, got none")
			}
		})
	}
}

func TestValidateConfig(t *testing.T) {
	tests := []struct {
		in     string
		wantOK bool
	}{
		{"", true},
		{"expandable_segments:True", true},
		{"max_split_size_mb:128,garbage_collection_threshold:0.6", true},
		{"expandable_segments:yes", false},
		{"no_such_key:1", false},
	}
	for _, tt := range tests {
		got := js.Global().Call("playgroundValidateConfig", tt.in)
		if got.Type() != js.TypeString {
			t.Fatalf("%q: got %v, want string", tt.in, got.Type())
		}
		if ok := got.String() == ""; ok != tt.wantOK {
			t.Errorf("%q: message %q, want accepted=%v", tt.in, got.String(), tt.wantOK)
		}
	}
}

func TestProfiles(t *testing.T) {
	raw := js.Global().Call("playgroundProfiles").String()
	var got []bridge.ProfileInfo
	if err := json.Unmarshal([]byte(raw), &got); err != nil {
		t.Fatalf("profiles are not JSON: %v", err)
	}
	if len(got) == 0 || !got[0].Default || !strings.Contains(got[0].GPU, "H100") {
		t.Errorf("want the H100 default first, got %+v", got)
	}
	if js.Global().Get("playgroundVersion").String() != sim.Version {
		t.Errorf("playgroundVersion not set")
	}
}
