package refkern

import (
	"encoding/binary"
	"fmt"
	"math"
)

// The CPU generator's state in PyTorch's byte layout
// (at::CPUGeneratorImplState, what torch.get_rng_state() returns), so
// that a script may save it, print it and set it back:
//
//	0     u64  the_initial_seed
//	8     i32  left          (the engine's draws left before a twist, plus one)
//	12    i32  seeded
//	16    u64  next          (index of the next state word)
//	24    u64  state[624]    (the 32-bit words, zero-extended)
//	5016  f64  normal_x      (0, unused)
//	5024  f64  normal_y      (the cached normal_distribution<double> sample)
//	5032  f64  normal_rho    (0, unused)
//	5040  i32  normal_is_valid
//	5048  f32  next_float_normal_sample
//	5052  u8   is_next_float_normal_sample_valid
//
// 5056 bytes in all; the legacy layout (5048 bytes, no float cache) is
// accepted by SetState too. Padding bytes are zero.
const (
	CPUStateBytes       = 5056
	CPUStateLegacyBytes = 5048
)

// State returns the generator's state in PyTorch's layout.
func (g *CPUGenerator) State() []byte {
	b := make([]byte, CPUStateBytes)
	le := binary.LittleEndian
	le.PutUint64(b[0:], g.eng.seed)
	le.PutUint32(b[8:], uint32(int32(g.eng.left)))
	le.PutUint32(b[12:], 1)
	le.PutUint64(b[16:], uint64(g.eng.next))
	for i, w := range g.eng.state {
		le.PutUint64(b[24+8*i:], uint64(w))
	}
	if g.hasNextDb {
		le.PutUint64(b[5024:], math.Float64bits(g.nextDouble))
		le.PutUint32(b[5040:], 1)
	}
	if g.hasNextFloat {
		le.PutUint32(b[5048:], math.Float32bits(float32(g.nextFloat)))
		b[5052] = 1
	}
	return b
}

// SetState restores a state of State's layout (or the legacy one) with
// PyTorch's checks (CPUGeneratorImpl::set_state).
func (g *CPUGenerator) SetState(b []byte) error {
	if len(b) != CPUStateBytes && len(b) != CPUStateLegacyBytes {
		return fmt.Errorf("Expected either a CPUGeneratorImplStateLegacy of size %d or a CPUGeneratorImplState of size %d but found the input RNG state size to be %d",
			CPUStateLegacyBytes, CPUStateBytes, len(b))
	}
	le := binary.LittleEndian
	valid := le.Uint32(b[5040:])
	if valid != 0 && valid != 1 {
		return fmt.Errorf("Expected normal_is_valid to be 0 or 1 but got %d", valid)
	}
	left, next := int(int32(le.Uint32(b[8:]))), int(uint32(le.Uint64(b[16:])))
	if left < 1 || left > mtN || next < 0 || next > mtN {
		// PyTorch takes any values and its engine then reads out of
		// bounds; the playground refuses them
		return fmt.Errorf("RNG state is invalid: left %d, next %d", left, next)
	}
	g.eng.seed = le.Uint64(b[0:])
	g.eng.left, g.eng.next = left, next
	for i := range g.eng.state {
		g.eng.state[i] = uint32(le.Uint64(b[24+8*i:]))
	}
	g.hasNextDb = valid == 1
	g.nextDouble = 0
	if g.hasNextDb {
		g.nextDouble = math.Float64frombits(le.Uint64(b[5024:]))
	}
	g.hasNextFloat, g.nextFloat = false, 0
	if len(b) == CPUStateBytes && b[5052] != 0 {
		g.hasNextFloat = true
		g.nextFloat = float64(math.Float32frombits(le.Uint32(b[5048:])))
	}
	return nil
}
