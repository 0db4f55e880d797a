package script

import (
	"context"
	"strings"
	"testing"

	"github.com/gpumem/playground/gpu/gputest"
	"github.com/gpumem/playground/sim"
)

// TestNotComputedPropagates checks that a value the backend did not
// compute never reaches the script as a number: ops reading it leave their
// outputs not computed, a partial write does not make the rest of its
// storage computed, and .item()/.tolist()/bool() of an integer or bool
// raise instead of returning 0 (floats give NaN). The gradient of
// binary_cross_entropy's target has no kernels; if it gets some, pick
// another op without them here.
func TestNotComputedPropagates(t *testing.T) {
	// the gradient of binary_cross_entropy's target has no kernels
	const pre = "import torch\nimport torch.nn.functional as F\nq = (torch.arange(5., device='cuda') / 8).requires_grad_()\n" +
		"F.binary_cross_entropy(torch.full((5,), 0.5, device='cuda'), q).backward()\na = q.grad\n"
	cases := []struct {
		name, src, stdout, err string
	}{
		{"float item is nan", "print(a.sum().item())", "nan\n", ""},
		{"bool sum item raises", "print((a > 0.5).sum().item())", "", "int64 tensor were not computed"},
		{"bool item raises", "print((a > 0.5)[0].item())", "", "bool tensor were not computed"},
		{"truth raises", "if (a > 0.5).sum():\n    print('x')", "", "were not computed"},
		{"int tolist raises", "print((a > 0.5).long().tolist())", "", "were not computed"},
		{"float tolist is nan", "print(a[:2].tolist())", "[nan, nan]\n", ""},
		{"chain stays not computed", "print((a * 2 + 1).relu().mean())", "tensor(<not computed: shape (), float32, cuda:0>)\n", ""},
		{"partial write keeps not computed", "a[0] = 5.0\nprint(a)", "tensor(<not computed: shape (5,), float32, cuda:0>)\n", ""},
		{"partial write into computed", "b = torch.zeros(4, device='cuda')\nb[1] = 2.0\nprint(b)", "tensor([0., 2., 0., 0.], device='cuda:0')\n", ""},
		{"full overwrite computes", "a.copy_(torch.arange(5., device='cuda'))\nprint(a)", "tensor([0., 1., 2., 3., 4.], device='cuda:0')\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dev := gputest.New(gputest.Options{Compute: true})
			run, err := Run(context.Background(), dev, sim.Request{Script: pre + c.src + "\n", Filename: "nc.py"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if run.Result.Stdout != c.stdout {
				t.Errorf("stdout %q, want %q", run.Result.Stdout, c.stdout)
			}
			switch e := run.Result.Error; {
			case c.err == "" && e != nil:
				t.Errorf("script error: %s", e.Traceback)
			case c.err != "" && e == nil:
				t.Errorf("no error, want one containing %q", c.err)
			case c.err != "" && !strings.Contains(e.Traceback, c.err):
				t.Errorf("error %s, want one containing %q", e.Traceback, c.err)
			}
		})
	}
}
