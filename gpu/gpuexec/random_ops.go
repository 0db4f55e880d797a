package gpuexec

import (
	"fmt"
	"math"
	"slices"

	"github.com/gpumem/playground/gpu/kernels"
	"github.com/gpumem/playground/gpu/refkern"
	"github.com/gpumem/playground/sim/torch"
)

// privateGen is a torch.Generator of the script: a CPU mt19937 generator
// or a CUDA Philox (seed, offset), as PyTorch's CPUGeneratorImpl and
// CUDAGeneratorImpl keep them.
type privateGen struct {
	cpu  *refkern.CPUGenerator
	cuda *cudaGenerator
}

// seedGenerator is torch.Generator(...) and its manual_seed: Ints = [id,
// seed, device (0 CPU, 1 CUDA)].
func (e *Executor) seedGenerator(op *torch.ExecOp) error {
	if len(op.Ints) != 3 || op.Ints[0] <= 0 {
		return fmt.Errorf("gpuexec: generator_seed takes [id, seed, device], got %v", op.Ints)
	}
	if e.gens == nil {
		e.gens = map[int64]*privateGen{}
	}
	seed := uint64(op.Ints[1])
	if op.Ints[2] == 1 {
		e.gens[op.Ints[0]] = &privateGen{cuda: &cudaGenerator{seed: seed}}
	} else {
		e.gens[op.Ints[0]] = &privateGen{cpu: refkern.NewCPUGenerator(seed)}
	}
	return nil
}

// useGenerator makes generator id (0: the defaults) the one the random
// ops draw from until restore is called.
func (e *Executor) useGenerator(id int64) (restore func(), err error) {
	if id == 0 {
		return func() {}, nil
	}
	g := e.gens[id]
	if g == nil {
		return nil, fmt.Errorf("gpuexec: unknown generator %d", id)
	}
	if g.cpu != nil {
		saved := e.cpuGen.g
		e.cpuGen.g = g.cpu
		return func() { e.cpuGen.g = saved }, nil
	}
	saved := e.cuda
	e.cuda = *g.cuda
	e.cuda.sms, e.cuda.tpsm = saved.sms, saved.tpsm
	return func() {
		*g.cuda = e.cuda
		saved.sms, saved.tpsm = e.cuda.sms, e.cuda.tpsm
		e.cuda = saved
	}, nil
}

// execRandom runs the random ops that a generator argument or their own
// rules take out of the ordinary dispatch: bernoulli_, random_(),
// multinomial, and the factories drawing from a torch.Generator (Ints[0]).
// It runs before the inputs' values are checked: a random op advances its
// generator even when it cannot compute its values.
func (e *Executor) execRandom(op *torch.ExecOp) (bool, error) {
	switch op.Kind {
	case torch.ExecBernoulli, torch.ExecRandomFull, torch.ExecMultinomial:
	case torch.ExecUniform, torch.ExecNormal, torch.ExecRandInt, torch.ExecRandPerm:
		if len(op.Ints) == 0 || op.Ints[0] == 0 {
			return false, nil
		}
	default:
		return false, nil
	}
	id := int64(0)
	if len(op.Ints) > 0 {
		id = op.Ints[0]
	}
	restore, err := e.useGenerator(id)
	if err != nil {
		return true, err
	}
	defer restore()
	switch op.Kind {
	case torch.ExecBernoulli:
		return true, e.bernoulli(op)
	case torch.ExecRandomFull:
		return true, e.randomFull(op)
	case torch.ExecMultinomial:
		return true, e.multinomial(op)
	}
	plain := *op
	plain.Ints = nil
	return true, e.exec(&plain)
}

// inputValues reads In[i]'s values in row-major order, or says that they
// were not computed.
func (e *Executor) inputValues(op *torch.ExecOp, i int) ([]float64, error) {
	if i >= len(op.In) || !e.computed[op.In[i].Storage] {
		return nil, errUnsupported("%s: an input's values were not computed", op.Kind)
	}
	return e.Read(op.In[i])
}

// broadcastValues lays row-major values of shape from out to shape to
// (from broadcasts to to, as expand_inplace does).
func broadcastValues(vals []float64, from, to []int64) ([]float64, error) {
	st, ok := broadcastStrides(to, from, contiguousStrides(from))
	if !ok {
		return nil, errUnsupported("probabilities of shape %v for an output of shape %v", from, to)
	}
	n := numel(to)
	out := make([]float64, n)
	idx := make([]int64, len(to))
	for i := range out {
		off := int64(0)
		for d := range idx {
			off += idx[d] * st[d]
		}
		out[i] = vals[off]
		for d := len(to) - 1; d >= 0; d-- {
			if idx[d]++; idx[d] < to[d] {
				break
			}
			idx[d] = 0
		}
	}
	return out, nil
}

// bernoulli is bernoulli_(p) (Scalars[0]) and bernoulli_(p_tensor) (In[0]):
// on the CPU one draw per element in TensorIterator order (a 53-bit uniform
// for a number p or double probabilities, else a 24-bit one; true when
// below p); on CUDA the uniform distribution kernel with u < (float)p for a
// number, and for a tensor CUDA_tensor_apply2's kernel (4 elements per
// thread from one curand_uniform4, u <= p, the generator advanced by 10,
// rounded to 12).
func (e *Executor) bernoulli(op *torch.ExecOp) error {
	out, err := e.resolve(op.Out[0])
	if err != nil {
		return err
	}
	n := numel(out.shape)
	if n == 0 {
		return nil // CHECK_EMPTY_AND_RETURN: no draw
	}
	scalar := len(op.In) == 0
	p := 0.0
	if scalar {
		if len(op.Scalars) < 1 {
			return fmt.Errorf("gpuexec: bernoulli without p")
		}
		p = op.Scalars[0]
	}
	if !out.cuda() {
		g := e.cpuGen.gen()
		if scalar {
			return e.storeBools(out, g.BernoulliScalar(n, p))
		}
		pDouble := op.In[0].DType == torch.Float64
		pv, err := e.inputValues(op, 0)
		if err == nil {
			pv, err = broadcastValues(pv, op.In[0].Shape, out.shape)
		}
		if err == nil && !contiguous(out.shape, out.strides) {
			err = errUnsupported("bernoulli_ of a non-contiguous tensor with tensor probabilities")
		}
		if err != nil {
			g.BernoulliTensor(make([]float64, n), pDouble) // the draws still happen
			return err
		}
		return e.storeBools(out, g.BernoulliTensor(pv, pDouble))
	}
	k := e.kern(true)
	if scalar {
		a, err := e.philoxOp(k, n, kernels.PhiloxUnroll(kernels.PhiloxBernoulli, out.kt))
		if err != nil {
			return err
		}
		a.A = p
		if !slices.Contains(kernels.PhiloxTypes(kernels.PhiloxBernoulli), out.kt) {
			return errUnsupported("bernoulli_ into %s", out.kt)
		}
		if !contiguous(out.shape, out.strides) {
			return errUnsupported("bernoulli_ into a non-contiguous tensor")
		}
		return k.Philox(kernels.PhiloxBernoulli, out.kt, out.addr, n, a)
	}
	seed, off := e.cuda.seed, e.cuda.take(10)
	pv, err := e.inputValues(op, 0)
	if err != nil {
		return err
	}
	if pv, err = broadcastValues(pv, op.In[0].Shape, out.shape); err != nil {
		return err
	}
	vals := make([]float64, n)
	for i := range vals {
		w := refkern.PhiloxBlock(seed, uint64(i/4), off, 0)
		u := refkern.CurandUniform(w[i%4])
		keep := u <= float32(pv[i])
		if out.kt == kernels.F64 {
			keep = float64(u) <= pv[i]
		}
		if keep {
			vals[i] = 1
		}
	}
	return e.values(out, vals)
}

// storeBools writes 0/1 into a CPU output in iteration order.
func (e *Executor) storeBools(out operand, b []bool) error {
	vals := make([]float64, len(b))
	for i, v := range b {
		if v {
			vals[i] = 1
		}
	}
	return e.storeHost(out, vals, nil)
}

// randomModulus is uniform_int's modulus of random_() for type t
// (TransformationHelper.h): 2^63 for int64, 2^31 for int32, max + 1
// for uint8/int8/int16 (256, 128, 32768), 2^digits + 1
// for the float types; wide says whether a draw is 64 bits (int64 and
// double: random64() on the CPU, two words on CUDA).
func randomModulus(t kernels.DType) (mod uint64, wide bool, ok bool) {
	switch t {
	case kernels.I64:
		return 1 << 63, true, true
	case kernels.F64:
		return 1<<53 + 1, true, true
	case kernels.I32:
		return 1 << 31, false, true
	case kernels.F32:
		return 1<<24 + 1, false, true
	case kernels.F16:
		return 1<<11 + 1, false, true
	case kernels.BF16:
		return 1<<8 + 1, false, true
	case kernels.B8:
		return 2, false, true
	case kernels.U8:
		return 1 << 8, false, true
	case kernels.I8:
		return 1 << 7, false, true
	case kernels.I16:
		return 1 << 15, false, true
	}
	return 0, false, false
}

// randomFull is random_() without bounds: each element a draw modulo
// randomModulus (a 32-bit draw or a 64-bit one), from the CPU generator in
// iteration order or from CUDA's distribution kernel (unroll 2 for the
// 64-bit draws, whose words are (w0 << 32) | w1).
func (e *Executor) randomFull(op *torch.ExecOp) error {
	out, err := e.resolve(op.Out[0])
	if err != nil {
		return err
	}
	n := numel(out.shape)
	if n == 0 {
		return nil
	}
	mod, wide, ok := randomModulus(out.kt)
	if !out.cuda() {
		g := e.cpuGen.gen()
		if !ok {
			return errUnsupported("random_ into %s", out.kt)
		}
		ints := make([]int64, n)
		for i := range ints {
			if wide {
				ints[i] = int64(g.Random64() % mod)
			} else {
				ints[i] = int64(uint64(g.Random()) % mod)
			}
		}
		return e.storeHost(out, nil, ints)
	}
	k := e.kern(true)
	unroll := int64(4)
	if wide {
		unroll = 2
	}
	a, err := e.philoxOp(k, n, unroll)
	if err != nil {
		return err
	}
	if !ok {
		return errUnsupported("random_ into %s", out.kt)
	}
	a.IB = mod
	if out.kt == kernels.I64 {
		if !contiguous(out.shape, out.strides) {
			return errUnsupported("random_ into a non-contiguous tensor")
		}
		return k.Philox(kernels.PhiloxRandInt64, kernels.I64, out.addr, n, a)
	}
	kind := kernels.PhiloxRandInt32
	if wide {
		kind = kernels.PhiloxRandInt64
	}
	vals := make([]float64, n)
	for i := range vals {
		_, v := refkern.PhiloxValue(kind, kernels.I64, a, int64(i))
		vals[i] = float64(v)
	}
	return e.values(out, vals)
}

// multinomial is torch.multinomial (Ints = [generator, n_sample,
// replacement]). With replacement and more than one sample: on the CPU
// each row's cumulative sum in the input's type, divided by the total
// (the last bucket set to 1), one 53-bit uniform per sample and a binary
// search; on CUDA (sampleMultinomialWithReplacement) the row divided by
// its sum, its prefix sum, one curand_uniform4 per sample (thread =
// row % grid_y · ⌈n/128⌉·128 + sample, call row / grid_y, word x) and the
// same search skipping zero-probability buckets. Without replacement (or
// one sample): multinomialExp.
func (e *Executor) multinomial(op *torch.ExecOp) error {
	if len(op.Ints) != 3 || len(op.In) != 1 {
		return fmt.Errorf("gpuexec: multinomial takes [generator, n, replacement] and one input")
	}
	out, err := e.resolve(op.Out[0])
	if err != nil {
		return err
	}
	in := op.In[0]
	nSample, repl := op.Ints[1], op.Ints[2] == 1
	cats := in.Shape[len(in.Shape)-1]
	dists := in.Numel() / max(cats, 1)
	inKT, ok := kernelType(in.DType)
	if !repl || nSample == 1 {
		return e.multinomialExp(op, out, inKT, ok, dists, cats, nSample)
	}
	if !ok || (inKT != kernels.F32 && inKT != kernels.F64) {
		if out.cuda() {
			gy := min(dists, 65535)
			e.cuda.take(uint64(((dists-1)/gy + 1) * 4))
		} else {
			for range dists * nSample {
				e.cpuGen.gen().Random64()
			}
		}
		return errUnsupported("multinomial of %s probabilities", in.DType)
	}
	f64 := inKT == kernels.F64
	rnd := func(v float64) float64 {
		if f64 {
			return v
		}
		return float64(float32(v))
	}
	var seed, off uint64
	gy, gx := min(dists, 65535), (nSample-1)/128+1
	if out.cuda() {
		seed, off = e.cuda.seed, e.cuda.take(uint64(((dists-1)/gy+1)*4))
	}
	pv, err := e.inputValues(op, 0)
	if err != nil {
		if !out.cuda() {
			for range dists * nSample {
				e.cpuGen.gen().Random64()
			}
		}
		return err
	}
	vals := make([]float64, 0, dists*nSample)
	for d := int64(0); d < dists; d++ {
		row := pv[d*cats : (d+1)*cats]
		sum := 0.0
		for _, v := range row {
			if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
				return errUnsupported("multinomial of invalid probabilities")
			}
			sum = rnd(sum + v)
		}
		if sum <= 0 {
			return errUnsupported("multinomial of a zero distribution")
		}
		if !out.cuda() {
			cum := make([]float64, cats)
			acc := 0.0
			for j, v := range row {
				acc = rnd(acc + v)
				cum[j] = rnd(acc / sum)
			}
			cum[cats-1] = 1
			g := e.cpuGen.gen()
			for range nSample {
				u := float64(g.Random64()&(1<<53-1)) / (1 << 53)
				lo, hi := int64(0), cats
				for hi-lo > 0 {
					mid := lo + (hi-lo)/2
					if cum[mid] < u {
						lo = mid + 1
					} else {
						hi = mid
					}
				}
				vals = append(vals, float64(lo))
			}
			continue
		}
		norm := make([]float64, cats)
		prefix := make([]float64, cats)
		acc := 0.0
		for j, v := range row {
			norm[j] = rnd(v / sum)
			acc = rnd(acc + norm[j])
			prefix[j] = acc
		}
		for s := int64(0); s < nSample; s++ {
			thread := (d%gy)*gx*128 + s
			w := refkern.PhiloxBlock(seed, uint64(thread), off, uint64(d/gy))
			r := rnd(float64(refkern.CurandUniform(w[0])))
			lo, hi := int64(0), cats
			for hi-lo > 0 {
				mid := lo + (hi-lo)/2
				if prefix[mid] < r {
					lo = mid + 1
				} else {
					hi = mid
				}
			}
			if lo == cats {
				lo = cats - 1
			}
			for lo >= 1 && norm[lo] == 0 {
				lo--
			}
			vals = append(vals, float64(lo))
		}
	}
	return e.values(out, vals)
}

// multinomialExp is multinomial without replacement or of one sample:
// q = empty_like(p).exponential_() (CPU: −log1p(−u) of a 53-bit uniform in
// double, rounded to p's type; CUDA: the uniform kernel's u, −log u, with
// −ε/2 for u ≥ 1 − ε/2), then argmax (first maximum) or topk (largest
// first) of p / q per row.
func (e *Executor) multinomialExp(op *torch.ExecOp, out operand, inKT kernels.DType, okKT bool, dists, cats, nSample int64) error {
	n := dists * cats
	f64 := inKT == kernels.F64
	var a kernels.PhiloxArgs
	if out.cuda() {
		var err error
		if a, err = e.philoxOp(e.kern(true), n, kernels.PhiloxUnroll(kernels.PhiloxUniform, inKT)); err != nil {
			return err
		}
	}
	drawCPU := func() float64 { return float64(e.cpuGen.gen().Random64()&(1<<53-1)) / (1 << 53) }
	pv, err := e.inputValues(op, 0)
	if err == nil && (!okKT || inKT != kernels.F32 && (inKT != kernels.F64 || out.cuda())) {
		err = errUnsupported("multinomial of %s probabilities", inKT)
	}
	if err != nil {
		if !out.cuda() {
			for range n {
				drawCPU()
			}
		}
		return err
	}
	rnd := func(v float64) float64 {
		if f64 {
			return v
		}
		return float64(float32(v))
	}
	r := make([]float64, n)
	for i := range r {
		var q float64
		if out.cuda() {
			uf, _ := refkern.PhiloxValue(kernels.PhiloxRaw, kernels.F32, a, int64(i))
			u := float32(uf)
			l := float32(-0x1p-24)
			if u < 1-0x1p-24 {
				l = float32(math.Log(float64(u)))
			}
			q = float64(-l)
		} else {
			q = rnd(-math.Log1p(-drawCPU()))
		}
		r[i] = rnd(pv[i] / q)
	}
	vals := make([]float64, 0, dists*nSample)
	for d := int64(0); d < dists; d++ {
		row := r[d*cats : (d+1)*cats]
		idx := make([]int64, cats)
		for j := range idx {
			idx[j] = int64(j)
		}
		slices.SortStableFunc(idx, func(x, y int64) int {
			switch {
			case row[x] > row[y]:
				return -1
			case row[x] < row[y]:
				return 1
			}
			return 0
		})
		for _, j := range idx[:nSample] {
			vals = append(vals, float64(j))
		}
	}
	return e.values(out, vals)
}
