package gpuexec

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/gpumem/playground/sim/torch"
)

// The default generators' state as a uint8 CPU tensor in PyTorch's byte
// layouts (torch.ExecRNGGetState / ExecRNGSetState): the CPU generator's
// CPUGeneratorImplState (refkern.CPUGenerator.State), the CUDA
// generator's seed and Philox offset (8 bytes each, little-endian).
// Setting the CUDA state is set_current_seed: it also restarts RNN
// dropout's private stream, as PyTorch makes a new dropout state.

// stateBytes is the CUDA generator's state in PyTorch's layout.
func (g *cudaGenerator) stateBytes() []byte {
	b := make([]byte, torch.CUDARNGStateBytes)
	binary.LittleEndian.PutUint64(b, g.seed)
	binary.LittleEndian.PutUint64(b[8:], g.offset)
	return b
}

// getRNGState is ExecRNGGetState: Out = [uint8 CPU tensor].
func (e *Executor) getRNGState(op *torch.ExecOp) error {
	out, err := e.resolve(op.Out[0])
	if err != nil {
		return err
	}
	var b []byte
	if len(op.Ints) > 0 && op.Ints[0] == 1 {
		b = e.cuda.stateBytes()
	} else {
		b = e.cpuGen.gen().State()
	}
	if out.cuda() || numel(out.shape) != int64(len(b)) {
		return fmt.Errorf("gpuexec: rng state of %d bytes into %v", len(b), out.shape)
	}
	vals := make([]float64, len(b))
	for i, v := range b {
		vals[i] = float64(v)
	}
	return e.values(out, vals)
}

// setRNGState is ExecRNGSetState: In = [uint8 CPU tensor].
func (e *Executor) setRNGState(op *torch.ExecOp) error {
	if len(op.In) != 1 {
		return fmt.Errorf("gpuexec: set_rng_state takes one state")
	}
	vals, err := e.Read(op.In[0])
	if errors.Is(err, torch.ErrNotComputed) {
		return fmt.Errorf("gpuexec: set_rng_state: the state's values were not computed")
	}
	if err != nil {
		return err
	}
	b := make([]byte, len(vals))
	for i, v := range vals {
		b[i] = byte(v)
	}
	if len(op.Ints) > 0 && op.Ints[0] == 1 {
		if len(b) != torch.CUDARNGStateBytes && len(b) != torch.CUDARNGStateSeedOnly {
			return fmt.Errorf("RNG state is wrong size")
		}
		var off uint64
		if len(b) == torch.CUDARNGStateBytes {
			off = binary.LittleEndian.Uint64(b[8:])
		}
		if off%4 != 0 {
			return fmt.Errorf("offset must be a multiple of 4")
		}
		e.cuda.seed, e.cuda.offset = binary.LittleEndian.Uint64(b), off
		e.rnnDrop = rnnDropGen{}
		return nil
	}
	return e.cpuGen.gen().SetState(b)
}
