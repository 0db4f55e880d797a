package refkern

import (
	"fmt"
	"math"

	"github.com/gpumem/playground/gpu/kernels"
)

// The distributions of PyTorch's CPU random ops over a CPUGenerator, draw
// for draw as ATen/core/DistributionsHelper.h, TransformationHelper.h and
// ATen/native/cpu/DistributionTemplates.h compute them (PyTorch 2.11, x86
// build). Values come back as float64 holding the output dtype's exact
// value (rounded to float32, float16 or bfloat16 where the dtype is).

// round rounds v to the element type t.
func round(t kernels.DType, v float64) float64 {
	switch t {
	case kernels.F32:
		return float64(float32(v))
	case kernels.F16:
		return float64(kernels.F16ToF32(kernels.F16Bits(float32(v))))
	case kernels.BF16:
		return float64(kernels.BF16ToF32(kernels.BF16Bits(float32(v))))
	}
	return v
}

// round16 rounds a float32 to the 16-bit type t (t is F16 or BF16), as
// c10::Half/BFloat16's conversion from float does.
func round16(t kernels.DType, v float32) float32 {
	if t == kernels.F16 {
		return kernels.F16ToF32(kernels.F16Bits(v))
	}
	return kernels.BF16ToF32(kernels.BF16Bits(v))
}

// digits is std::numeric_limits<T>::digits of a floating type: the bits a
// uniform draw keeps.
func digits(t kernels.DType) (uint, error) {
	switch t {
	case kernels.F32:
		return 24, nil
	case kernels.F64:
		return 53, nil
	case kernels.F16:
		return 11, nil
	case kernels.BF16:
		return 8, nil
	}
	return 0, fmt.Errorf("refkern: no CPU random floats of type %s", t)
}

// unit is uniform_real's x of one draw: the low digits bits over 2^digits,
// a float (float32 opmath) for the types below double.
func (g *CPUGenerator) unit(t kernels.DType) float64 {
	if t == kernels.F64 {
		return float64(g.Random64()&(1<<53-1)) / (1 << 53)
	}
	d, _ := digits(t)
	return float64(float32(g.Random()&(1<<d-1)) / float32(uint32(1)<<d))
}

// Uniform is uniform_ (torch.rand, rand_like, nn.init.uniform_) over n
// elements in order: from and to are first converted to the output type,
// then each element is x·(to − from) + from in the type's accumulate type
// (float for float/half/bfloat16, double for double), x from one draw of
// 24/11/8 bits (random()) or 53 bits (random64()).
func (g *CPUGenerator) Uniform(t kernels.DType, n int64, from, to float64) ([]float64, error) {
	if _, err := digits(t); err != nil {
		return nil, err
	}
	out := make([]float64, n)
	switch t {
	case kernels.F64:
		for i := range out {
			out[i] = g.unit(t)*(to-from) + from
		}
	case kernels.F32:
		f, span := float32(from), float32(to)-float32(from)
		for i := range out {
			out[i] = float64(fmaRound32(float32(g.unit(t)), span, f))
		}
	default: // Half/BFloat16: to − from in the type, the rest in float
		f := round16(t, float32(from))
		span := round16(t, round16(t, float32(to))-f)
		for i := range out {
			out[i] = float64(round16(t, fmaRound32(float32(g.unit(t)), span, f)))
		}
	}
	return out, nil
}

// fmaRound32 is a·b + c rounded once to float32 (the compiler's contraction of
// x*(to-from)+from into vfmadd in PyTorch's AVX2/AVX-512 builds). a·b is
// exact in float64; the sum is rounded to odd in float64 so that the
// final rounding to float32 is the correctly rounded one.
func fmaRound32(a, b, c float32) float32 {
	p := float64(a) * float64(b)
	s := p + float64(c)
	// TwoSum: err is the exact rounding error of s.
	bb := s - p
	err := (p - (s - bb)) + (float64(c) - bb)
	if err != 0 && math.Float64bits(s)&1 == 0 {
		s = math.Nextafter(s, math.Copysign(math.Inf(1), err))
	}
	return float32(s)
}

// Normal is normal_ (torch.randn, randn_like, nn.init.normal_) over n
// elements in order (normal_kernel): a contiguous float32 output of at
// least 16 elements takes normal_fill with the AVX2 Box–Muller of
// normalFill16AVX2; other contiguous outputs of at least 16 elements
// normal_fill in their own type (float16/bfloat16/double); the rest
// per-element normal_distribution<double>, which keeps its second sample
// in the generator for the next call.
func (g *CPUGenerator) Normal(t kernels.DType, n int64, contiguous bool, mean, std float64) ([]float64, error) {
	if _, err := digits(t); err != nil {
		return nil, err
	}
	out := make([]float64, n)
	switch {
	case n >= 16 && contiguous && t == kernels.F32:
		g.normalFillF32(out, float32(mean), float32(std))
	case n >= 16 && contiguous && t == kernels.F64:
		g.normalFillF64(out, mean, std)
	case n >= 16 && contiguous:
		g.normalFill16(t, out, mean, std)
	default:
		for i := range out {
			out[i] = round(t, g.normalDouble(mean, std))
		}
	}
	return out, nil
}

// normalFillF32 is normal_fill_AVX2: n uniform floats, Box–Muller in
// blocks of 16, and when n is not a multiple of 16 the last 16 elements
// drawn again and transformed again.
func (g *CPUGenerator) normalFillF32(out []float64, mean, std float32) {
	data := make([]float32, len(out))
	for i := range data {
		data[i] = float32(g.unit(kernels.F32))
	}
	n := len(data)
	for i := 0; i+16 <= n; i += 16 {
		normalFill16AVX2(data[i:i+16], mean, std)
	}
	if n%16 != 0 {
		tail := data[n-16:]
		for i := range tail {
			tail[i] = float32(g.unit(kernels.F32))
		}
		normalFill16AVX2(tail, mean, std)
	}
	for i, v := range data {
		out[i] = float64(v)
	}
}

// normalFillF64 is normal_fill<double>: as normalFillF32 with 53-bit
// uniforms and libm's log/cos/sin in double.
func (g *CPUGenerator) normalFillF64(out []float64, mean, std float64) {
	for i := range out {
		out[i] = g.unit(kernels.F64)
	}
	block := func(d []float64) {
		for j := 0; j < 8; j++ {
			u1, u2 := 1-d[j], d[j+8]
			radius := math.Sqrt(-2 * math.Log(u1))
			theta := 2 * math.Pi * u2
			d[j] = radius*math.Cos(theta)*std + mean
			d[j+8] = radius*math.Sin(theta)*std + mean
		}
	}
	n := len(out)
	for i := 0; i+16 <= n; i += 16 {
		block(out[i : i+16])
	}
	if n%16 != 0 {
		tail := out[n-16:]
		for i := range tail {
			tail[i] = g.unit(kernels.F64)
		}
		block(tail)
	}
}

// normalFill16 is normal_fill<Half/BFloat16>: uniforms of 11/8 bits
// stored in the type, then normal_fill_16's arithmetic with c10's
// operators and c10's std::log/sqrt/cos/sin of reduced floats, every one
// of which rounds its float result back to the type.
func (g *CPUGenerator) normalFill16(t kernels.DType, out []float64, mean, std float64) {
	r := func(v float32) float32 { return round16(t, v) }
	m, s := r(float32(mean)), r(float32(std))
	data := make([]float32, len(out))
	draw := func(d []float32) {
		for i := range d {
			d[i] = r(float32(g.unit(t)))
		}
	}
	block := func(d []float32) {
		for j := 0; j < 8; j++ {
			u1 := r(1 - d[j])
			u2 := d[j+8]
			radius := r(float32(math.Sqrt(float64(r(-2 * r(logf(u1)))))))
			theta := r(float32(2 * math.Pi * float64(u2)))
			d[j] = r(r(r(radius*r(cosf(theta)))*s) + m)
			d[j+8] = r(r(r(radius*r(sinf(theta)))*s) + m)
		}
	}
	draw(data)
	n := len(data)
	for i := 0; i+16 <= n; i += 16 {
		block(data[i : i+16])
	}
	if n%16 != 0 {
		tail := data[n-16:]
		draw(tail)
		block(tail)
	}
	for i, v := range data {
		out[i] = float64(v)
	}
}

// logf, cosf and sinf are libm's float functions, taken as the correctly
// rounded value (glibc's are within one ulp of it, almost always equal).
func logf(x float32) float32 { return float32(math.Log(float64(x))) }
func cosf(x float32) float32 { return float32(math.Cos(float64(x))) }
func sinf(x float32) float32 { return float32(math.Sin(float64(x))) }

// normalDouble is one sample of normal_distribution<double>: the cached
// sine sample of the previous call when there is one, else Box–Muller on
// two 53-bit uniforms (u1 the angle, u2 the radius via log1p(−u2)),
// caching r·sin θ.
func (g *CPUGenerator) normalDouble(mean, std float64) float64 {
	if g.hasNextDb {
		g.hasNextDb = false
		return g.nextDouble*std + mean
	}
	u1 := g.unit(kernels.F64)
	u2 := g.unit(kernels.F64)
	r := math.Sqrt(-2 * math.Log1p(-u2))
	theta := 2 * math.Pi * u1
	g.nextDouble, g.hasNextDb = r*math.Sin(theta), true
	return r*math.Cos(theta)*std + mean
}

// RandomFromTo is random_(from, to) and torch.randint(lo, hi) over n
// elements: (draw mod (hi − lo)) + lo, a 64-bit draw when the range is at
// least 2^28 (PyTorch's open-source build), else a 32-bit one.
func (g *CPUGenerator) RandomFromTo(n int64, lo, hi int64) ([]int64, error) {
	if hi <= lo {
		return nil, fmt.Errorf("refkern: random_ expects from < to, got [%d, %d)", lo, hi)
	}
	span := uint64(hi - lo)
	out := make([]int64, n)
	for i := range out {
		var v uint64
		if span >= 1<<28 {
			v = g.Random64()
		} else {
			v = uint64(g.Random())
		}
		out[i] = int64(v%span) + lo
	}
	return out, nil
}

// RandomFull is random_() without bounds into int64 (random_kernel's
// uniform_int_distribution<int64_t>): a 64-bit draw modulo 2^63.
func (g *CPUGenerator) RandomFull(n int64) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(g.Random64() % (1 << 63))
	}
	return out
}

// Randperm is torch.randperm(n) on the CPU (randperm_cpu): for n below
// 2^32/20 the identity swapped in place, position i with i + random() %
// (n − i) for i < n − 1; larger n the inside-out Fisher–Yates shuffle with
// random64() % (i + 1).
func (g *CPUGenerator) Randperm(n int64) []int64 {
	out := make([]int64, n)
	if n < math.MaxUint32/20 {
		for i := range out {
			out[i] = int64(i)
		}
		for i := int64(0); i < n-1; i++ {
			z := int64(uint64(g.Random()) % uint64(n-i))
			out[i], out[z+i] = out[z+i], out[i]
		}
		return out
	}
	for i := int64(0); i < n; i++ {
		z := int64(g.Random64() % uint64(i+1))
		out[i] = out[z]
		out[z] = i
	}
	return out
}

// BernoulliScalar is bernoulli_(p) with a number p (bernoulli_scalar on
// the CPU, also the noise of dropout on CPU tensors): one 53-bit uniform
// per element, true when it is below p.
func (g *CPUGenerator) BernoulliScalar(n int64, p float64) []bool {
	out := make([]bool, n)
	for i := range out {
		out[i] = g.unit(kernels.F64) < p
	}
	return out
}

// BernoulliTensor is torch.bernoulli(p) / bernoulli_(p_tensor) with
// probabilities of a float type (bernoulli_distribution<float>): one
// 24-bit uniform per element in order, true when it is below float(p);
// double probabilities (pDouble) draw 53-bit uniforms instead.
func (g *CPUGenerator) BernoulliTensor(p []float64, pDouble bool) []bool {
	out := make([]bool, len(p))
	for i, pi := range p {
		if pDouble {
			out[i] = g.unit(kernels.F64) < pi
		} else {
			out[i] = float32(g.unit(kernels.F32)) < float32(pi)
		}
	}
	return out
}

// Dropout is F.dropout(x, p, training=True) of a CPU tensor (ATen's
// _dropout_impl, not the fused native_dropout of CUDA): noise =
// bernoulli_(1 − p) in x's type, divided by 1 − p, output = x · noise.
// It returns the kept mask and the scale each kept element is multiplied
// by (1 / float(1 − p), rounded to t); p = 1 draws nothing.
func (g *CPUGenerator) Dropout(t kernels.DType, n int64, p float64) (keep []bool, scale float64) {
	if p >= 1 {
		return make([]bool, n), 0
	}
	keep = g.BernoulliScalar(n, 1-p)
	if t == kernels.F64 {
		return keep, 1 / (1 - p)
	}
	return keep, round(t, float64(1/float32(1-p)))
}
