// Package gpuexec computes the PyTorch model's tensor values on a GPU: it is
// the torch.Executor of a GPU run (package gpu/script sets it on the
// request), mapping each operator the model hands it (sim/torch/exec.go) to
// launches of the embedded kernels (gpu.Kernels) at the addresses the
// caching allocator gave the storages.
//
// CPU tensors (a model initialised on the CPU, then .cuda()) are computed
// on the host with the pure-Go reference kernels (gpu/refkern); transfers
// use the device's copies. On the fake device of gpu/gputest with
// Options.Compute the same executor runs entirely on the reference kernels:
// that is how CI tests the op-to-kernel mapping without a GPU.
//
// Values are PyTorch's up to float rounding (f32 opmath, f32 accumulation
// in a different order, approximate exp/log). Random ops draw PyTorch's
// numbers: CUDA tensors from the CUDA generator (Philox4x32-10 as curand
// runs it, PyTorch's launch geometry and offsets: random_cuda.go and the
// philox kernels), CPU tensors from the CPU generator (mt19937:
// random_cpu.go). What has no kernel
// (an op kind, a dtype such as bool or float64, a layout whose dimensions
// do not merge into the kernels' four) leaves its outputs marked not
// computed, and everything computed from them is not computed either.
package gpuexec
