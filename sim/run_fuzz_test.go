package sim

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fuzzLimits keep one fuzzed run short: the fuzzer looks for crashes, not
// for long programs.
var fuzzLimits = Limits{
	MaxSteps:      200_000,
	MaxDuration:   2 * time.Second,
	MaxOutput:     64 << 10,
	MaxScript:     64 << 10,
	MaxRecursion:  50,
	MaxCollection: 100_000,
	MaxEvents:     20_000,
}

// checkNoInternal runs script and fails if the simulator crashed: a Go
// panic recovered by Run (err) or by the interpreter (an InternalError
// escaping the script). Python exceptions and limit errors are fine.
func checkNoInternal(t *testing.T, script string) *Result {
	t.Helper()
	res, err := Run(context.Background(), Request{Script: script, Limits: fuzzLimits}, nil)
	if err != nil {
		t.Fatalf("host error (recovered panic?) for script:\n%s\n---\n%v", script, err)
	}
	if res.Error != nil && res.Error.Type == "InternalError" {
		t.Fatalf("InternalError for script:\n%s\n---\n%s", script, res.Error.Traceback)
	}
	return res
}

// fuzzMutations are snippets appended to each seed so the fuzzer starts from
// scripts that already reach the binding's argument checking.
var fuzzMutations = []string{
	"x = torch.randn(4, 5, device='cuda')\nx[..., None, ::-1]\n",
	"x = torch.zeros(3, device='cuda')\nx[torch.tensor([True, False, True])] = 1\n",
	"torch.empty(-1, device='cuda')\n",
	"torch.randn(2, 3).matmul(None)\n",
	"torch.cat([torch.ones(2, device='cuda'), torch.ones(2)])\n",
}

// FuzzRun mutates scripts: whatever the text, a run may end in a Python
// exception but never in a simulator crash.
func FuzzRun(f *testing.F) {
	paths, err := filepath.Glob(filepath.Join("testdata", "oracle", "cases", "*.py"))
	if err != nil {
		f.Fatal(err)
	}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(src))
	}
	for _, m := range fuzzMutations {
		f.Add("import torch\n" + m)
	}
	for _, h := range hostileSnippets {
		f.Add(hostilePrelude + h + "\n")
	}
	f.Fuzz(func(t *testing.T, script string) {
		if len(script) > fuzzLimits.MaxScript || strings.Count(script, "\n") > 400 {
			t.Skip()
		}
		checkNoInternal(t, script)
	})
}
