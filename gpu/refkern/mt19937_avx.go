package refkern

import "math"

// The float32 log and sincos of ATen/native/cpu/avx_mathfun.h (Cephes
// polynomials, Pommier's SSE/AVX port), which PyTorch's x86 build uses in
// normal_fill_16_AVX2 for torch.randn and normal_ of float tensors of at
// least 16 elements. Written lane by lane with the same float32 operations
// in the same order. GCC builds PyTorch's AVX2 kernels with -mfma and
// contracts a multiply whose only use is an add into one fused
// multiply-add (the intrinsics are plain vector arithmetic to it): those
// steps are fmaRound32 here (the Horner steps, the Cody–Waite reduction,
// the final sums), the others round each operation (an explicit float32
// conversion keeps Go from fusing). The result is the AVX2 code's bits:
// every float32 randn of gpu/testdata/rng/probe-out.jsonl, 2 million
// values included, is equal.

const (
	avxSQRTHF = float32(0.707106781186547524)
	avxLogP0  = float32(7.0376836292e-2)
	avxLogP1  = float32(-1.1514610310e-1)
	avxLogP2  = float32(1.1676998740e-1)
	avxLogP3  = float32(-1.2420140846e-1)
	avxLogP4  = float32(+1.4249322787e-1)
	avxLogP5  = float32(-1.6668057665e-1)
	avxLogP6  = float32(+2.0000714765e-1)
	avxLogP7  = float32(-2.4999993993e-1)
	avxLogP8  = float32(+3.3333331174e-1)
	avxLogQ1  = float32(-2.12194440e-4)
	avxLogQ2  = float32(0.693359375)

	avxDP1    = float32(-0.78515625)
	avxDP2    = float32(-2.4187564849853515625e-4)
	avxDP3    = float32(-3.77489497744594108e-8)
	avxSinP0  = float32(-1.9515295891e-4)
	avxSinP1  = float32(8.3321608736e-3)
	avxSinP2  = float32(-1.6666654611e-1)
	avxCosP0  = float32(2.443315711809948e-005)
	avxCosP1  = float32(-1.388731625493765e-003)
	avxCosP2  = float32(4.166664568298827e-002)
	avxFOPI   = float32(1.27323954473516) // 4/π
	avxMinNrm = 0x00800000                // smallest normal float's bits
)

// avxLog is log256_ps for one lane: NaN for x ≤ 0.
func avxLog(x float32) float32 {
	invalid := x <= 0
	x = max(x, math.Float32frombits(avxMinNrm))
	imm0 := int32(math.Float32bits(x) >> 23)
	x = math.Float32frombits(math.Float32bits(x)&^0x7f800000 | math.Float32bits(0.5))
	imm0 -= 0x7f
	e := float32(imm0) + 1
	var tmp, m float32
	if x < avxSQRTHF {
		tmp, m = x, 1
	}
	x = x - 1
	e = e - m
	x = x + tmp
	z := float32(x * x)
	y := avxLogP0
	for _, p := range [...]float32{avxLogP1, avxLogP2, avxLogP3, avxLogP4, avxLogP5, avxLogP6, avxLogP7, avxLogP8} {
		y = fmaRound32(y, x, p)
	}
	y = float32(y * x)
	y = fmaRound32(y, z, float32(e*avxLogQ1))
	y = y - float32(z*0.5)
	x = fmaRound32(e, avxLogQ2, x+y)
	if invalid {
		return float32(math.NaN())
	}
	return x
}

// avxSincos is sincos256_ps for one lane.
func avxSincos(x float32) (sin, cos float32) {
	signSin := math.Float32bits(x) & 0x80000000
	x = float32(math.Abs(float64(x)))
	y := float32(x * avxFOPI)
	j := cvtt(y)
	j = (j + 1) &^ 1
	y = float32(j)
	swapSin := uint32(j&4) << 29
	poly := j&2 == 0
	x = fmaRound32(y, avxDP1, x)
	x = fmaRound32(y, avxDP2, x)
	x = fmaRound32(y, avxDP3, x)
	signCos := uint32(^(j-2)&4) << 29
	signSin ^= swapSin

	z := float32(x * x)
	y = avxCosP0
	y = fmaRound32(y, z, avxCosP1)
	y = fmaRound32(y, z, avxCosP2)
	y = float32(y * z)
	y = fmaRound32(y, z, -float32(z*0.5))
	y = y + 1

	y2 := avxSinP0
	y2 = fmaRound32(y2, z, avxSinP1)
	y2 = fmaRound32(y2, z, avxSinP2)
	y2 = float32(y2 * z)
	y2 = fmaRound32(y2, x, x)

	var ysin1, ysin2 float32
	if poly {
		ysin2 = y2
	} else {
		ysin1 = y
	}
	y2 = y2 - ysin2
	y = y - ysin1
	s := ysin1 + ysin2
	c := y + y2
	return math.Float32frombits(math.Float32bits(s) ^ signSin), math.Float32frombits(math.Float32bits(c) ^ signCos)
}

// cvtt is cvttps2dq: truncation toward zero, 0x80000000 when out of range.
func cvtt(y float32) int32 {
	if y != y || y >= 2147483648 || y < -2147483648 {
		return math.MinInt32
	}
	return int32(y)
}

// normalFill16AVX2 is normal_fill_16_AVX2 over data[0:16] (uniform draws
// in place): Box–Muller on the pairs (data[j], data[j+8]), the result
// fused-multiply-added with std and mean.
func normalFill16AVX2(data []float32, mean, std float32) {
	twoPi := float32(2 * math.Pi)
	for j := 0; j < 8; j++ {
		u1 := 1 - data[j]
		u2 := data[j+8]
		radius := float32(math.Sqrt(float64(float32(-2 * avxLog(u1)))))
		s, c := avxSincos(float32(twoPi * u2))
		n1 := float32(radius * c)
		n2 := float32(radius * s)
		data[j] = fmaRound32(n1, std, mean)
		data[j+8] = fmaRound32(n2, std, mean)
	}
}
