package syntax

// F-strings: the scanner splits an f-string body into literal pieces and
// replacement fields (fpiece); the parser turns the fields' source ranges
// into expressions with exact positions (parseFString). String delimiting
// follows CPython 3.11 (a field cannot contain the outer quote).

// fpiece is a literal run or a replacement field of an f-string body.
type fpiece struct {
	field   bool
	pos     Position // start of the literal, or of '{'
	lit     string   // decoded literal text
	exprOff int      // field: the expression's source range
	exprEnd int
	exprPos Position
	conv    byte
	debug   string // field written {expr=}: the text up to and including '=' and its spaces
	hasSpec bool
	spec    []fpiece
	specPos Position
	end     Position // field: just after its closing '}'
}

// maxFStringNesting is CPython 3.11's limit on fields inside format specs.
const maxFStringNesting = 2

// scanFStringBody scans src[s.off:s.limit] as f-string text. In a format
// spec (inSpec) it stops before the '}' that closes the enclosing field.
// Errors are reported at errPos (the end of the literal), as CPython 3.11 does.
func (s *scanner) scanFStringBody(raw bool, nesting int, errPos Position) []fpiece {
	var pieces []fpiece
	inSpec := nesting > 0
	var lit []byte
	litPos := s.pos()
	flush := func() {
		if len(lit) == 0 {
			return
		}
		var text string
		if raw {
			text = normalizeNewlines(string(lit))
		} else {
			var msg string
			text, msg = decodeEscapes(lit, false)
			if msg != "" {
				s.litErrorf(KindSyntax, errPos, "%s", msg)
			}
		}
		pieces = append(pieces, fpiece{pos: litPos, lit: text})
		lit = lit[:0]
	}
	for !s.atEOF() && s.litErr == nil {
		c := s.src[s.off]
		switch {
		case c == '\\' && !raw && s.peekByte(1) != '{' && s.peekByte(1) != '}' && s.off+1 < s.limit:
			if len(lit) == 0 {
				litPos = s.pos()
			}
			start := s.off
			s.advance()
			s.advance()
			lit = append(lit, s.src[start:s.off]...)
		case c == '{' && s.peekByte(1) == '{' && !inSpec, c == '}' && s.peekByte(1) == '}' && !inSpec:
			if len(lit) == 0 {
				litPos = s.pos()
			}
			lit = append(lit, c)
			s.off += 2
			s.col += 2
		case c == '}':
			if inSpec {
				flush()
				return pieces
			}
			s.litErrorf(KindSyntax, errPos, "f-string: single '}' is not allowed")
			return nil
		case c == '{':
			flush()
			if nesting > maxFStringNesting {
				s.litErrorf(KindSyntax, errPos, "f-string: expressions nested too deeply")
				return nil
			}
			f, ok := s.scanFStringField(raw, nesting, errPos)
			if !ok {
				return nil
			}
			pieces = append(pieces, f)
			litPos = s.pos()
		default:
			if len(lit) == 0 {
				litPos = s.pos()
			}
			start := s.off
			s.advance()
			lit = append(lit, s.src[start:s.off]...)
		}
	}
	if inSpec && s.litErr == nil {
		s.litErrorf(KindSyntax, errPos, "f-string: expecting '}'")
		return nil
	}
	flush()
	return pieces
}

// scanFStringField scans a replacement field starting at '{'.
func (s *scanner) scanFStringField(raw bool, nesting int, errPos Position) (fpiece, bool) {
	f := fpiece{field: true, pos: s.pos()}
	s.advance() // '{'
	f.exprOff, f.exprPos = s.off, s.pos()
	var open []byte // brackets open inside the expression
	expecting := func() (fpiece, bool) {
		s.litErrorf(KindSyntax, errPos, "f-string: expecting '}'")
		return f, false
	}
	f.exprEnd = -1
	for f.exprEnd < 0 {
		if s.atEOF() {
			return expecting()
		}
		c := s.src[s.off]
		c1 := s.peekByte(1)
		switch {
		case c == '\\':
			s.litErrorf(KindSyntax, errPos, "f-string expression part cannot include a backslash")
			return f, false
		case c == '\'' || c == '"':
			if !s.skipNestedString() {
				s.litErrorf(KindSyntax, errPos, "f-string: unterminated string")
				return f, false
			}
			continue
		case c == '(' || c == '[' || c == '{':
			open = append(open, c)
		case c == ')' || c == ']' || c == '}':
			if len(open) == 0 {
				if c == '}' {
					f.exprEnd = s.off
					continue
				}
				s.litErrorf(KindSyntax, errPos, "f-string: unmatched '%c'", c)
				return f, false
			}
			if top := open[len(open)-1]; top != openOf(c) {
				s.litErrorf(KindSyntax, errPos, "f-string: closing parenthesis '%c' does not match opening parenthesis '%c'", c, top)
				return f, false
			}
			open = open[:len(open)-1]
		case c == '#':
			s.litErrorf(KindSyntax, errPos, "f-string expression part cannot include '#'")
			return f, false
		case (c == '!' || c == '=' || c == '<' || c == '>') && c1 == '=':
			s.off += 2
			s.col += 2
			continue
		case len(open) == 0 && (c == '!' || c == ':'):
			f.exprEnd = s.off
			continue
		case len(open) == 0 && c == '=':
			f.exprEnd = s.off
			continue
		}
		s.advance()
	}
	if isBlank(s.src[f.exprOff:f.exprEnd]) {
		if c := s.src[s.off]; c != '}' {
			s.litErrorf(KindSyntax, errPos, "f-string: expression required before '%c'", c)
		} else {
			s.litErrorf(KindSyntax, errPos, "f-string: empty expression not allowed")
		}
		return f, false
	}
	// CPython compiles the expression now, before looking further: record
	// it so its errors come before any later error in this f-string.
	s.fexprs = append(s.fexprs, f)
	if s.src[s.off] == '=' {
		// Debug specifier: '=' then optional spaces, then '}', '!' or ':'.
		s.advance()
		for !s.atEOF() && (s.src[s.off] == ' ' || s.src[s.off] == '\t') {
			s.advance()
		}
		f.debug = string(s.src[f.exprOff:s.off])
		if s.atEOF() || s.src[s.off] != '}' && s.src[s.off] != '!' && s.src[s.off] != ':' {
			return expecting()
		}
	}
	if s.atEOF() {
		return expecting()
	}
	if s.src[s.off] == '!' {
		s.advance()
		c := s.peekByte(0)
		if c != 's' && c != 'r' && c != 'a' {
			if s.atEOF() {
				s.litErrorf(KindSyntax, errPos, "f-string: expecting '}'")
			} else {
				s.litErrorf(KindSyntax, errPos, "f-string: invalid conversion character: expected 's', 'r', or 'a'")
			}
			return f, false
		}
		f.conv = c
		s.advance()
		if s.atEOF() {
			return expecting()
		}
		if n := s.src[s.off]; n != '}' && n != ':' {
			s.litErrorf(KindSyntax, errPos, "f-string: expecting '}'")
			return f, false
		}
	}
	if s.src[s.off] == ':' {
		s.advance()
		f.hasSpec = true
		f.specPos = s.pos()
		f.spec = s.scanFStringBody(raw, nesting+1, errPos)
		if s.litErr != nil {
			return f, false
		}
	}
	if s.atEOF() || s.src[s.off] != '}' {
		return expecting()
	}
	s.advance() // '}'
	f.end = s.pos()
	return f, true
}

// skipNestedString skips a string literal inside an f-string field (its
// quote differs from the enclosing one). It reports false if it is not
// terminated within the field.
func (s *scanner) skipNestedString() bool {
	q := s.src[s.off]
	triple := s.peekByte(1) == q && s.peekByte(2) == q
	n := 1
	if triple {
		n = 3
	}
	s.off += n
	s.col += int32(n)
	for !s.atEOF() {
		c := s.src[s.off]
		if c == q && (!triple || s.peekByte(1) == q && s.peekByte(2) == q) {
			s.off += n
			s.col += int32(n)
			return true
		}
		if c == '\\' {
			s.advance()
			if s.atEOF() {
				return false
			}
		}
		s.advance()
	}
	return false
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f' {
			return false
		}
	}
	return true
}

// parseStrings parses one or more adjacent string literals: a *Literal for
// plain strings or bytes, an *FString if any part is an f-string.
func (p *parser) parseStrings() Expr {
	first := p.tok
	isBytes := first.tok == BYTES
	hasF := false
	var toks []token
	mixed := false
	for p.tok.tok == STRING || p.tok.tok == BYTES || p.tok.tok == FSTRING {
		mixed = mixed || (p.tok.tok == BYTES) != isBytes
		hasF = hasF || p.tok.tok == FSTRING
		toks = append(toks, p.tok)
		p.next()
	}
	last := toks[len(toks)-1]
	if mixed {
		p.errorAt(last.end, Position{}, "cannot mix bytes and nonbytes literals")
	}
	for _, t := range toks {
		if t.litErr != nil {
			// Field expressions found before the error are compiled first.
			for i := range t.fexprs {
				p.parseFieldExpr(&t.fexprs[i])
			}
			p.fail(t.litErr)
		}
	}
	if !hasF {
		lit := &Literal{Token: first.tok, ValuePos: first.pos, EndPos: last.end, Raw: string(p.sc.src[first.off:first.endOff])}
		if len(toks) == 1 {
			lit.Str = first.str
		} else {
			n := 0
			for _, t := range toks {
				n += len(t.str)
			}
			b := make([]byte, 0, n)
			for _, t := range toks {
				b = append(b, t.str...)
			}
			lit.Str = string(b)
		}
		return lit
	}
	f := &FString{Start: first.pos, End: last.end}
	for _, t := range toks {
		if t.tok == STRING {
			if t.str != "" {
				f.Parts = appendLit(f.Parts, &FStringPart{Pos: t.pos, Lit: t.str})
			}
			continue
		}
		for _, part := range p.fstringParts(t.fparts) {
			f.Parts = appendLit(f.Parts, part)
		}
	}
	return f
}

// appendLit appends part, merging adjacent literal parts.
func appendLit(parts []*FStringPart, part *FStringPart) []*FStringPart {
	if n := len(parts); n > 0 && part.Expr == nil && parts[n-1].Expr == nil {
		parts[n-1] = &FStringPart{Pos: parts[n-1].Pos, Lit: parts[n-1].Lit + part.Lit}
		return parts
	}
	return append(parts, part)
}

// fstringParts turns scanned pieces into parts, parsing field expressions.
func (p *parser) fstringParts(pieces []fpiece) []*FStringPart {
	parts := make([]*FStringPart, 0, len(pieces))
	for i := range pieces {
		pc := &pieces[i]
		if !pc.field {
			parts = appendLit(parts, &FStringPart{Pos: pc.pos, Lit: pc.lit})
			continue
		}
		part := &FStringPart{Pos: pc.pos, End: pc.end, Expr: p.parseFieldExpr(pc), Conversion: pc.conv}
		if pc.debug != "" {
			parts = appendLit(parts, &FStringPart{Pos: pc.exprPos, Lit: normalizeNewlines(pc.debug)})
			part.Debug = true
			if pc.conv == 0 && !pc.hasSpec {
				part.Conversion = 'r'
			}
		}
		if pc.hasSpec {
			spec := &FString{Start: pc.specPos, End: pc.specPos, Parts: p.fstringParts(pc.spec)}
			if n := len(spec.Parts); n > 0 {
				_, spec.End = spec.Parts[n-1].Span()
			}
			part.Spec = spec
		}
		parts = append(parts, part)
	}
	return parts
}

// parseFieldExpr parses the expression of a replacement field with a
// sub-parser over its exact source range, so positions are real ones.
func (p *parser) parseFieldExpr(pc *fpiece) Expr {
	sub := &parser{
		sc:         newSubScanner(p.sc, pc.exprOff, pc.exprEnd, pc.exprPos),
		depth:      p.depth,
		parenDepth: 1,
		fstring:    true,
		funcDepth:  p.funcDepth,
		loopDepth:  p.loopDepth,
	}
	var x Expr
	func() {
		defer sub.recoverBailout()
		sub.next()
		if sub.tok.tok == YIELD {
			x = sub.parseYield()
		} else {
			x = sub.parseStarExprs()
		}
		if sub.tok.tok != EOF {
			sub.juxtaposed(x)
		}
	}()
	if sub.err != nil {
		p.fail(sub.err)
	}
	if sub.symErr != nil {
		p.deferSym(sub.symErr)
	}
	if sub.compErr != nil {
		p.deferComp(sub.compErr)
	}
	return x
}
