package pickle

import (
	"encoding/binary"
	"math"
	"math/big"
	"slices"
	"strconv"
)

// hashedKey is the map key used for hashable values that Go cannot use as a
// map key directly (tuples, bytes, frozensets, big ints): a self-delimiting
// byte encoding of the value, so equal values get equal keys.
type hashedKey string

// kindError is an error carrying one of the Err* kinds and a message; the
// decoder turns it into a DecodeError at the current offset.
type kindError struct {
	kind error
	msg  string
}

func (e *kindError) Error() string { return e.kind.Error() + ": " + e.msg }
func (e *kindError) Unwrap() error { return e.kind }

// hashKey returns the key under which v is stored in a Dict or Set index.
// Strings, ints, floats, bools and None key as themselves (so Dict.Get works
// with them); other hashable values key as a hashedKey. b, when not nil,
// is charged for the encoding, which bounds memo-amplified tuple keys.
func hashKey(v any, b *budget, maxDepth int) (any, error) {
	switch x := v.(type) {
	case nil, bool, string, int64, float64:
		return v, nil
	case int:
		return int64(x), nil
	case int32:
		return int64(x), nil
	case float32:
		return float64(x), nil
	case *big.Int:
		if x.IsInt64() {
			return x.Int64(), nil
		}
	}
	h := keyEncoder{budget: b, maxDepth: maxDepth}
	if err := h.add(v, 0); err != nil {
		return nil, err
	}
	return hashedKey(h.buf), nil
}

// keyEncoder builds a hashedKey.
type keyEncoder struct {
	buf      []byte
	budget   *budget
	maxDepth int
}

// maxKeyBytes bounds the encoding of one dict key or set item. Real keys are
// short; the bound stops memo-shared tuples from costing exponential time.
const maxKeyBytes = 1 << 20

// grow charges the budget for n more bytes of key.
func (h *keyEncoder) grow(n int) error {
	if len(h.buf)+n > maxKeyBytes {
		return &kindError{ErrLimit, "dict key or set item larger than 1 MiB when encoded"}
	}
	if h.budget != nil && !h.budget.take(int64(n)) {
		return &kindError{ErrLimit, "dict key or set item encoding exceeds MaxBytes"}
	}
	return nil
}

// add appends the encoding of v.
func (h *keyEncoder) add(v any, depth int) error {
	if depth > h.maxDepth {
		return &kindError{ErrLimit, "dict key or set item nested deeper than MaxDepth"}
	}
	switch x := v.(type) {
	case nil:
		return h.raw("N")
	case bool:
		if x {
			return h.raw("T")
		}
		return h.raw("F")
	case int64:
		return h.raw("i" + strconv.FormatInt(x, 10) + ";")
	case int:
		return h.raw("i" + strconv.Itoa(x) + ";")
	case int32:
		return h.raw("i" + strconv.FormatInt(int64(x), 10) + ";")
	case *big.Int:
		return h.raw("i" + x.String() + ";")
	case float32:
		return h.add(float64(x), depth)
	case float64:
		if x == 0 {
			x = 0 // -0.0 == 0.0 in Python
		}
		var b [9]byte
		b[0] = 'f'
		binary.BigEndian.PutUint64(b[1:], math.Float64bits(x))
		return h.raw(string(b[:]))
	case string:
		return h.lenPrefixed('s', x)
	case []byte:
		return h.lenPrefixed('b', string(x))
	case Tuple:
		return h.tuple(x, depth)
	case *ptuple:
		return h.tuple(x.items, depth)
	case *Set:
		if !x.Frozen {
			return &kindError{ErrUnhashable, "unhashable type: 'set'"}
		}
		return h.frozenset(x, depth)
	}
	return &kindError{ErrUnhashable, "unhashable type: '" + pyTypeName(v) + "'"}
}

// raw appends s.
func (h *keyEncoder) raw(s string) error {
	if err := h.grow(len(s)); err != nil {
		return err
	}
	h.buf = append(h.buf, s...)
	return nil
}

// lenPrefixed appends tag, the length of s, ':' and s.
func (h *keyEncoder) lenPrefixed(tag byte, s string) error {
	if err := h.raw(string(tag) + strconv.Itoa(len(s)) + ":"); err != nil {
		return err
	}
	return h.raw(s)
}

// tuple appends '(' items ')'.
func (h *keyEncoder) tuple(items []any, depth int) error {
	if err := h.raw("("); err != nil {
		return err
	}
	for _, it := range items {
		if err := h.add(it, depth+1); err != nil {
			return err
		}
	}
	return h.raw(")")
}

// frozenset appends '{' sorted item encodings '}', so that equal sets listed
// in different orders get the same key.
func (h *keyEncoder) frozenset(s *Set, depth int) error {
	parts := make([]string, 0, len(s.Items))
	for _, it := range s.Items {
		sub := keyEncoder{budget: h.budget, maxDepth: h.maxDepth}
		if err := sub.add(it, depth+1); err != nil {
			return err
		}
		parts = append(parts, string(sub.buf))
	}
	slices.Sort(parts)
	if err := h.raw("{"); err != nil {
		return err
	}
	for _, p := range parts {
		if len(h.buf)+len(p) > maxKeyBytes {
			return &kindError{ErrLimit, "dict key or set item larger than 1 MiB when encoded"}
		}
		// Already charged to the budget when sub-encoded.
		h.buf = append(h.buf, p...)
	}
	return h.raw("}")
}

// pyTypeName names the Python type a decoded or encodable Go value stands for.
func pyTypeName(v any) string {
	switch x := v.(type) {
	case nil:
		return "NoneType"
	case bool:
		return "bool"
	case int64, int, int32, *big.Int:
		return "int"
	case float64, float32:
		return "float"
	case string:
		return "str"
	case []byte:
		return "bytes"
	case ByteArray:
		return "bytearray"
	case []any, *plist:
		return "list"
	case Tuple, *ptuple:
		return "tuple"
	case *Dict:
		return "dict"
	case *Set:
		if x.Frozen {
			return "frozenset"
		}
		return "set"
	case globalRef:
		return x.module + "." + x.name
	}
	return "Go " + goTypeName(v)
}
