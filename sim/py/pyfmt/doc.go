// Package pyfmt reproduces CPython 3.11's text formatting of numbers and
// strings byte for byte, without depending on any interpreter object model.
//
// It covers float repr (shortest round-trip digits), int and float
// conversion to and from text, the format-spec mini-language used by
// format(), f-strings and str.format, printf-style %-formatting, parsing of
// str.format replacement fields and f-string bodies, and CPython's
// correctly-rounded round() and float floor-division/modulo rules.
//
// Errors are always *Error values carrying the Python exception class name
// and CPython's exact message, so an interpreter can raise them unchanged.
// Errors returned by caller-supplied callbacks (Arg, Mapping, Resolver) are
// passed through untouched so that the interpreter's own exceptions survive.
//
// Strings are Go strings holding UTF-8; widths and precisions count code
// points (each invalid byte counts as one code point).
package pyfmt
