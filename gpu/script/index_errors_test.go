package script

import (
	"context"
	"strings"
	"testing"

	"github.com/gpumem/playground/gpu/gputest"
	"github.com/gpumem/playground/sim"
)

// TestIndexKeyErrors checks that a key indexParts refuses raises its
// Python error (it used to call a nil release func and crash the
// interpreter), and that a list index made before the error is freed.
func TestIndexKeyErrors(t *testing.T) {
	const pre = "import torch\nt = torch.arange(12., device='cuda').view(3, 4)\ni = torch.tensor([0, 2], device='cuda')\n"
	cases := []struct{ name, src, err string }{
		{"two index tensors", "t[i, torch.tensor([0, 1, 2], device='cuda')]", "IndexError: shape mismatch: indexing tensors could not be broadcast together with shapes [2], [3]"},
		{"list then tensor", "t[[0, 1, 2], i]", "IndexError: shape mismatch: indexing tensors could not be broadcast together with shapes [3], [2]"},
		{"value shape", "t[i, i] = torch.ones(3, device='cuda')", "RuntimeError: shape mismatch: value tensor of shape [3] cannot be broadcast to indexing result of shape [2]"},
		{"too many indices", "t[0, 1, 2]", "IndexError: too many indices for tensor of dimension 2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dev := gputest.New(gputest.Options{Compute: true})
			run, err := Run(context.Background(), dev, sim.Request{Script: pre + c.src + "\n", Filename: "idx.py"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			e := run.Result.Error
			if e == nil || !strings.Contains(e.Traceback, c.err) {
				t.Fatalf("error %v, want one containing %q", e, c.err)
			}
			if strings.Contains(e.Traceback, "InternalError") {
				t.Errorf("internal error: %s", e.Traceback)
			}
		})
	}
}
