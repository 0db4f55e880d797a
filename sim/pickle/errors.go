package pickle

import (
	"errors"
	"fmt"
)

// Error kinds. Every error returned by the decoder wraps exactly one of them,
// so callers can tell bad files from unsupported or oversized ones with
// errors.Is.
var (
	// ErrTruncated means the input ended before STOP or inside an opcode.
	ErrTruncated = errors.New("truncated pickle")
	// ErrMalformed means the opcodes are inconsistent (stack underflow,
	// missing MARK, unknown memo key, trailing data, invalid UTF-8, ...).
	ErrMalformed = errors.New("malformed pickle")
	// ErrUnsupported means a valid opcode outside the accepted set: protocol
	// 0/1 text opcodes, out-of-band buffers, or a protocol outside 2..5.
	ErrUnsupported = errors.New("unsupported pickle feature")
	// ErrNotPlainData means the pickle references a Python class or function
	// (GLOBAL, REDUCE, BUILD, NEWOBJ, PERSID, ...) other than the few
	// builtins CPython uses to pickle sets and bytes in protocols 2 and 3.
	ErrNotPlainData = errors.New("not plain data")
	// ErrUnhashable means a dict key or set item is of a type Python cannot
	// hash (list, dict, set, bytearray) or this package cannot key on.
	ErrUnhashable = errors.New("unhashable key")
	// ErrLimit means a Limits bound (nesting depth, decoded size) was hit.
	ErrLimit = errors.New("limit exceeded")
)

// DecodeError describes why a pickle was rejected: the byte offset of the
// opcode being executed, its CPython name, and the cause. Offset is -1 for
// problems found after the opcodes ran (when the result is checked).
type DecodeError struct {
	Offset int
	Op     string
	Kind   error // one of the Err* values above
	Msg    string
}

// Error formats the error as "pickle: offset N (OPNAME): kind: message".
func (e *DecodeError) Error() string {
	if e.Offset < 0 {
		return fmt.Sprintf("pickle: %v: %s", e.Kind, e.Msg)
	}
	return fmt.Sprintf("pickle: offset %d (%s): %v: %s", e.Offset, e.Op, e.Kind, e.Msg)
}

// Unwrap returns the error kind, for errors.Is.
func (e *DecodeError) Unwrap() error { return e.Kind }

// EncodeError describes why a Go value could not be pickled; Path locates the
// offending value inside the tree (e.g. `["segments"][3]["frames"]`).
type EncodeError struct {
	Path string
	Msg  string
}

// Error formats the error as "pickle: encode <path>: message".
func (e *EncodeError) Error() string {
	if e.Path == "" {
		return "pickle: encode: " + e.Msg
	}
	return "pickle: encode " + e.Path + ": " + e.Msg
}
