package refkern

// PyTorch's CPU random generator: the at::mt19937 engine
// (ATen/core/MT19937RNGEngine.h, Matsumoto and Nishimura's MT19937 with
// 32-bit state words) and at::CPUGeneratorImpl (ATen/CPUGeneratorImpl.h),
// which adds 64-bit draws and the normal-sample caches. Every CPU random
// op of PyTorch draws from it in element order, so reproducing it draw
// for draw gives the same numbers as the user's PyTorch run.

const (
	mtN       = 624
	mtM       = 397
	mtMatrixA = 0x9908b0df
	mtUpper   = 0x80000000
	mtLower   = 0x7fffffff
)

// DefaultCPUSeed is the seed of PyTorch's default CPU generator before any
// torch.manual_seed (c10's default_rng_seed_val).
const DefaultCPUSeed uint64 = 67280421310721

// MT19937 is the at::mt19937 engine: Uint32 returns the same sequence as
// std::mt19937 for a seed below 2^32 (a larger seed keeps its low 32 bits
// for the state, as PyTorch does).
type MT19937 struct {
	state [mtN]uint32
	left  int // draws left before the next twist, plus one
	next  int // index of the next state word
	seed  uint64
}

// NewMT19937 returns an engine seeded with seed.
func NewMT19937(seed uint64) *MT19937 {
	m := &MT19937{}
	m.Seed(seed)
	return m
}

// Seed restarts the engine (mt19937_engine::init_with_uint32).
func (m *MT19937) Seed(seed uint64) {
	m.seed = seed
	m.state[0] = uint32(seed)
	for j := 1; j < mtN; j++ {
		p := m.state[j-1]
		m.state[j] = 1812433253*(p^(p>>30)) + uint32(j)
	}
	m.left, m.next = 1, 0
}

// SeedValue is the seed the engine was last seeded with.
func (m *MT19937) SeedValue() uint64 { return m.seed }

// Uint32 is the engine's next tempered 32-bit output.
func (m *MT19937) Uint32() uint32 {
	m.left--
	if m.left == 0 {
		m.twist()
	}
	y := m.state[m.next]
	m.next++
	y ^= y >> 11
	y ^= (y << 7) & 0x9d2c5680
	y ^= (y << 15) & 0xefc60000
	y ^= y >> 18
	return y
}

// twist regenerates the whole state (mt19937_engine::next_state).
func (m *MT19937) twist() {
	s := &m.state
	mix := func(u, v uint32) uint32 {
		r := ((u & mtUpper) | (v & mtLower)) >> 1
		if v&1 != 0 {
			r ^= mtMatrixA
		}
		return r
	}
	for j := 0; j < mtN; j++ {
		s[j] = s[(j+mtM)%mtN] ^ mix(s[j], s[(j+1)%mtN])
	}
	m.left, m.next = mtN, 0
}

// CPUGenerator is at::CPUGeneratorImpl: the engine, 64-bit draws made of
// two 32-bit ones (the first is the high half), and the cached second
// Box–Muller samples of normal_distribution<float/double>, which survive
// from one op to the next until a reseed. The zero value is not usable:
// make one with NewCPUGenerator.
type CPUGenerator struct {
	eng                     MT19937
	nextFloat, nextDouble   float64
	hasNextFloat, hasNextDb bool
}

// NewCPUGenerator returns a generator seeded with seed.
func NewCPUGenerator(seed uint64) *CPUGenerator {
	g := &CPUGenerator{}
	g.Seed(seed)
	return g
}

// Seed is torch.manual_seed for the CPU (set_current_seed): a fresh
// engine and empty normal caches.
func (g *CPUGenerator) Seed(seed uint64) {
	g.eng.Seed(seed)
	g.hasNextFloat, g.hasNextDb = false, false
}

// InitialSeed is the seed of the last reseed (torch.initial_seed()).
func (g *CPUGenerator) InitialSeed() uint64 { return g.eng.SeedValue() }

// Random is one 32-bit draw (CPUGeneratorImpl::random).
func (g *CPUGenerator) Random() uint32 { return g.eng.Uint32() }

// Random64 is two draws, the first the high half (CPUGeneratorImpl::random64).
func (g *CPUGenerator) Random64() uint64 {
	hi := g.eng.Uint32()
	lo := g.eng.Uint32()
	return uint64(hi)<<32 | uint64(lo)
}
