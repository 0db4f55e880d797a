package prelude_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gpumem/playground/sim/alloc"
	"github.com/gpumem/playground/sim/profile"
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
	"github.com/gpumem/playground/sim/torch/prelude"
	"github.com/gpumem/playground/sim/torch/pybind"
	"github.com/gpumem/playground/sim/trace"
)

// run executes script with the Go binding and the prelude on the default
// device profile and returns its stdout and error.
func run(t *testing.T, script string) (string, *trace.Stats, error) {
	t.Helper()
	prof, err := profile.Lookup("")
	if err != nil {
		t.Fatal(err)
	}
	var it *py.Interp
	var a *alloc.Allocator
	rt := torch.NewRuntime(torch.Config{
		CuBLASWorkspace:   prof.CuBLASWorkspace,
		CuBLASLtWorkspace: prof.CuBLASLtWorkspace,
		InitCUDA: func() (torch.Memory, error) {
			cfg, err := alloc.ConfigFromEnv(func(k string) string { v, _ := it.Getenv(k); return v })
			if err != nil {
				return nil, err
			}
			a = alloc.New(prof, cfg, alloc.NewSimDevice(prof), nil)
			return torch.AllocMemory{A: a}, nil
		},
		Line: func() int { return it.Line() },
	})
	host := pybind.New(rt, prof)
	var out strings.Builder
	it = py.New(py.Options{Stdout: &out, OnBind: host.OnBind})
	host.Register(it)
	defer host.Close()
	if err := prelude.Register(it); err != nil {
		t.Fatal(err)
	}
	for _, name := range pybind.Submodules {
		m, err := it.Import(name)
		if err != nil {
			t.Fatalf("import %s: %v", name, err)
		}
		it.DecRef(m)
	}
	err = it.ExecScript(context.Background(), []byte(script))
	var st *trace.Stats
	if a != nil {
		s := a.Stats()
		st = &s
	}
	return out.String(), st, err
}

func TestScratch(t *testing.T) {
	out, _, err := run(t, `
import torch
import torch.nn as nn
m = nn.Linear(2048, 2048).cuda()
print(m)
print(torch.cuda.memory_allocated())
seq = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
print(seq)
print([n for n, _ in seq.named_parameters()])
print(len(list(seq.modules())), len(list(seq.children())))
print(list(seq.state_dict().keys()))
print(nn.ModuleList([nn.Linear(2, 2) for _ in range(3)]))
`)
	t.Log(out)
	if err != nil {
		t.Fatal(err)
	}
}
