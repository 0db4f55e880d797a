// Package refkern is the pure-Go reference of the GPU kernels (package
// gpu/kernels): gpu.Kernels computed on the host over a Memory, an address
// space whose ranges are host byte slices.
//
// It has three uses: the CUDA kernels' correctness tests compare against
// it; the value executor (package gpu/exec) runs CPU tensors' ops with it;
// and with the fake device of gpu/gputest it makes a CPU reference of the
// whole GPU backend, which is how CI tests the mapping from the model's ops
// to kernel launches without a GPU.
package refkern
