// Package pickle reads and writes Python pickles of plain data: the format of
// torch.cuda.memory._dump_snapshot() files that pytorch.org/memory_viz opens.
//
// Values are represented by these Go types:
//
//	None        nil
//	bool        bool
//	int         int64, or *big.Int when it does not fit in 64 bits
//	float       float64
//	str         string
//	bytes       []byte
//	list        []any
//	tuple       Tuple
//	dict        *Dict (keeps insertion order, like a Python dict)
//
// Anything else in a pickle (class instances, GLOBAL references, persistent ids)
// is rejected with an error: a snapshot is plain data.
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
