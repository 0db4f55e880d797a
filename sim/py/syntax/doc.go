// Package syntax scans and parses the Python 3.12 subset that pasted PyTorch
// snippets use, and defines its syntax tree.
//
// The shape follows go.starlark.net's syntax package: a scanner that emits
// INDENT/OUTDENT and exact positions, a recursive-descent parser, an AST with
// Walk and an S-expression Dump for golden tests.
//
// Parse returns a *File or a *Error. Errors carry CPython's exception class
// (SyntaxError, IndentationError, TabError), its message and its position,
// and Format renders them as CPython prints them. The parser reproduces
// CPython 3.11's choice of error for common mistakes, including the checks
// CPython makes after parsing ('return' outside function, duplicate
// arguments, global after use, ...), and the rule that a tokenizer error
// later in the file (such as a bracket never closed) replaces a parser error.
//
// The tree keeps what the evaluator needs and nothing it must undo:
// parentheses are not nodes (a parenthesized tuple records its parentheses),
// adjacent string literals are joined, f-strings arrive split into literal
// text and parsed expressions with their own positions, and `elif` is a
// nested IfStmt. Positions are 1-based lines and code-point columns.
//
// Syntax the playground does not run (async, await, match, type
// aliases, except*, relative imports, \N{...} escapes) is rejected with
// "SyntaxError: ... is not supported in the playground" at its line rather
// than parsed into nodes nobody evaluates.
package syntax
