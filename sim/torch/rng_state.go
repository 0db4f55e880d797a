package torch

// The default generators' state as scripts see it: torch.get_rng_state()
// and torch.cuda.get_rng_state() return a CPU uint8 tensor holding
// PyTorch's own byte layout (CPUGeneratorImplState, 5056 bytes: the
// mt19937 words and the normal-sample caches; CUDA: 16 bytes, the seed and
// the Philox offset), and set_rng_state takes one back. checkpoint's
// preserve_rng_state and torch.random.fork_rng are built on them. The
// simulator only allocates the host tensor (no CUDA memory, as in
// PyTorch); a GPU run's executor writes and reads the bytes.

// Sizes of PyTorch's generator states, in bytes.
const (
	CPURNGStateBytes       = 5056 // CPUGeneratorImplState
	CPURNGStateLegacyBytes = 5048 // CPUGeneratorImplStateLegacy, also accepted
	CUDARNGStateBytes      = 16   // seed and Philox offset
	CUDARNGStateSeedOnly   = 8    // a seed alone, also accepted (offset 0)
)

// ExecKinds of the generators' state (values only). ExecRNGGetState:
// Out = [uint8 CPU tensor of the state's size]; ExecRNGSetState: In =
// [uint8 CPU tensor]. Ints[0] is 1 for the CUDA generator, 0 for the CPU.
const (
	ExecRNGGetState ExecKind = "rng_get_state"
	ExecRNGSetState ExecKind = "rng_set_state"
)

// RNGState is torch.get_rng_state() (cuda false) or
// torch.cuda.get_rng_state(): a new CPU uint8 tensor.
func (rt *Runtime) RNGState(cuda bool) (*Tensor, error) {
	n := int64(CPURNGStateBytes)
	if cuda {
		n = CUDARNGStateBytes
	}
	t, err := rt.empty("get_rng_state", []int64{n}, nil, Uint8, CPUDevice)
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.compute(ExecRNGGetState, []*Tensor{t}, nil, nil, []int64{boolInt(cuda)})
	}
	return t, nil
}

// SetRNGState is torch.set_rng_state(t) (cuda false) or
// torch.cuda.set_rng_state(t), with PyTorch's checks and messages. Setting
// the CUDA state reseeds it (set_current_seed): the next RNN dropout state
// is made anew.
func (rt *Runtime) SetRNGState(cuda bool, t *Tensor) error {
	if t == nil || t.device.IsCUDA() || t.dtype != Uint8 {
		return Errorf(RuntimeError, "RNG state must be a torch.ByteTensor")
	}
	n := t.Numel()
	if cuda {
		if n != CUDARNGStateBytes && n != CUDARNGStateSeedOnly {
			return Errorf(RuntimeError, "RNG state is wrong size")
		}
		rt.rnnDropReset = true
	} else if n != CPURNGStateBytes && n != CPURNGStateLegacyBytes {
		return Errorf(RuntimeError, "Expected either a CPUGeneratorImplStateLegacy of size %d or a CPUGeneratorImplState of size %d but found the input RNG state size to be %d",
			CPURNGStateLegacyBytes, CPURNGStateBytes, n)
	}
	if rt.exec != nil {
		rt.compute(ExecRNGSetState, nil, []*Tensor{t}, nil, []int64{boolInt(cuda)})
	}
	return nil
}

// boolInt is 1 for true, 0 for false.
func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
