// Package prelude is the Python half of the PyTorch model: the modules of
// PyTorch 2.11 that are written in Python — torch.nn (Module and the layer
// classes, init, utils.clip_grad_norm_), torch.optim (SGD, Adam, AdamW and
// their multi-tensor "foreach" paths), torch.utils.data, torch.utils.checkpoint
// and torch.amp / torch.cuda.amp (GradScaler) — as embedded .py files run by
// the playground's interpreter (package py) on top of the Go binding
// (package pybind: the modules torch, torch.nn.functional, torch._sim, ...).
//
// The files mirror PyTorch's own Python code statement by statement where it
// matters for memory: which Python objects hold which tensors, and for how
// long, decides when the caching allocator sees a free. Module._apply swaps
// param.data in place, optimizers keep state in a defaultdict keyed by the
// parameter, the foreach optimizer paths allocate and release their
// temporary lists exactly where PyTorch does.
//
// Register makes the modules importable. The runner imports torch.nn with
// Module and Linear before the script (pybind.Submodules); the rest loads
// on first access (torch.optim, nn.Conv2d: lazy.go and sim/py's lazy.go), so
// that "import torch" gives them all as in PyTorch while a run parses and
// executes only what its script uses. A Go module cannot import them while
// it is being built, since it enters sys.modules only when its build returns.
package prelude
