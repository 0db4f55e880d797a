package sim

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// benchRun runs script once per iteration, as the server and the browser
// do for every request (fresh interpreter, torch prelude imported).
func benchRun(b *testing.B, script string) {
	b.Helper()
	req := Request{Script: script}
	for b.Loop() {
		res, err := Run(context.Background(), req, nil)
		if err != nil {
			b.Fatal(err)
		}
		if res.Error != nil {
			b.Fatalf("script error: %v", res.Error)
		}
	}
}

// BenchmarkRunPrint measures the fixed cost of a run: interpreter set-up
// and the torch prelude.
func BenchmarkRunPrint(b *testing.B) {
	benchRun(b, "import torch\nprint(1)\n")
}

// BenchmarkRunGPTBlock measures a GPT-style training step (oracle case
// p021_gpt_block).
func BenchmarkRunGPTBlock(b *testing.B) {
	src, err := os.ReadFile(filepath.Join("testdata", "oracle", "cases", "p021_gpt_block.py"))
	if err != nil {
		b.Fatal(err)
	}
	benchRun(b, string(src))
}
