package gpuexec

import (
	"errors"
	"fmt"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
	"github.com/gpumem/playground/gpu/refkern"
	"github.com/gpumem/playground/sim/torch"
)

// Executor is torch.Executor on a gpu.Device: CUDA tensors are computed by
// the device's kernels at the addresses the caching allocator gave their
// storages; CPU tensors live in host memory owned by the executor and are
// computed by the pure-Go reference kernels (package gpu/refkern);
// copies between them go through the device's copy calls.
//
// It is not safe for concurrent use, and dev must be usable from the
// calling goroutine (inside gpu.Device.Do for the real device).
type Executor struct {
	dev      gpu.Device
	host     *refkern.Memory
	hostK    *refkern.Kernels
	hostBase map[uint64]uint64 // CPU storage → its host address
	nextHost uint64
	computed map[uint64]bool       // storages written: true if their values are real
	cuda     cudaGenerator         // PyTorch's CUDA generator (Philox): random_cuda.go
	rnnDrop  rnnDropGen            // RNN dropout's private Philox stream: ops_rnn_dropout.go
	cpuGen   cpuGenerator          // PyTorch's CPU generator (mt19937): random_cpu.go
	gens     map[int64]*privateGen // the script's torch.Generator objects: random_ops.go
	bwAcc    kernels.DType         // a reduction backward's accumulate type while it runs: reduce_backward.go
	// Ops counts Exec calls by outcome, for reports and tests.
	Ops struct{ Computed, NotComputed int64 }
}

var _ torch.Executor = (*Executor)(nil)

// New returns an executor on dev.
func New(dev gpu.Device) *Executor {
	mem := &refkern.Memory{}
	return &Executor{dev: dev, host: mem, hostK: refkern.New(mem), hostBase: map[uint64]uint64{},
		nextHost: 1 << 48, computed: map[uint64]bool{}}
}

// errUnsupported marks an op (or operand layout) without kernels: its
// outputs are left not computed.
func errUnsupported(format string, args ...any) error {
	return fmt.Errorf("%w: %s", torch.ErrNotComputed, fmt.Sprintf(format, args...))
}

// operand is a resolved ExecTensor: element (0, ..., 0)'s address in the
// device's or the host's address space.
type operand struct {
	t       torch.ExecTensor
	kt      kernels.DType
	addr    uint64
	shape   []int64
	strides []int64
}

func (o operand) cuda() bool { return o.t.CUDA }

// kernelType maps a torch dtype to the kernels' element type.
func kernelType(dt torch.DType) (kernels.DType, bool) {
	switch dt {
	case torch.Float32:
		return kernels.F32, true
	case torch.Float16:
		return kernels.F16, true
	case torch.BFloat16:
		return kernels.BF16, true
	case torch.Int64:
		return kernels.I64, true
	case torch.Bool:
		return kernels.B8, true
	case torch.Float64:
		return kernels.F64, true
	case torch.Int32:
		return kernels.I32, true
	case torch.Uint8:
		return kernels.U8, true
	case torch.Int8:
		return kernels.I8, true
	case torch.Int16:
		return kernels.I16, true
	}
	return "", false
}

// hostAddr returns (allocating on first use) the host bytes of a CPU storage.
func (e *Executor) hostAddr(storage uint64, nbytes int64) (uint64, error) {
	if a, ok := e.hostBase[storage]; ok {
		return a, nil
	}
	a, err := e.hostAlloc(nbytes)
	if err != nil {
		return 0, err
	}
	e.hostBase[storage] = a
	return a, nil
}

// hostAlloc backs a fresh host range (at least 8 bytes, 256-aligned).
func (e *Executor) hostAlloc(nbytes int64) (uint64, error) {
	a := e.nextHost
	size := max(nbytes, 8)
	e.nextHost += uint64(size+255) &^ 255
	if err := e.host.Add(a, size); err != nil {
		return 0, err
	}
	return a, nil
}

func (e *Executor) resolve(t torch.ExecTensor) (operand, error) {
	kt, ok := kernelType(t.DType)
	if !ok {
		return operand{}, errUnsupported("no kernels for %s", t.DType)
	}
	base := t.Addr
	if !t.CUDA {
		var err error
		if base, err = e.hostAddr(t.Storage, t.Nbytes); err != nil {
			return operand{}, err
		}
	} else if base == 0 && t.Numel() > 0 {
		return operand{}, fmt.Errorf("gpuexec: CUDA operand without a device address")
	}
	return operand{t: t, kt: kt, addr: base + uint64(t.Offset*kt.Size()), shape: t.Shape, strides: t.Strides}, nil
}

func (e *Executor) kern(cuda bool) gpu.Kernels {
	if cuda {
		return e.dev.Kernels()
	}
	return e.hostK
}

// Exec computes op (see torch.Executor).
func (e *Executor) Exec(op *torch.ExecOp) error {
	if op.Kind == ExecManualSeed {
		if len(op.Ints) > 0 {
			e.cuda.reseed(uint64(op.Ints[0]))
			if len(op.Ints) < 2 || op.Ints[1] != 1 { // not CUDA only
				e.cpuGen.seed(uint64(op.Ints[0]))
			}
			e.rnnDrop = rnnDropGen{} // PyTorch's reset_rnn_state: a new dropout state
		}
		return nil
	}
	if op.Kind == torch.ExecRNGSetState {
		return e.setRNGState(op)
	}
	if op.Kind == torch.ExecGeneratorSeed {
		return e.seedGenerator(op)
	}
	err := e.exec(op)
	// A failed write makes its storage not computed. A successful one
	// makes it computed when it covers the whole storage, or when a tensor
	// that is not a view is written into a storage never written before
	// (a reduced loss keeping its input-sized storage); a partial write
	// through a view (t[0] = 1) into a storage whose values were not
	// computed (made by an op without kernels) leaves it not computed, or
	// its other elements would print as numbers.
	for _, o := range op.Out {
		prev, written := e.computed[o.Storage]
		switch {
		case err != nil:
			e.computed[o.Storage] = false
		case covers(o) || (!written && !o.View):
			e.computed[o.Storage] = true
		default:
			e.computed[o.Storage] = prev
		}
	}
	if err != nil {
		e.Ops.NotComputed++
		return err
	}
	e.Ops.Computed++
	return nil
}

func (e *Executor) exec(op *torch.ExecOp) (err error) {
	if len(op.Out) == 0 {
		return fmt.Errorf("gpuexec: %s without an output", op.Kind)
	}
	if op.Kind == torch.ExecRNGGetState {
		return e.getRNGState(op)
	}
	if handled, err := e.execRandom(op); handled {
		return err
	}
	if handled, err := e.execFused(op); handled {
		return err
	}
	for _, in := range op.In {
		if !e.computed[in.Storage] {
			return errUnsupported("%s: an input's values were not computed", op.Kind)
		}
	}
	out, err := e.resolve(op.Out[0])
	if err != nil {
		return err
	}
	ins := make([]operand, len(op.In))
	for i, t := range op.In {
		if ins[i], err = e.resolve(t); err != nil {
			return err
		}
	}
	if !wideKernels(op.Kind, out, ins) && !randomKinds[op.Kind] {
		return errUnsupported("%s over float64/int32", op.Kind)
	}
	if op.Kind != torch.ExecCopy {
		// 0-dim CPU tensors (wrapped Python numbers, the optimizers' step)
		// join CUDA ops as PyTorch's CPU scalars do: copied to the device.
		lifted, err := e.liftScalars(out, ins)
		if err != nil {
			return err
		}
		defer func() {
			if ferr := e.freeTemps(lifted); err == nil {
				err = ferr
			}
		}()
		for _, in := range ins {
			if in.cuda() != out.cuda() && !crossDeviceNN(op.Kind) && !crossDeviceIndexN(op.Kind) {
				return errUnsupported("%s across devices", op.Kind)
			}
		}
	}
	sc64 := func(i int, def float64) float64 {
		if i < len(op.Scalars) {
			return op.Scalars[i]
		}
		return def
	}
	k := e.kern(out.cuda())
	if handled, err := e.execNN(k, op, out, ins); handled {
		return err
	}
	if handled, err := e.execRNN(k, op, out, ins); handled {
		return err
	}
	if done, err := e.exactIntScalars(k, op, out, ins); done {
		return err
	}
	if handled, err := e.execIndexN(k, op, out, ins); handled {
		return err
	}
	switch op.Kind {
	case torch.ExecFill:
		return e.mapOp64(k, "fill", out, nil, sc64(0, 0), 0)
	case torch.ExecArange, torch.ExecUniform, torch.ExecNormal, torch.ExecRandInt:
		return e.generate(k, op, out)
	case torch.ExecValues:
		return e.values(out, op.Scalars)
	case torch.ExecRandPerm:
		if !out.cuda() {
			return e.generateHost(op, out)
		}
		return e.randpermCUDA(k, out)
	case torch.ExecCopy:
		if len(ins) != 1 {
			return fmt.Errorf("gpuexec: copy takes 1 input, got %d", len(ins))
		}
		if ins[0].cuda() != out.cuda() {
			return e.transfer(out, ins[0])
		}
		return e.mapOp(k, "copy", out, ins, 0, 0)
	case torch.ExecMatmul:
		return e.matmul(k, out, ins)
	case torch.ExecSum, torch.ExecMean:
		return e.reducePromoted(k, op, out, ins)
	case torch.ExecSoftmax, torch.ExecLogSoftm, torch.ExecSoftmaxBack, torch.ExecLogSoftmaxBack:
		return e.softmax(k, op, out, ins)
	case torch.ExecNLLLoss, torch.ExecNLLLossBack:
		return e.nll(k, op, out, ins)
	case torch.ExecMSELoss, torch.ExecMSELossBack:
		return e.mse(k, op, out, ins)
	case torch.ExecPow:
		return e.pow(k, out, ins, sc64(0, 1))
	case torch.ExecAdd, torch.ExecSub:
		return e.mapPromoted(k, kernels.MapOp(op.Kind), out, ins, sc64(0, 1), 0)
	case torch.ExecTril, torch.ExecTriu:
		return e.tri(k, op, out, ins)
	case torch.ExecConvTranspose:
		return e.convTranspose(k, op, out, ins)
	case torch.ExecConvTransposeBack:
		return e.convTransposeBack(k, op, out, ins)
	}
	if done, err := e.amp(k, op, out, ins); done {
		return err
	}
	if done, err := e.pointwise(k, op, out, ins); done {
		return err
	}
	if done, err := e.divFamily(k, op, out, ins); done {
		return err
	}
	if info, ok := kernels.MapOpByName(kernels.MapOp(op.Kind)); ok && info.Ins > 0 {
		return e.mapPromoted(k, info.Op, out, ins, sc64(0, 0), sc64(1, 0))
	}
	return errUnsupported("no kernels for %s", op.Kind)
}

// randomKinds draw from a generator whatever their output type: they
// advance it even when their values cannot be computed.
var randomKinds = map[torch.ExecKind]bool{torch.ExecUniform: true, torch.ExecNormal: true, torch.ExecRandInt: true, torch.ExecRandPerm: true}

// ExecManualSeed restarts the generators: Ints[0] is the seed, Ints[1]
// (optional) 1 for the CUDA generator only
// (torch.manual_seed). The model sends it as an ExecOp without operands.
const ExecManualSeed = torch.ExecManualSeedKind

// pow picks the exact kernel for the usual exponents.
func (e *Executor) pow(k gpu.Kernels, out operand, ins []operand, p float64) error {
	if len(ins) == 2 { // a tensor exponent: the float64 kernel pow_tensor
		return e.powTensor(k, out, ins)
	}
	if out.kt != kernels.F64 {
		p = float64(float32(p))
	}
	if out.kt == kernels.F64 && len(ins) == 1 && ins[0].kt == kernels.F64 {
		// float64 has no square/pow entries: PyTorch's pow_tensor_scalar
		// computes x², x³ as products and x^-1 as a division, which the
		// f64 arithmetic kernels do with the same roundings
		switch p {
		case 2:
			return e.mapOp(k, "mul", out, []operand{ins[0], ins[0]}, 0, 0)
		case 3:
			if err := e.mapOp(k, "mul", out, []operand{ins[0], ins[0]}, 0, 0); err != nil {
				return err
			}
			return e.mapOp(k, "mul", out, []operand{out, ins[0]}, 0, 0)
		}
	}
	switch p {
	case 1:
		return e.mapOp(k, "copy", out, ins, 0, 0)
	case 2:
		return e.mapOp(k, "square", out, ins, 0, 0)
	case 0.5:
		return e.mapOp(k, "sqrt", out, ins, 0, 0)
	case -0.5:
		return e.mapOp(k, "rsqrt", out, ins, 0, 0)
	case -1:
		return e.mapOp(k, "reciprocal", out, ins, 0, 0)
	case 0:
		return e.mapOp(k, "fill", out, nil, 1, 0)
	}
	return e.mapOp64(k, "pow", out, ins, p, 0)
}

// generate runs arange, and the random ops from PyTorch's generators: the
// CUDA generator's Philox kernels (random_cuda.go) for CUDA outputs, the
// CPU generator (random_cpu.go) for CPU ones.
func (e *Executor) generate(k gpu.Kernels, op *torch.ExecOp, out operand) error {
	if op.Kind != torch.ExecArange {
		if !out.cuda() {
			return e.generateHost(op, out)
		}
		return e.generateCUDA(k, op, out)
	}
	if !contiguous(out.shape, out.strides) {
		return errUnsupported("%s into a non-contiguous tensor", op.Kind)
	}
	n := numel(out.shape)
	s := func(i int) float64 {
		if i < len(op.Scalars) {
			return op.Scalars[i]
		}
		return 0
	}
	if out.kt == kernels.F64 || out.kt == kernels.I32 || kernels.SmallInt(out.kt) {
		return e.arangeHost(out, n, s(0), s(1))
	}
	if out.kt == kernels.I64 {
		return e.arangeInt64(k, out, n, s(0), s(1), op.Ints)
	}
	return k.Random(kernels.RandArange, out.kt, out.addr, n, 0, 0, float32(s(0)), float32(s(1)))
}

// covers reports whether a write to t reaches every element of its storage.
func covers(t torch.ExecTensor) bool {
	kt, ok := kernelType(t.DType)
	if !ok {
		return false
	}
	n := t.Numel()
	if n*kt.Size() != t.Nbytes {
		return false
	}
	lo, hi := span(t.Shape, t.Strides)
	return hi-lo+1 == n
}

// Read returns t's values in row-major order.
func (e *Executor) Read(t torch.ExecTensor) ([]float64, error) {
	if !e.computed[t.Storage] {
		return nil, torch.ErrNotComputed
	}
	o, err := e.resolve(t)
	if err != nil {
		return nil, err
	}
	n := t.Numel()
	if n == 0 {
		return []float64{}, nil
	}
	lo, hi := span(o.shape, o.strides)
	size := o.kt.Size()
	var raw []byte
	if o.cuda() {
		raw = make([]byte, (hi-lo+1)*size)
		if err := e.dev.CopyFromDevice(raw, o.addr+uint64(lo*size)); err != nil {
			return nil, fmt.Errorf("gpuexec: reading a tensor: %w", err)
		}
	} else {
		b, err := e.host.Bytes(o.addr+uint64(lo*size), (hi-lo+1)*size)
		if err != nil {
			return nil, err
		}
		raw = b
	}
	out := make([]float64, n)
	idx := make([]int64, len(o.shape))
	for i := range out {
		off := -lo
		for d := range idx {
			off += idx[d] * o.strides[d]
		}
		out[i] = decode(o.kt, raw[off*size:])
		if o.kt == kernels.I64 && !exactInt(out[i]) {
			// Values travel as float64: an int64 beyond 2^53 would print rounded.
			return nil, fmt.Errorf("%w: an int64 value beyond 2^53 cannot be read exactly", torch.ErrNotComputed)
		}
		for d := len(idx) - 1; d >= 0; d-- {
			idx[d]++
			if idx[d] < o.shape[d] {
				break
			}
			idx[d] = 0
		}
	}
	return out, nil
}

// Release forgets a storage.
func (e *Executor) Release(storage uint64) {
	delete(e.computed, storage)
	if a, ok := e.hostBase[storage]; ok {
		e.host.Remove(a)
		delete(e.hostBase, storage)
	}
}

// Synchronize waits for the device.
func (e *Executor) Synchronize() error { return e.dev.Synchronize() }

// HostRanges is the number of host ranges held (CPU storages and
// temporaries): 0 after every storage was released.
func (e *Executor) HostRanges() int { return e.host.Ranges() }

// IsNotComputed reports whether err only says that values were not computed.
func IsNotComputed(err error) bool { return errors.Is(err, torch.ErrNotComputed) }
