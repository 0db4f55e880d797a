package torch

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Printing computed values as torch/_tensor_str.py does with the default
// print options (precision 4, threshold 1000, edgeitems 3, linewidth 80).
const (
	printPrecision = 4
	printThreshold = 1000
	printEdge      = 3
	printLineWidth = 80
)

// valueFormatter is _Formatter: one width and one mode for every element.
// As PyTorch, a floating tensor's width comes from its non-zero finite
// values only (inf, nan and 0 are padded to it, never widen it), and it is
// at least 1.
type valueFormatter struct {
	floating bool
	intMode  bool // floats that are all integers: "1."
	sciMode  bool
	isBool   bool
	width    int
	// intBits: the values are int64s carried in the float64s' bits
	// (formatIntValues), printed exactly.
	intBits bool
}

func newValueFormatter(dt DType, vals []float64) valueFormatter {
	f := valueFormatter{floating: dt.IsFloating(), isBool: dt == Bool, width: 1}
	if !f.floating {
		for _, v := range vals {
			f.width = max(f.width, len(f.plain(v)))
		}
		return f
	}
	f.intMode = true
	var finite []float64
	for _, v := range vals {
		if math.IsInf(v, 0) || math.IsNaN(v) || v == 0 {
			continue
		}
		finite = append(finite, v)
		if v != math.Ceil(v) {
			f.intMode = false
		}
	}
	if len(finite) == 0 {
		return f
	}
	lo, hi := math.Abs(finite[0]), math.Abs(finite[0])
	for _, v := range finite {
		lo, hi = math.Min(lo, math.Abs(v)), math.Max(hi, math.Abs(v))
	}
	if f.intMode {
		f.sciMode = hi/lo > 1000 || hi > 1e8
	} else {
		f.sciMode = hi/lo > 1000 || hi > 1e8 || lo < 1e-4
	}
	for _, v := range finite {
		f.width = max(f.width, len(f.plain(v)))
	}
	return f
}

// plain formats one value without padding.
func (f valueFormatter) plain(v float64) string {
	switch {
	case f.intBits:
		return intBitsString(v)
	case f.isBool:
		if v != 0 {
			return "True"
		}
		return "False"
	case !f.floating:
		return strconv.FormatInt(int64(v), 10)
	case math.IsNaN(v):
		return "nan"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	case f.sciMode:
		return fmt.Sprintf("%.*e", printPrecision, v)
	case f.intMode:
		return fmt.Sprintf("%.0f.", v)
	}
	return fmt.Sprintf("%.*f", printPrecision, v)
}

func (f valueFormatter) format(v float64) string {
	s := f.plain(v)
	return strings.Repeat(" ", max(f.width-len(s), 0)) + s
}

// formatValues is _tensor_str's body for values in row-major order.
func formatValues(shape []int64, dt DType, vals []float64, indent int) string {
	if len(shape) == 0 {
		return newValueFormatter(dt, vals).plain(vals[0])
	}
	summarize := int64(len(vals)) > printThreshold
	f := newValueFormatter(dt, summarized(shape, vals, summarize))
	return formatDims(shape, contiguousStrides(shape), 0, vals, f, indent, summarize)
}

// summarized lists the values that are shown (_get_summarized_data).
func summarized(shape []int64, vals []float64, summarize bool) []float64 {
	if !summarize {
		return vals
	}
	var out []float64
	var walk func(d int, off int64)
	st := contiguousStrides(shape)
	walk = func(d int, off int64) {
		if d == len(shape) {
			out = append(out, vals[off])
			return
		}
		for _, i := range shownIndices(shape[d]) {
			walk(d+1, off+i*st[d])
		}
	}
	walk(0, 0)
	return out
}

// shownIndices are the indices of a dimension that are printed.
func shownIndices(n int64) []int64 {
	var out []int64
	if n > 2*printEdge {
		for i := int64(0); i < printEdge; i++ {
			out = append(out, i)
		}
		for i := n - printEdge; i < n; i++ {
			out = append(out, i)
		}
		return out
	}
	for i := int64(0); i < n; i++ {
		out = append(out, i)
	}
	return out
}

func formatDims(shape, st []int64, off int64, vals []float64, f valueFormatter, indent int, summarize bool) string {
	n := shape[0]
	if len(shape) == 1 {
		var elems []string
		for _, i := range shownIndicesOr(n, summarize) {
			if i < 0 {
				elems = append(elems, " ...") // _vector_str's " ..."
				continue
			}
			elems = append(elems, f.format(vals[off+i*st[0]]))
		}
		perLine := max(1, (printLineWidth-indent)/(f.width+2))
		var lines []string
		for i := 0; i < len(elems); i += perLine {
			lines = append(lines, strings.Join(elems[i:min(i+perLine, len(elems))], ", "))
		}
		return "[" + strings.Join(lines, ",\n"+strings.Repeat(" ", indent+1)) + "]"
	}
	var parts []string
	for _, i := range shownIndicesOr(n, summarize) {
		if i < 0 {
			parts = append(parts, "...")
			continue
		}
		parts = append(parts, formatDims(shape[1:], st[1:], off+i*st[0], vals, f, indent+1, summarize))
	}
	sep := "," + strings.Repeat("\n", len(shape)-1) + strings.Repeat(" ", indent+1)
	return "[" + strings.Join(parts, sep) + "]"
}

// shownIndicesOr is shownIndices with -1 where "..." goes.
func shownIndicesOr(n int64, summarize bool) []int64 {
	if !summarize || n <= 2*printEdge {
		out := make([]int64, n)
		for i := range out {
			out[i] = int64(i)
		}
		return out
	}
	idx := shownIndices(n)
	return append(append(append([]int64{}, idx[:printEdge]...), -1), idx[printEdge:]...)
}

// valueRepr is the repr of t with its computed values, e.g.
// "tensor([1.0000, 2.0000], device='cuda:0', requires_grad=True)"; ok is
// false if they were not computed.
func (t *Tensor) valueRepr() (string, bool) {
	vals, err := t.rt.Values(t)
	if t.dtype.IsIntegral(false) && errors.Is(err, ErrNotComputed) {
		// int64 values beyond 2^53: Values refuses them, IntValues reads them
		if ints, ierr := t.IntValues(); ierr == nil {
			vals, err = make([]float64, len(ints)), nil
		}
	}
	if err != nil {
		return "", false
	}
	const prefix = "tensor("
	var suffixes []string
	if t.device.IsCUDA() {
		suffixes = append(suffixes, fmt.Sprintf("device='%s'", t.device))
	}
	body := "[]"
	defaultType := t.dtype == Float32 || t.dtype == Int64 || t.dtype == Bool
	if t.Numel() == 0 {
		if len(t.shape) != 1 {
			suffixes = append(suffixes, "size="+shapeTuple(t.shape))
		}
		// An empty tensor shows every dtype but the default one.
		defaultType = t.dtype == Float32
	} else if ints, err := t.IntValues(); err == nil && t.dtype != Bool {
		body = formatIntValues(t.shape, ints, len(prefix))
	} else {
		body = formatValues(t.shape, t.dtype, vals, len(prefix))
	}
	if !defaultType {
		suffixes = append(suffixes, fmt.Sprintf("dtype=%s", t.dtype))
	}
	switch {
	case t.gradFn != nil:
		suffixes = append(suffixes, fmt.Sprintf("grad_fn=<%s>", t.gradFn.name))
	case t.requiresGrad:
		suffixes = append(suffixes, "requires_grad=True")
	}
	return addSuffixes(prefix+body, suffixes, len(prefix)), true
}

// addSuffixes is _add_suffixes: each suffix goes after ", " on the last
// line, or on a new line indented by indent when the line would pass the
// line width. last counts two more than the last line's length, as
// PyTorch's len(s) - s.rfind("\n") + 1 does.
func addSuffixes(s string, suffixes []string, indent int) string {
	var b strings.Builder
	b.WriteString(s)
	last := len(s) - strings.LastIndexByte(s, '\n') + 1
	for _, suf := range suffixes {
		if last+len(suf)+2 > printLineWidth {
			b.WriteString(",\n" + strings.Repeat(" ", indent) + suf)
			last = indent + len(suf)
			continue
		}
		b.WriteString(", " + suf)
		last += len(suf) + 2
	}
	b.WriteString(")")
	return b.String()
}

func shapeTuple(shape []int64) string {
	parts := make([]string, len(shape))
	for i, s := range shape {
		parts[i] = strconv.FormatInt(s, 10)
	}
	if len(parts) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
