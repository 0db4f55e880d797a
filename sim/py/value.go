package py

import (
	"math/big"
)

// Value is any Python value. Every value knows its Python type; the type
// decides attribute lookup, operators and printing.
//
// Immutable atoms (None, bool, int, float, str, Ellipsis) are plain Go
// values: their deaths are unobservable in CPython (no finalizer can run), so
// they are not reference counted. Everything else implements Object and is.
type Value interface {
	Type() *Class
}

// Object is a reference-counted Python value. Host types become Objects by
// embedding Base (as a value, not a pointer), the way CPython types start with
// PyObject_HEAD.
type Object interface {
	Value
	base() *Base
}

// Base is the header of every reference-counted object: its reference count,
// its place in the cyclic collector's generation lists and its identity.
//
// The zero Base holds exactly one reference: a freshly built object is a new
// reference owned by its creator, as in CPython.
type Base struct {
	extra  int64 // reference count minus one
	flags  uint32
	gen    int8
	gcRefs int64  // collector scratch
	id     uint64 // id(), assigned lazily
	prev   Object // generation list links, nil when untracked
	next   Object
}

func (b *Base) base() *Base { return b }

// Refcount flags.
const (
	flagImmortal  uint32 = 1 << iota // shared, never counted (3.12 immortal objects)
	flagTracked                      // in a generation list of the cyclic collector
	flagFinalized                    // __del__/Finalize already ran (PEP 442)
	flagDead                         // deallocated; any further use is a bug
	flagReachable                    // collector scratch
	flagUnreach                      // collector scratch
	flagGCType                       // counted by the collector's allocation counter
)

// RefCount reports v's reference count as sys.getrefcount would count it
// without its own argument reference. Atoms and immortal objects report
// 4294967295, CPython 3.12's value for immortal objects.
func RefCount(v Value) int64 {
	o, ok := v.(Object)
	if !ok {
		return 4294967295
	}
	b := o.base()
	if b.flags&flagImmortal != 0 {
		return 4294967295
	}
	return b.extra + 1
}

// IncRef adds a reference to v and returns v. It is a no-op for atoms and
// immortal objects. Use it when storing a borrowed value somewhere that
// outlives the call (a field of a host object, a container).
func IncRef(v Value) Value {
	if o, ok := v.(Object); ok {
		b := o.base()
		if b.flags&flagImmortal == 0 {
			b.extra++
		}
	}
	return v
}

// NoneType is the type of None.
type NoneType struct{}

// None is Python's None.
var None Value = NoneType{}

// EllipsisType is the type of Ellipsis (...).
type EllipsisType struct{}

// Ellipsis is Python's Ellipsis.
var Ellipsis Value = EllipsisType{}

// NotImplementedType is the type of NotImplemented.
type NotImplementedType struct{}

// NotImplemented is returned by binary operator methods that do not handle
// the other operand, so the reflected method is tried.
var NotImplemented Value = NotImplementedType{}

// Bool is a Python bool.
type Bool bool

// True and False are Python's booleans.
const (
	True  = Bool(true)
	False = Bool(false)
)

// Int is a Python int that fits in int64. Results that overflow become
// *BigInt; a *BigInt is never within int64 range.
type Int int64

// BigInt is a Python int outside the int64 range.
type BigInt struct{ v *big.Int }

// Float is a Python float.
type Float float64

// Str is a Python str (UTF-8 encoded; indexing counts code points).
type Str string

// Type implementations of the atoms.
func (NoneType) Type() *Class           { return NoneClass }
func (EllipsisType) Type() *Class       { return EllipsisClass }
func (NotImplementedType) Type() *Class { return NotImplementedClass }
func (Bool) Type() *Class               { return BoolClass }
func (Int) Type() *Class                { return IntClass }
func (*BigInt) Type() *Class            { return IntClass }
func (Float) Type() *Class              { return FloatClass }
func (Str) Type() *Class                { return StrClass }

// MakeInt returns the Python int for a *big.Int (normalising to Int when it
// fits in int64). The argument is not retained.
func MakeInt(x *big.Int) Value {
	if x.IsInt64() {
		return Int(x.Int64())
	}
	return &BigInt{new(big.Int).Set(x)}
}

// Big returns the value of an int as a new *big.Int.
func (b *BigInt) Big() *big.Int { return new(big.Int).Set(b.v) }

// Bool returns Python's bool of b.
func boolOf(b bool) Value {
	if b {
		return True
	}
	return False
}
