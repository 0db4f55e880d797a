package syntax

import (
	"fmt"
	"math/big"
	"unicode"
	"unicode/utf8"
)

// Limits that keep the scanner and parser bounded on any input.
const (
	maxIndent  = 100  // CPython's MAXINDENT: "too many levels of indentation"
	maxParen   = 200  // CPython's MAXLEVEL: "too many nested parentheses"
	maxNesting = 1000 // recursion limit of the parser: "too many nested expressions"
)

// token is one scanned token with its value.
type token struct {
	tok      Token
	pos, end Position
	off      int // byte offset of the token's first character
	endOff   int // byte offset just after the token
	name     string
	// literals
	ival   int64
	bigval *big.Int
	fval   float64
	str    string   // decoded STRING/BYTES value
	fparts []fpiece // FSTRING pieces
	litErr *Error   // error in the literal's contents, raised by the parser
	fexprs []fpiece // with litErr: the field expressions delimited before it
}

// bracket is an open bracket awaiting its closing partner.
type bracket struct {
	c   byte // '(', '[' or '{'
	pos Position
}

// scanner turns source bytes into tokens, inserting NEWLINE, INDENT and
// OUTDENT tokens by Python's rules. It stops at the first error.
type scanner struct {
	src      []byte
	filename string
	off      int   // offset of the next byte
	limit    int   // scanning stops here (len(src), or the end of an f-string field)
	line     int32 // line of src[off]
	col      int32 // 1-based column of src[off], in code points

	indents    []int32 // indentation stack, tabs to multiples of 8
	altIndents []int32 // the same with tabs counting 1, to detect TabError
	outdents   int     // OUTDENT tokens still to emit
	lineStart  bool    // at the start of a logical line
	lineToks   bool    // the current logical line has produced a token
	brackets   []bracket
	sub        bool // scanning an f-string replacement field: newlines never end a line
	eofDone    bool

	err    *Error
	litErr *Error            // error inside the literal being scanned
	fexprs []fpiece          // field expressions of the f-string being scanned, in order
	names  map[string]string // interned identifiers
}

func newScanner(filename string, src []byte) *scanner {
	return &scanner{
		src:        src,
		filename:   filename,
		limit:      len(src),
		line:       1,
		col:        1,
		indents:    []int32{0},
		altIndents: []int32{0},
		lineStart:  true,
		names:      make(map[string]string),
	}
}

// newSubScanner scans src[off:end] (an f-string replacement field) starting
// at pos, as if inside brackets.
func newSubScanner(parent *scanner, off, end int, pos Position) *scanner {
	return &scanner{
		src:        parent.src,
		filename:   parent.filename,
		off:        off,
		limit:      end,
		line:       pos.Line,
		col:        pos.Col,
		indents:    []int32{0},
		altIndents: []int32{0},
		sub:        true,
		names:      parent.names,
	}
}

func (s *scanner) pos() Position { return Position{s.line, s.col} }

// prevPos is the position of the character before the current one on the
// same line, where CPython reports malformed numbers.
func (s *scanner) prevPos() Position {
	if s.col > 1 {
		return Position{s.line, s.col - 1}
	}
	return s.pos()
}

// peekByte returns the byte at off+i, or 0 past the limit.
func (s *scanner) peekByte(i int) byte {
	if s.off+i < s.limit {
		return s.src[s.off+i]
	}
	return 0
}

func (s *scanner) atEOF() bool { return s.off >= s.limit }

// advance consumes one code point (a "\r\n" pair counts as one newline).
func (s *scanner) advance() {
	c := s.src[s.off]
	switch {
	case c == '\n':
		s.off++
		s.line++
		s.col = 1
	case c == '\r':
		s.off++
		if s.off < s.limit && s.src[s.off] == '\n' {
			s.off++
		}
		s.line++
		s.col = 1
	case c < utf8.RuneSelf:
		s.off++
		s.col++
	default:
		_, n := utf8.DecodeRune(s.src[s.off:s.limit])
		s.off += n
		s.col++
	}
}

// errorf records an error at pos (the first error wins).
func (s *scanner) errorf(kind string, pos Position, format string, args ...any) {
	if s.err != nil {
		return
	}
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	s.err = &Error{Kind: kind, Msg: msg, Filename: s.filename, Pos: pos, Text: lineText(s.src, pos.Line)}
}

// lineText returns source line n (1-based) without its line terminator.
func lineText(src []byte, n int32) string {
	line := int32(1)
	start := 0
	for i := 0; i < len(src) && line < n; i++ {
		switch src[i] {
		case '\n':
			line++
			start = i + 1
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			line++
			start = i + 1
		}
	}
	if line < n {
		return ""
	}
	end := start
	for end < len(src) && src[end] != '\n' && src[end] != '\r' {
		end++
	}
	return string(src[start:end])
}

// next scans the next token into t. After an error it returns ILLEGAL
// forever; the error is in s.err.
func (s *scanner) next(t *token) {
	*t = token{}
	if s.err != nil {
		t.tok = ILLEGAL
		t.pos = s.pos()
		t.end = t.pos
		t.off, t.endOff = s.off, s.off
		return
	}
	s.scan(t)
	t.end = s.pos()
	t.endOff = s.off
	if s.err != nil {
		t.tok = ILLEGAL
	} else if t.tok != NEWLINE && t.tok != INDENT && t.tok != OUTDENT && t.tok != EOF {
		s.lineToks = true
	}
}

func (s *scanner) scan(t *token) {
	if s.outdents > 0 {
		s.outdents--
		t.tok = OUTDENT
		t.pos = Position{s.line, 0} // CPython gives dedents no column
		if s.atEOF() {
			t.pos = s.eofPos()
		}
		t.off = s.off
		return
	}
	for {
		if s.lineStart && !s.sub {
			s.lineStart = false
			if done := s.indentation(t); done {
				return
			}
			if s.err != nil {
				return
			}
		}
		// Skip blanks, comments and continuations within the line.
		var comment Position // CPython puts a NEWLINE after a comment at the '#'
		for !s.atEOF() {
			c := s.src[s.off]
			if c == ' ' || c == '\t' || c == '\f' {
				s.off++
				s.col++
				continue
			}
			if c == '#' {
				comment = s.pos()
				for !s.atEOF() && s.src[s.off] != '\n' && s.src[s.off] != '\r' {
					s.advance()
				}
				continue
			}
			if c == '\\' {
				pos := s.pos()
				n := s.peekByte(1)
				if n == '\n' || n == '\r' {
					s.advance()
					s.advance()
					if s.atEOF() {
						s.errorf(KindSyntax, Position{pos.Line, pos.Col + 1}, "unexpected EOF while parsing")
						return
					}
					continue
				}
				if s.off+1 >= s.limit {
					s.errorf(KindSyntax, Position{pos.Line, pos.Col + 1}, "unexpected EOF while parsing")
					return
				}
				s.errorf(KindSyntax, Position{pos.Line, pos.Col + 1}, "unexpected character after line continuation character")
				return
			}
			break
		}
		t.pos = s.pos()
		t.off = s.off
		if comment.IsValid() {
			t.pos = comment
		}
		if s.atEOF() {
			s.scanEOF(t)
			return
		}
		c := s.src[s.off]
		if c == '\n' || c == '\r' {
			s.advance()
			if len(s.brackets) > 0 || s.sub {
				continue
			}
			if s.lineToks {
				s.lineToks = false
				s.lineStart = true
				t.tok = NEWLINE
				return
			}
			s.lineStart = true
			continue
		}
		s.scanToken(t, c)
		return
	}
}

// scanEOF emits the NEWLINE, OUTDENTs and EOF that end the file, or reports
// an unclosed bracket. As in CPython, the OUTDENTs and EOF sit at the end of
// the last line.
func (s *scanner) scanEOF(t *token) {
	if n := len(s.brackets); n > 0 && !s.sub {
		b := s.brackets[n-1]
		s.errorf(KindSyntax, b.pos, "'%c' was never closed", b.c)
		return
	}
	if s.lineToks && !s.sub {
		s.lineToks = false
		t.tok = NEWLINE
		return
	}
	t.pos = s.eofPos()
	if len(s.indents) > 1 {
		s.outdents = len(s.indents) - 2
		s.indents = s.indents[:1]
		s.altIndents = s.altIndents[:1]
		t.tok = OUTDENT
		return
	}
	t.tok = EOF
}

// eofPos is where CPython puts its end-of-file tokens: after the last
// character of the line holding the final newline.
func (s *scanner) eofPos() Position {
	if s.sub || s.off == 0 {
		return s.pos()
	}
	if c := s.src[s.off-1]; c != '\n' && c != '\r' {
		return s.pos()
	}
	return Position{s.line - 1, int32(utf8.RuneCount(lastLine(s.src[:s.off]))) + 1}
}

// lastLine returns the text of the line that src's final line break ends
// (src ends with "\n", "\r" or "\r\n"), scanning back from the end: the
// scanner reaches EOF once per file, and a scan from the start would read
// the whole file again.
func lastLine(src []byte) []byte {
	end := len(src) - 1
	if src[end] == '\n' && end > 0 && src[end-1] == '\r' {
		end--
	}
	start := end
	for start > 0 && src[start-1] != '\n' && src[start-1] != '\r' {
		start--
	}
	return src[start:end]
}

// indentation measures the indentation of a new line and emits INDENT or
// OUTDENT if it changes. It returns true if it produced a token in t.
func (s *scanner) indentation(t *token) bool {
	var col, altcol int32
	for !s.atEOF() {
		c := s.src[s.off]
		if c == ' ' {
			col++
			altcol++
		} else if c == '\t' {
			col = (col/8 + 1) * 8
			altcol++
		} else if c == '\f' {
			col, altcol = 0, 0
		} else {
			break
		}
		s.off++
		s.col++
	}
	if s.atEOF() {
		return false // EOF handles the dedent
	}
	if c := s.src[s.off]; c == '#' || c == '\n' || c == '\r' {
		return false // blank line: indentation does not count
	}
	if s.src[s.off] == '\\' {
		return false // a line starting with a continuation: no indentation
	}
	top := s.indents[len(s.indents)-1]
	alttop := s.altIndents[len(s.altIndents)-1]
	t.pos = s.pos()
	t.off = s.off
	switch {
	case col == top:
		if altcol != alttop {
			s.tabError()
		}
		return false
	case col > top:
		if len(s.indents) >= maxIndent {
			s.errorf(KindIndentation, s.pos(), "too many levels of indentation")
			return false
		}
		if altcol <= alttop {
			s.tabError()
			return false
		}
		s.indents = append(s.indents, col)
		s.altIndents = append(s.altIndents, altcol)
		t.tok = INDENT
		return true
	}
	n := 0
	for len(s.indents) > 1 && col < s.indents[len(s.indents)-1] {
		s.indents = s.indents[:len(s.indents)-1]
		s.altIndents = s.altIndents[:len(s.altIndents)-1]
		n++
	}
	if col != s.indents[len(s.indents)-1] {
		text := lineText(s.src, s.line)
		s.errorf(KindIndentation, Position{s.line, int32(utf8.RuneCountInString(text)) + 1},
			"unindent does not match any outer indentation level")
		return false
	}
	if altcol != s.altIndents[len(s.altIndents)-1] {
		s.tabError()
		return false
	}
	s.outdents = n - 1
	t.tok = OUTDENT
	t.pos.Col = 0 // CPython gives dedents no column
	return true
}

func (s *scanner) tabError() {
	s.errorf(KindTab, Position{s.line, 1}, "inconsistent use of tabs and spaces in indentation")
}

// scanToken scans one token starting with byte c at s.off.
func (s *scanner) scanToken(t *token, c byte) {
	switch {
	case c >= '0' && c <= '9' || c == '.' && isDigit(s.peekByte(1)):
		s.scanNumber(t)
		return
	case isIdentStart(c):
		s.scanIdentOrString(t)
		return
	case c == '"' || c == '\'':
		s.scanString(t, 0)
		return
	case c >= utf8.RuneSelf:
		r, _ := utf8.DecodeRune(s.src[s.off:s.limit])
		if isIdentRune(r, true) {
			s.scanIdentOrString(t)
			return
		}
		if unicode.IsPrint(r) {
			s.errorf(KindSyntax, s.pos(), "invalid character '%c' (U+%04X)", r, r)
		} else {
			s.errorf(KindSyntax, s.pos(), "invalid non-printable character U+%04X", r)
		}
		return
	}
	s.scanOperator(t, c)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

func isIdentByte(c byte) bool { return isIdentStart(c) || isDigit(c) }

// isIdentRune approximates Unicode XID_Start / XID_Continue.
func isIdentRune(r rune, first bool) bool {
	if r < utf8.RuneSelf {
		if first {
			return isIdentStart(byte(r))
		}
		return isIdentByte(byte(r))
	}
	if unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_ID_Start, r) {
		return true
	}
	return !first && (unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) ||
		unicode.Is(unicode.Pc, r) || unicode.Is(unicode.Other_ID_Continue, r))
}

// scanIdentOrString scans a name, a keyword, or a prefixed string literal.
func (s *scanner) scanIdentOrString(t *token) {
	start := s.off
	ascii := true
	for !s.atEOF() {
		c := s.src[s.off]
		if c < utf8.RuneSelf {
			if !isIdentByte(c) {
				break
			}
			s.off++
			s.col++
			continue
		}
		r, n := utf8.DecodeRune(s.src[s.off:s.limit])
		if !isIdentRune(r, false) {
			break
		}
		ascii = false
		s.off += n
		s.col++
	}
	word := s.src[start:s.off]
	if ascii && len(word) <= 3 && !s.atEOF() && (s.src[s.off] == '"' || s.src[s.off] == '\'') {
		if flags, ok := stringPrefix(word); ok {
			s.off = start
			s.col -= int32(len(word))
			s.scanString(t, flags)
			return
		}
	}
	if ascii {
		if kw, ok := keywords[string(word)]; ok {
			t.tok = kw
			return
		}
	} else if !ascii {
		// Non-ASCII characters that are not identifier characters were
		// rejected already; report a misplaced one precisely.
		if r, _ := utf8.DecodeRune(word); !isIdentRune(r, true) {
			s.errorf(KindSyntax, t.pos, "invalid character '%c' (U+%04X)", r, r)
			return
		}
	}
	t.tok = IDENT
	name, ok := s.names[string(word)]
	if !ok {
		name = string(word)
		s.names[name] = name
	}
	t.name = name
}

// scanOperator scans punctuation, tracking brackets.
func (s *scanner) scanOperator(t *token, c byte) {
	pos := s.pos()
	c1, c2 := s.peekByte(1), s.peekByte(2)
	n := 1
	switch c {
	case '(', '[', '{':
		if len(s.brackets) >= maxParen {
			s.errorf(KindSyntax, pos, "too many nested parentheses")
			return
		}
		s.brackets = append(s.brackets, bracket{c, pos})
		t.tok = opTokens[c][0]
	case ')', ']', '}':
		if len(s.brackets) == 0 {
			if s.sub {
				t.tok = closeToken(c)
				break
			}
			s.errorf(KindSyntax, pos, "unmatched '%c'", c)
			return
		}
		open := s.brackets[len(s.brackets)-1]
		if open.c != openOf(c) {
			if open.pos.Line != pos.Line {
				s.errorf(KindSyntax, pos, "closing parenthesis '%c' does not match opening parenthesis '%c' on line %d", c, open.c, open.pos.Line)
			} else {
				s.errorf(KindSyntax, pos, "closing parenthesis '%c' does not match opening parenthesis '%c'", c, open.c)
			}
			return
		}
		s.brackets = s.brackets[:len(s.brackets)-1]
		t.tok = closeToken(c)
	case '+', '-', '%', '&', '|', '^', '@', '=':
		t.tok = opTokens[c][0]
		if c1 == '=' {
			n = 2
			t.tok = opTokens[c][1]
		} else if c == '-' && c1 == '>' {
			n = 2
			t.tok = ARROW
		}
	case '*', '/', '<', '>':
		// x, xx, x=, xx=
		ops := &opTokens[c] // x, x=, xx, xx=
		switch {
		case c1 == c && c2 == '=':
			n, t.tok = 3, ops[3]
		case c1 == c:
			n, t.tok = 2, ops[2]
		case c1 == '=':
			n, t.tok = 2, ops[1]
		case c == '<' && c1 == '>':
			// Barry-as-FLUFL '<>' is an error in CPython too.
			n, t.tok = 2, ILLEGAL
		default:
			t.tok = ops[0]
		}
	case '!':
		t.tok = BANG
		if c1 == '=' {
			n, t.tok = 2, NEQ
		}
	case '~':
		t.tok = TILDE
	case ',':
		t.tok = COMMA
	case ';':
		t.tok = SEMI
	case ':':
		t.tok = COLON
		if c1 == '=' {
			n, t.tok = 2, WALRUS
		}
	case '.':
		t.tok = DOT
		if c1 == '.' && c2 == '.' {
			n, t.tok = 3, ELLIPSIS
		}
	default:
		// '$', '?', '`' and control characters: CPython reports "invalid
		// syntax" at them (or names a non-printable character).
		if c < ' ' && c != '\t' && c != '\f' {
			s.errorf(KindSyntax, pos, "invalid non-printable character U+%04X", c)
			return
		}
		t.tok = ILLEGAL
	}
	s.off += n
	s.col += int32(n)
}

// opTokens gives, for an operator's first byte, the tokens for the forms
// x, x=, xx and xx=.
var opTokens = [128][4]Token{
	'(': {LPAREN}, '[': {LBRACK}, '{': {LBRACE},
	'+': {PLUS, PLUS_EQ}, '-': {MINUS, MINUS_EQ}, '%': {PERCENT, PERCENT_EQ},
	'&': {AMP, AMP_EQ}, '|': {PIPE, PIPE_EQ}, '^': {CIRCUMFLEX, CIRCUMFLEX_EQ},
	'@': {AT, AT_EQ}, '=': {EQ, EQL},
	'*': {STAR, STAR_EQ, STARSTAR, STARSTAR_EQ},
	'/': {SLASH, SLASH_EQ, SLASHSLASH, SLASHSLASH_EQ},
	'<': {LT, LE, LTLT, LTLT_EQ},
	'>': {GT, GE, GTGT, GTGT_EQ},
}

func openOf(c byte) byte {
	switch c {
	case ')':
		return '('
	case ']':
		return '['
	}
	return '{'
}

func closeToken(c byte) Token {
	switch c {
	case ')':
		return RPAREN
	case ']':
		return RBRACK
	}
	return RBRACE
}
