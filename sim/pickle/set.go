package pickle

// Set is a Python set, or a frozenset when Frozen is true. Items keep the
// order in which the pickle listed them (Python's own iteration order at
// pickling time); duplicates are dropped as Python would.
type Set struct {
	Items  []any
	Frozen bool
	index  map[any]struct{}
}

// NewSet returns an empty set (frozen selects frozenset).
func NewSet(frozen bool) *Set { return &Set{Frozen: frozen, index: map[any]struct{}{}} }

// Add inserts v unless an equal item is present. It fails with ErrUnhashable
// for items Python cannot hash (lists, dicts, sets, bytearrays).
func (s *Set) Add(v any) error {
	k, err := hashKey(v, nil, DefaultMaxDepth)
	if err != nil {
		return err
	}
	s.addHashed(k, v)
	return nil
}

// addHashed inserts v whose hash key k was already computed.
func (s *Set) addHashed(k, v any) {
	if s.index == nil {
		s.index = map[any]struct{}{}
	}
	if _, ok := s.index[k]; ok {
		return
	}
	s.index[k] = struct{}{}
	s.Items = append(s.Items, v)
}

// Has reports whether an item equal to v is in the set.
func (s *Set) Has(v any) bool {
	k, err := hashKey(v, nil, DefaultMaxDepth)
	if err != nil || s.index == nil {
		return false
	}
	_, ok := s.index[k]
	return ok
}

// Len returns the number of items.
func (s *Set) Len() int { return len(s.Items) }

// ByteArray is a Python bytearray (a mutable bytes object). It is distinct
// from []byte (Python bytes) so that a round trip keeps the type.
type ByteArray []byte
