package py

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gpumem/playground/sim/py/syntax"
)

// Position markers under a traceback's source line, as CPython 3.12's
// traceback.py draws them (StackSummary.format_frame_summary and
// _extract_caret_anchors_from_line_segment): `^^^^` under the failing
// instruction's range, or `~~~^^^~~~` for a binary operation (the operator)
// and a subscript (the brackets). No markers when they would underline the
// whole line. Quirks kept: the line counts its trailing newline and
// whitespace when the markers are indented, and operator anchors mix byte
// and character offsets as traceback.py does.

// caretLine returns the marker line (with its newline) for source line src
// (without newline) and range p of an entry at line ln, or "".
func caretLine(src string, ln int, p srcPos) string {
	if p.line == 0 || int(p.line) != ln || p.col < 0 || p.endCol < 0 {
		return ""
	}
	line := []rune(src + "\n") // linecache keeps the newline
	stripped := strings.TrimFunc(src, pyIsSpace)
	if stripped == "" {
		return ""
	}
	strippedLen := utf8.RuneCountInString(stripped)
	strippedChars := len(line) - strippedLen
	start, end := int(p.col), int(p.endCol)
	if start > len(line) {
		start = len(line)
	}
	var anchors *caretAnchors
	if p.line == p.endLine {
		if end > len(line) {
			end = len(line)
		}
		if end < start {
			end = start
		}
		anchors = extractAnchors(line[start:end])
	} else {
		end = utf8.RuneCountInString(strings.TrimRightFunc(src, pyIsSpace))
	}
	if !(end-start < strippedLen || anchors != nil && anchors.right-anchors.left > 0) {
		return ""
	}
	dpStart := displayWidth(line, start) + 1
	dpEnd := displayWidth(line, end) + 1
	var b strings.Builder
	b.WriteString("    ")
	b.WriteString(repeat(" ", dpStart-strippedChars))
	if anchors != nil {
		seg := line[start:min(end, len(line))]
		if end < start {
			seg = nil
		}
		dpLeft := displayWidth(seg, anchors.left)
		dpRight := displayWidth(seg, anchors.right)
		b.WriteString(repeat("~", dpLeft))
		b.WriteString(repeat("^", dpRight-dpLeft))
		b.WriteString(repeat("~", dpEnd-dpStart-dpRight))
	} else {
		b.WriteString(repeat("^", dpEnd-dpStart))
	}
	b.WriteString("\n")
	return b.String()
}

// repeat is Python's str * n (empty for n <= 0).
func repeat(s string, n int) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat(s, n)
}

// pyIsSpace is str.isspace for one code point.
func pyIsSpace(r rune) bool {
	return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f
}

// caretAnchors are the secondary range of the markers: code point offsets
// in the segment.
type caretAnchors struct {
	left, right int
}

// extractAnchors is _extract_caret_anchors_from_line_segment: the segment
// must parse as one expression statement, a binary operation (anchors on
// the operator) or a subscript (anchors on the brackets).
func extractAnchors(seg []rune) *caretAnchors {
	text := string(seg)
	if text == "" || strings.ContainsAny(text, "\n\r") {
		return nil
	}
	x, parens, err := syntax.ParseExprParens("<segment>", []byte(text))
	if err != nil || x == nil {
		return nil
	}
	c := &compiler{parens: parens} // for Python's node ranges (positions.go)
	// byteCol is a node column as CPython's AST gives it (UTF-8 bytes).
	byteCol := func(p syntax.Position) int { return len(string(seg[:min(int(p.Col-1), len(seg))])) }
	normalize := func(b int) int { return charOffset(text, b) }
	at := func(i int) (rune, bool) {
		if i < 0 || i >= len(seg) {
			return 0, false
		}
		return seg[i], true
	}
	switch x := x.(type) {
	case *syntax.BinaryExpr:
		if x.Op == syntax.AND || x.Op == syntax.OR {
			return nil
		}
		lend, rstart := c.nodeEnd(x.X), c.nodeStart(x.Y)
		leftEnd, rightStart := byteCol(lend), byteCol(rstart)
		opStart, opEnd := normalize(leftEnd), normalize(rightStart)
		if opEnd < opStart {
			opEnd = opStart
		}
		opStr := seg[opStart:opEnd]
		opOffset := len(opStr) - len([]rune(strings.TrimLeftFunc(string(opStr), pyIsSpace)))
		left := leftEnd + opOffset
		right := left + 1
		if opOffset+1 < len(opStr) && !pyIsSpace(opStr[opOffset+1]) {
			right++
		}
		for left < len(seg) {
			ch, _ := at(left)
			if !pyIsSpace(ch) && ch != ')' && ch != '#' {
				break
			}
			left++
			right++
		}
		return &caretAnchors{normalize(left), normalize(right)}
	case *syntax.IndexExpr:
		vend, send := c.nodeEnd(x.X), c.nodeEnd(x.Index)
		left := normalize(byteCol(vend))
		right := normalize(byteCol(send) + 1)
		for left < len(seg) {
			if ch, _ := at(left); ch == '[' && !pyIsSpace(ch) {
				break
			}
			left++
		}
		for right < len(seg) {
			if ch, _ := at(right); ch == ']' && !pyIsSpace(ch) {
				break
			}
			right++
		}
		if right < len(seg) {
			right++
		}
		return &caretAnchors{left, right}
	}
	return nil
}

// charOffset is traceback.py's _byte_offset_to_character_offset: the code
// points in the first b bytes of s, a cut character counting as one.
func charOffset(s string, b int) int {
	if b > len(s) {
		b = len(s)
	}
	if b < 0 {
		b = 0
	}
	n := 0
	i := 0
	for i < b {
		_, size := utf8.DecodeRuneInString(s[i:])
		if i+size > b {
			return n + 1
		}
		i += size
		n++
	}
	return n
}
