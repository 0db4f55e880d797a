package syntax

import (
	"strings"
	"unicode"
)

// Error kinds, as CPython names the exception classes.
const (
	KindSyntax      = "SyntaxError"
	KindIndentation = "IndentationError"
	KindTab         = "TabError"
)

// Error is a syntax error in a script: the CPython exception class (Kind),
// its message, and where it happened. It renders as CPython prints an
// uncaught SyntaxError (see Format).
type Error struct {
	Kind     string   // KindSyntax, KindIndentation or KindTab
	Msg      string   // e.g. "invalid syntax", "'(' was never closed"
	Filename string   // e.g. "<script>"
	Pos      Position // 1-based line and column of the offending token
	End      Position // end of the offending range on Pos's line; zero means one character
	Text     string   // the source line at Pos.Line, without its newline
}

// Error returns the message in the form of Python's str(SyntaxError):
// "invalid syntax (<script>, line 3)", prefixed with the kind.
func (e *Error) Error() string {
	return e.Kind + ": " + e.Msg + " (" + e.Filename + ", line " + itoa32(e.Pos.Line) + ")"
}

// Format renders the error exactly as CPython's traceback module prints an
// uncaught SyntaxError:
//
//	  File "<script>", line 3
//	    x = (1 +
//	        ^
//	SyntaxError: '(' was never closed
func (e *Error) Format() string {
	var b strings.Builder
	b.WriteString("  File \"")
	b.WriteString(e.Filename)
	b.WriteString("\", line ")
	b.WriteString(itoa32(e.Pos.Line))
	b.WriteByte('\n')
	if e.Text != "" || e.Pos.Col > 0 {
		rtext := strings.TrimRight(e.Text, "\n")
		ltext := strings.TrimLeft(rtext, " \n\f")
		ltextRunes := []rune(ltext)
		spaces := len([]rune(rtext)) - len(ltextRunes)
		b.WriteString("    ")
		b.WriteString(ltext)
		b.WriteByte('\n')
		if e.Pos.Col > 0 {
			offset := int(e.Pos.Col)
			endOffset := offset
			if e.End.IsValid() && e.End.Line == e.Pos.Line && e.End.Col > 0 {
				endOffset = int(e.End.Col)
			}
			if endOffset <= offset {
				endOffset = offset + 1
			}
			col := offset - 1 - spaces
			endCol := endOffset - 1 - spaces
			if col >= 0 {
				b.WriteString("    ")
				for i := 0; i < col; i++ {
					if i < len(ltextRunes) && unicode.IsSpace(ltextRunes[i]) {
						b.WriteRune(ltextRunes[i])
					} else {
						b.WriteByte(' ')
					}
				}
				b.WriteString(strings.Repeat("^", endCol-col))
				b.WriteByte('\n')
			}
		}
	}
	b.WriteString(e.Kind)
	b.WriteString(": ")
	b.WriteString(e.Msg)
	b.WriteByte('\n')
	return b.String()
}
