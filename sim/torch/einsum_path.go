package torch

import "math"

// EinsumPath is the contraction path torch.einsum passes to ATen for 3 or
// more operands when opt_einsum is installed and enabled (PyTorch 2.11
// wheels on the measured machine: available, strategy "auto"; q18):
// opt_einsum's contract_path with "auto", which is the "optimal" search
// for up to 4 operands, flattened from opt_einsum's linear format. Nil
// for 1-2 operands or an equation einsum will reject. For 5+ operands
// opt_einsum uses branch-and-bound/greedy searches; the optimal search
// here is an approximation of them.
func EinsumPath(eq string, operands []*Tensor) []int64 {
	if len(operands) <= 2 {
		return nil
	}
	p, err := einsumParse(eq, operands)
	if err != nil || p.total > 64 {
		return nil
	}
	sets, size, ok := einsumLabelSets(p, operands)
	if !ok {
		return nil
	}
	out := uint64(0)
	for d := 0; d < p.outNumDim; d++ {
		out |= 1 << d
	}
	ssa := einsumOptimal(sets, out, size)
	return ssaToLinear(ssa, len(operands))
}

// einsumLabelSets gives each operand's set of permuted dims (its labels)
// and each dim's size (the largest seen, as opt_einsum's size_dict).
func einsumLabelSets(p *einsumPlan, operands []*Tensor) ([]uint64, []int64, bool) {
	size := make([]int64, p.total)
	sets := make([]uint64, len(operands))
	for i, op := range operands {
		dim := 0
		for _, s := range p.opLabels[i] {
			if s == einsumEll {
				nd := len(op.shape) - (len(p.opLabels[i]) - 1)
				for j := p.ellNumDim - nd; j < p.ellNumDim; j++ {
					d := p.ellIndex + j
					sets[i] |= 1 << d
					size[d] = max(size[d], op.shape[dim])
					dim++
				}
				continue
			}
			if dim >= len(op.shape) {
				return nil, nil, false
			}
			d := p.permIndex[s]
			sets[i] |= 1 << d
			size[d] = max(size[d], op.shape[dim])
			dim++
		}
	}
	return sets, size, true
}

// einsumOptimal is opt_einsum's paths.optimal: a depth-first search over
// pairwise contractions in itertools.combinations order, pruned by the
// best total cost so far, with its result cache keyed by the two operand
// label sets only. It returns the path in SSA form.
func einsumOptimal(inputs []uint64, output uint64, size []int64) [][2]int {
	bestFlops := math.Inf(1)
	var bestPath [][2]int
	type pair struct{ a, b uint64 }
	type res struct {
		k     uint64
		flops float64
	}
	cache := map[pair]res{}
	setSize := func(s uint64) float64 {
		n := 1.0
		for d := 0; d < len(size); d++ {
			if s&(1<<d) != 0 {
				n *= float64(size[d])
			}
		}
		return n
	}
	var iterate func(path [][2]int, remaining []int, inputs []uint64, flops float64)
	iterate = func(path [][2]int, remaining []int, inputs []uint64, flops float64) {
		if len(remaining) == 1 {
			bestFlops = flops
			bestPath = append([][2]int(nil), path...)
			return
		}
		for x := 0; x < len(remaining); x++ {
			for y := x + 1; y < len(remaining); y++ {
				i, j := remaining[x], remaining[y]
				key := pair{inputs[i], inputs[j]}
				r, ok := cache[key]
				if !ok {
					keep := output
					for _, o := range remaining {
						if o != i && o != j {
							keep |= inputs[o]
						}
					}
					either := inputs[i] | inputs[j]
					shared := inputs[i] & inputs[j]
					f := 1.0
					if shared&^keep != 0 {
						f = 2
					}
					r = res{either & keep, setSize(either) * f}
					cache[key] = r
				}
				nf := flops + r.flops
				if nf >= bestFlops {
					continue
				}
				rest := make([]int, 0, len(remaining)-1)
				for _, o := range remaining {
					if o != i && o != j {
						rest = append(rest, o)
					}
				}
				rest = append(rest, len(inputs))
				iterate(append(path, [2]int{i, j}), rest, append(inputs[:len(inputs):len(inputs)], r.k), nf)
			}
		}
	}
	rem := make([]int, len(inputs))
	for i := range rem {
		rem[i] = i
	}
	iterate(nil, rem, inputs, 0)
	return bestPath
}

// ssaToLinear is opt_einsum's ssa_to_linear, flattened: each SSA id
// becomes its position among the operands still alive.
func ssaToLinear(ssa [][2]int, n int) []int64 {
	ids := make([]int, n+len(ssa))
	for i := range ids {
		ids[i] = i
	}
	var out []int64
	for _, p := range ssa {
		out = append(out, int64(ids[p[0]]), int64(ids[p[1]]))
		for _, s := range p {
			for k := s; k < len(ids); k++ {
				ids[k]--
			}
		}
	}
	return out
}
