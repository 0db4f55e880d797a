package gpuexec

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/gpumem/playground/gpu/kernels"
	"github.com/gpumem/playground/gpu/refkern"
	"github.com/gpumem/playground/sim/torch"
)

// cpuGenerator is PyTorch's default CPU generator (mt19937,
// refkern.CPUGenerator) as the executor keeps it: every random op with a
// CPU output draws from it in op order, as PyTorch's do, so a seeded
// script's CPU-initialised parameters are the user's numbers. The zero
// value is ready: it starts with PyTorch's default seed on first use (a
// script without torch.manual_seed has no reproducible numbers in
// PyTorch either).
type cpuGenerator struct {
	g *refkern.CPUGenerator
}

// gen returns the generator, seeding it on first use.
func (c *cpuGenerator) gen() *refkern.CPUGenerator {
	if c.g == nil {
		c.g = refkern.NewCPUGenerator(refkern.DefaultCPUSeed)
	}
	return c.g
}

// seed is torch.manual_seed for the CPU generator: a negative Python seed
// is taken as its two's complement, as PyTorch's manual_seed does.
func (c *cpuGenerator) seed(s uint64) { c.gen().Seed(s) }

// generateHost fills a CPU output of a random op from the CPU generator,
// element by element in PyTorch's order: uniform (Scalars from, to),
// normal (mean, std), randint (low, high), randperm, and dropout (Out =
// [output, bool mask], In = [input], Scalars[0] = p).
func (e *Executor) generateHost(op *torch.ExecOp, out operand) error {
	if out.cuda() {
		return fmt.Errorf("gpuexec: generateHost of a CUDA output")
	}
	g := e.cpuGen.gen()
	n := numel(out.shape)
	s := func(i int, def float64) float64 {
		if i < len(op.Scalars) {
			return op.Scalars[i]
		}
		return def
	}
	switch op.Kind {
	case torch.ExecUniform, torch.ExecNormal:
		if !isFloat(out.kt) {
			return errUnsupported("%s into %s on the CPU", op.Kind, out.kt)
		}
		var vals []float64
		var err error
		if op.Kind == torch.ExecUniform {
			vals, err = g.Uniform(out.kt, n, s(0, 0), s(1, 1))
		} else {
			vals, err = g.Normal(out.kt, n, contiguous(out.shape, out.strides), s(0, 0), s(1, 1))
		}
		if err != nil {
			return errUnsupported("%v", err)
		}
		return e.storeHost(out, vals, nil)
	case torch.ExecRandInt:
		lo, hi := s(0, 0), s(1, 0)
		if !exactInt(lo) || !exactInt(hi) || hi <= lo {
			return errUnsupported("randint over [%v, %v)", lo, hi)
		}
		vals, err := g.RandomFromTo(n, int64(lo), int64(hi))
		if err != nil {
			return errUnsupported("%v", err)
		}
		return e.storeHost(out, nil, vals)
	case torch.ExecRandPerm:
		if len(out.shape) != 1 {
			return errUnsupported("randperm into %d dims", len(out.shape))
		}
		return e.storeHost(out, nil, g.Randperm(n))
	case torch.ExecDropout:
		return e.dropoutHost(op, out)
	}
	return errUnsupported("no CPU generator for %s", op.Kind)
}

// isFloat reports whether t is a floating-point element type.
func isFloat(t kernels.DType) bool {
	return t == kernels.F32 || t == kernels.F16 || t == kernels.BF16 || t == kernels.F64
}

// dropoutHost is F.dropout of a CPU tensor in training (refkern's
// Dropout: bernoulli_(1 − p) noise divided by 1 − p, output = x · noise
// in x's type) and its bool mask.
func (e *Executor) dropoutHost(op *torch.ExecOp, out operand) error {
	if len(op.Out) != 2 || len(op.In) != 1 || len(op.Scalars) < 1 {
		return fmt.Errorf("gpuexec: dropout takes an input, output and mask, and p")
	}
	mask, err := e.resolve(op.Out[1])
	if err != nil {
		return err
	}
	x, err := e.resolve(op.In[0])
	if err != nil {
		return err
	}
	if !isFloat(out.kt) || x.kt != out.kt || mask.kt != kernels.B8 || x.cuda() || mask.cuda() {
		return errUnsupported("dropout of %s into %s on the CPU", x.kt, out.kt)
	}
	n := numel(out.shape)
	if numel(x.shape) != n || numel(mask.shape) != n {
		return fmt.Errorf("gpuexec: dropout shapes %v %v %v", x.shape, out.shape, mask.shape)
	}
	if !slices.Equal(x.strides, out.strides) || !slices.Equal(mask.strides, out.strides) {
		// PyTorch draws in the order of empty_like(x): other layouts are not modelled.
		return errUnsupported("dropout with an output laid out unlike its input")
	}
	xs, err := e.loadHost(x)
	if err != nil {
		return err
	}
	keep, scale := e.cpuGen.gen().Dropout(out.kt, n, op.Scalars[0])
	vals := make([]float64, n)
	bits := make([]float64, n)
	for i, k := range keep {
		noise := 0.0
		if k {
			noise, bits[i] = scale, 1
		}
		if out.kt == kernels.F64 {
			vals[i] = xs[i] * noise
		} else {
			vals[i] = float64(float32(xs[i]) * float32(noise)) // float opmath, rounded by storeHost
		}
	}
	if err := e.storeHost(out, vals, nil); err != nil {
		return err
	}
	return e.storeHost(mask, bits, nil)
}

// iterOffsets are the element offsets of o in the order PyTorch's
// TensorIterator walks a single output (dims sorted by stride, the
// largest outermost; a contiguous tensor's row-major order).
func iterOffsets(o operand) []int64 {
	nd := len(o.shape)
	perm := make([]int, nd)
	for d := range perm {
		perm[d] = d
	}
	sort.SliceStable(perm, func(a, b int) bool { return o.strides[perm[a]] > o.strides[perm[b]] })
	n := numel(o.shape)
	offs := make([]int64, 0, n)
	idx := make([]int64, nd)
	for i := int64(0); i < n; i++ {
		off := int64(0)
		for d := range idx {
			off += idx[d] * o.strides[d]
		}
		offs = append(offs, off)
		for k := nd - 1; k >= 0; k-- {
			d := perm[k]
			idx[d]++
			if idx[d] < o.shape[d] {
				break
			}
			idx[d] = 0
		}
	}
	return offs
}

// storeHost writes values into a CPU operand in iteration order: floats
// (rounded to its type) or, when ints is not nil, exact int64 values.
func (e *Executor) storeHost(o operand, floats []float64, ints []int64) error {
	size := o.kt.Size()
	for i, off := range iterOffsets(o) {
		b, err := e.host.Bytes(o.addr+uint64(off*size), size)
		if err != nil {
			return err
		}
		switch {
		case ints != nil && o.kt == kernels.I64:
			binary.LittleEndian.PutUint64(b, uint64(ints[i]))
		case ints != nil && o.kt == kernels.I32:
			binary.LittleEndian.PutUint32(b, uint32(ints[i]))
		case ints != nil:
			encode(o.kt, b, float64(ints[i]))
		default:
			encode(o.kt, b, floats[i])
		}
	}
	return nil
}

// loadHost reads a CPU operand's values in iteration order.
func (e *Executor) loadHost(o operand) ([]float64, error) {
	size := o.kt.Size()
	offs := iterOffsets(o)
	vals := make([]float64, len(offs))
	for i, off := range offs {
		b, err := e.host.Bytes(o.addr+uint64(off*size), size)
		if err != nil {
			return nil, err
		}
		vals[i] = decode(o.kt, b)
		if o.kt == kernels.I64 && math.Abs(vals[i]) > maxExactInt {
			return nil, errUnsupported("int64 input beyond 2^53")
		}
	}
	return vals, nil
}
