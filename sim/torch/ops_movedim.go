package torch

import "fmt"

// Movedim is torch.movedim/moveaxis(t, src, dst): ATen's movedim builds
// the permutation that puts src's dims at dst (the others keep their
// order) and returns t.permute(order), a view (PermuteBackward0); a 0-dim
// tensor gives an alias.
func (rt *Runtime) Movedim(t *Tensor, src, dst []int64) (*Tensor, error) {
	return rt.movedim(t, src, dst)
}

func (rt *Runtime) movedim(t *Tensor, src, dst []int64) (*Tensor, error) {
	if len(src) != len(dst) {
		return nil, Errorf(RuntimeError, "movedim: Invalid source or destination dims: source (%s dims) should contain the same number of dims as destination (%s dims)", intsList(src), intsList(dst))
	}
	nd := len(t.shape)
	norm := func(ds []int64, what string) ([]int64, error) {
		out := make([]int64, len(ds))
		seen := map[int64]bool{}
		for i, d := range ds {
			w, err := WrapDim(d, max(nd, 1))
			if err != nil {
				return nil, err
			}
			if seen[w] {
				return nil, Errorf(RuntimeError, "movedim: repeated dim in `%s` (%s)", what, intsList(ds))
			}
			seen[w] = true
			out[i] = w
		}
		return out, nil
	}
	s, err := norm(src, "source")
	if err != nil {
		return nil, err
	}
	d, err := norm(dst, "destination")
	if err != nil {
		return nil, err
	}
	if nd == 0 {
		return rt.Alias(t), nil
	}
	order := make([]int64, nd)
	for i := range order {
		order[i] = -1
	}
	usedSrc := make([]bool, nd)
	for i := range s {
		order[d[i]] = s[i]
		usedSrc[s[i]] = true
	}
	rest := make([]int64, 0, nd)
	for i := 0; i < nd; i++ {
		if !usedSrc[i] {
			rest = append(rest, int64(i))
		}
	}
	k := 0
	for i := range order {
		if order[i] == -1 {
			order[i] = rest[k]
			k++
		}
	}
	return rt.Permute(t, order)
}

// intsList formats dims as PyTorch prints an IntArrayRef: [0, 1].
func intsList(ds []int64) string {
	s := "["
	for i, d := range ds {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprint(d)
	}
	return s + "]"
}
