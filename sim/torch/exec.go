package torch

import (
	"errors"
	"unsafe"
)

// Executor computes tensor values for the model's operators on a backend
// that has values (package gpu/exec: a real GPU, or its pure-Go reference).
// The simulator has none (Config.Executor nil): values are never computed
// there and the only cost an op pays is a nil check.
//
// The model stays in charge of memory: it allocates every output exactly as
// PyTorch does, then hands the executor the op with its operands' device
// addresses; the executor writes the outputs in place and allocates
// nothing through the caching allocator. An op the executor cannot compute
// (a kind it lacks, a dtype without kernels, an input whose values were not
// computed) leaves its outputs marked not computed: printing them says so
// and Item returns ErrNotComputed, instead of a wrong number.
type Executor interface {
	// Exec computes op's outputs. It returns ErrNotComputed (wrapped) when it
	// leaves them unset; any other error is the backend's failure (a kernel
	// launch, the driver) and ends the run.
	Exec(op *ExecOp) error
	// Read returns the values of t in row-major logical order, converted to
	// float64 (int64 values beyond 2^53 lose precision). It waits for the
	// kernels before it, so it is also where a real run synchronises.
	Read(t ExecTensor) ([]float64, error)
	// Release says that a storage is gone (its GPU block goes back to the
	// allocator, a CPU storage's host bytes may be dropped).
	Release(storage uint64)
	// Synchronize waits for every launched kernel (torch.cuda.synchronize()).
	Synchronize() error
}

// ErrNotComputed marks values the executor did not compute.
var ErrNotComputed = errors.New("values not computed")

// ExecKind names an operator of ExecOp. The operand conventions of each kind
// are in the comments of the constants; Out[0] is always the result.
type ExecKind string

// Creation: Out[0] only.
const (
	ExecFill     ExecKind = "fill"     // Out = Scalars[0]
	ExecArange   ExecKind = "arange"   // Out[i] = Scalars[0] + i*Scalars[1] (row-major i)
	ExecUniform  ExecKind = "uniform"  // U[Scalars[0], Scalars[1]); Ints[0] seed, Ints[1] counter
	ExecNormal   ExecKind = "normal"   // N(Scalars[0], Scalars[1]²); Ints[0] seed, Ints[1] counter
	ExecRandInt  ExecKind = "randint"  // integers in [Scalars[0], Scalars[1]); Ints[0] seed, Ints[1] counter
	ExecRandPerm ExecKind = "randperm" // a permutation of 0..numel-1 from the generator
	ExecCopy     ExecKind = "copy"     // Out = In[0] broadcast to Out's shape, converted, across devices
	ExecValues   ExecKind = "values"   // Out = Scalars in row-major order (torch.tensor(data))
	ExecMatmul   ExecKind = "matmul"   // Out[b] = In[0][b] · In[1][b]; batch dims broadcast (stride 0)
	ExecSum      ExecKind = "sum"      // Out = sum of In[0] over dims Ints (Out has In's rank, 1 there)
	ExecMean     ExecKind = "mean"     // as sum, divided by the reduced count
	ExecSoftmax  ExecKind = "softmax"  // over dim Ints[0]
	ExecLogSoftm ExecKind = "log_softmax"
	// ExecSoftmaxBack is grad_input from In[0] = grad, In[1] = softmax output.
	ExecSoftmaxBack ExecKind = "softmax_backward"
	// ExecLogSoftmaxBack is grad_input from In[0] = grad, In[1] = log_softmax output.
	ExecLogSoftmaxBack ExecKind = "log_softmax_backward"
	// ExecNLLLoss is nll_loss(In[0] = log-probabilities [N, C], In[1] =
	// int64 targets [N]), Ints[0] = reduction (1 mean, 2 sum), Ints[1] =
	// ignore_index; Out is 0-dim.
	ExecNLLLoss ExecKind = "nll_loss"
	// ExecNLLLossBack is nll_loss's grad_input [N, C] from In[0] = grad
	// (0-dim), In[1] = targets, Ints as ExecNLLLoss.
	ExecNLLLossBack ExecKind = "nll_loss_backward"
	// ExecMSELoss is mse_loss(In[0], In[1]) with Ints[0] = reduction (0
	// none, 1 mean, 2 sum).
	ExecMSELoss ExecKind = "mse_loss"
	// ExecMSELossBack is grad_input = 2·(In[1]−In[2])·In[0] (÷ numel for
	// mean): In[0] = grad, In[1] = input, In[2] = target, Ints[0] reduction.
	ExecMSELossBack ExecKind = "mse_loss_backward"
)

// Elementwise kinds with one tensor input (Out = f(In[0]) broadcast).
const (
	ExecNeg      ExecKind = "neg"
	ExecRelu     ExecKind = "relu"
	ExecGelu     ExecKind = "gelu"      // erf form
	ExecGeluTanh ExecKind = "gelu_tanh" // approximate='tanh'
	ExecSigmoid  ExecKind = "sigmoid"
	ExecTanh     ExecKind = "tanh"
	ExecExp      ExecKind = "exp"
	ExecLog      ExecKind = "log"
	ExecSqrt     ExecKind = "sqrt"
	ExecRsqrt    ExecKind = "rsqrt"
	ExecAbs      ExecKind = "abs"
	ExecAffine   ExecKind = "affine" // Scalars[0]·x + Scalars[1]: scalar add, sub, mul, rsub
	ExecPow      ExecKind = "pow"    // x ** Scalars[0]
	ExecRecip    ExecKind = "reciprocal"
)

// Elementwise kinds with two tensor inputs (broadcast to Out's shape).
const (
	ExecAdd          ExecKind = "add" // In[0] + Scalars[0]·In[1]
	ExecSub          ExecKind = "sub" // In[0] − Scalars[0]·In[1]
	ExecMul          ExecKind = "mul"
	ExecDiv          ExecKind = "div"
	ExecMaximum      ExecKind = "maximum"
	ExecReluBack     ExecKind = "relu_backward"      // In[0] = grad, In[1] = input or output
	ExecGeluBack     ExecKind = "gelu_backward"      // In[0] = grad, In[1] = input (erf form)
	ExecGeluTanhBack ExecKind = "gelu_tanh_backward" // In[0] = grad, In[1] = input (tanh approximation)
	ExecSigmoidBack  ExecKind = "sigmoid_backward"   // In[0] = grad, In[1] = output
	ExecTanhBack     ExecKind = "tanh_backward"      // In[0] = grad, In[1] = output
)

// ExecOp is one operator for an Executor.
type ExecOp struct {
	Kind    ExecKind
	Out     []ExecTensor
	In      []ExecTensor
	Scalars []float64
	Ints    []int64
}

// ExecTensor is an operand: where its storage is and how the tensor lies
// in it.
type ExecTensor struct {
	// Storage identifies the storage (unique in a run; views share it).
	Storage uint64
	// Addr is the device address of the storage's first byte (the caching
	// allocator's block); 0 for CPU storage.
	Addr   uint64
	CUDA   bool
	Nbytes int64 // the storage's size
	// Offset, Shape and Strides are in elements, as storage_offset(),
	// size() and stride().
	Offset  int64
	Shape   []int64
	Strides []int64
	DType   DType
	// View is set for a view of another tensor's storage (t[0], a slice):
	// writing part of it does not make values the executor never wrote
	// (an op without kernels made the storage) computed.
	View bool
}

// Numel is the number of elements of the operand.
func (e ExecTensor) Numel() int64 { return numel(e.Shape) }

// blockAddr is what the executor needs from an allocator's block: its
// device address (*alloc.Block has it).
type blockAddr interface{ Addr() uint64 }

// storageID identifies a live storage: its address (Go's collector does not
// move objects, and the executor forgets an identity when Release is called
// for it, before the storage's memory can be reused).
func storageID(s *Storage) uint64 { return uint64(uintptr(unsafe.Pointer(s))) }

// execTensor describes t as an operand.
func execTensor(t *Tensor) ExecTensor {
	e := ExecTensor{Shape: t.shape, Strides: t.strides, Offset: t.offset, DType: t.dtype, CUDA: t.device.IsCUDA(), View: t.isView}
	if s := t.storage; s != nil {
		e.Storage = storageID(s)
		e.Nbytes = s.nbytes
		if b, ok := s.block.(blockAddr); ok {
			e.Addr = b.Addr()
		}
	}
	return e
}

// compute hands an op to the executor; callers check rt.exec != nil first,
// so that the simulator pays one nil check per op and nothing else. Nil
// inputs are skipped. The executor's failures other than ErrNotComputed
// are kept and returned by Values and Synchronize. The op is returned as
// the executor left it: a kind that reports back (SDPA's dropout RNG state)
// writes into its Ints.
func (rt *Runtime) compute(kind ExecKind, outs, ins []*Tensor, scalars []float64, ints []int64) *ExecOp {
	op := &ExecOp{Kind: kind, Scalars: scalars, Ints: ints, Out: make([]ExecTensor, 0, len(outs)), In: make([]ExecTensor, 0, len(ins))}
	for _, t := range outs {
		op.Out = append(op.Out, execTensor(t))
	}
	for _, t := range ins {
		if t != nil {
			op.In = append(op.In, execTensor(t))
		}
	}
	if err := rt.exec.Exec(op); err != nil && !errors.Is(err, ErrNotComputed) && rt.execErr == nil {
		rt.execErr = err
	}
	return op
}

// compute1 is compute with one output and no integer arguments.
func (rt *Runtime) compute1(kind ExecKind, out *Tensor, ins []*Tensor, scalars ...float64) {
	rt.compute(kind, []*Tensor{out}, ins, scalars, nil)
}

// Computing reports whether values are computed (a GPU run).
func (rt *Runtime) Computing() bool { return rt.exec != nil }

// Init fills a new tensor made by a factory (torch.zeros, ones, full,
// randn, rand, randint, arange, *_like): kind with its scalars (see the
// ExecKind constants). Nothing happens without an executor.
func (rt *Runtime) Init(t *Tensor, kind ExecKind, scalars ...float64) {
	if rt.exec != nil && t != nil {
		rt.compute1(kind, t, nil, scalars...)
	}
}

// ManualSeed restarts the default CPU and CUDA generators
// (torch.manual_seed); the CUDA one's reseed makes the next RNN dropout
// state anew.
func (rt *Runtime) ManualSeed(seed int64) {
	rt.rnnDropReset = true
	if rt.exec != nil {
		rt.compute(ExecManualSeedKind, nil, nil, nil, []int64{seed})
	}
}

// CUDAManualSeed restarts the default CUDA generator only
// (torch.cuda.manual_seed, manual_seed_all, seed).
func (rt *Runtime) CUDAManualSeed(seed int64) {
	rt.rnnDropReset = true
	if rt.exec != nil {
		rt.compute(ExecManualSeedKind, nil, nil, nil, []int64{seed, 1})
	}
}

// ExecManualSeedKind restarts the default generators: Ints[0] is the
// seed, Ints[1] (optional) 1 for the CUDA generator only; the op has no
// operands.
const ExecManualSeedKind ExecKind = "manual_seed"

// Values returns t's values in row-major order as float64 when an
// executor computed them; ErrNotComputed otherwise (always in the
// simulator).
func (rt *Runtime) Values(t *Tensor) ([]float64, error) {
	if rt.exec == nil || t.storage == nil {
		return nil, ErrNotComputed
	}
	if rt.execErr != nil {
		return nil, rt.execErr
	}
	return rt.exec.Read(execTensor(t))
}

// Synchronize waits for the executor's kernels (torch.cuda.synchronize());
// it returns the executor's first failure, if any.
func (rt *Runtime) Synchronize() error {
	if rt.exec == nil {
		return nil
	}
	if rt.execErr != nil {
		return rt.execErr
	}
	return rt.exec.Synchronize()
}

// Computing reports whether t's runtime computes values (a GPU run).
func (t *Tensor) Computing() bool { return t.rt != nil && t.rt.exec != nil }

// Values is the runtime's Values for t (ErrNotComputed in the simulator).
func (t *Tensor) Values() ([]float64, error) {
	if t.rt == nil {
		return nil, ErrNotComputed
	}
	return t.rt.Values(t)
}

// reductionCode is a loss's reduction as ExecOp.Ints[0]: 0 none, 1 mean,
// 2 sum (at::Reduction).
func reductionCode(reduction string) int64 {
	switch reduction {
	case "none":
		return 0
	case "sum":
		return 2
	}
	return 1
}

// inplaceValues computes a.op_(b) (b nil: the scalar s) for add_, sub_,
// mul_ and div_.
func (rt *Runtime) inplaceValues(op string, a, b *Tensor, s Scalar, alpha float64) {
	ins := []*Tensor{a, b}
	if b == nil && rt.inplaceIntValues(op, a, s, alpha) {
		return
	}
	if b == nil {
		v := s.Value()
		switch op {
		case "add":
			rt.compute1(ExecAffine, a, ins[:1], 1, alpha*v)
		case "sub":
			rt.compute1(ExecAffine, a, ins[:1], 1, -alpha*v)
		case "mul":
			rt.compute1(ExecAffine, a, ins[:1], v, 0)
		case "div":
			rt.compute1(ExecAffine, a, ins[:1], 1/v, 0)
		default:
			rt.compute1(ExecKind(op), a, ins[:1], v)
		}
		return
	}
	switch op {
	case "add", "sub":
		rt.compute1(ExecKind(op), a, ins, alpha)
	default:
		rt.compute1(ExecKind(op), a, ins)
	}
}

// zeroAndCopyInto is zeros(...).slice/select(...).copy_(grad) of the
// slice and select backwards: dst (contiguous, fresh) is zeroed and g is
// copied into the window of dst with g's shape, the given element strides
// and offset (a view the model does not materialise).
func (rt *Runtime) zeroAndCopyInto(dst *Tensor, strides []int64, offset int64, g *Tensor) {
	rt.compute1(ExecFill, dst, nil, 0)
	win := execTensor(dst)
	win.Shape, win.Strides, win.Offset = g.shape, strides, dst.offset+offset
	op := &ExecOp{Kind: ExecCopy, Out: []ExecTensor{win}, In: []ExecTensor{execTensor(g)}}
	if err := rt.exec.Exec(op); err != nil && !errors.Is(err, ErrNotComputed) && rt.execErr == nil {
		rt.execErr = err
	}
}
