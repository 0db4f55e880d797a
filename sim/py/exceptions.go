package py

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gpumem/playground/sim/py/pyfmt"
)

// Builtin exception classes (shared, immortal).
var (
	BaseException       = newExcClass("BaseException", nil)
	SystemExit          = newExcClass("SystemExit", BaseException)
	KeyboardInterrupt   = newExcClass("KeyboardInterrupt", BaseException)
	GeneratorExit       = newExcClass("GeneratorExit", BaseException)
	Exception           = newExcClass("Exception", BaseException)
	ArithmeticError     = newExcClass("ArithmeticError", Exception)
	FloatingPointError  = newExcClass("FloatingPointError", ArithmeticError)
	OverflowError       = newExcClass("OverflowError", ArithmeticError)
	ZeroDivisionError   = newExcClass("ZeroDivisionError", ArithmeticError)
	AssertionError      = newExcClass("AssertionError", Exception)
	AttributeError      = newExcClass("AttributeError", Exception)
	BufferError         = newExcClass("BufferError", Exception)
	EOFError            = newExcClass("EOFError", Exception)
	ImportError         = newExcClass("ImportError", Exception)
	ModuleNotFoundError = newExcClass("ModuleNotFoundError", ImportError)
	LookupError         = newExcClass("LookupError", Exception)
	IndexError          = newExcClass("IndexError", LookupError)
	KeyError            = newExcClass("KeyError", LookupError)
	MemoryError         = newExcClass("MemoryError", Exception)
	NameError           = newExcClass("NameError", Exception)
	UnboundLocalError   = newExcClass("UnboundLocalError", NameError)
	OSError             = newExcClass("OSError", Exception)
	FileNotFoundError   = newExcClass("FileNotFoundError", OSError)
	ReferenceError      = newExcClass("ReferenceError", Exception)
	RuntimeError        = newExcClass("RuntimeError", Exception)
	NotImplementedError = newExcClass("NotImplementedError", RuntimeError)
	RecursionError      = newExcClass("RecursionError", RuntimeError)
	StopIteration       = newExcClass("StopIteration", Exception)
	SyntaxErrorClass    = newExcClass("SyntaxError", Exception)
	IndentationError    = newExcClass("IndentationError", SyntaxErrorClass)
	TabError            = newExcClass("TabError", IndentationError)
	SystemError         = newExcClass("SystemError", Exception)
	TypeError           = newExcClass("TypeError", Exception)
	ValueError          = newExcClass("ValueError", Exception)
	UnicodeError        = newExcClass("UnicodeError", ValueError)
	Warning             = newExcClass("Warning", Exception)
	UserWarning         = newExcClass("UserWarning", Warning)
	DeprecationWarning  = newExcClass("DeprecationWarning", Warning)
	RuntimeWarning      = newExcClass("RuntimeWarning", Warning)
	FutureWarning       = newExcClass("FutureWarning", Warning)
)

var builtinExcClasses = []*Class{
	BaseException, SystemExit, KeyboardInterrupt, GeneratorExit, Exception,
	ArithmeticError, FloatingPointError, OverflowError, ZeroDivisionError,
	AssertionError, AttributeError, BufferError, EOFError, ImportError,
	ModuleNotFoundError, LookupError, IndexError, KeyError, MemoryError,
	NameError, UnboundLocalError, OSError, FileNotFoundError, ReferenceError,
	RuntimeError, NotImplementedError, RecursionError, StopIteration,
	SyntaxErrorClass, IndentationError, TabError, SystemError, TypeError,
	ValueError, UnicodeError, Warning, UserWarning, DeprecationWarning,
	RuntimeWarning, FutureWarning,
}

// newExcClass makes a builtin exception class. Not inlined, as
// newBuiltinClass.
//
//go:noinline
func newExcClass(name string, base *Class) *Class {
	var c *Class
	if base == nil {
		c = &Class{Name: name, Module: "builtins", builtin: true, Dict: newImmortalDict()}
		c.flags |= flagImmortal
		c.MRO = []*Class{c} // object appended in init
	} else {
		c = newBuiltinClass(name, base)
	}
	c.isExc = true
	return c
}

// NewExceptionClass makes a host exception class deriving from base (a
// builtin or host exception class), e.g.
// NewExceptionClass("OutOfMemoryError", "torch", py.RuntimeError).
// Scripts can catch it and subclass it.
func NewExceptionClass(name, module string, base *Class) *Class {
	c := newBuiltinClass(name, base)
	c.Module = module
	c.isExc = true
	return c
}

// NewException returns a new exception instance of cls with args (msg,), a
// new reference; return it as the error of a host function to raise it.
func NewException(cls *Class, msg string) *Instance {
	o := &Instance{cls: cls, exc: &excData{args: &Tuple{elems: []Value{Str(msg)}}}}
	IncRef(cls)
	return o
}

// newExcArgs returns an exception with the given args (references taken).
func newExcArgs(cls *Class, args []Value) *Instance {
	o := &Instance{cls: cls, exc: &excData{args: emptyTuple}}
	if len(args) > 0 {
		o.exc.args = &Tuple{elems: args}
	}
	IncRef(cls)
	return o
}

// Error returns "Type: message" for an exception instance, so that an
// exception can travel as a Go error.
func (o *Instance) Error() string {
	msg := excStr(nil, o)
	name := o.cls.fullName()
	if msg == "" {
		return name
	}
	return name + ": " + msg
}

// excStr returns str(exc) following BaseException.__str__ (and KeyError's).
func excStr(it *Interp, o *Instance) string {
	if o.exc == nil {
		return ""
	}
	args := o.exc.args.elems
	switch len(args) {
	case 0:
		return ""
	case 1:
		if o.cls.IsSubclass(KeyError) {
			return reprNoInterp(it, args[0])
		}
		return strNoInterp(it, args[0])
	}
	return reprNoInterp(it, o.exc.args)
}

func strNoInterp(it *Interp, v Value) string {
	if s, ok := v.(Str); ok {
		return string(s)
	}
	if it == nil {
		return fmt.Sprint(v)
	}
	s, err := it.Str(v)
	if err != nil {
		return "<exception str() failed>"
	}
	return s
}

func reprNoInterp(it *Interp, v Value) string {
	if s, ok := v.(Str); ok {
		return pyfmt.StrRepr(string(s))
	}
	if it == nil {
		return fmt.Sprint(v)
	}
	s, err := it.Repr(v)
	if err != nil {
		return "<exception repr() failed>"
	}
	return s
}

func newTypeError(msg string) *Instance  { return NewException(TypeError, msg) }
func newValueError(msg string) *Instance { return NewException(ValueError, msg) }

// Errorf returns a new exception of class cls with a formatted message.
func Errorf(cls *Class, format string, args ...any) *Instance {
	return NewException(cls, fmt.Sprintf(format, args...))
}

// LimitError is raised when a run exceeds a limit. It is not a Python
// exception: no except clause catches it and finally blocks do not run
// Python code for it.
type LimitError struct {
	Msg string
}

// Error returns "LimitError: msg".
func (e *LimitError) Error() string { return "LimitError: " + e.Msg }

// InternalError reports a bug in the interpreter (a recovered Go panic).
type InternalError struct {
	Msg string
}

// Error returns "InternalError: msg".
func (e *InternalError) Error() string { return "InternalError: " + e.Msg }

// toException converts a Go error from host code into a Python exception
// instance (new reference). Limit and internal errors return nil.
func (it *Interp) toException(err error) *Instance {
	var inst *Instance
	if errors.As(err, &inst) && inst.exc != nil {
		return inst
	}
	var le *LimitError
	if errors.As(err, &le) {
		return nil
	}
	var ie *InternalError
	if errors.As(err, &ie) {
		return nil
	}
	var pe *pyfmt.Error
	if errors.As(err, &pe) {
		cls := builtinExcByName(pe.Type)
		return NewException(cls, pe.Msg)
	}
	return NewException(RuntimeError, err.Error())
}

func builtinExcByName(name string) *Class {
	for _, c := range builtinExcClasses {
		if c.Name == name {
			return c
		}
	}
	return RuntimeError
}

// isCatchable reports whether err is a Python exception (not a limit).
func isCatchable(err error) bool {
	switch err.(type) {
	case *LimitError, *InternalError:
		return false
	}
	return true
}

// ExceptionArgs returns the args of an exception instance (borrowed).
func (o *Instance) ExceptionArgs() []Value {
	if o.exc == nil {
		return nil
	}
	return o.exc.args.elems
}

func joinNames(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return "'" + names[0] + "'"
	case 2:
		return "'" + names[0] + "' and '" + names[1] + "'"
	}
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "'" + n + "'"
	}
	return strings.Join(q[:len(q)-1], ", ") + ", and " + q[len(q)-1]
}
