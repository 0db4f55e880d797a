package py

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// dictEntry is one slot of a dict in insertion order; key == nil marks a
// deleted slot.
type dictEntry struct {
	key, value Value
	hk         any
}

// dictCore is an insertion-ordered hash table shared by dict and set.
type dictCore struct {
	entries []dictEntry
	index   map[any]int32
	n       int
}

// customKey buckets values whose hash comes from a user __hash__: equal
// hashes are compared with __eq__.
type customKey struct{ h int64 }

// hashKey returns the Go map key that represents v, such that Python-equal
// hashable values map to equal keys (1 == 1.0 == True).
func (it *Interp) hashKey(v Value) (any, bool, error) {
	switch x := v.(type) {
	case Str:
		return string(x), false, nil
	case Int:
		return int64(x), false, nil
	case Bool:
		if x {
			return int64(1), false, nil
		}
		return int64(0), false, nil
	case Float:
		f := float64(x)
		if f == math.Trunc(f) && !math.IsInf(f, 0) {
			if f >= -9.2e18 && f <= 9.2e18 {
				return int64(f), false, nil
			}
			b, _ := new(big.Float).SetFloat64(f).Int(nil)
			return "\x00big" + b.String(), false, nil
		}
		return f, false, nil
	case *BigInt:
		return "\x00big" + x.v.String(), false, nil
	case NoneType, EllipsisType, NotImplementedType:
		return v, false, nil
	case *Tuple:
		var sb strings.Builder
		sb.WriteString("\x00tup(")
		for _, e := range x.elems {
			k, custom, err := it.hashKey(e)
			if err != nil {
				return nil, false, err
			}
			if custom {
				h, err := it.hash(e)
				if err != nil {
					return nil, false, err
				}
				return customKey{h}, true, nil
			}
			sb.WriteString(it.keyString(k))
			sb.WriteByte(',')
		}
		sb.WriteByte(')')
		return sb.String(), false, nil
	case *List, *Dict:
		return nil, false, newTypeError("unhashable type: '" + v.Type().Name + "'")
	case *Set:
		if !x.frozen {
			return nil, false, newTypeError("unhashable type: 'set'")
		}
		h, err := it.hash(v)
		if err != nil {
			return nil, false, err
		}
		return customKey{h}, true, nil
	case *Instance:
		cls := x.cls
		if hf := cls.Lookup("__hash__"); hf != nil {
			if hf == None {
				return nil, false, newTypeError("unhashable type: '" + cls.Name + "'")
			}
			if _, isFn := hf.(*Function); isFn {
				h, err := it.hash(v)
				if err != nil {
					return nil, false, err
				}
				return customKey{h}, true, nil
			}
		}
		return v, false, nil
	case HasHash:
		h, err := x.Hash(it)
		if err != nil {
			return nil, false, err
		}
		return customKey{h}, true, nil
	}
	return v, false, nil
}

// keyString renders a map key for a tuple's composite key.
func (it *Interp) keyString(k any) string {
	switch x := k.(type) {
	case string:
		return "s" + strconv.Quote(x)
	case int64:
		return "i" + strconv.FormatInt(x, 10)
	case float64:
		return "f" + strconv.FormatFloat(x, 'g', -1, 64)
	case customKey:
		return "h" + strconv.FormatInt(x.h, 10)
	}
	if o, ok := k.(Object); ok {
		return "p" + strconv.FormatUint(it.id(o), 16)
	}
	return "?"
}

// lookup finds key; it returns the entry index or -1.
func (it *Interp) dictLookup(d *dictCore, key Value) (int, any, error) {
	hk, custom, err := it.hashKey(key)
	if err != nil {
		return -1, nil, err
	}
	if !custom {
		if i, ok := d.index[hk]; ok {
			return int(i), hk, nil
		}
		return -1, hk, nil
	}
	for i := range d.entries {
		e := &d.entries[i]
		if e.key == nil || e.hk != hk {
			continue
		}
		if e.key == key {
			return i, hk, nil
		}
		eq, err := it.equal(e.key, key)
		if err != nil {
			return -1, nil, err
		}
		if eq {
			return i, hk, nil
		}
	}
	return -1, hk, nil
}

// insertNew appends a new entry (references already owned by the caller
// are taken over).
func (d *dictCore) insertNew(hk any, key, value Value) {
	if d.index == nil {
		d.index = make(map[any]int32)
	}
	if _, isCustom := hk.(customKey); !isCustom {
		d.index[hk] = int32(len(d.entries))
	}
	d.entries = append(d.entries, dictEntry{key: key, value: value, hk: hk})
	d.n++
}

// remove deletes entry i and returns its key and value (owned by the caller).
func (d *dictCore) remove(i int) (Value, Value) {
	e := d.entries[i]
	if _, isCustom := e.hk.(customKey); !isCustom {
		delete(d.index, e.hk)
	}
	d.entries[i] = dictEntry{}
	d.n--
	if d.n == 0 {
		d.entries = d.entries[:0]
	} else if len(d.entries) > 16 && d.n*2 < len(d.entries) {
		d.compact()
	}
	return e.key, e.value
}

func (d *dictCore) compact() {
	out := d.entries[:0]
	for _, e := range d.entries {
		if e.key != nil {
			out = append(out, e)
		}
	}
	for i := len(out); i < len(d.entries); i++ {
		d.entries[i] = dictEntry{}
	}
	d.entries = out
	for i, e := range out {
		if _, isCustom := e.hk.(customKey); !isCustom {
			d.index[e.hk] = int32(i)
		}
	}
}

// Dict is a Python dict (insertion ordered).
type Dict struct {
	Base
	dictCore
	cls     *Class // OrderedDict, defaultdict; nil for dict
	factory Value  // defaultdict's default_factory, or nil
}

// Type returns dict (or the dict flavour of collections).
func (d *Dict) Type() *Class {
	if d.cls != nil {
		return d.cls
	}
	return DictClass
}

// NewDict returns a new empty dict. Like CPython, it starts untracked by the
// cyclic collector and is tracked once it holds a container.
func (it *Interp) NewDict() *Dict {
	d := &Dict{}
	it.newGC(d, false)
	return d
}

func newImmortalDict() *Dict {
	d := &Dict{}
	d.flags |= flagImmortal
	return d
}

// Len returns the number of items.
func (d *Dict) Len() int { return d.n }

// getStr looks up a str key without hashing machinery (borrowed result).
func (d *Dict) getStr(name string) (Value, bool) {
	if d.index == nil {
		return nil, false
	}
	i, ok := d.index[name]
	if !ok {
		return nil, false
	}
	return d.entries[i].value, true
}

// setStrRaw stores a str key taking over v's reference, for building
// immortal class dicts (no release of an old value).
func (d *Dict) setStrRaw(name string, v Value) {
	if d.index != nil {
		if i, ok := d.index[name]; ok {
			d.entries[i].value = v
			return
		}
	}
	d.insertNew(name, Str(name), v)
}

// GetItem returns d[key] (borrowed) or found=false.
func (d *Dict) GetItem(it *Interp, key Value) (Value, bool, error) {
	i, _, err := it.dictLookup(&d.dictCore, key)
	if err != nil || i < 0 {
		return nil, false, err
	}
	return d.entries[i].value, true, nil
}

// SetItem stores d[key] = value; key and value are borrowed. A replaced
// value is released after the new one is stored, as CPython's insertdict.
func (d *Dict) SetItem(it *Interp, key, value Value) error {
	i, hk, err := it.dictLookup(&d.dictCore, key)
	if err != nil {
		return err
	}
	if i >= 0 {
		old := d.entries[i].value
		d.entries[i].value = IncRef(value)
		if isContainerValue(value) {
			it.maybeTrack(d)
		}
		it.DecRef(old)
		return nil
	}
	if err := it.checkSize(d.n + 1); err != nil {
		return err
	}
	d.insertNew(hk, IncRef(key), IncRef(value))
	if isContainerValue(value) || isContainerValue(key) {
		it.maybeTrack(d)
	}
	return nil
}

// SetStr stores d[name] = value (borrowed).
func (d *Dict) SetStr(it *Interp, name string, value Value) {
	if d.index != nil {
		if i, ok := d.index[name]; ok {
			old := d.entries[i].value
			d.entries[i].value = IncRef(value)
			if isContainerValue(value) {
				it.maybeTrack(d)
			}
			it.DecRef(old)
			return
		}
	}
	d.insertNew(name, Str(name), IncRef(value))
	if isContainerValue(value) {
		it.maybeTrack(d)
	}
}

// DelItem removes key; found=false if absent. The key and then the value
// are released.
func (d *Dict) DelItem(it *Interp, key Value) (bool, error) {
	i, _, err := it.dictLookup(&d.dictCore, key)
	if err != nil || i < 0 {
		return false, err
	}
	k, v := d.remove(i)
	it.DecRef(k)
	it.DecRef(v)
	return true, nil
}

// delStr removes a str key; found=false if absent.
func (d *Dict) delStr(it *Interp, name string) bool {
	if d.index == nil {
		return false
	}
	i, ok := d.index[name]
	if !ok {
		return false
	}
	k, v := d.remove(int(i))
	it.DecRef(k)
	it.DecRef(v)
	return true
}

// Items returns the live entries' keys and values (borrowed).
func (d *Dict) Items() (keys, values []Value) {
	for _, e := range d.entries {
		if e.key != nil {
			keys = append(keys, e.key)
			values = append(values, e.value)
		}
	}
	return keys, values
}

// dealloc releases keys and values interleaved in insertion order, as
// CPython's dict_dealloc / free_keys_object does for a combined table.
func (d *Dict) dealloc(it *Interp) {
	d.clear(it)
	if f := d.factory; f != nil {
		d.factory = nil
		it.DecRef(f)
	}
}

// clear empties the dict (dict.clear and tp_clear).
func (d *Dict) clear(it *Interp) {
	es := d.entries
	d.entries = nil
	d.index = nil
	d.n = 0
	for _, e := range es {
		if e.key != nil {
			it.DecRef(e.key)
			it.DecRef(e.value)
		}
	}
}

func (d *Dict) traverse(visit func(Value)) {
	for _, e := range d.entries {
		if e.key != nil {
			visit(e.key)
			visit(e.value)
		}
	}
}

// Set is a Python set or frozenset.
type Set struct {
	Base
	dictCore
	frozen bool
	// tbl mirrors CPython's hash table for the iteration order (settable.go);
	// unordered: an element's CPython hash is not reproducible, the set
	// iterates in insertion order.
	tbl       *setTable
	unordered bool
	finger    int // set_pop's search finger (kept by clear and swaps)
}

// Type returns set or frozenset.
func (s *Set) Type() *Class {
	if s.frozen {
		return FrozenSetClass
	}
	return SetClass
}

// NewSet returns a new empty set.
func (it *Interp) NewSet() *Set {
	s := &Set{}
	it.newGC(s, true)
	return s
}

// Add inserts v (borrowed).
func (s *Set) Add(it *Interp, v Value) error {
	i, hk, err := it.dictLookup(&s.dictCore, v)
	if err != nil || i >= 0 {
		return err
	}
	if err := it.checkSize(s.n + 1); err != nil {
		return err
	}
	s.insertNew(hk, IncRef(v), nil)
	s.tblAdd(v, hk)
	return nil
}

// tblAdd records a new element in the mirror table.
func (s *Set) tblAdd(v Value, hk any) {
	if s.unordered {
		return
	}
	h, ok := cpyHash(v, hk)
	if !ok {
		s.unordered, s.tbl = true, nil
		return
	}
	if s.tbl == nil {
		s.tbl = newSetTable()
	}
	s.tbl.insert(v, h)
}

// removeAt deletes entry i (set_discard_entry) and returns its key (owned
// by the caller).
func (s *Set) removeAt(i int) Value {
	e := s.entries[i]
	if s.tbl != nil {
		if h, ok := cpyHash(e.key, e.hk); ok {
			s.tbl.discard(e.key, h)
		}
	}
	k, _ := s.remove(i)
	return k
}

// entryOf returns the entry index of key, an element of the set, or -1.
// It calls no Python __hash__: instances are found by identity.
func (it *Interp) entryOf(s *Set, key Value) int {
	if _, ok := key.(*Instance); !ok {
		if hk, custom, err := it.hashKey(key); err == nil && !custom {
			if j, ok := s.index[hk]; ok {
				return int(j)
			}
			return -1
		}
	}
	for i, e := range s.entries {
		if e.key != nil && sameKey(e.key, key) {
			return i
		}
	}
	return -1
}

// ordered returns the elements (borrowed) in iteration order.
func (s *Set) ordered() []Value {
	if s.tbl != nil {
		return s.tbl.keys()
	}
	out := make([]Value, 0, s.n)
	for _, e := range s.entries {
		if e.key != nil {
			out = append(out, e.key)
		}
	}
	return out
}

// Contains reports whether v is in the set.
func (s *Set) Contains(it *Interp, v Value) (bool, error) {
	i, _, err := it.dictLookup(&s.dictCore, v)
	return i >= 0, err
}

// Len returns the number of elements.
func (s *Set) Len() int { return s.n }

func (s *Set) elemsList() []Value { return s.ordered() }

// dealloc releases the elements in iteration order (set_dealloc).
func (s *Set) dealloc(it *Interp) { s.clear(it) }

// clear empties the set (set_clear_internal: a fresh table, then the old
// elements are released in table order).
func (s *Set) clear(it *Interp) {
	ks := s.ordered()
	s.entries = nil
	s.index = nil
	s.n = 0
	if s.tbl != nil {
		s.tbl = newSetTable()
	}
	s.unordered = false
	for _, k := range ks {
		it.DecRef(k)
	}
}

func (s *Set) traverse(visit func(Value)) {
	if s.tbl != nil {
		for _, e := range s.tbl.slots {
			if e.state == slotActive {
				visit(e.key)
			}
		}
		return
	}
	for _, e := range s.entries {
		if e.key != nil {
			visit(e.key)
		}
	}
}
