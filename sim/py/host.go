package py

// This file is the host API: everything a Go package (sim/torch) needs to
// expose Go values, modules and exceptions to scripts, and to observe a run.
//
// # Runs
//
// One *Interp per run; it holds all mutable state (modules, the collector,
// counters), so concurrent runs never share anything mutable. Builtin types,
// builtin functions and builtin exception classes are immortal and shared
// (they are never mutated and never counted), like CPython 3.12's immortal
// objects.
//
//	it := py.New(py.Options{Stdout: &buf, Limits: lim, Env: env, Filename: "<script>",
//		OnLine: func(line int) { ... }, OnBind: func(name string, v py.Value) { ... }})
//	it.RegisterModule("torch", buildTorch)                    // Go module
//	it.RegisterSource("torch.nn", "<torch>/nn/__init__.py", src, py.Package|py.HideFrames)
//	err := it.ExecScript(ctx, script)                         // *py.ScriptError or nil
//
// The toolbox: NewModule / Module.Set / Module.Add, NewBuiltin, NewHostClass,
// NewExceptionClass, NewException, Errorf, UnpackArgs, NewTuple, NewList,
// NewDict (Dict.SetItem/GetItem/SetStr), NewIterator, Interp.Call, GetAttr,
// SetAttr, GetItem, SetItem, Import, Truth, Str, Repr, IncRef / DecRef,
// Track, Collect (gc.collect), Leaks (debug), FormatException, Line, Steps,
// Getenv (os.environ as the script left it), AdvanceClock.
//
// ExecScript runs the script as __main__ in a fresh globals dict, then
// releases that dict (unless reference cycles keep it, exactly as CPython's
// exec), so every object the script left in globals is released, in
// insertion order, before ExecScript returns — the moment the oracle
// harness takes its final "-1" row.
//
// # Reference ownership (read this before writing host code)
//
//   - Arguments are BORROWED: a function, method or hook receiving Values
//     (args, kwargs, other, key, ...) must not DecRef them; to keep one beyond
//     the call (store it in a Go field) call py.IncRef on it, and DecRef it
//     when dropping it (usually in Finalize).
//   - Results are NEW references: a function or method returns a value it
//     owns (a freshly built object has exactly one reference; to return a
//     value you also keep, IncRef it first). Returning a shared atom (None,
//     Int, Str, ...) needs nothing.
//   - Interp.Call, Interp.GetAttr, Interp.Import, ... follow the same rule:
//     arguments borrowed, result new; release results with it.DecRef.
//   - Errors: a Python exception is an error of type *Instance (a new
//     reference owned by whoever returns it); make one with NewException.
//
// Atoms (None, Bool, Int, *BigInt, Float, Str, Ellipsis) are not counted;
// IncRef/DecRef on them are no-ops, so generic code can call them freely.
//
// # Host objects
//
// A host type is a Go struct that embeds py.Base (first field, by value) and
// has a method Type() *py.Class returning a class made by NewHostClass. A
// zero Base holds one reference, so &Tensor{...} is a new reference. Host
// objects that hold Python values must call it.Track(obj) once when built
// (so the cyclic collector sees them, and gc's allocation counter moves as
// CPython's does for GC types) and implement Traverser.
//
// What a host object can do is declared by the optional interfaces below
// (checked first) and by dunder methods in its ClassSpec.Methods (the same
// protocol Python classes use: "__enter__", "__exit__", "__len__", ...).
// When the last reference goes, Finalize is called (if implemented) at
// exactly the point CPython would call tp_dealloc: the host frees GPU memory
// there and DecRefs the values it holds, in the order CPython's C type
// would.
//
// # Modules and packages
//
// RegisterModule registers a Go module built on first import; RegisterSource
// registers Python source (a prelude file) run as a module on first import.
// "import a.b.c" imports a, a.b and a.b.c in turn, sets each child as an
// attribute of its parent, and binds a; "from a.b import c" imports a.b then
// takes attribute c, importing a.b.c as a submodule if there is no such
// attribute. Unknown names raise ModuleNotFoundError with a hint that the
// playground supports a subset of Python's library.
//
// Frames of a module registered with HideFrames are left out of tracebacks;
// no module except the script produces line events.
//
// # Observing a run
//
// Options.OnLine is called before each 'line' event of the script's own file
// (CPython 3.12 sys.settrace rules); Options.OnBind when a script-level or
// function-level name of the script is bound (for labels like "tensor x").
// Interp.Line reports the line of the innermost script frame at any moment
// (e.g. inside an allocation). Interp.Steps reports the step counter.

import (
	"io"
	"time"
)

// CallFunc implements a builtin function or a host type's constructor.
// args and kwargs are borrowed; the result is a new reference.
type CallFunc func(it *Interp, args []Value, kwargs []Kwarg) (Value, error)

// MethodFunc implements a method of a builtin or host type; self, args and
// kwargs are borrowed; the result is a new reference.
type MethodFunc func(it *Interp, self Value, args []Value, kwargs []Kwarg) (Value, error)

// Kwarg is one keyword argument of a call.
type Kwarg struct {
	Name  string
	Value Value
}

// Options configure an interpreter.
type Options struct {
	Stdout io.Writer         // print() and sys.stdout.write; nil discards
	Limits Limits            // zero fields take DefaultLimits' values
	Env    map[string]string // initial os.environ
	// OnLine is called before each line event of the script's own file.
	OnLine func(line int)
	// OnBind is called after a name of the script (module global or function
	// local in the script's file) is bound to v (borrowed).
	OnBind func(name string, v Value)
	// Filename is the name shown for the script in tracebacks ("<script>").
	Filename string
	// Seed seeds the random module (values differ from CPython's).
	Seed int64
	// KeepGenerators leaves the generators the script left suspended
	// alive when ExecScript returns, so that a collection run afterwards
	// (as the oracle harness runs gc.collect()) closes them as CPython
	// does; the host must then call Interp.Close. Otherwise ExecScript
	// ends them (their goroutines) before it returns.
	KeepGenerators bool
	// Debug is reserved for extra reference-count checks; Interp.Leaks works
	// without it.
	Debug bool
}

// Limits bound a run of untrusted code; exceeding one raises an uncatchable
// *LimitError (no except clause can swallow it).
type Limits struct {
	MaxSteps      int64         // statements + calls + loop iterations
	MaxDuration   time.Duration // wall time, checked every 1024 steps
	MaxOutput     int           // bytes written to stdout
	MaxScript     int           // bytes of script source
	MaxDepth      int           // Python call depth (RecursionError beyond)
	MaxCollection int           // elements of one list/tuple/dict/set/str
	// MaxGenerators bounds the generator bodies started and not finished
	// at once: each holds a goroutine (about 6 KB) while suspended.
	MaxGenerators int
}

// DefaultLimits are the limits used for zero fields of Options.Limits.
func DefaultLimits() Limits {
	return Limits{
		MaxSteps:      50_000_000,
		MaxDuration:   10 * time.Second,
		MaxOutput:     1 << 20,
		MaxScript:     256 << 10,
		MaxDepth:      200,
		MaxCollection: 10_000_000,
		MaxGenerators: 10_000,
	}
}

// Module flags for RegisterSource.
const (
	Package    = 1 << iota // the module is a package: submodules may be imported
	HideFrames             // leave this module's frames out of tracebacks
)

// ClassSpec describes a host type for NewHostClass.
type ClassSpec struct {
	Name   string // __name__, e.g. "Tensor"
	Module string // __module__, e.g. "torch"
	Base   *Class // nil means object; may be an exception class or another host class
	// New builds an instance when the class is called (Tensor(...)); nil
	// makes calling the class a TypeError.
	New CallFunc
	// Methods become methods bound to the instance ("add_", "__enter__",
	// "__exit__", ...); self is the instance.
	Methods map[string]MethodFunc
	// Props are properties (t.grad, t.requires_grad); Set nil means read-only
	// ("AttributeError: property 'x' of 'T' object has no setter").
	Props map[string]PropSpec
	// Attrs are class attributes (constants, nested classes); borrowed.
	Attrs map[string]Value
}

// PropSpec is one Go property of a host type.
type PropSpec struct {
	Get func(it *Interp, self Value) (Value, error) // new reference
	Set func(it *Interp, self, v Value) error       // v borrowed; v == nil means del
}

// Op names an operator for host operator hooks.
type Op uint8

// Operators.
const (
	OpAdd Op = iota
	OpSub
	OpMul
	OpMatMul
	OpTrueDiv
	OpFloorDiv
	OpMod
	OpPow
	OpLShift
	OpRShift
	OpAnd
	OpOr
	OpXor
	OpEq // comparisons
	OpNe
	OpLt
	OpLe
	OpGt
	OpGe
	OpNeg // unary
	OpPos
	OpInvert
)

// HasBinary is implemented by host values supporting binary operators. If
// reflected is true the host value is the RIGHT operand (2 * t). Return
// NotImplemented to let Python try the other operand.
type HasBinary interface {
	Binary(it *Interp, op Op, other Value, reflected bool) (Value, error)
}

// HasInplace is implemented by host values with in-place operators
// (t += 1). Return the receiver itself (IncRef'd) to keep its identity, or
// NotImplemented to fall back to Binary.
type HasInplace interface {
	Inplace(it *Interp, op Op, other Value) (Value, error)
}

// HasUnary implements -t, +t, ~t.
type HasUnary interface {
	Unary(it *Interp, op Op) (Value, error)
}

// HasCompare implements rich comparisons (OpEq..OpGe); the result may be any
// value (a tensor). reflected as in HasBinary. Return NotImplemented to
// fall back (== and != then compare identity).
type HasCompare interface {
	Compare(it *Interp, op Op, other Value, reflected bool) (Value, error)
}

// HasAttrs gives a host value dynamic attributes, consulted after the
// class's methods and properties. found=false means AttributeError.
type HasAttrs interface {
	Attr(it *Interp, name string) (v Value, found bool, err error)
}

// HasSetAttr handles assignments to attributes that are not properties.
// v == nil means del.
type HasSetAttr interface {
	SetAttr(it *Interp, name string, v Value) error
}

// HasGetItem implements t[key]. The key may be Int, *Slice, Ellipsis, None,
// *Tuple of those, or any value.
type HasGetItem interface {
	GetItem(it *Interp, key Value) (Value, error)
}

// HasSetItem implements t[key] = v (v borrowed) and, with v == nil, del t[key].
type HasSetItem interface {
	SetItem(it *Interp, key, v Value) error
}

// HasIter implements iter(t); the result is a new reference to an iterator
// (for instance one made with NewIterator).
type HasIter interface {
	Iter(it *Interp) (Value, error)
}

// HasLen implements len(t).
type HasLen interface {
	Len(it *Interp) (int, error)
}

// HasTruth implements bool(t).
type HasTruth interface {
	Truth(it *Interp) (bool, error)
}

// HasNumber implements int(t) and float(t) (__int__, __float__): Number
// returns the value to convert, an int, bool or float.
type HasNumber interface {
	Number(it *Interp) (Value, error)
}

// HasIndex implements __index__ (range(t), a list index, operator.index):
// an integer, or a TypeError for values that are not integers.
type HasIndex interface {
	Index(it *Interp) (Value, error)
}

// HasStr implements str(t); without it str falls back to repr.
type HasStr interface {
	Str(it *Interp) (string, error)
}

// HasRepr implements repr(t); without it repr is "<module.Name object at 0x...>".
type HasRepr interface {
	Repr(it *Interp) (string, error)
}

// HasFormat implements format(t, spec) and f"{t:spec}".
type HasFormat interface {
	Format(it *Interp, spec string) (string, error)
}

// HasCall makes a host value callable.
type HasCall interface {
	Call(it *Interp, args []Value, kwargs []Kwarg) (Value, error)
}

// HasHash gives a host value a hash; without it hashing uses identity.
type HasHash interface {
	Hash(it *Interp) (int64, error)
}

// Finalizer is called once when the reference count drops to zero (or the
// cyclic collector frees the object). It must DecRef the values the object
// holds. It must not resurrect the object.
type Finalizer interface {
	Finalize(it *Interp)
}

// Traverser lets the cyclic collector see the Python values a tracked host
// object holds (Traverse) and break cycles (Clear: drop and DecRef them).
type Traverser interface {
	Traverse(visit func(Value))
	Clear(it *Interp)
}
