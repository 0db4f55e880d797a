package prelude_test

import (
	"strings"
	"testing"

	"github.com/gpumem/playground/sim/torch/prelude"
)

// TestLazyAttributes checks that `import torch` alone reaches every prelude
// module and every layer class as an attribute, as the eager import of the
// whole prelude did, and that import statements of lazy modules work.
func TestLazyAttributes(t *testing.T) {
	srcs := prelude.Sources()
	var b strings.Builder
	b.WriteString("import torch\n")
	for _, s := range srcs {
		b.WriteString("assert type(" + s.Name + ").__name__ == 'module', '" + s.Name + "'\n")
	}
	b.WriteString(`import torch.nn as nn
for name in ["Conv1d", "Conv2d", "Conv3d", "MaxPool3d", "BatchNorm3d", "GELU", "ReLU", "MultiheadAttention", "Dropout", "MaxPool2d",
             "BatchNorm1d", "LayerNorm", "Embedding", "Flatten", "Sequential", "ModuleList",
             "ModuleDict", "CrossEntropyLoss", "MSELoss", "Linear", "Identity", "Module", "Parameter"]:
    c = getattr(nn, name)
    assert name == "Parameter" or c is getattr(torch.nn.modules, name), name
    assert c.__name__ == name, name
from torch.optim import Adam
import torch.utils.checkpoint as cp
from torch.nn import Conv2d
from torch.utils.data import DataLoader
print(Adam is torch.optim.Adam, cp is torch.utils.checkpoint, Conv2d is nn.Conv2d)
print(torch.optim.AdamW.__name__, torch.cuda.amp.GradScaler.__name__, torch.amp.GradScaler.__name__)
print(torch.backends.cudnn.benchmark, torch.nn.utils.clip_grad_norm_.__name__, DataLoader.__name__)
print(hasattr(torch, "no_such_thing"), hasattr(nn, "Conv4d"))
try:
    torch.nn.modules.no_such_module
except AttributeError as e:
    print(e)
`)
	out, _, err := run(t, b.String())
	if err != nil {
		t.Fatal(err)
	}
	want := "True True True\nAdamW GradScaler GradScaler\nFalse clip_grad_norm_ DataLoader\nFalse False\n" +
		"module 'torch.nn.modules' has no attribute 'no_such_module'\n"
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// TestLazyImportGCNeutral checks that loading a prelude module does not
// move the collector's allocation counts, so that a script's automatic
// collections do not depend on which modules were loaded before it.
func TestLazyImportGCNeutral(t *testing.T) {
	count := func(access string) string {
		script := "import gc\nimport torch\nxs = [[] for _ in range(100)]\nc0 = gc.get_count()\n" +
			access + "\nc1 = gc.get_count()\nprint(c1[0] - c0[0], c1[1] - c0[1], c1[2] - c0[2], c0[0] >= 100)\n"
		out, _, err := run(t, script)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	want := count("m = None")
	if want != "1 0 0 True\n" { // c0's tuple
		t.Fatalf("without an import: %q", want)
	}
	for _, access := range []string{"m = torch.optim", "m = torch.utils.checkpoint", "m = torch.nn.Conv2d",
		"m = torch.cuda.amp.GradScaler", "import math", "from torch.optim import AdamW",
		"m = torch.autograd.graph.saved_tensors_hooks", "m = torch.linalg", "import torch.cuda.memory as m"} {
		if got := count(access); got != want {
			t.Errorf("%s: got %q, want %q", access, got, want)
		}
	}
}

// TestLazyGoModules checks that the Go modules a run does not import before
// the script (pybind.Submodules) are there for `import torch` alone, as
// attributes and by import statements.
func TestLazyGoModules(t *testing.T) {
	out, _, err := run(t, `import torch
print(torch.autograd.__name__, torch.autograd.graph.__name__, torch.linalg.__name__, torch.cuda.memory.__name__, torch._C.__name__)
print(torch.autograd.graph.saved_tensors_hooks.__name__, callable(torch.autograd.grad), callable(torch.linalg.vector_norm))
print(torch.cuda.memory.memory_allocated() == torch.cuda.memory_allocated())
from torch.autograd import Function
import torch.autograd.graph as g
from torch.cuda.memory import memory_stats
print(Function.__name__, g is torch.autograd.graph, memory_stats()["allocated_bytes.all.current"])
`)
	if err != nil {
		t.Fatal(err)
	}
	want := "torch.autograd torch.autograd.graph torch.linalg torch.cuda.memory torch._C\n" +
		"saved_tensors_hooks True True\nTrue\nFunction True 0\n"
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}
