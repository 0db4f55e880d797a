package script

import (
	"context"
	"strings"
	"testing"

	"github.com/gpumem/playground/gpu/gputest"
	"github.com/gpumem/playground/sim"
)

// TestRandpermValues checks that torch.randperm computes a permutation on
// the GPU backend, so that DataLoader(shuffle=True) (p018) runs there: its
// sampler reads the permutation with tolist().
func TestRandpermValues(t *testing.T) {
	src := `import torch
from torch.utils.data import TensorDataset, DataLoader
torch.manual_seed(0)
for dev in ("cpu", "cuda"):
    p = torch.randperm(1000, device=dev)
    print(sorted(p.tolist()) == list(range(1000)), p.tolist() != list(range(1000)), p.dtype)
X = torch.arange(20.).reshape(10, 2)
seen = []
for xb, in DataLoader(TensorDataset(X), batch_size=4, shuffle=True):
    seen += xb[:, 0].tolist()
print(sorted(seen) == list(range(0, 20, 2)))
`
	dev := gputest.New(gputest.Options{Compute: true})
	run, err := Run(context.Background(), dev, sim.Request{Script: src, Filename: "randperm.py"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if run.Result.Error != nil {
		t.Fatalf("script error: %s", run.Result.Error.Traceback)
	}
	want := "True True torch.int64\nTrue True torch.int64\nTrue\n"
	if got := run.Result.Stdout; !strings.HasPrefix(got, want) {
		t.Errorf("stdout:\n%s\nwant:\n%s", got, want)
	}
}
