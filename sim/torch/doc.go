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
package torch
