package script

import (
	"context"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/gpumem/playground/gpu/gputest"
	"github.com/gpumem/playground/sim"
)

// TestGPTStepLearns runs the GPT-style training step of the speed benchmark
// on the CPU reference of the GPU backend: the loss starts near ln(V) (the
// parameters are small) and goes down, so every op of the step, forward and
// backward, computed values.
func TestGPTStepLearns(t *testing.T) {
	src, err := os.ReadFile("../testdata/gpt_step.py")
	if err != nil {
		t.Fatal(err)
	}
	// The benchmark's step, smaller: the pure-Go kernels are slow.
	script := strings.Replace(string(src), "STEPS = 2", "STEPS = 3", 1)
	script = strings.Replace(script, "B, T, C, H, V = 8, 64, 128, 4, 256", "B, T, C, H, V = 2, 16, 32, 4, 64", 1)
	dev := gputest.New(gputest.Options{Compute: true})
	run, err := Run(context.Background(), dev, sim.Request{Script: script, Filename: "gpt_step.py"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if run.Result.Error != nil {
		t.Fatalf("script error: %s", run.Result.Error.Traceback)
	}
	lines := strings.Split(strings.TrimSpace(run.Result.Stdout), "\n")
	if len(lines) != 2 {
		t.Fatalf("stdout %q", run.Result.Stdout)
	}
	loss := func(l string) float64 {
		f := strings.Fields(l)
		v, err := strconv.ParseFloat(f[len(f)-1], 64)
		if err != nil {
			t.Fatalf("loss line %q: %v", l, err)
		}
		return v
	}
	first, last := loss(lines[0]), loss(lines[1])
	t.Logf("losses %v, %v", first, last)
	if math.Abs(first-math.Log(64)) > 0.05 || !(last < first-0.001) {
		t.Errorf("losses %v then %v: want about ln(64) = %.4f, then lower", first, last, math.Log(64))
	}
}
