// Package torch models PyTorch 2.11's memory behaviour: tensors, storages,
// the ATen operators as memory events, autograd (graph, saved tensors, the
// backward engine, gradient accumulation) and the hidden cuBLAS/cuBLASLt
// workspaces. Values are never computed, only shapes, dtypes, strides and
// lifetimes: every GPU allocation and free happens in the order and at the
// moment PyTorch performs it, so that the caching allocator underneath
// (package alloc, behind the Memory interface) reports the same figures as a
// real GPU.
//
// Reference ownership: every *Tensor, *Storage and *Node carries an explicit
// reference count, mirroring c10::intrusive_ptr and std::shared_ptr in
// PyTorch. Functions that return a *Tensor return a new reference that the
// caller owns and must Release; arguments are borrowed. A Python object
// wrapping a tensor owns exactly one reference and releases it from its
// finalizer, so GPU memory is freed exactly when CPython would free it.
//
// Values policy: tensor contents are not simulated. Printing a tensor shows
// its metadata; Item returns 0 (or false for bool tensors). Code whose
// control flow depends on tensor values sees these deterministic values.
//
// A GPU run sets Config.Executor (exec.go): after an op has allocated its
// outputs, it hands the executor the op with its operands' device
// addresses, and the executor computes the values with real kernels
// (package gpu/gpuexec). Printing then shows the values in PyTorch's format
// (format.go) and .item() returns them; an op the executor cannot compute
// leaves its outputs marked not computed ("<not computed: ...>", .item()
// of a float gives nan). Without an executor every hook is one nil check.
package torch
