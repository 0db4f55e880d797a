// Package gpu is the playground's real-GPU backend: a device under the same
// caching allocator (sim/alloc) and PyTorch model as the simulator, where
// every segment is a real cuMemAlloc (or, for expandable segments, a real
// cuMemAddressReserve/cuMemCreate/cuMemMap/cuMemSetAccess), every op runs a
// real kernel (PTX embedded from package gpu/kernels), timings come from
// CUDA events and out-of-memory comes from the driver.
//
// The CUDA implementation is compiled only with the build tag cuda (it uses
// gorgonia.org/cu, whose package initialiser exits the process on a machine
// without a GPU). Without the tag, Open returns ErrNotBuilt; the interfaces
// in this file set are the same in both builds, so callers need no tag.
//
// Threading: a CUDA context is current on one OS thread. Open starts one
// worker goroutine, locked to its thread, that owns the context and runs all
// CUDA work; the Device's methods send their work to it over a channel and
// wait. Device.Do runs a whole function on that thread and hands it a Device
// whose methods call the driver directly, which is how a job (interpreter +
// allocator + kernels) should run: no channel hop per call.
//
// Above it (no build tag, tested in CI with the fake device of gpu/gputest):
// package gpu/script runs a playground script on a Device (sim.Run with a
// sim.Backend: the allocator's segments are the device's, each event gets
// trace.GPU figures from a Tracer, the job's memory is checked afterwards);
// package gpu/compare aligns a GPU run with its simulation line by line and
// explains each difference (`playground run --backend gpu|--compare`, the
// server's "Run on GPU"). Package gpu/gpuexec computes the tensor values:
// the model hands it each op (sim/torch/exec.go) and it launches the
// kernels at the allocator's addresses, so printed tensors and .item() are
// real and the per-line GPU time includes the kernels; ops without kernels
// leave their outputs "not computed" (the list is in sim/torch/NOTES.md).
// Package gpu/refkern is the same kernels in pure Go: the reference of the
// kernel tests and, on gputest's device with Options.Compute, a CPU
// reference of the whole backend for CI.
//
// Build (headers and link stub from gpu/scripts/fetch-cuda-headers.sh):
//
//	gpu/scripts/build-cuda.sh            # vet + build with -tags cuda
//	gpu/scripts/build-cuda.sh test-binary   # .carry/{gpu.test,compare.test,playground} for the GPU machine
package gpu
