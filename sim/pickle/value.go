package pickle

// Tuple is a Python tuple.
type Tuple []any

// Dict is a Python dict: an ordered list of key/value pairs. Keys are
// comparable Go values (string, int64, bool, nil, float64, Tuple is not allowed).
type Dict struct {
	Keys   []any
	Values []any
	index  map[any]int
}

// NewDict returns an empty dict.
func NewDict() *Dict { return &Dict{index: map[any]int{}} }

// Set sets d[k] = v, keeping the position of an existing key.
//
// Not inlined: snapshot builders call it hundreds of times with constant
// keys, and inlining each call made sim/alloc's Snapshot.PickleValue 59 KB
// of WebAssembly (8 KB without), for no speed that matters on that path.
//
//go:noinline
func (d *Dict) Set(k, v any) {
	if d.index == nil {
		d.index = map[any]int{}
	}
	if i, ok := d.index[k]; ok {
		d.Values[i] = v
		return
	}
	d.index[k] = len(d.Keys)
	d.Keys = append(d.Keys, k)
	d.Values = append(d.Values, v)
}

// Get returns d[k] and whether it was present.
func (d *Dict) Get(k any) (any, bool) {
	if d.index == nil {
		return nil, false
	}
	i, ok := d.index[k]
	if !ok {
		return nil, false
	}
	return d.Values[i], true
}

// Len returns the number of keys.
func (d *Dict) Len() int { return len(d.Keys) }
