package prelude_test

import (
	"strings"
	"testing"
)

// TestRNGStateAPI checks the generators' functions a script sees: the
// states' types and sizes (PyTorch's: uint8 CPU tensors of 5056 and 16
// bytes, no GPU memory), the seeds they report, PyTorch's errors for bad
// states, fork_rng as a context manager, and torch.equal's shortcuts.
func TestRNGStateAPI(t *testing.T) {
	out, _, err := run(t, `
import torch
print(torch.initial_seed(), torch.cuda.initial_seed())
torch.manual_seed(7)
torch.cuda.manual_seed(11)
print(torch.initial_seed(), torch.cuda.initial_seed(), torch.random.initial_seed())
torch.manual_seed(-1)
print(torch.initial_seed())
c, g = torch.get_rng_state(), torch.cuda.get_rng_state()
print(c.dtype, c.shape, c.device, g.dtype, g.shape, g.device, torch.cuda.memory_allocated())
print(len(torch.cuda.get_rng_state_all()))
torch.set_rng_state(c)
torch.cuda.set_rng_state(g)
torch.cuda.set_rng_state_all([g])
torch.random.set_rng_state(torch.random.get_rng_state())
for f, bad in ((torch.set_rng_state, torch.zeros(10, dtype=torch.uint8)),
               (torch.cuda.set_rng_state, torch.zeros(10, dtype=torch.uint8)),
               (torch.set_rng_state, torch.zeros(5056))):
    try:
        f(bad)
    except RuntimeError as e:
        print(e)
with torch.random.fork_rng():
    torch.rand(3, device="cuda")
with torch.random.fork_rng(devices=[], enabled=False):
    pass
x = torch.ones(4, device="cuda")
print(torch.equal(x, x), torch.equal(x, torch.ones(5, device="cuda")), torch.equal(x[:0], x[:0]))
try:
    torch.equal(x, torch.ones(4))
except RuntimeError as e:
    print(e)
s = torch.seed()
print(s == torch.initial_seed() == torch.cuda.initial_seed(), 0 <= s < 2 ** 64)
`)
	if err != nil {
		t.Fatal(err)
	}
	want := `67280421310721 67280421310721
7 11 7
18446744073709551615
torch.uint8 torch.Size([5056]) cpu torch.uint8 torch.Size([16]) cpu 0
1
Expected either a CPUGeneratorImplStateLegacy of size 5048 or a CPUGeneratorImplState of size 5056 but found the input RNG state size to be 10
RNG state is wrong size
RNG state must be a torch.ByteTensor
True False True
Cannot compare two tensors on different devices. Got: cuda:0 and cpu
True True`
	if got := strings.TrimSpace(out); got != want {
		t.Fatalf("stdout:\n%s\nwant:\n%s", got, want)
	}
}
