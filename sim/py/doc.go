// Package py is the playground's Python interpreter: it runs the Python
// 3.12 subset of package syntax with CPython's exact object lifetimes, so
// that the PyTorch model (sim/torch) frees GPU memory at the very moment
// CPython would.
//
// Design:
//
//   - The AST is compiled once into Go closures with resolved variable
//     slots (fast locals, cells, globals), CPython's co_varnames numbering
//     and 3.12's inlined comprehensions (PEP 709). Compiled code holds no
//     counted object, so the code of RegisterSource modules is cached and
//     shared by all interpreters (codecache.go).
//   - Every container and host object is reference counted (Base). A
//     reference is released exactly where CPython's bytecode releases it:
//     temporaries right after the consuming operation, call arguments when
//     the callee's frame is cleared (locals in co_varnames order, then
//     cells), old values after the new one is stored, list and tuple items
//     last to first, dict entries in insertion order, keys and values
//     interleaved; __del__ runs at once (PEP 442: once per object).
//   - Exceptions carry tracebacks whose frame objects keep the frames'
//     variables alive until the exception dies (end of the except block,
//     where `e` is deleted).
//   - Reference cycles are freed only by the cyclic collector (gc.go:
//     CPython 3.12's three generations and thresholds), finalizers first,
//     then tp_clear in generation-list order.
//   - Atoms (None, bool, int, float, str) are plain Go values and are not
//     counted: their deaths are unobservable.
//   - Generator expressions run lazily on their frame; the body of a
//     generator function runs in a coroutine (iter.Pull) that yield
//     suspends (gen.go). No coroutine outlives its run.
//
// The host API (host.go) lets Go code define modules, types, exceptions,
// finalize/traverse hooks and observe line events and name bindings.
// Limits (steps, time, depth, output, sizes) make untrusted scripts safe.
package py
