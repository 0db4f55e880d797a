package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/andybalholm/brotli"
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
const maxWasmGzip = 1_500_000

// buildWasm compiles ./wasm for GOOS=js into a temporary folder, with the
// flags of the Makefile's wasm target.
func buildWasm(tb testing.TB) []byte {
	tb.Helper()
	root, err := filepath.Abs("../../..")
	if err != nil {
		tb.Fatal(err)
	}
	out := filepath.Join(tb.TempDir(), "playground.wasm")
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-trimpath", "-ldflags=-s -w", "-o", out, "./wasm")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if msg, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("building the wasm module: %v\n%s", err, msg)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// TestWasmGzipBudget builds the module and checks that it stays within the
// size the page can load quickly.
func TestWasmGzipBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the wasm module; skipped in -short mode")
	}
	data := buildWasm(t)
	gz, br, err := Encode(data)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("playground.wasm: raw %d B, gzip %d B, brotli %d B", len(data), len(gz), len(br))
	if len(gz) > maxWasmGzip {
		t.Errorf("gzip size %d B exceeds the %d B budget", len(gz), maxWasmGzip)
	}
}

// BenchmarkWasmSize reports the module's sizes (as metrics) and the time to
// precompress it.
func BenchmarkWasmSize(b *testing.B) {
	data := buildWasm(b)
	var gz, br []byte
	b.ResetTimer()
	for b.Loop() {
		var err error
		if gz, br, err = Encode(data); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(data)), "raw-B")
	b.ReportMetric(float64(len(gz)), "gzip-B")
	b.ReportMetric(float64(len(br)), "brotli-B")
}
