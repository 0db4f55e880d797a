package pyfmt

import "fmt"

// newErr builds an *Error of the given Python exception type.
func newErr(typ, format string, args ...any) *Error {
	if len(args) == 0 {
		return &Error{Type: typ, Msg: format}
	}
	return &Error{Type: typ, Msg: fmt.Sprintf(format, args...)}
}

// valueErr returns a ValueError with a formatted message.
func valueErr(format string, args ...any) *Error { return newErr("ValueError", format, args...) }

// typeErr returns a TypeError with a formatted message.
func typeErr(format string, args ...any) *Error { return newErr("TypeError", format, args...) }

// overflowErr returns an OverflowError with a formatted message.
func overflowErr(format string, args ...any) *Error { return newErr("OverflowError", format, args...) }

// memoryErr is raised where CPython would try to build a result larger than
// this package is willing to allocate (see maxOutputLen).
func memoryErr() *Error { return &Error{Type: "MemoryError", Msg: ""} }

// maxOutputLen bounds widths and precisions so that hostile specs such as
// "999999999999d" fail with MemoryError instead of exhausting memory.
// CPython would attempt the allocation; this is a deliberate deviation.
const maxOutputLen = 1 << 24

// codeChar renders a presentation type the way CPython's error messages do:
// the character itself when printable ASCII, else "\x" and lowercase hex.
func codeChar(c rune) string {
	if c > 32 && c < 128 {
		return string(c)
	}
	return fmt.Sprintf("\\x%x", c)
}
