// Package kernels holds the GPU backend's kernels as PTX text, embedded in the
// binary, and the catalogue of their entry points and parameters.
//
// The PTX is written by the generator in this package (one Go description
// per kernel family, expanded for each element type) and committed as
// generated files (*.ptx), so that building the backend needs neither nvcc
// nor a GPU. Regenerate with:
//
//	go test ./gpu/kernels -run TestPTXUpToDate -update
//
// The files target PTX ISA 7.0 and sm_52, which every driver since CUDA 11
// JIT-compiles for the GPU it runs on (an H100 included). Every kernel takes
// only 8-byte or 4-byte scalar parameters (device pointers, element counts,
// strides, f32 scalars) because gorgonia.org/cu's Function.Launch copies
// each parameter as 8 bytes.
//
// The package is plain Go with no cgo: the loader lives in package gpu,
// behind the cuda build tag.
package kernels
