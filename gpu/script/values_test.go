package script

import (
	"context"
	"flag"
	"os"
	"testing"

	"github.com/gpumem/playground/gpu/gputest"
	"github.com/gpumem/playground/sim"
)

var update = flag.Bool("update", false, "rewrite testdata/*.out")

// TestValues runs a script on the CPU reference of the GPU backend (the
// fake device with host memory and the pure-Go kernels): printed tensors
// and .item() show the values the ops computed, in PyTorch's format, and
// an op without kernels (the gradient of binary_cross_entropy's target)
// prints as not computed.
func TestValues(t *testing.T) {
	src, err := os.ReadFile("testdata/values.py")
	if err != nil {
		t.Fatal(err)
	}
	dev := gputest.New(gputest.Options{Compute: true})
	run, err := Run(context.Background(), dev, sim.Request{Script: string(src), Filename: "values.py"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if run.Result.Error != nil {
		t.Fatalf("script error: %s", run.Result.Error.Traceback)
	}
	got := run.Result.Stdout
	if *update {
		if err := os.WriteFile("testdata/values.out", []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("testdata/values.out")
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("stdout:\n%s\nwant:\n%s", got, want)
	}
}
