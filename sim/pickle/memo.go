package pickle

// memo is the unpickler's memo table: dense for the indexes CPython emits
// (0, 1, 2, ... in order), with a map for arbitrary LONG_BINPUT indexes so a
// large index in the input never sizes an allocation.
type memo struct {
	dense  []any
	sparse map[uint64]any
}

// put stores v under index i.
func (m *memo) put(i uint64, v any) {
	n := uint64(len(m.dense))
	switch {
	case i < n:
		m.dense[i] = v
	case i == n:
		m.dense = append(m.dense, v)
		if m.sparse != nil {
			delete(m.sparse, i)
		}
	default:
		if m.sparse == nil {
			m.sparse = make(map[uint64]any)
		}
		m.sparse[i] = v
	}
}

// get returns the value stored under index i.
func (m *memo) get(i uint64) (any, bool) {
	if i < uint64(len(m.dense)) {
		return m.dense[i], true
	}
	v, ok := m.sparse[i]
	return v, ok
}

// size is the number of stored entries: the index MEMOIZE uses next.
func (m *memo) size() uint64 { return uint64(len(m.dense) + len(m.sparse)) }
