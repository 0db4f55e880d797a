package torch

import (
	"errors"
	"fmt"
)

// ErrKind is the Python exception class an Error becomes.
type ErrKind uint8

// Exception classes raised by the model.
const (
	RuntimeError ErrKind = iota
	TypeError
	ValueError
	IndexError
	NotImplementedError
	OutOfMemoryError // torch.OutOfMemoryError; Err holds the allocator's error
)

// Error is an exception raised by a torch operation. The binding turns it
// into the Python exception of class Kind with message Msg.
type Error struct {
	Kind ErrKind
	Msg  string
	Err  error // the allocator's OOM error for OutOfMemoryError
}

func (e *Error) Error() string { return e.Msg }

// Unwrap gives the allocator's error of an OutOfMemoryError.
func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an Error of the given kind.
func Errorf(kind ErrKind, format string, args ...any) *Error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// oomError wraps an allocator failure as torch.OutOfMemoryError; other
// allocator errors become RuntimeErrors with context.
func oomError(err error) error {
	var te *Error
	if errors.As(err, &te) {
		return te
	}
	return &Error{Kind: OutOfMemoryError, Msg: err.Error(), Err: err}
}
