package pickle

import "fmt"

// SetItem sets d[k] = v like Set, but accepts every key Python can hash
// (including tuples, bytes and frozensets) and returns ErrUnhashable instead
// of panicking for keys that cannot be hashed.
func (d *Dict) SetItem(k, v any) error {
	h, err := hashKey(k, nil, DefaultMaxDepth)
	if err != nil {
		return err
	}
	d.setHashed(h, k, v)
	return nil
}

// Lookup returns d[k] like Get, but also finds tuple, bytes, frozenset and
// big-int keys; it reports false for unhashable keys instead of panicking.
func (d *Dict) Lookup(k any) (any, bool) {
	h, err := hashKey(k, nil, DefaultMaxDepth)
	if err != nil || d.index == nil {
		return nil, false
	}
	i, ok := d.index[h]
	if !ok {
		return nil, false
	}
	return d.Values[i], true
}

// setHashed sets d[k] = v where h = hashKey(k).
func (d *Dict) setHashed(h, k, v any) {
	if d.index == nil {
		d.index = make(map[any]int)
	}
	if i, ok := d.index[h]; ok {
		d.Values[i] = v
		return
	}
	d.index[h] = len(d.Keys)
	d.Keys = append(d.Keys, k)
	d.Values = append(d.Values, v)
}

// goTypeName formats the dynamic Go type of v for error messages.
func goTypeName(v any) string { return fmt.Sprintf("%T", v) }
