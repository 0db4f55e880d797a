package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"

	"github.com/gpumem/playground/web/internal/wasmsize"
)

func TestEncodeRoundTrip(t *testing.T) {
	inputs := map[string][]byte{
		"empty":  nil,
		"text":   bytes.Repeat([]byte("allocated reserved peak "), 1000),
		"binary": {0, 97, 115, 109, 1, 0, 0, 0, 255, 254},
	}
	for name, in := range inputs {
		t.Run(name, func(t *testing.T) {
			gz, br, err := Encode(in)
			if err != nil {
				t.Fatal(err)
			}
			zr, err := gzip.NewReader(bytes.NewReader(gz))
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(zr)
			if err != nil || !bytes.Equal(got, in) {
				t.Fatalf("gzip round trip: %v, equal=%v", err, bytes.Equal(got, in))
			}
			got, err = io.ReadAll(brotli.NewReader(bytes.NewReader(br)))
			if err != nil || !bytes.Equal(got, in) {
				t.Fatalf("brotli round trip: %v, equal=%v", err, bytes.Equal(got, in))
			}
			gz2, br2, _ := Encode(in)
			if !bytes.Equal(gz, gz2) || !bytes.Equal(br, br2) {
				t.Errorf("encoding is not deterministic")
			}
		})
	}
}

// maxWasmGzip is the budget for the simulator module sent with gzip.
// BenchmarkWasmSize fails while the module is larger; `go test` does not
// build the module (it takes tens of seconds), `make bench-web` does.
const maxWasmGzip = 1_500_000

// wasmGCFlags are the Makefile's WASM_GCFLAGS (TestMakefileWasmFlags).
var wasmGCFlags = func() []string {
	var out []string
	for _, p := range []string{"fmt", "time", "reflect", "math/big", "strconv", "internal/strconv", "internal/fmtsort",
		"github.com/gpumem/playground/sim/py/syntax", "github.com/gpumem/playground/sim/py/pyfmt",
		"github.com/gpumem/playground/sim/trace", "github.com/gpumem/playground/sim/pickle",
		"github.com/gpumem/playground/sim/profile", "github.com/gpumem/playground/wasm/bridge",
		"github.com/gpumem/playground/sim/fidelity"} {
		out = append(out, "-gcflags="+p+"=-l")
	}
	return out
}()

// TestMakefileWasmFlags keeps BenchmarkWasmSize building what `make wasm`
// builds.
func TestMakefileWasmFlags(t *testing.T) {
	mk, err := os.ReadFile("../../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	want := "\nWASM_GCFLAGS := " + strings.Join(wasmGCFlags, " ") + "\n"
	if !strings.Contains(string(mk), want) {
		t.Errorf("the Makefile has no line %q", strings.TrimSpace(want))
	}
}

// buildWasm compiles ./wasm for GOOS=js into a temporary folder with the
// flags of the Makefile's wasm target and packs it as the Makefile does
// (web/internal/wasmpack); names keeps the symbol names (no -s) for the size
// breakdown.
func buildWasm(tb testing.TB, names bool) []byte {
	tb.Helper()
	root, err := filepath.Abs("../../..")
	if err != nil {
		tb.Fatal(err)
	}
	ldflags := "-ldflags=-s -w"
	if names {
		ldflags = "-ldflags=-w"
	}
	out := filepath.Join(tb.TempDir(), "playground.wasm")
	args := append(append([]string{"build", "-trimpath"}, wasmGCFlags...), ldflags, "-o", out, "./wasm")
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if msg, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("building the wasm module: %v\n%s", err, msg)
	}
	cmd = exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "run", "./web/internal/wasmpack", out)
	cmd.Dir = root
	if msg, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("packing the wasm module: %v\n%s", err, msg)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// BenchmarkWasmSize builds the module, reports its sizes (raw, gzip, brotli)
// as metrics, logs its size map (web/internal/wasmsize: the largest functions,
// each Go package's code, the data regions), times the precompression,
// and fails when the gzip size is over the budget.
func BenchmarkWasmSize(b *testing.B) {
	data := buildWasm(b, false)
	var gz, br []byte
	b.ResetTimer()
	for b.Loop() {
		var err error
		if gz, br, err = Encode(data); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(len(data)), "raw-B")
	b.ReportMetric(float64(len(gz)), "gzip-B")
	b.ReportMetric(float64(len(br)), "brotli-B")

	named := buildWasm(b, true)
	m, err := wasmsize.Parse(named)
	if err != nil {
		b.Fatalf("size breakdown: %v", err)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "playground.wasm: raw %d B, gzip %d B, brotli %d B; with names (-s left out): ", len(data), len(gz), len(br))
	if err := m.WriteMap(&sb, named, 30, nil); err != nil {
		b.Fatalf("size breakdown: %v", err)
	}
	b.Log(sb.String())
	if len(gz) > maxWasmGzip {
		b.Errorf("gzip size %d B exceeds the %d B budget", len(gz), maxWasmGzip)
	}
}
