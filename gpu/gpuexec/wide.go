package gpuexec

import (
	"math"

	"github.com/gpumem/playground/gpu/kernels"
	"github.com/gpumem/playground/sim/torch"
)

// float64 and int32 (kernels.F64, kernels.I32) have the map kernels only:
// fill, the copies and casts, and the arithmetic of kernels.ArithTypes
// (float64 computed in float64, kernels.MapOpmath64; int32/int64 in
// int64, kernels.MapOpmathInt), plus
// the float64 row sum (reduce_rows_f64) for sum/mean, the index kernels
// (indexKinds) and float64 matmul/softmax/nll_loss (f64Kinds). Session 12
// gave float64 the elementwise math (exp, log, pow, gelu, silu, ...,
// kernels/mathops_f64.go), selections, comparisons, pick_<mode>_f64 and
// the kinds composed of them (f64Kinds); pooling, convolutions and all/any
// compute float64 in float64 scratch (gpu-f64-2). SDPA has no float64 path.

// wideKinds are the kinds that reach only map kernels (whose launcher
// refuses a type without an entry) or handle float64/int32 themselves.
var wideKinds = map[torch.ExecKind]bool{
	torch.ExecFill: true, torch.ExecArange: true, torch.ExecValues: true, torch.ExecCopy: true,
	torch.ExecSum: true, torch.ExecMean: true, torch.ExecPow: true, torch.ExecAdd: true, torch.ExecSub: true,
	torch.ExecClamp: true, "clamp_backward": true, torch.ExecNotComputed: true,
	torch.ExecAmpUnscale: true, torch.ExecAmpUpdateScale: true,
}

// f64Kinds have float64 kernels (module linalg_f64: bmm, softmax,
// nll_loss; the RNNs composed of them and map_wide; since session 12 the
// losses, reductions and layer_norm composed of map_wide, pick and
// reduce_rows_f64) but no int32 ones.
var f64Kinds = map[torch.ExecKind]bool{
	torch.ExecMatmul: true, torch.ExecSoftmax: true, torch.ExecLogSoftm: true,
	torch.ExecSoftmaxBack: true, torch.ExecLogSoftmaxBack: true,
	torch.ExecNLLLoss: true, torch.ExecNLLLossBack: true,
	torch.ExecRNN: true, torch.ExecRNNBack: true, // float64 scratch (ops_rnn.go)
	// session 12: composed of map kernels with float64 entries (the
	// losses' scales in double: opScale)
	torch.ExecMSELoss: true, torch.ExecMSELossBack: true, torch.ExecBCE: true, torch.ExecBCEBack: true,
	torch.ExecDropoutBack: true, torch.ExecTril: true, torch.ExecTriu: true,
	// the reductions: pick_<mode>_f64, reduce_rows_f64 and the f64 map
	// kernels (redAcc)
	torch.ExecMaxAll: true, torch.ExecMinAll: true, torch.ExecMaxDim: true, torch.ExecMinDim: true,
	torch.ExecArgmax: true, torch.ExecArgmin: true, torch.ExecVar: true, torch.ExecStd: true, torch.ExecNorm: true,
	torch.ExecSelectBack: true, torch.ExecEvenlyBack: true, torch.ExecVarBack: true, torch.ExecStdBack: true,
	torch.ExecNormBack: true, torch.ExecAll: true, torch.ExecAny: true, // ne_scalar_f64 into bool
	// pooling over float64 scratch (scratch.acc; ops_nn_pool*.go)
	torch.ExecMaxPool: true, torch.ExecAdaptiveMaxPool: true, torch.ExecMaxPoolBack: true,
	torch.ExecAvgPool: true, torch.ExecAvgPoolBack: true,
	// convolutions (im2col, matmul, col2im) over float64 scratch
	torch.ExecConv: true, torch.ExecConvBack: true, torch.ExecConvTranspose: true, torch.ExecConvTransposeBack: true,
	// layer_norm and batch_norm over float64 scratch (scratch.acc)
	torch.ExecLayerNorm: true, torch.ExecLayerNormBack: true, torch.ExecBatchNorm: true, torch.ExecBatchNormBack: true,
}

// intKinds handle int32 and the small integer types themselves (session
// 12, gpu-ints-2): max/min, amax/amin, argmax/argmin by the integer pick
// kernels (compared in int64), all/any (ne_scalar into bool, then a pick)
// and tril/triu (masked_keep in int64).
var intKinds = map[torch.ExecKind]bool{
	torch.ExecMaxAll: true, torch.ExecMinAll: true, torch.ExecMaxDim: true, torch.ExecMinDim: true,
	torch.ExecArgmax: true, torch.ExecArgmin: true, torch.ExecAll: true, torch.ExecAny: true,
	torch.ExecTril: true, torch.ExecTriu: true,
}

// indexKinds move the small integer types (uint8, int8, int16), float64
// and int32 bit for bit through the index kernels (types
// kernels.IndexDTypes) or their copies (cat, stack); accumulating forms
// add in their accType (float64, int64, int32 atomics).
var indexKinds = map[torch.ExecKind]bool{
	torch.ExecIndex: true, torch.ExecIndexPut: true, torch.ExecIndexN: true, torch.ExecIndexNPut: true,
	torch.ExecGather: true, torch.ExecScatter: true, torch.ExecCat: true,
	torch.ExecIndexBack: true, torch.ExecIndexNBack: true,
}

// wideKernels reports whether op may run with float64 or int32 operands:
// always when it has none; else when its kind is in wideKinds or is a map
// operator dispatched as such.
func wideKernels(kind torch.ExecKind, out operand, ins []operand) bool {
	wide := out.kt == kernels.F64 || out.kt == kernels.I32 || kernels.SmallInt(out.kt)
	i32 := out.kt == kernels.I32 || kernels.SmallInt(out.kt)
	for _, x := range ins {
		wide = wide || x.kt == kernels.F64 || x.kt == kernels.I32 || kernels.SmallInt(x.kt)
		i32 = i32 || x.kt == kernels.I32 || kernels.SmallInt(x.kt)
	}
	if !wide || wideKinds[kind] || (f64Kinds[kind] && !i32) || (intKinds[kind] && i32 && !hasF64(out, ins)) {
		return true
	}
	if indexKinds[kind] || (kind == torch.ExecMatmul && !out.cuda() && isIntType(out.kt)) {
		return true
	}
	info, ok := kernels.MapOpByName(kernels.MapOp(kind))
	return ok && info.Ins > 0
}

// arangeHost is arange into float64 or int32 (the generator kernels have
// f32/f16/bf16/i64 entries only): the values are computed on the host, in
// float64, and uploaded.
func (e *Executor) arangeHost(out operand, n int64, start, step float64) error {
	vals := make([]float64, n)
	for i := range vals {
		vals[i] = start + float64(i)*step
		if out.kt == kernels.I32 {
			vals[i] = float64(int32(vals[i]))
		}
	}
	return e.values(out, vals)
}

// opScale is a scale factor as the kernels of type t apply it: in float64
// for float64 (PyTorch's opmath for double), rounded to float32 for the
// others.
func opScale(t kernels.DType, v float64) float64 {
	if t == kernels.F64 {
		return v
	}
	return float64(float32(v))
}

// dropoutScale64 is dropoutScale for a dropout of type t: for float64 the
// keep probability and scale in double (Dropout.cu's accscalar_t), and
// maskKeep, the float32 threshold that gives the float32 uniforms the
// same u < keep as the double comparison (the least float32 ≥ keep).
func dropoutScale64(t kernels.DType, p float64) (keep, scale, maskKeep float64) {
	if t != kernels.F64 {
		k, s := dropoutScale(p)
		return float64(k), float64(s), float64(k)
	}
	keep = 1 - p
	m := float32(keep)
	if float64(m) < keep {
		m = math.Nextafter32(m, float32(math.Inf(1)))
	}
	return keep, 1 / keep, float64(m)
}

// redAcc is the type the pointwise family's reductions (var/std, norm and
// the reductions' backwards) compute in for operands of type t: float64
// for float64 (PyTorch's accumulate type for double), else f32.
func redAcc(t kernels.DType) kernels.DType {
	if t == kernels.F64 {
		return kernels.F64
	}
	return kernels.F32
}

// hasF64 reports whether out or one of ins is float64.
func hasF64(out operand, ins []operand) bool {
	f := out.kt == kernels.F64
	for _, x := range ins {
		f = f || x.kt == kernels.F64
	}
	return f
}
