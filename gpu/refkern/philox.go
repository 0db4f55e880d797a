package refkern

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
)

// The CUDA generator's reference: Philox4x32-10 as curand's device API runs
// it, the element → (thread, call, word) layout of PyTorch's kernels, and
// the transforms of ATen's distributions (see kernels/philox.go). The
// philox PTX kernels compute the same, with two differences in the normal
// distributions' float32 sine and cosine: the PTX uses sin.approx/
// cos.approx (the instructions of curand's __sincosf, so the GPU matches
// PyTorch's bits), this reference the correctly rounded math.Sincos (within
// about 1e-6 of them).

// DefaultSMs and DefaultThreadsPerSM are the device profile of the
// reference (H100 and H200: 132 SMs of 2048 threads): they size PyTorch's
// launch of a random op, hence its numbers and the generator's offsets.
const (
	DefaultSMs          = 132
	DefaultThreadsPerSM = 2048
)

// Philox4x32 is the ten-round Philox4x32 block function of counter c and
// key k (curand_Philox4x32_10).
func Philox4x32(c [4]uint32, k [2]uint32) [4]uint32 {
	for r := 0; r < 10; r++ {
		if r > 0 {
			k[0] += kernels.PhiloxW0
			k[1] += kernels.PhiloxW1
		}
		hi0, lo0 := bits.Mul32(kernels.PhiloxM0, c[0])
		hi1, lo1 := bits.Mul32(kernels.PhiloxM1, c[2])
		c = [4]uint32{hi1 ^ c[1] ^ k[0], lo1, hi0 ^ c[3] ^ k[1], lo0}
	}
	return c
}

// PhiloxBlock is what curand4 returns on call `call` of a state set up by
// curand_init(seed, subsequence, offset) with offset a multiple of 4: the
// block of counter (offset/4 + call) in the low 64 bits and subsequence in
// the high 64 bits.
func PhiloxBlock(seed, subsequence, offset, call uint64) [4]uint32 {
	ctr := offset/4 + call
	return Philox4x32([4]uint32{uint32(ctr), uint32(ctr >> 32), uint32(subsequence), uint32(subsequence >> 32)},
		[2]uint32{uint32(seed), uint32(seed >> 32)})
}

// PhiloxSlot says where element i of a launch draws from: the curand
// subsequence (PyTorch's thread), the thread's curand4 call and the word
// (or word pair, with unroll 2) of that call (see kernels.PhiloxArgs).
func PhiloxSlot(i, threads, unroll, vec int64) (thread, call, word int64) {
	if vec > 1 {
		w := i % vec
		return (i / vec) % threads, i/(vec*threads)*((vec+3)/4) + w/4, w % 4
	}
	j := i / threads
	return i % threads, j / unroll, j % unroll
}

// CurandUniform is curand_uniform of one word: w·2^-32 + 2^-33 in (0, 1].
func CurandUniform(w uint32) float32 {
	return float32(float64(float32(w))*0x1p-32 + 0x1p-33) // exact sum, one rounding
}

// curandUniformDouble is curand_uniform2_double's value of two words.
func curandUniformDouble(lo, hi uint32) float64 {
	z := uint64(lo) ^ uint64(hi)<<21
	return float64(z)*0x1p-53 + 0x1p-54
}

// twoPi32 is curand's CURAND_2POW32_INV_2PI: 2^-32 · (float)2π.
var twoPi32 = float32(2*math.Pi) * 0x1p-32

// boxMuller32 is curand's float Box–Muller of two words: (sin, cos)·s.
func boxMuller32(x, y uint32) (float32, float32) {
	u := CurandUniform(x)
	v := FMA32(float32(y), twoPi32, twoPi32/2)
	s := float32(math.Sqrt(float64(-2 * Log32(u))))
	sn, cs := math.Sincos(float64(v))
	return float32(sn) * s, float32(cs) * s
}

// boxMuller64 is curand_normal2_double's Box–Muller of four words.
func boxMuller64(w [4]uint32) (float64, float64) {
	u := curandUniformDouble(w[0], w[1])
	v := float64(uint64(w[2])^uint64(w[3])<<21)*0x1p-52 + 0x1p-53
	s := math.Sqrt(-2 * Log64(u))
	sn, cs := SinCosPi64(v)
	return sn * s, cs * s
}

// PhiloxValue is element i's value of kind for output type t (int64 kinds
// return the integer in iv).
func PhiloxValue(kind kernels.PhiloxKind, t gpu.DType, a kernels.PhiloxArgs, i int64) (fv float64, iv int64) {
	unroll := kernels.PhiloxUnroll(kind, t)
	if a.Vec > 1 {
		unroll = 4
	}
	thread, call, word := PhiloxSlot(i, a.Threads, unroll, a.Vec)
	w := PhiloxBlock(a.Seed, uint64(thread), a.Offset, uint64(call))
	switch kind {
	case kernels.PhiloxRandInt32:
		return 0, int64(uint64(w[word])%a.IB + uint64(a.IA))
	case kernels.PhiloxRandInt64:
		v := uint64(w[2*word])<<32 | uint64(w[2*word+1])
		return 0, int64(v%a.IB + uint64(a.IA))
	case kernels.PhiloxRaw:
		return float64(CurandUniform(w[word])), 0
	}
	if t == kernels.F64 {
		switch kind {
		case kernels.PhiloxNormal:
			sn, cs := boxMuller64(w)
			z := sn
			if word == 1 {
				z = cs
			}
			return math.FMA(z, a.B, a.A), 0
		case kernels.PhiloxBernoulli:
			return b2f64(curandUniformDouble(w[2*word], w[2*word+1]) < a.A), 0
		}
		v := math.FMA(curandUniformDouble(w[2*word], w[2*word+1]), a.B, a.A)
		if v == a.C {
			v = a.A
		}
		return v, 0
	}
	a32, b32 := float32(a.A), float32(a.B)
	switch kind {
	case kernels.PhiloxNormal:
		sn, cs := boxMuller32(w[word&^1], w[word|1])
		z := sn
		if word&1 == 1 {
			z = cs
		}
		return float64(FMA32(z, b32, a32)), 0
	case kernels.PhiloxBernoulli:
		return b2f64(CurandUniform(w[word]) < a32), 0
	}
	v := roundTo(t, FMA32(CurandUniform(w[word]), b32, a32))
	if v == float32(a.C) {
		v = a32
	}
	return float64(v), 0
}

func b2f64(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// roundTo rounds an f32 opmath value to type t's precision.
func roundTo(t gpu.DType, v float32) float32 {
	switch t {
	case kernels.F16:
		return kernels.F16ToF32(kernels.F16Bits(v))
	case kernels.BF16:
		return kernels.BF16ToF32(kernels.BF16Bits(v))
	}
	return v
}

// Philox fills dst[0:n) (contiguous, type t) with elements 0..n-1 of the
// philox kernel of kind (see kernels.PhiloxKind).
func (k *Kernels) Philox(kind kernels.PhiloxKind, t gpu.DType, dst uint64, n int64, a kernels.PhiloxArgs) error {
	if err := checkPhilox(kind, t, n, a); err != nil {
		return err
	}
	k.Launches++
	for i := int64(0); i < n; i++ {
		fv, iv := PhiloxValue(kind, t, a, i)
		var err error
		switch t {
		case kernels.I64:
			err = k.storeI64(at(dst, t, i), iv)
		case kernels.F64:
			err = k.store64(t, at(dst, t, i), fv)
		default:
			err = k.store(t, at(dst, t, i), float32(fv))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// checkPhilox validates a philox launch (shared with the CUDA launcher's
// contract: the same arguments are refused by both).
func checkPhilox(kind kernels.PhiloxKind, t gpu.DType, n int64, a kernels.PhiloxArgs) error {
	ok := false
	for _, tt := range kernels.PhiloxTypes(kind) {
		ok = ok || tt == t
	}
	switch {
	case !ok:
		return fmt.Errorf("refkern: no philox %s kernel for %s", kind, t)
	case n < 0 || a.Threads <= 0 || a.Offset%4 != 0:
		return fmt.Errorf("refkern: bad philox launch (n %d, threads %d, offset %d)", n, a.Threads, a.Offset)
	case a.Vec != 0 && a.Vec != 2 && a.Vec != 4 && a.Vec != 8:
		return fmt.Errorf("refkern: philox vector size %d", a.Vec)
	case (kind == kernels.PhiloxRandInt32 || kind == kernels.PhiloxRandInt64) && a.IB == 0:
		return fmt.Errorf("refkern: randint over an empty range")
	}
	return nil
}

// SMGeometry is the reference's device profile (DefaultSMs,
// DefaultThreadsPerSM).
func (k *Kernels) SMGeometry() (sms, threadsPerSM int64, err error) {
	return DefaultSMs, DefaultThreadsPerSM, nil
}
