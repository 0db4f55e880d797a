package kernels

import "fmt"

// PyTorch's CUDA generator is Philox4x32-10 (Salmon, Moraes, Dror and Shaw,
// "Parallel random numbers: as easy as 1, 2, 3", SC 2011) run through
// curand's device API: each thread of a random op's kernel calls
// curand_init(seed, thread, offset) and then draws blocks of four 32-bit
// words (curand4), one Philox block per call. An element's words therefore
// depend only on the seed, the op's offset, the thread that PyTorch's launch
// gives the element and how many calls that thread made before it: the
// philox kernels compute each element from those (PhiloxArgs), whatever
// their own launch geometry. References: curand_philox4x32_x.h,
// curand_kernel.h, curand_uniform.h, curand_normal.h (the algorithm, not
// copied), ATen/native/cuda/DistributionTemplates.h (launch, offsets,
// transforms), ATen/core/TransformationHelper.h, ATen/native/cuda/Dropout.cu.

// Philox4x32-10's round constants (the Weyl key increments and the two
// multipliers of its S-box).
const (
	PhiloxW0 uint32 = 0x9E3779B9
	PhiloxW1 uint32 = 0xBB67AE85
	PhiloxM0 uint32 = 0xD2511F53
	PhiloxM1 uint32 = 0xCD9E8D57
)

// PhiloxKind is what a philox kernel makes of an element's random words.
type PhiloxKind string

// Philox kernels.
const (
	// PhiloxUniform is uniform_/rand: u = word·2^-32 + 2^-33 in (0, 1]
	// (curand_uniform), value = (scalar_t)(u·B + A) in opmath (one fma),
	// and value == C (to) becomes A (from). float64 takes two words per
	// element (curand_uniform2_double: (w0 ^ w1<<21)·2^-53 + 2^-54).
	PhiloxUniform PhiloxKind = "uniform"
	// PhiloxNormal is normal_/randn: Box–Muller over word pairs
	// (curand_normal4; float64: curand_normal2_double over 4 words),
	// value = z·B + A (std B, mean A, one fma).
	PhiloxNormal PhiloxKind = "normal"
	// PhiloxRandInt32 is random_(from, to) with to − from < 2^28: one word
	// per element, value = IA + word % IB.
	PhiloxRandInt32 PhiloxKind = "randint32"
	// PhiloxRandInt64 is random_(from, to) with a range of 2^28 or more:
	// (w0<<32 | w1) % IB + IA, two words per element.
	PhiloxRandInt64 PhiloxKind = "randint64"
	// PhiloxBernoulli is bernoulli_(p) with a number p: value = u < A (u as
	// PhiloxUniform's; float64 draws the double uniform).
	PhiloxBernoulli PhiloxKind = "bernoulli"
	// PhiloxRaw writes curand_uniform's u itself (f32): dropout's draw,
	// compared with 1 − p by the map kernels.
	PhiloxRaw PhiloxKind = "raw"
)

// PhiloxKinds lists the kinds in generation order.
var PhiloxKinds = []PhiloxKind{PhiloxUniform, PhiloxNormal, PhiloxRandInt32, PhiloxRandInt64, PhiloxBernoulli, PhiloxRaw}

// PhiloxTypes are the output types of a kind's kernels.
func PhiloxTypes(kind PhiloxKind) []DType {
	switch kind {
	case PhiloxRandInt32, PhiloxRandInt64:
		return []DType{I64}
	case PhiloxRaw:
		return []DType{F32}
	}
	return []DType{F32, F16, BF16, F64}
}

// PhiloxUnroll is the elements one curand4 call serves in PyTorch's
// grid-stride distribution kernel: 4 (one word each), 2 for the kinds that
// take two words per element (float64, 64-bit integers).
func PhiloxUnroll(kind PhiloxKind, t DType) int64 {
	if t == F64 || kind == PhiloxRandInt64 {
		return 2
	}
	return 4
}

// PhiloxKernelName is the entry of kind for output type t.
func PhiloxKernelName(kind PhiloxKind, t DType) string {
	return fmt.Sprintf("philox_%s_%s", kind, t)
}

// PhiloxArgs place a philox launch in PyTorch's stream.
type PhiloxArgs struct {
	Seed uint64 // torch.manual_seed's seed (Philox's key)
	// Offset is the generator's philox offset when the op runs (a multiple
	// of 4: curand_init skips Offset/4 blocks).
	Offset uint64
	// Threads is PyTorch's launch of the op: block·grid threads, thread t
	// using curand subsequence t.
	Threads int64
	// Vec is 0 for the grid-stride layout of the distribution kernels
	// (element i: thread i % Threads, call (i / Threads) / unroll, word
	// (i / Threads) % unroll) and 2, 4 or 8 for dropout's vectorised
	// kernel (thread (i/Vec) % Threads handles Vec consecutive elements per
	// iteration, with ⌈Vec/4⌉ calls per iteration).
	Vec int64
	// A, B, C are the float kinds' parameters (see PhiloxKind), already
	// rounded as PyTorch rounds them (from/to to the output type, range in
	// opmath).
	A, B, C float64
	// IA, IB are the integer kinds' base (from) and range (to − from).
	IA int64
	IB uint64
}
