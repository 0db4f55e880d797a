package pybind

import (
	"strconv"
	"strings"

	"github.com/gpumem/playground/sim/py"
)

// Size is torch.Size: an immutable tuple of ints printing as
// torch.Size([2, 3]).
type Size struct {
	py.Base
	dims []int64
}

// Type is torch.Size.
func (*Size) Type() *py.Class { return sizeClass }

func newSizeValue(dims []int64) *Size { return &Size{dims: append([]int64(nil), dims...)} }

// Repr is torch.Size([2, 3]).
func (s *Size) Repr(it *py.Interp) (string, error) {
	parts := make([]string, len(s.dims))
	for i, d := range s.dims {
		parts[i] = strconv.FormatInt(d, 10)
	}
	return "torch.Size([" + strings.Join(parts, ", ") + "])", nil
}

// Len is the number of dimensions.
func (s *Size) Len(it *py.Interp) (int, error) { return len(s.dims), nil }

// Truth is len != 0.
func (s *Size) Truth(it *py.Interp) (bool, error) { return len(s.dims) > 0, nil }

// Hash hashes the dims like a tuple would.
func (s *Size) Hash(it *py.Interp) (int64, error) {
	h := int64(0x345678)
	for _, d := range s.dims {
		h = h*1000003 ^ d
	}
	return h, nil
}

// GetItem is s[i] (an int) or s[a:b] (a Size).
func (s *Size) GetItem(it *py.Interp, key py.Value) (py.Value, error) {
	es, _ := elems(s)
	tup := it.NewTuple(es)
	defer it.DecRef(tup)
	r, err := it.GetItem(tup, key)
	if err != nil {
		return nil, err
	}
	if t, ok := r.(*py.Tuple); ok {
		defer it.DecRef(t)
		dims := make([]int64, t.Len())
		for i, e := range t.Elems() {
			dims[i] = int64(e.(py.Int))
		}
		return newSizeValue(dims), nil
	}
	return r, nil
}

// Iter iterates over the dims.
func (s *Size) Iter(it *py.Interp) (py.Value, error) {
	i := 0
	dims := s.dims
	return it.NewIterator(func(it *py.Interp) (py.Value, bool, error) {
		if i >= len(dims) {
			return nil, false, nil
		}
		i++
		return py.Int(dims[i-1]), true, nil
	}, nil), nil
}

// Compare compares with tuples, lists of ints and Sizes by value.
func (s *Size) Compare(it *py.Interp, op py.Op, other py.Value, reflected bool) (py.Value, error) {
	if op != py.OpEq && op != py.OpNe {
		return py.NotImplemented, nil
	}
	if _, isList := other.(*py.List); isList {
		return py.Bool(op == py.OpNe), nil
	}
	es, ok := elems(other)
	if !ok {
		return py.NotImplemented, nil
	}
	eq := len(es) == len(s.dims)
	for i := 0; eq && i < len(es); i++ {
		n, ok := es[i].(py.Int)
		eq = ok && int64(n) == s.dims[i]
	}
	return py.Bool(eq == (op == py.OpEq)), nil
}

// Binary supports Size + tuple.
func (s *Size) Binary(it *py.Interp, op py.Op, other py.Value, reflected bool) (py.Value, error) {
	if op != py.OpAdd {
		return py.NotImplemented, nil
	}
	es, ok := elems(other)
	if !ok {
		return py.NotImplemented, nil
	}
	var extra []int64
	for _, e := range es {
		n, ok := e.(py.Int)
		if !ok {
			return py.NotImplemented, nil
		}
		extra = append(extra, int64(n))
	}
	if reflected {
		return newSizeValue(append(extra, s.dims...)), nil
	}
	return newSizeValue(append(append([]int64(nil), s.dims...), extra...)), nil
}

var sizeClass = py.NewHostClass(py.ClassSpec{
	Name: "Size", Module: "torch",
	New: func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		if len(args) == 0 {
			return newSizeValue(nil), nil
		}
		d, err := intList("Size", "sizes", args[0])
		if err != nil {
			return nil, err
		}
		return newSizeValue(d), nil
	},
	Methods: map[string]py.MethodFunc{
		"numel": func(it *py.Interp, self py.Value, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			n := int64(1)
			for _, d := range self.(*Size).dims {
				n *= d
			}
			return py.Int(n), nil
		},
	},
})
