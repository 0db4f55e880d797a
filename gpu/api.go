package gpu

import (
	"time"

	"github.com/gpumem/playground/gpu/kernels"
	"github.com/gpumem/playground/sim/alloc"
)

// Device is one GPU opened for the playground. It is the allocator's device
// (alloc.Device: Malloc returns alloc.ErrDeviceOOM when the driver reports
// out of memory, or when Options.MemoryLimit would be exceeded), plus data
// transfers, kernels, timing and the accounting a shared server needs to
// prove that a job gave every byte back.
//
// All methods are safe for concurrent use; they are executed one at a time
// on the device's worker thread.
type Device interface {
	alloc.Device

	// Name is the GPU's product name, e.g. "NVIDIA H100 80GB HBM3".
	Name() string
	// Granularity is the page size of Map/Unmap/Reserve (2 MiB on the H100).
	Granularity() int64

	// CopyToDevice copies len(src) bytes from host memory to address dst.
	CopyToDevice(dst uint64, src []byte) error
	// CopyFromDevice copies len(dst) bytes from address src to host memory;
	// it waits for the kernels before it.
	CopyFromDevice(dst []byte, src uint64) error
	// Kernels returns the launch helpers. Launches are asynchronous: an
	// error in a kernel shows up at the next synchronising call.
	Kernels() Kernels
	// Synchronize waits for every launched kernel and copy.
	Synchronize() error
	// Lap records a CUDA event, waits for it and returns the GPU time since
	// the previous Lap (or since Open): the per-line time of a trace.
	Lap() (time.Duration, error)

	// Stats returns the call counts and times so far.
	Stats() CallStats
	// DriverUsed is total − free from cuMemGetInfo: everything the driver
	// holds on the GPU, this process's context and other processes included,
	// less the code of the kernel modules loaded after Open (on their first
	// launch), so that it reads as if they had loaded at Open.
	DriverUsed() (int64, error)
	// Baseline is DriverUsed measured when Open finished (context, modules,
	// scratch buffer): what DriverUsed must come back to after a job.
	Baseline() int64
	// Live reports the ranges allocated or mapped through this device and
	// not yet returned, and their bytes.
	Live() (ranges int, bytes int64)
	// ReleaseAll returns every allocation, mapping and reservation still held,
	// then compares DriverUsed with Baseline. It returns a *LeakError if
	// anything had to be returned or the driver's figure did not come back.
	ReleaseAll() error

	// Do runs fn on the worker thread with a Device whose methods call the
	// driver directly (no channel hop); that Device is valid only until fn
	// returns and only on the goroutine that runs fn.
	Do(fn func(Device) error) error
	// Close releases everything (as ReleaseAll), destroys the context and
	// stops the worker. Methods called after Close return ErrClosed.
	Close() error
}

// DType is an element type with kernels (f32, f16, bf16).
type DType = kernels.DType

// Element types.
const (
	F32  = kernels.F32
	F16  = kernels.F16
	BF16 = kernels.BF16
)

// Kernels launches the embedded kernels with grid and block sizes computed
// from the element counts. Addresses are device addresses (as returned by
// Malloc or inside a mapped range); counts are elements, not bytes. A count
// of 0 launches nothing. All arithmetic is in f32, as PyTorch's opmath.
type Kernels interface {
	// Fill sets dst[0:n) to value.
	Fill(t DType, dst uint64, value float32, n int64) error
	// Copy copies n elements from src to dst.
	Copy(t DType, dst, src uint64, n int64) error
	// Cast converts n elements of type from at src to type to at dst.
	Cast(from, to DType, dst, src uint64, n int64) error

	// Add, Sub, Mul, Div compute dst = a op b elementwise.
	Add(t DType, dst, a, b uint64, n int64) error
	Sub(t DType, dst, a, b uint64, n int64) error
	Mul(t DType, dst, a, b uint64, n int64) error
	Div(t DType, dst, a, b uint64, n int64) error

	// Relu, Exp, Sigmoid and Tanh compute dst = f(src) elementwise.
	Relu(t DType, dst, src uint64, n int64) error
	Exp(t DType, dst, src uint64, n int64) error
	Sigmoid(t DType, dst, src uint64, n int64) error
	Tanh(t DType, dst, src uint64, n int64) error
	// ReluBackward computes dst = input <= 0 ? 0 : grad.
	ReluBackward(t DType, dst, grad, input uint64, n int64) error
	// Scale computes dst = alpha * src.
	Scale(t DType, dst, src uint64, alpha float32, n int64) error
	// Axpy computes y += alpha * x in place.
	Axpy(t DType, y, x uint64, alpha float32, n int64) error

	// Sum writes the sum of src[0:n) to dst[0], accumulating in f32 in an
	// order that depends only on n (deterministic).
	Sum(t DType, dst, src uint64, n int64) error
	// Matmul computes C[m,n] = A[m,k] · B[k,n]; A(i,j) is at element
	// i*as[0] + j*as[1] of a, likewise B; C is contiguous.
	Matmul(t DType, c, a, b uint64, m, n, k int64, as, bs [2]int64) error

	// Map computes dst = op(srcs..., s0, s1) over shape (kernels.MaxRank
	// dimensions, outermost first), every operand strided (Strided); the
	// inputs have type in, dst has type t. Only the copy converts (in ≠ t);
	// the other operators take in == t. A zero dimension launches nothing.
	// The scalars are float64 for the kernels that compute in float64
	// (kernels.MapOpmath64), truncated to int64 for the kernels that compute
	// in integers (kernels.MapOpmathInt) and rounded to float32 for the
	// others.
	Map(op kernels.MapOp, in, t DType, shape Shape, dst Strided, srcs []Strided, s0, s1 float64) error
	// Random fills dst[0:n) (contiguous, type t) from the counter-based
	// generator: element i gets kernels.Hash(seed, counter, i).
	Random(kind kernels.RandKind, t DType, dst uint64, n int64, seed, counter uint64, s0, s1 float32) error
	// RandInt fills the int64 dst[0:n) with lo + Hash(seed, counter, i) % span.
	RandInt(dst uint64, n int64, seed, counter uint64, lo, span int64) error
	// Philox fills dst[0:n) (contiguous, type t) with elements 0..n-1 of
	// PyTorch's CUDA generator for the launch a describes (see
	// kernels.PhiloxKind, kernels.PhiloxArgs): the numbers PyTorch's random
	// op of that seed, offset and launch writes.
	Philox(kind kernels.PhiloxKind, t DType, dst uint64, n int64, a kernels.PhiloxArgs) error
	// SMGeometry is the GPU's multiprocessor count and resident threads per
	// multiprocessor, which size PyTorch's launches of random ops.
	SMGeometry() (sms, threadsPerSM int64, err error)
	// ReduceRows writes dst[r] = scale · Σ_j src[base(r) + j·r.InnerStride]
	// for every row r of rows (contiguous dst of type t).
	// float64 rows accumulate and scale in float64, the other types in f32
	// (the scale rounded to f32).
	ReduceRows(t DType, dst, src uint64, scale float64, rows Rows) error
	// Softmax runs a softmax kernel over the rows of length d of operands
	// viewed as [o, d, q]: element (i, j, k) of operand x is at
	// i·x[0] + k·x[1] + j·x[2] (Strides3 order: o, q, d). b is the forward
	// output for the backward modes and unused (0) otherwise.
	Softmax(mode kernels.SoftmaxMode, t DType, dst, a, b uint64, o, d, q int64, sdst, sa, sb Strides3) error
	// NLLLoss runs nll_loss (backward false: dst[0] from the log-probabilities
	// src) or its backward (dst = zeroed grad_input, src = the 0-dim grad),
	// over n rows with strides sn, sc of dst/src's [n, C] operand and st of
	// the int64 target.
	NLLLoss(backward bool, t DType, dst, src, target uint64, n, sn, sc, st, ignore int64, mean bool) error
	// BatchedMatmul computes C[z] = A[z] · B[z] for z < batch, [m,k]·[k,n];
	// strides in elements, Strides3 order (batch, row, column).
	BatchedMatmul(t DType, c, a, b uint64, batch, m, n, k int64, cs, as, bs Strides3) error
	// Index moves elements by an int64 index operand over shape (see
	// kernels.IndexMode): gather, scatter (types kernels.IndexDTypes) or
	// scatter_add (F32). dimStride is the indexed dimension's element
	// stride in src (gather) or dst (scatter), dimSize its length; an index
	// equal to skip moves nothing.
	Index(mode kernels.IndexMode, t DType, shape Shape, dst, src, idx Strided, dimStride, dimSize, skip int64) error
	// Pick writes the max or min of each row of rows (src of type t) to
	// dst[r] (type t) and its first index along the row to the int64
	// idx[r]; a zero dst or idx is not written. NaN wins, as in PyTorch.
	Pick(mode kernels.PickMode, t DType, dst, idx, src uint64, rows Rows) error
}

// Shape is the shape of a strided kernel launch, outermost dimension
// first, padded with leading 1s.
type Shape = [kernels.MaxRank]int64

// Strided is an operand of Map: the address of its element (0, ..., 0)
// and its element strides over the launch's Shape (0 broadcasts).
type Strided struct {
	Addr    uint64
	Strides [kernels.MaxRank]int64
}

// Strides3 are three element strides (see Softmax and BatchedMatmul).
type Strides3 = [3]int64

// Rows describes the rows of ReduceRows: the row index r runs over the
// outer shape Outer (row-major), the row's first element is at
// Σ coord·OuterStrides, and it has Inner elements InnerStride apart.
type Rows struct {
	Outer        [3]int64
	OuterStrides [3]int64
	Inner        int64
	InnerStride  int64
}

// Count is the number of rows.
func (r Rows) Count() int64 { return r.Outer[0] * r.Outer[1] * r.Outer[2] }

// CallStats counts the driver calls the device made and the host time spent
// in them (time.Now around each call on the worker thread).
type CallStats struct {
	Allocs     int64 // successful cuMemAlloc and Map (cuMemCreate+cuMemMap+cuMemSetAccess) calls
	Frees      int64 // cuMemFree and Unmap (cuMemUnmap+cuMemRelease) calls
	AllocNanos int64 // time in the Allocs, failed attempts included
	FreeNanos  int64 // time in the Frees
	OOMs       int64 // allocations refused: by the driver or by Options.MemoryLimit
	Reserves   int64 // cuMemAddressReserve calls
	Releases   int64 // cuMemAddressFree calls

	Launches    int64 // cuLaunchKernel calls
	LaunchNanos int64 // host time in them (launch overhead, not kernel time)
	Copies      int64 // host↔device copies
	CopyNanos   int64 // time in them

	ModuleLoads int64 // kernel modules loaded on their first kernel's launch
	ModuleNanos int64 // time in those loads (PTX JIT, warm-up), not in LaunchNanos
}

// DeviceNanos is the time spent in allocation and free calls, the
// trace.GPU.DeviceNanos figure.
func (s CallStats) DeviceNanos() int64 { return s.AllocNanos + s.FreeNanos }

// Options configure Open.
type Options struct {
	// Ordinal is the GPU's index among the visible devices.
	Ordinal int
	// MemoryLimit, if positive, caps the bytes allocated and mapped through
	// the device at once: a request beyond it gets alloc.ErrDeviceOOM, as a
	// full GPU would give, and MemGetInfo's free shrinks to match. This is
	// the per-job GPU memory limit of a shared server.
	MemoryLimit int64
}
