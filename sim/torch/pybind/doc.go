// Package pybind binds the PyTorch model (package torch) to the script
// interpreter (package py): the Go modules "torch", "torch.cuda",
// "torch.cuda.memory", "torch.autograd", "torch.autograd.graph",
// "torch.nn.functional", "torch._C" and the private "torch._sim", which the
// Python prelude (package prelude: torch.nn, torch.optim, ...) builds on.
//
// Ownership: a Python Tensor object owns exactly one reference to its
// *torch.Tensor and releases it from Finalize, i.e. exactly when CPython
// would deallocate the object, so GPU memory is freed at the same moment as
// in PyTorch. A *torch.Tensor reachable from Python has at most one live
// wrapper (its Py field), like PyTorch's PyObject preservation; when the
// wrapper dies while C++ still holds the tensor (a .grad, a saved tensor),
// the next access builds a fresh wrapper.
//
// Hooks for the prelude, in module torch._sim:
//
//	label(tensor, kind, name, detail="")  relabel the tensor's block (trace.Label kinds)
//	push_module(name) / pop_module()      the module whose forward runs (labels)
//	Parameter                             the nn.Parameter type (a Tensor flavour)
//	is_parameter(t)                       whether t is a Parameter
//	set_data(t, other)                    t.data = other (also the .data setter)
//
// Labels: a user tensor takes the name of the FIRST script variable it is
// bound to ("x"), so that a later "y = x" does not rename it; module
// parameters and buffers are named by the prelude; op outputs inside a
// module are activations "addmm in fc1"; saved tensors, gradients and
// workspaces are named by package torch.
//
// Values are not simulated: printing a tensor shows its metadata
// ("tensor(<simulated: shape (64, 10), float32, cuda:0>)"), item() returns
// 0.0 (False for bool tensors), tolist() returns zeros of the right shape.
package pybind
