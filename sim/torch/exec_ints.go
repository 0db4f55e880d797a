package torch

import (
	"math"
	"strconv"
)

// IntReader is implemented by an Executor that reads integer and bool
// tensors exactly as int64 (Read's float64 holds integers to 2^53 only):
// printing, .item() and .tolist() of integer tensors use it.
type IntReader interface {
	ReadInts(t ExecTensor) ([]int64, error)
}

// IntValues returns an integer or bool tensor's values exactly, in
// row-major order, when the executor computed them and reads integers
// (ErrNotComputed otherwise, always in the simulator).
func (t *Tensor) IntValues() ([]int64, error) {
	if t.rt == nil || t.rt.exec == nil || t.storage == nil || !t.dtype.IsIntegral(true) {
		return nil, ErrNotComputed
	}
	if t.rt.execErr != nil {
		return nil, t.rt.execErr
	}
	r, ok := t.rt.exec.(IntReader)
	if !ok {
		return nil, ErrNotComputed
	}
	return r.ReadInts(execTensor(t))
}

// formatIntValues is formatValues for integers read exactly: the values
// travel through the formatter as their int64 bits (valueFormatter's
// intBits) so that none is rounded to a float64.
func formatIntValues(shape []int64, ints []int64, indent int) string {
	vals := make([]float64, len(ints))
	for i, v := range ints {
		vals[i] = math.Float64frombits(uint64(v))
	}
	f := valueFormatter{intBits: true, width: 1}
	if len(shape) == 0 {
		return f.plain(vals[0])
	}
	summarize := int64(len(vals)) > printThreshold
	for _, v := range summarized(shape, vals, summarize) {
		f.width = max(f.width, len(f.plain(v)))
	}
	return formatDims(shape, contiguousStrides(shape), 0, vals, f, indent, summarize)
}

// intBitsString is an int64 carried in a float64's bits, in decimal.
func intBitsString(v float64) string { return strconv.FormatInt(int64(math.Float64bits(v)), 10) }

// ExecOp.Ints for ExecFill, ExecValues, ExecAffine and the comparisons
// with a number ("eq_scalar", ...): when it is as long as Scalars, it
// holds the same numbers exactly as int64 (Python integers beyond 2^53,
// which float64 rounds); an executor may compute integer tensors from
// them.

// exactScalars is Scalars' integers: ok when every scalar is an integer
// Python number (ints[i] its exact value).
func exactScalars(ss ...Scalar) (ints []int64, ok bool) {
	for _, s := range ss {
		if s.Kind != ScalarInt && s.Kind != ScalarBool {
			return nil, false
		}
		ints = append(ints, s.I)
	}
	return ints, true
}

// numberValues computes kind over a with Python numbers ss (their float64
// values in Scalars, and for integer outputs their exact values in Ints).
func (rt *Runtime) numberValues(kind ExecKind, out, a *Tensor, ss ...Scalar) {
	fs := make([]float64, len(ss))
	for i, s := range ss {
		fs[i] = s.Value()
	}
	var ints []int64
	if a.dtype.IsIntegral(false) {
		ints, _ = exactScalars(ss...)
	}
	rt.compute(kind, []*Tensor{out}, []*Tensor{a}, fs, ints)
}

// InitExact is Init for an integer tensor from Python integers (ExecFill
// or ExecValues), passing them exactly as well.
func (rt *Runtime) InitExact(t *Tensor, kind ExecKind, ints []int64) {
	if rt.exec == nil || t == nil {
		return
	}
	fs := make([]float64, len(ints))
	for i, v := range ints {
		fs[i] = float64(v)
	}
	rt.compute(kind, []*Tensor{t}, nil, fs, ints)
}

// negScalar is −s, of s's kind.
func negScalar(s Scalar) Scalar {
	s.F, s.I = -s.F, -s.I
	if s.Kind == ScalarBool {
		s.Kind = ScalarInt
	}
	return s
}
