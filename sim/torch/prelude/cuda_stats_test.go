package prelude_test

import (
	"strings"
	"testing"
)

// TestCUDAStatGetters checks that torch.cuda's one-figure getters, which
// read the allocator's counters directly, agree with the keys of
// memory_stats() they stand for, at every point of a script that moves
// current and peak values apart (frees, empty_cache, reset_peak_memory_stats)
// and on both pools.
func TestCUDAStatGetters(t *testing.T) {
	out, _, err := run(t, `
import torch
import torch.cuda.memory as cm
keys = [("memory_allocated", "allocated_bytes.all.current"), ("memory_reserved", "reserved_bytes.all.current"),
        ("max_memory_allocated", "allocated_bytes.all.peak"), ("max_memory_reserved", "reserved_bytes.all.peak"),
        ("memory_cached", "reserved_bytes.all.current"), ("max_memory_cached", "reserved_bytes.all.peak")]
checks = 0
def check(where):
    global checks
    s = torch.cuda.memory_stats()
    for name, key in keys:
        got = getattr(torch.cuda, name)()
        assert got == s[key], (where, name, got, s[key])
        assert getattr(torch.cuda, name)(0) == got and getattr(torch.cuda, name)(device="cuda:0") == got, (where, name)
        if hasattr(cm, name):
            assert getattr(cm, name)() == got, (where, "memory." + name)
    checks += 1
check("start")
a = torch.randn(1000, 1000, device="cuda")
b = torch.ones(7, device="cuda")
check("two pools")
del a
check("freed")
torch.cuda.empty_cache()
check("emptied")
torch.cuda.reset_peak_memory_stats()
check("peaks reset")
c = [torch.empty(3 << 20, device="cuda") for _ in range(3)]
del c[1]
check("split")
print(checks, torch.cuda.max_memory_allocated() > torch.cuda.memory_allocated() > 0)
`)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(out); got != "6 True" {
		t.Fatalf("stdout %q, want \"6 True\"", got)
	}
}
