package py

import (
	"math"
	"math/big"
)

// CPython's set iteration order.
//
// A set iterates (and releases its elements) in the order of CPython's hash
// table, not in insertion order. For elements whose hash CPython computes
// the same in every process (ints, bools, floats, None, tuples of those,
// instances with a Python __hash__) the order is reproducible, so each set
// keeps a mirror of setobject.c's table (setTable): the same open
// addressing, linear probing (LINEAR_PROBES = 9) with perturbation, dummy
// slots, fill/used counts and resize rules, driven by the same operations
// (set_add_entry, set_discard_entry, set_pop, set_merge, set_table_resize).
// Strings (randomised hashes) and objects hashed by address make CPython's
// own order differ from run to run; a set that ever holds one iterates in
// insertion order instead (Set.unordered).

const (
	setMinSize   = 8
	linearProbes = 9
	perturbShift = 5
	hashModulus  = 1<<61 - 1 // _PyHASH_MODULUS
	hashBits     = 61
	hashInf      = 314159
	hashNone     = 0xFCA86420 // 3.12: hash(None) is a constant
)

// setSlot is a setentry: unused, active or dummy.
type setSlot struct {
	key   Value
	hash  uint64
	state uint8 // slotUnused, slotActive, slotDummy
}

const (
	slotUnused uint8 = iota
	slotActive
	slotDummy
)

// setTable mirrors a PySetObject's table; it holds borrowed keys (the
// Set's entries own them).
type setTable struct {
	slots []setSlot
	fill  int
	used  int
}

func newSetTable() *setTable { return &setTable{slots: make([]setSlot, setMinSize)} }

func (t *setTable) mask() uint64 { return uint64(len(t.slots) - 1) }

// insert is set_add_entry for a key known to be absent.
func (t *setTable) insert(key Value, h uint64) {
	mask := t.mask()
	i := h & mask
	perturb := h
	free := -1
	for {
		probes := 0
		if i+linearProbes <= mask {
			probes = linearProbes
		}
		j := int(i)
		for {
			e := &t.slots[j]
			if e.state == slotUnused {
				if free >= 0 {
					t.slots[free] = setSlot{key: key, hash: h, state: slotActive}
					t.used++
					return
				}
				*e = setSlot{key: key, hash: h, state: slotActive}
				t.fill++
				t.used++
				if uint64(t.fill)*5 < mask*3 {
					return
				}
				if t.used > 50000 {
					t.resize(t.used * 2)
				} else {
					t.resize(t.used * 4)
				}
				return
			}
			if e.state == slotDummy {
				free = j
			}
			if probes == 0 {
				break
			}
			probes--
			j++
		}
		perturb >>= perturbShift
		i = (i*5 + 1 + perturb) & mask
	}
}

// insertClean is set_insert_clean: place key in a table without dummies
// (fill and used are the caller's).
func insertClean(slots []setSlot, key Value, h uint64) {
	mask := uint64(len(slots) - 1)
	i := h & mask
	perturb := h
	for {
		if slots[i].state == slotUnused {
			slots[i] = setSlot{key: key, hash: h, state: slotActive}
			return
		}
		if i+linearProbes <= mask {
			for j := i + 1; j <= i+linearProbes; j++ {
				if slots[j].state == slotUnused {
					slots[j] = setSlot{key: key, hash: h, state: slotActive}
					return
				}
			}
		}
		perturb >>= perturbShift
		i = (i*5 + 1 + perturb) & mask
	}
}

// resize is set_table_resize.
func (t *setTable) resize(minused int) {
	newsize := setMinSize
	for newsize <= minused {
		newsize <<= 1
	}
	if newsize == setMinSize && len(t.slots) == setMinSize && t.fill == t.used {
		return // no dummies, nothing to do
	}
	old := t.slots
	t.slots = make([]setSlot, newsize)
	t.fill = t.used
	for _, e := range old {
		if e.state == slotActive {
			insertClean(t.slots, e.key, e.hash)
		}
	}
}

// find returns the slot of key (an element of the set, compared by
// identity), probing as set_lookkey does, or -1.
func (t *setTable) find(key Value, h uint64) int {
	mask := t.mask()
	i := h & mask
	perturb := h
	for {
		probes := 0
		if i+linearProbes <= mask {
			probes = linearProbes
		}
		for j := int(i); ; j++ {
			e := &t.slots[j]
			if e.state == slotUnused {
				return -1
			}
			if e.state == slotActive && e.hash == h && sameKey(e.key, key) {
				return j
			}
			if probes == 0 {
				break
			}
			probes--
		}
		perturb >>= perturbShift
		i = (i*5 + 1 + perturb) & mask
	}
}

// sameKey compares two set elements by identity (atoms by value).
func sameKey(a, b Value) bool {
	if x, ok := a.(*BigInt); ok {
		y, ok := b.(*BigInt)
		return ok && x.v.Cmp(y.v) == 0
	}
	return a == b
}

// discard is set_discard_entry for a present key.
func (t *setTable) discard(key Value, h uint64) {
	if j := t.find(key, h); j >= 0 {
		t.slots[j] = setSlot{state: slotDummy, hash: math.MaxUint64}
		t.used--
	}
}

// pop is set_pop: the next active slot from the search finger; it returns
// the key and the new finger.
func (t *setTable) pop(finger int) (Value, int) {
	mask := int(t.mask())
	j := finger & mask
	for t.slots[j].state != slotActive {
		j++
		if j > mask {
			j = 0
		}
	}
	key := t.slots[j].key
	t.slots[j] = setSlot{state: slotDummy, hash: math.MaxUint64}
	t.used--
	return key, j + 1
}

// keys returns the active keys in table order.
func (t *setTable) keys() []Value {
	out := make([]Value, 0, t.used)
	for _, e := range t.slots {
		if e.state == slotActive {
			out = append(out, e.key)
		}
	}
	return out
}

// cpyHash returns CPython's hash of a set element when it is the same in
// every process; hk is the element's hashKey (customKey for a Python
// __hash__).
func cpyHash(v Value, hk any) (uint64, bool) {
	switch x := v.(type) {
	case Int:
		return intHash(int64(x)), true
	case Bool:
		if x {
			return 1, true
		}
		return 0, true
	case *BigInt:
		return bigHash(x.v), true
	case Float:
		return floatHash(float64(x))
	case NoneType:
		return hashNone, true
	case *Tuple:
		return tupleHash(x)
	case *Instance:
		if ck, ok := hk.(customKey); ok {
			return uint64(ck.h), true
		}
	}
	return 0, false
}

// intHash is long_hash for an int64.
func intHash(x int64) uint64 {
	neg := x < 0
	a := uint64(x)
	if neg {
		a = -a
	}
	a %= hashModulus
	h := int64(a)
	if neg {
		h = -h
	}
	if h == -1 {
		h = -2
	}
	return uint64(h)
}

// bigHash is long_hash for an int outside int64.
func bigHash(x *big.Int) uint64 {
	m := new(big.Int).Abs(x)
	m.Mod(m, big.NewInt(hashModulus))
	h := m.Int64()
	if x.Sign() < 0 {
		h = -h
	}
	if h == -1 {
		h = -2
	}
	return uint64(h)
}

// floatHash is _Py_HashDouble (NaN hashes by address: not reproducible).
func floatHash(v float64) (uint64, bool) {
	if math.IsInf(v, 1) {
		return hashInf, true
	}
	if math.IsInf(v, -1) {
		h := int64(-hashInf)
		return uint64(h), true
	}
	if math.IsNaN(v) {
		return 0, false
	}
	m, e := math.Frexp(v)
	sign := uint64(1)
	if m < 0 {
		sign = math.MaxUint64 // -1
		m = -m
	}
	var x uint64
	for m != 0 {
		x = ((x << 28) & hashModulus) | x>>(hashBits-28)
		m *= 268435456.0
		e -= 28
		y := uint64(m)
		m -= float64(y)
		x += y
		if x >= hashModulus {
			x -= hashModulus
		}
	}
	if e >= 0 {
		e %= hashBits
	} else {
		e = hashBits - 1 - ((-1 - e) % hashBits)
	}
	x = ((x << uint(e)) & hashModulus) | x>>(hashBits-uint(e))
	x *= sign
	if x == math.MaxUint64 {
		x = math.MaxUint64 - 1
	}
	return x, true
}

// tupleHash is tuplehash (xxHash-based) of reproducible elements.
func tupleHash(t *Tuple) (uint64, bool) {
	const (
		prime1 = 11400714785074694791
		prime2 = 14029467366897019727
		prime5 = 2870177450012600261
	)
	acc := uint64(prime5)
	for _, e := range t.elems {
		if _, ok := e.(*Instance); ok {
			return 0, false // its __hash__ would run again
		}
		lane, ok := cpyHash(e, nil)
		if !ok {
			return 0, false
		}
		acc += lane * prime2
		acc = acc<<31 | acc>>33
		acc *= prime1
	}
	acc += uint64(len(t.elems)) ^ (prime5 ^ 3527539)
	if acc == math.MaxUint64 {
		return 1546275796, true
	}
	return acc, true
}
