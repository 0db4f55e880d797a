package gpuexec

import (
	"fmt"
	"math"
	"slices"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
	"github.com/gpumem/playground/gpu/refkern"
	"github.com/gpumem/playground/sim/torch"
)

// cudaGenerator is PyTorch's default CUDA generator: a seed and the Philox
// offset, advanced by every random op as ATen advances it (philox_cuda_state
// rounds each increment up to a multiple of 4). The increments depend on
// the launch PyTorch chooses, so on the GPU's multiprocessors (sms, tpsm:
// queried once from the device; the CPU reference uses its H100/H200
// profile).
type cudaGenerator struct {
	seed, offset uint64
	sms, tpsm    int64
}

// reseed is torch.manual_seed: the seed, offset 0.
func (g *cudaGenerator) reseed(seed uint64) { g.seed, g.offset = seed, 0 }

// take reserves inc offsets and returns the offset the op draws from.
func (g *cudaGenerator) take(inc uint64) uint64 {
	o := g.offset
	g.offset += (inc + 3) / 4 * 4
	return o
}

// State is the CUDA generator's (seed, offset), as
// torch.cuda.get_rng_state packs it.
func (e *Executor) State() (seed, offset uint64) { return e.cuda.seed, e.cuda.offset }

// launchThreads is the block·grid of calc_execution_policy (and of
// Dropout.cu): blocks of 256, at most sms·(tpsm/256) of them.
func (e *Executor) launchThreads(k gpu.Kernels, n int64) (int64, error) {
	if e.cuda.sms == 0 {
		sms, tpsm, err := k.SMGeometry()
		if err != nil {
			return 0, err
		}
		if sms <= 0 || tpsm < 256 {
			return 0, fmt.Errorf("gpuexec: device reports %d SMs of %d threads", sms, tpsm)
		}
		e.cuda.sms, e.cuda.tpsm = sms, tpsm
	}
	grid := min((n+255)/256, e.cuda.sms*(e.cuda.tpsm/256))
	return max(grid, 1) * 256, nil
}

// philoxOp reserves the offsets of a distribution kernel over n elements
// (unroll elements per curand4 call) and returns its launch.
func (e *Executor) philoxOp(k gpu.Kernels, n, unroll int64) (kernels.PhiloxArgs, error) {
	threads, err := e.launchThreads(k, n)
	if err != nil {
		return kernels.PhiloxArgs{}, err
	}
	inc := uint64(((n-1)/(threads*unroll) + 1) * 4)
	return kernels.PhiloxArgs{Seed: e.cuda.seed, Offset: e.cuda.take(inc), Threads: threads}, nil
}

// generateCUDA is rand/randn/randint/uniform_/normal_ on a CUDA tensor:
// PyTorch's distribution kernel's numbers and offset increment. The
// offsets advance even when the output cannot be computed (a strided
// output, another dtype), so the ops after it still draw PyTorch's numbers.
func (e *Executor) generateCUDA(k gpu.Kernels, op *torch.ExecOp, out operand) error {
	n := numel(out.shape)
	if n == 0 {
		return nil
	}
	s := func(i int) float64 {
		if i < len(op.Scalars) {
			return op.Scalars[i]
		}
		return 0
	}
	var kind kernels.PhiloxKind
	var a kernels.PhiloxArgs
	switch op.Kind {
	case torch.ExecRandInt:
		lo, hi := int64(s(0)), int64(s(1))
		a.IA, a.IB = lo, uint64(hi)-uint64(lo)
		kind = kernels.PhiloxRandInt32
		if a.IB >= 1<<28 {
			kind = kernels.PhiloxRandInt64
		}
	case torch.ExecNormal:
		kind, a.A, a.B = kernels.PhiloxNormal, s(0), s(1)
	default:
		kind = kernels.PhiloxUniform
		a.A, a.B, a.C = uniformBounds(out.kt, s(0), s(1))
	}
	g, err := e.philoxOp(k, n, kernels.PhiloxUnroll(kind, out.kt))
	if err != nil {
		return err
	}
	a.Seed, a.Offset, a.Threads = g.Seed, g.Offset, g.Threads
	if op.Kind == torch.ExecRandInt && (out.kt == kernels.I32 || kernels.SmallInt(out.kt)) {
		return e.randIntNarrow(k, kind, out, n, a)
	}
	if !slices.Contains(kernels.PhiloxTypes(kind), out.kt) {
		return errUnsupported("%s into %s", op.Kind, out.kt)
	}
	if !contiguous(out.shape, out.strides) {
		return errUnsupported("%s into a non-contiguous tensor", op.Kind)
	}
	return k.Philox(kind, out.kt, out.addr, n, a)
}

// randIntNarrow is randint into int32, uint8, int8 or int16 on CUDA:
// random_from_to_kernel draws the same words for every integer type (the
// 32-bit path below a range of 2^28, unroll 4; else two words, unroll 2)
// and stores static_cast<scalar_t>(int64(rand % range + base)); the
// int64 values are computed on the host (refkern.PhiloxValue, the kernels'
// own reference) and uploaded, wrapped to the type by encode. The i-th
// number goes to the i-th element in TensorIterator order (a
// non-contiguous output: valuesIterOrder).
func (e *Executor) randIntNarrow(k gpu.Kernels, kind kernels.PhiloxKind, out operand, n int64, a kernels.PhiloxArgs) error {
	vals := make([]float64, n)
	for i := range vals {
		_, v := refkern.PhiloxValue(kind, kernels.I64, a, int64(i))
		vals[i] = float64(v)
	}
	return e.valuesIterOrder(k, out, vals)
}

// uniformBounds are uniform_kernel's from, range and to: from and to in
// the output type, range = to − from in the output type, widened to opmath.
func uniformBounds(t kernels.DType, from, to float64) (a, b, c float64) {
	if t == kernels.F64 {
		return from, to - from, to
	}
	round := func(v float32) float32 {
		switch t {
		case kernels.F16:
			return kernels.F16ToF32(kernels.F16Bits(v))
		case kernels.BF16:
			return kernels.BF16ToF32(kernels.BF16Bits(v))
		}
		return v
	}
	f, tt := round(float32(from)), round(float32(to))
	return float64(f), float64(round(tt - f)), float64(tt)
}

// dropoutVec is Dropout.cu's vector size: 16 bytes' worth of elements at
// most, limited by x's alignment, halved until it divides n (1: the
// grid-stride kernel).
func dropoutVec(t kernels.DType, addr uint64, n int64) int64 {
	size := t.Size()
	vec := int64(1)
	for _, v := range []int64{8, 4, 2} {
		if addr%uint64(v*size) == 0 {
			vec = v
			break
		}
	}
	vec = min(vec, 16/size)
	for vec > 1 && n%vec != 0 {
		vec /= 2
	}
	return vec
}

// dropoutDraw reserves dropout's offsets (UNROLL 4 whatever the vector
// size) and writes its uniforms for n elements into the f32 u, in the
// element order of a tensor of type t at addr (native_dropout's draw).
func (e *Executor) dropoutDraw(k gpu.Kernels, u uint64, t kernels.DType, addr uint64, n int64) (kernels.PhiloxArgs, error) {
	g, err := e.philoxOp(k, n, 4)
	if err != nil {
		return g, err
	}
	if v := dropoutVec(t, addr, n); v > 1 {
		g.Vec = v
	}
	return g, k.Philox(kernels.PhiloxRaw, kernels.F32, u, n, g)
}

// dropoutScale is native_dropout's keep probability (float) and scale
// (1.0/keep in double, rounded to float).
func dropoutScale(p float64) (keep, scale float32) {
	keep = float32(1 - p)
	return keep, float32(1 / float64(keep))
}

// randpermCUDA is randperm_out_cuda: random keys (random_ over the int32
// or int64 range, by the bit count PyTorch picks), a stable sort on their
// low bits, then a Fisher–Yates shuffle of each run of equal keys drawn
// from curand (Randperm.cuh). Computed on the host from the reference
// Philox, as exact as on the GPU.
func (e *Executor) randpermCUDA(k gpu.Kernels, out operand) error {
	n := numel(out.shape)
	if n == 0 {
		return nil
	}
	nd := float64(n)
	bits := min(64, int(math.Ceil(math.Log2(nd-(6*nd*nd+1)/(math.Log(0.9)*12)))))
	g, err := e.philoxOp(k, n, 2)
	if err != nil {
		return err
	}
	keys := make([]uint64, n)
	base, rng := int64(math.MinInt64), uint64(math.MaxUint64)
	if bits <= 32 {
		base, rng = math.MinInt32, 1<<32-1
	}
	g.IA, g.IB = base, rng
	for i := range keys {
		_, v := refkern.PhiloxValue(kernels.PhiloxRandInt64, kernels.I64, g, int64(i))
		keys[i] = uint64(v)
	}
	mask := uint64(1)<<bits - 1
	if bits == 64 {
		mask = math.MaxUint64
	}
	idx := make([]int64, n)
	for i := range idx {
		idx[i] = int64(i)
	}
	slices.SortStableFunc(idx, func(x, y int64) int {
		a, b := keys[x]&mask, keys[y]&mask
		switch {
		case a < b:
			return -1
		case a > b:
			return 1
		}
		return 0
	})
	sorted := make([]uint64, n)
	for i, j := range idx {
		sorted[i] = keys[j] & mask
	}
	off := e.cuda.take(uint64(n))
	for tid := int64(0); tid < n-1; tid++ {
		if sorted[tid] != sorted[tid+1] || (tid > 0 && sorted[tid-1] == sorted[tid]) {
			continue
		}
		size := int64(1)
		for tid+size < n && sorted[tid+size] == sorted[tid] {
			size++
		}
		var call uint64
		var block [4]uint32
		word := 4
		for i := size - 1; i > 0; i-- {
			if word == 4 {
				block, word = refkern.PhiloxBlock(e.cuda.seed, uint64(tid), off, call), 0
				call++
			}
			r := int64(block[word] % uint32(i+1))
			word++
			idx[tid+i], idx[tid+r] = idx[tid+r], idx[tid+i]
		}
	}
	vals := make([]float64, n)
	for i, v := range idx {
		vals[i] = float64(v)
	}
	return e.valuesIterOrder(k, out, vals)
}
