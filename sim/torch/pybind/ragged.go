package pybind

import (
	"github.com/gpumem/playground/sim/py"
)

// checkRagged verifies that nested data has the rectangular shape
// inferData read from its first elements; a shorter or longer row raises
// PyTorch's ValueError "expected sequence of length N at dim D (got M)".
func checkRagged(v py.Value, shape []int64, dim int) error {
	if dim >= len(shape) {
		return nil
	}
	es, ok := elems(v)
	if !ok {
		return nil
	}
	if int64(len(es)) != shape[dim] {
		return py.Errorf(py.ValueError, "expected sequence of length %d at dim %d (got %d)", shape[dim], dim, len(es))
	}
	for _, e := range es {
		if err := checkRagged(e, shape, dim+1); err != nil {
			return err
		}
	}
	return nil
}
