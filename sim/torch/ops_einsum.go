package torch

import "strings"

// torch.einsum as ATen's einsum (aten/src/ATen/native/Linear.cpp, PyTorch
// 2.11). It is composite: the equation is parsed, each operand becomes a
// view (diagonal+movedim for a repeated label, unsqueeze for a missing
// one, permute to the output-then-contraction order), and the operands
// are contracted pairwise left to right (or in the order of a path) by
// sumproduct_pair: sums of dims only one side has, then permute → reshape
// (a view, or a contiguous copy with CloneBackward0/UnsafeViewBackward0)
// → bmm → view → permute, or a plain mul when nothing is summed. The
// result drops the contracted (size-1) dims with a view; a single operand
// is summed instead. So the memory and the grad_fns are those of the
// views, sums, copies, bmm and mul it calls.

const (
	einsumLetters = 26
	einsumLabels  = 2 * einsumLetters
	einsumEll     = einsumLabels // the label of "..."
)

// einsumSubscript maps [A-Za-z] to [0, 52): upper case first, as ATen.
func einsumSubscript(c byte) int {
	if c >= 'A' && c <= 'Z' {
		return int(c - 'A')
	}
	return int(c-'a') + einsumLetters
}

// einsumLabel is einsumSubscript's inverse.
func einsumLabel(s int) byte {
	if s < einsumLetters {
		return byte('A' + s)
	}
	return byte('a' + s - einsumLetters)
}

func isAlpha(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }

// einsumParseInputs splits the left-hand side into each operand's labels.
func einsumParseInputs(lhs string, numOps int) ([][]int, error) {
	labels := make([][]int, numOps)
	ellIn := false
	cur := 0
	for i := 0; i < len(lhs); i++ {
		switch c := lhs[i]; c {
		case ' ':
		case '.':
			if ellIn {
				return nil, Errorf(RuntimeError, "einsum(): found '.' for operand %d for which an ellipsis was already found", cur)
			}
			if !(i+2 < len(lhs) && lhs[i+1] == '.' && lhs[i+2] == '.') {
				return nil, Errorf(RuntimeError, "einsum(): found '.' for operand %d that is not part of any ellipsis", cur)
			}
			i += 2
			labels[cur] = append(labels[cur], einsumEll)
			ellIn = true
		case ',':
			cur++
			if cur >= numOps {
				return nil, Errorf(RuntimeError, "einsum(): fewer operands were provided than specified in the equation")
			}
			ellIn = false
		default:
			if !isAlpha(c) {
				return nil, Errorf(RuntimeError, "einsum(): invalid subscript given at index %d in the equation string, subscripts must be in [a-zA-Z]", i)
			}
			labels[cur] = append(labels[cur], einsumSubscript(c))
		}
	}
	if cur != numOps-1 {
		return nil, Errorf(RuntimeError, "einsum(): more operands were provided than specified in the equation")
	}
	return labels, nil
}

// einsumPlan is the parsed equation: each label's index in the permuted
// shape (output dims first, then contraction dims).
type einsumPlan struct {
	opLabels  [][]int
	permIndex []int // per label, -1 if unused
	ellIndex  int
	ellNumDim int
	outNumDim int
	total     int // perm_index: output + contraction dims
}

func einsumParse(eq string, operands []*Tensor) (*einsumPlan, error) {
	arrow := strings.Index(eq, "->")
	lhs := eq
	if arrow >= 0 {
		lhs = eq[:arrow]
	}
	opLabels, err := einsumParseInputs(lhs, len(operands))
	if err != nil {
		return nil, err
	}
	count := make([]int, einsumLabels)
	ellNumDim := 0
	for i, op := range operands {
		nd := len(op.shape)
		nl := len(opLabels[i])
		hasEll := false
		for _, l := range opLabels[i] {
			if l == einsumEll {
				nl--
				hasEll = true
				ellNumDim = max(ellNumDim, nd-nl)
			} else {
				count[l]++
			}
		}
		if hasEll && nl > nd {
			return nil, Errorf(RuntimeError, "einsum(): the number of subscripts in the equation (%d) is more than the number of dimensions (%d) for operand %d", nl, nd, i)
		}
		if !hasEll && nl != nd {
			return nil, Errorf(RuntimeError, "einsum(): the number of subscripts in the equation (%d) does not match the number of dimensions (%d) for operand %d and no ellipsis was given", nl, nd, i)
		}
	}
	p := &einsumPlan{opLabels: opLabels, permIndex: make([]int, einsumLabels), ellNumDim: ellNumDim}
	for i := range p.permIndex {
		p.permIndex[i] = -1
	}
	perm := 0
	ellOut := false
	if arrow < 0 {
		perm = ellNumDim
		ellOut = true
		for l := 0; l < einsumLabels; l++ {
			if count[l] == 1 {
				p.permIndex[l] = perm
				perm++
			}
		}
	} else {
		rhs := eq[arrow+2:]
		for i := 0; i < len(rhs); i++ {
			switch c := rhs[i]; c {
			case ' ':
			case '.':
				if ellOut {
					return nil, Errorf(RuntimeError, "einsum(): found '.' for output but an ellipsis (...) was already found")
				}
				if !(i+2 < len(rhs) && rhs[i+1] == '.' && rhs[i+2] == '.') {
					return nil, Errorf(RuntimeError, "einsum(): found '.' for output that is not part of any ellipsis (...)")
				}
				i += 2
				p.ellIndex = perm
				perm += ellNumDim
				ellOut = true
			default:
				if !isAlpha(c) {
					return nil, Errorf(RuntimeError, "einsum(): invalid subscript given at index %d in the equation string, subscripts must be in [a-zA-Z]", len(lhs)+2+i)
				}
				s := einsumSubscript(c)
				if count[s] == 0 || p.permIndex[s] != -1 {
					what := " does not appear in the equation for any input operand"
					if p.permIndex[s] > -1 {
						what = " appears more than once in the output"
					}
					return nil, Errorf(RuntimeError, "einsum(): output subscript %c%s", c, what)
				}
				p.permIndex[s] = perm
				perm++
			}
		}
	}
	p.outNumDim = perm
	if !ellOut {
		p.ellIndex = perm
		perm += ellNumDim
	}
	for l := 0; l < einsumLabels; l++ {
		if count[l] > 0 && p.permIndex[l] == -1 {
			p.permIndex[l] = perm
			perm++
		}
	}
	p.total = perm
	return p, nil
}

// Einsum is torch.einsum(eq, *operands) with an optional contraction path
// (pairs of operand indices, opt_einsum's format; nil: left to right).
func (rt *Runtime) Einsum(eq string, operands []*Tensor, path []int64) (*Tensor, error) {
	if len(operands) == 0 {
		return nil, Errorf(RuntimeError, "einsum(): must provide at least one operand")
	}
	numOps := len(operands)
	if path != nil {
		want := (numOps - 1) * 2
		if numOps == 1 {
			want = 1
		}
		if len(path) != want {
			return nil, Errorf(RuntimeError, "einsum(): expected contraction path given in path parameter to have size %d but got %d", want, len(path))
		}
	}
	p, err := einsumParse(eq, operands)
	if err != nil {
		return nil, err
	}
	ops, dimCounts, err := rt.einsumAlign(p, operands)
	if err != nil {
		return nil, err
	}
	defer func() {
		for _, o := range ops {
			o.Release()
		}
	}()
	pi := 0
	for len(ops) > 1 {
		i, j := 0, 1
		if path != nil {
			i, j = int(path[pi]), int(path[pi+1])
			pi += 2
			if j < i {
				i, j = j, i
			}
			if i == j || i < 0 || j >= len(ops) {
				what := ") operand index is out of bounds"
				if i == j {
					what = ") cannot contract an operand with itself"
				}
				return nil, Errorf(RuntimeError, "einsum(): invalid contraction (%d, %d%s", i, j, what)
			}
		}
		a, b := ops[i], ops[j]
		ops = append(ops[:j], ops[j+1:]...)
		ops = append(ops[:i], ops[i+1:]...)
		r, err := rt.einsumContract(p, dimCounts, a, b)
		a.Release()
		b.Release()
		if err != nil {
			return nil, err
		}
		if path != nil {
			ops = append(ops, r)
		} else {
			ops = append([]*Tensor{r}, ops...)
		}
	}
	res := ops[0]
	if p.total > p.outNumDim {
		if numOps > 1 {
			return rt.View(res, cloneShape(res.shape[:p.outNumDim]))
		}
		dims := make([]int64, 0, p.total-p.outNumDim)
		for d := p.outNumDim; d < p.total; d++ {
			dims = append(dims, int64(d))
		}
		return rt.Sum(res, dims, false, nil)
	}
	return res.Retain(), nil
}

// einsumAlign checks the sizes and makes each operand a view of p.total
// dims in the permuted order; dimCounts counts, per permuted dim, the
// operands whose size there is not 1.
func (rt *Runtime) einsumAlign(p *einsumPlan, operands []*Tensor) ([]*Tensor, []int, error) {
	labelSize := make([]int64, einsumLabels)
	for i := range labelSize {
		labelSize[i] = 1
	}
	ellSizes := make([]int64, p.ellNumDim)
	for i := range ellSizes {
		ellSizes[i] = 1
	}
	dimCounts := make([]int, p.total)
	var ops []*Tensor
	fail := func(err error) ([]*Tensor, []int, error) {
		for _, o := range ops {
			o.Release()
		}
		return nil, nil, err
	}
	for i, orig := range operands {
		op := orig.Retain()
		perm := make([]int64, p.total)
		for k := range perm {
			perm[k] = -1
		}
		dim := 0
		for _, s := range p.opLabels[i] {
			switch {
			case s == einsumEll:
				nd := len(orig.shape) - (len(p.opLabels[i]) - 1)
				for j := p.ellNumDim - nd; j < p.ellNumDim; j++ {
					if sz := op.shape[dim]; sz != 1 {
						if ellSizes[j] != 1 && ellSizes[j] != sz {
							op.Release()
							return fail(Errorf(RuntimeError, "einsum(): dimension %d covered by ellipsis in operand %dhas size %d which does not broadcast with previously seen ellipsis with size %d for the respective dimension", dim, i, sz, ellSizes[j]))
						}
						ellSizes[j] = sz
						dimCounts[p.ellIndex+j]++
					}
					perm[p.ellIndex+j] = int64(dim)
					dim++
				}
			case perm[p.permIndex[s]] == -1:
				if sz := op.shape[dim]; sz != 1 {
					if labelSize[s] != 1 && labelSize[s] != sz {
						op.Release()
						return fail(Errorf(RuntimeError, "einsum(): subscript %c has size %d for operand %d which does not broadcast with previously seen size %d", einsumLabel(s), sz, i, labelSize[s]))
					}
					labelSize[s] = sz
					dimCounts[p.permIndex[s]]++
				}
				perm[p.permIndex[s]] = int64(dim)
				dim++
			default:
				// repeated label: op.diagonal(0, prev, dim).movedim(-1, prev)
				prev := perm[p.permIndex[s]]
				if op.shape[dim] != op.shape[prev] {
					op.Release()
					return fail(Errorf(RuntimeError, "einsum(): subscript %c is repeated for operand %d but the sizes don't match, %d != %d", einsumLabel(s), i, op.shape[dim], op.shape[prev]))
				}
				d, err := rt.Diagonal(op, 0, prev, int64(dim))
				op.Release()
				if err != nil {
					return fail(err)
				}
				op, err = rt.movedim(d, []int64{int64(len(d.shape) - 1)}, []int64{prev})
				d.Release()
				if err != nil {
					return fail(err)
				}
			}
		}
		for k, v := range perm {
			if v == -1 {
				u, err := rt.Unsqueeze(op, int64(dim))
				op.Release()
				if err != nil {
					return fail(err)
				}
				op = u
				perm[k] = int64(dim)
				dim++
			}
		}
		pm, err := rt.Permute(op, perm)
		op.Release()
		if err != nil {
			return fail(err)
		}
		ops = append(ops, pm)
	}
	return ops, dimCounts, nil
}

// einsumContract is one step of the contraction loop: the dims that only
// a or b still has are summed first (keepdim), then sumproduct_pair.
func (rt *Runtime) einsumContract(p *einsumPlan, dimCounts []int, a, b *Tensor) (*Tensor, error) {
	var sumDims, aSum, bSum []int64
	for d := p.outNumDim; d < p.total; d++ {
		switch {
		case a.shape[d] != 1 && b.shape[d] != 1:
			dimCounts[d]--
			if dimCounts[d] == 1 {
				sumDims = append(sumDims, int64(d))
				dimCounts[d] = 0
			}
		case dimCounts[d] == 1:
			if a.shape[d] != 1 {
				aSum = append(aSum, int64(d))
				dimCounts[d] = 0
			} else if b.shape[d] != 1 {
				bSum = append(bSum, int64(d))
				dimCounts[d] = 0
			}
		}
	}
	a, b = a.Retain(), b.Retain()
	defer func() { a.Release(); b.Release() }()
	if len(aSum) > 0 {
		s, err := rt.Sum(a, aSum, true, nil)
		if err != nil {
			return nil, err
		}
		a.Release()
		a = s
	}
	if len(bSum) > 0 {
		s, err := rt.Sum(b, bSum, true, nil)
		if err != nil {
			return nil, err
		}
		b.Release()
		b = s
	}
	return rt.sumproductPair(a, b, sumDims)
}
