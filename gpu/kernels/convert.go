package kernels

import "math"

// F16Bits converts f to IEEE binary16 bits, rounding to nearest even, as
// the f16 kernels (cvt.rn.f16.f32) and torch.Tensor.half() do: overflow
// gives ±Inf, NaN stays NaN (quiet), tiny values become subnormal or ±0.
func F16Bits(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int32(b>>23) & 0xff
	man := b & 0x7fffff
	switch {
	case exp == 0xff: // Inf or NaN
		if man != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	case exp-127 > 15: // overflows even before rounding
		return sign | 0x7c00
	}
	e := exp - 127 + 15 // biased f16 exponent
	if e >= 1 {
		// Normal: keep 10 mantissa bits, round the 13 dropped ones to even.
		h := uint32(e)<<10 | man>>13
		rest := man & 0x1fff
		if rest > 0x1000 || (rest == 0x1000 && h&1 == 1) {
			h++ // may carry into the exponent, up to Inf: still correct
		}
		return sign | uint16(h)
	}
	// Subnormal or zero in f16: value = m * 2^-24 with m < 1024.
	if e < -10 {
		return sign // below half of the smallest subnormal: ±0
	}
	m := man | 0x800000 // implicit bit
	shift := uint32(14 - e)
	h := m >> shift
	rest := m & (1<<shift - 1)
	half := uint32(1) << (shift - 1)
	if rest > half || (rest == half && h&1 == 1) {
		h++
	}
	return sign | uint16(h)
}

// F16ToF32 widens binary16 bits to float32 (exact).
func F16ToF32(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	man := uint32(h & 0x3ff)
	switch {
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | man<<13)
	case exp == 0:
		if man == 0 {
			return math.Float32frombits(sign)
		}
		f := float32(man) * (1.0 / (1 << 24))
		if sign != 0 {
			f = -f
		}
		return f
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | man<<13)
}

// BF16Bits converts f to bfloat16 bits, rounding to nearest even, NaN kept
// quiet: the bf16 kernels' rule and c10::BFloat16's.
func BF16Bits(f float32) uint16 {
	b := math.Float32bits(f)
	if f != f {
		return uint16(b>>16) | 0x40
	}
	return uint16((b + 0x7fff + (b>>16)&1) >> 16)
}

// BF16ToF32 widens bfloat16 bits to float32 (exact).
func BF16ToF32(h uint16) float32 { return math.Float32frombits(uint32(h) << 16) }
