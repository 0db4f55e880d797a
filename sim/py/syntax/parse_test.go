package syntax

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

var update = flag.Bool("update", false, "rewrite testdata/golden/*.sexpr")

// TestGolden compares the S-expression dump of each testdata/golden/*.py
// file (one statement per line) with its .sexpr file.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/golden/*.py")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Parse(name, src)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		var b strings.Builder
		for _, s := range f.Stmts {
			b.WriteString(Dump(s))
			b.WriteByte('\n')
		}
		golden := strings.TrimSuffix(name, ".py") + ".sexpr"
		if *update {
			if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run with -update to create it)", err)
		}
		if got := b.String(); got != string(want) {
			gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
			for i := 0; i < len(gl) && i < len(wl); i++ {
				if gl[i] != wl[i] {
					t.Errorf("%s: statement %d differs:\n got %s\nwant %s", name, i+1, gl[i], wl[i])
					break
				}
			}
			if len(gl) != len(wl) {
				t.Errorf("%s: %d lines, want %d", name, len(gl), len(wl))
			}
		}
	}
}

// expectRE matches an expected-error annotation: ### "regexp".
var expectRE = regexp.MustCompile(`### "((?:[^"\\]|\\.)*)"`)

// TestChunks runs the chunked files testdata/*.chunks: chunks separated by
// "---" lines; a chunk with a `### "regexp"` comment must fail on that
// line with an error whose "Kind: message" matches the regexp; a chunk
// without one must parse.
func TestChunks(t *testing.T) {
	files, err := filepath.Glob("testdata/*.chunks")
	if err != nil || len(files) == 0 {
		t.Fatalf("no chunk files: %v", err)
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		line0 := 1 // line of the chunk's first line in the file
		for i, chunk := range strings.Split(string(data), "\n---\n") {
			checkChunk(t, name, i, line0, chunk)
			line0 += strings.Count(chunk, "\n") + 2
		}
	}
}

func checkChunk(t *testing.T, name string, i, line0 int, chunk string) {
	t.Helper()
	wantLine, wantRE := 0, ""
	for n, line := range strings.Split(chunk, "\n") {
		if m := expectRE.FindStringSubmatch(line); m != nil {
			wantLine, wantRE = n+1, strings.ReplaceAll(m[1], `\"`, `"`)
		}
	}
	_, err := Parse("<script>", []byte(chunk))
	where := name + ":" + itoa32(int32(line0))
	if wantRE == "" {
		if err != nil {
			t.Errorf("%s: chunk %d: unexpected error: %v", where, i, err)
		}
		return
	}
	if err == nil {
		t.Errorf("%s: chunk %d: parsed, want error %q on line %d", where, i, wantRE, wantLine)
		return
	}
	e := err.(*Error)
	msg := e.Kind + ": " + e.Msg
	if ok, _ := regexp.MatchString(wantRE, msg); !ok || int(e.Pos.Line) != wantLine {
		t.Errorf("%s: chunk %d: got %q on line %d, want %q on line %d", where, i, msg, e.Pos.Line, wantRE, wantLine)
	}
}

// corpusFiles lists the scripts that must parse: the oracle cases (copied
// from ../shared/oracle/cases), the seed snippets, and the simulator's
// oracle cases when they are present in the repository.
func corpusFiles(t *testing.T) []string {
	var files []string
	for _, pattern := range []string{"testdata/oracle/*.py", "testdata/seeds/*.py", "testdata/golden/*.py", "../../testdata/oracle/cases/*.py"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 20 {
		t.Fatalf("corpus too small: %d files", len(files))
	}
	return files
}

// TestCorpusParses checks that every corpus script parses and that every
// identifier and literal node's position points at its source text.
func TestCorpusParses(t *testing.T) {
	for _, name := range corpusFiles(t) {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Parse(name, src)
		if err != nil {
			if e, ok := err.(*Error); ok {
				t.Errorf("%s:\n%s", name, e.Format())
			} else {
				t.Errorf("%s: %v", name, err)
			}
			continue
		}
		checkPositions(t, name, src, f)
	}
}

// sourceAt returns the source text starting at pos (to the end of its line).
func sourceAt(lines []string, pos Position) string {
	if pos.Line < 1 || int(pos.Line) > len(lines) {
		return ""
	}
	line := lines[pos.Line-1]
	col := int(pos.Col) - 1
	for i := range line {
		if col == 0 {
			return line[i:]
		}
		col--
	}
	return ""
}

// checkPositions verifies node spans: identifiers and literals start where
// their text is, and every span is ordered.
func checkPositions(t *testing.T, name string, src []byte, f *File) {
	t.Helper()
	lines := strings.Split(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n")
	Walk(f, func(n Node) bool {
		start, end := n.Span()
		if !start.IsValid() || end.Before(start) {
			t.Errorf("%s: %T has span %v-%v", name, n, start, end)
		}
		switch n := n.(type) {
		case *Ident:
			if !strings.HasPrefix(sourceAt(lines, n.NamePos), n.Name) {
				t.Errorf("%s:%v: identifier %q not found at its position (%q)", name, n.NamePos, n.Name, sourceAt(lines, n.NamePos))
			}
		case *Literal:
			text := sourceAt(lines, n.ValuePos)
			if !strings.HasPrefix(text, firstLine(n.Raw)) {
				t.Errorf("%s:%v: literal %q not found at its position (%q)", name, n.ValuePos, n.Raw, text)
			}
		}
		return true
	})
}

func firstLine(s string) string {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		return s[:i]
	}
	return s
}

// TestLiterals checks scanned literal values.
func TestLiterals(t *testing.T) {
	tests := []struct {
		src  string
		want string // Dump of the expression
	}{
		{"0", "0@1:1"},
		{"1_000_000", "1000000@1:1"},
		{"0x_ff + 0o17 + 0b101", "(BinaryExpr@1:1 X=(BinaryExpr@1:1 X=255@1:1 Op=+ Y=15@1:9) Op=+ Y=5@1:16)"},
		{"123456789012345678901234567890", "123456789012345678901234567890@1:1"},
		{"9223372036854775807", "9223372036854775807@1:1"},
		{"9223372036854775808", "9223372036854775808@1:1"},
		{"1e-3", "0.001@1:1"},
		{".5", "0.5@1:1"},
		{"1_0.0", "10@1:1"},
		{"1.", "1@1:1"},
		{"1e400", "+Inf@1:1"},
		{"2.5J", "2.5j@1:1"},
		{`'\x41\u00e9\U0001F600\101\0'`, `"Aé😀A\x00"@1:1`},
		{`'\d'`, `"\\d"@1:1`},
		{`'a' "b" '''c'''`, `"abc"@1:1`},
		{`r'\n' R"\t"`, `"\\n\\t"@1:1`},
		{`b'\xff\101' rb'\x'`, `b"\xffA\\x"@1:1`},
		{`b'\u1234'`, `b"\\u1234"@1:1`},
		{"'a\\\nb'", `"ab"@1:1`},
		{"'''a\r\nb'''", `"a\nb"@1:1`},
		{"...", "...@1:1"},
		{"None", "None@1:1"},
		{"1if x else 2", "(CondExpr@1:1 Then=1@1:1 Cond=x@1:5 Else=2@1:12)"},
	}
	for _, tt := range tests {
		x, err := ParseExpr("<expr>", []byte(tt.src))
		if err != nil {
			t.Errorf("%s: %v", tt.src, err)
			continue
		}
		if got := Dump(x); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.src, got, tt.want)
		}
	}
}

// TestFStringParts checks how f-strings are split into parts.
func TestFStringParts(t *testing.T) {
	tests := []struct {
		src  string
		want string
	}{
		{`f"a{b}c"`, `(FString@1:1 Parts=((FStringPart@1:3 Lit="a") (FStringPart@1:4 Expr=b@1:5) (FStringPart@1:7 Lit="c")))`},
		{`f"{x=}"`, `(FString@1:1 Parts=((FStringPart@1:4 Lit="x=") (FStringPart@1:3 Expr=x@1:4 Conversion=r Debug=true)))`},
		{`f"{x = :>4}"`, `(FString@1:1 Parts=((FStringPart@1:4 Lit="x = ") (FStringPart@1:3 Expr=x@1:4 Spec=(FString@1:9 Parts=((FStringPart@1:9 Lit=">4"))) Debug=true)))`},
		{`f"{{}}"`, `(FString@1:1 Parts=((FStringPart@1:3 Lit="{}")))`},
		{`"a" f"{b!s:{w}}" "c"`, `(FString@1:1 Parts=((FStringPart@1:1 Lit="a") (FStringPart@1:7 Expr=b@1:8 Conversion=s Spec=(FString@1:12 Parts=((FStringPart@1:12 Expr=w@1:13)))) (FStringPart@1:18 Lit="c")))`},
		{"f'''{\nx\n}'''", `(FString@1:1 Parts=((FStringPart@1:5 Expr=x@2:1)))`},
		{`f"{a, b}"`, `(FString@1:1 Parts=((FStringPart@1:3 Expr=(TupleExpr@1:4 Elts=(a@1:4 b@1:7)))))`},
		{`rf"\n{x}"`, `(FString@1:1 Parts=((FStringPart@1:4 Lit="\\n") (FStringPart@1:6 Expr=x@1:7)))`},
		{`f"\t{x:%H\n}"`, `(FString@1:1 Parts=((FStringPart@1:3 Lit="\t") (FStringPart@1:5 Expr=x@1:6 Spec=(FString@1:8 Parts=((FStringPart@1:8 Lit="%H\n"))))))`},
	}
	for _, tt := range tests {
		x, err := ParseExpr("<expr>", []byte(tt.src))
		if err != nil {
			t.Errorf("%s: %v", tt.src, err)
			continue
		}
		if got := Dump(x); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.src, got, tt.want)
		}
	}
}

// TestLimits checks that pathological nesting fails cleanly.
func TestLimits(t *testing.T) {
	tests := []struct {
		src  string
		want string
	}{
		{strings.Repeat("(", 300) + "1" + strings.Repeat(")", 300), "too many nested parentheses"},
		{"x = " + strings.Repeat("-", 5000) + "1", "too many nested expressions"},
		{"x = " + strings.Repeat("not ", 5000) + "1", "too many nested expressions"},
		{"x = " + strings.Repeat("lambda: ", 5000) + "1", "too many nested expressions"},
		{"x = " + strings.Repeat("2**", 5000) + "1", "too many nested expressions"},
		{"x = " + strings.Repeat("a if b else ", 5000) + "1", "too many nested expressions"},
		{"x = " + strings.Repeat("[", 250) + strings.Repeat("]", 250), "too many nested parentheses"},
		{nestedIfs(101), "too many levels of indentation"},
	}
	for _, tt := range tests {
		_, err := Parse("<script>", []byte(tt.src))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%.30s...: got %v, want %q", tt.src, err, tt.want)
		}
	}
	if _, err := Parse("<script>", []byte(nestedIfs(99))); err != nil {
		t.Errorf("99 nested blocks: %v", err)
	}
	deep := "x = " + strings.Repeat("f(", 190) + strings.Repeat(")", 190)
	if _, err := Parse("<script>", []byte(deep)); err != nil {
		t.Errorf("190 nested calls: %v", err)
	}
}

func nestedIfs(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(strings.Repeat(" ", i))
		b.WriteString("if x:\n")
	}
	b.WriteString(strings.Repeat(" ", n))
	b.WriteString("pass\n")
	return b.String()
}

// TestFormat checks the CPython-style rendering of errors.
func TestFormat(t *testing.T) {
	tests := []struct {
		src  string
		want string
	}{
		{"x = 1\nx = (1 +\n", "  File \"<script>\", line 2\n    x = (1 +\n        ^\nSyntaxError: '(' was never closed\n"},
		{"if x:\n    f() = 1\n", "  File \"<script>\", line 2\n    f() = 1\n    ^^^\nSyntaxError: cannot assign to function call here. Maybe you meant '==' instead of '='?\n"},
		{"if x:\npass\n", "  File \"<script>\", line 2\n    pass\n    ^^^^\nIndentationError: expected an indented block after 'if' statement on line 1\n"},
		{"x = 'é\n", "  File \"<script>\", line 1\n    x = 'é\n        ^\nSyntaxError: unterminated string literal (detected at line 1)\n"},
		{"\tx = 1\n", "  File \"<script>\", line 1\n    \tx = 1\n    ^\nIndentationError: unexpected indent\n"},
		{"if x:\n\ty = $\n", "  File \"<script>\", line 2\n    \ty = $\n    \t    ^\nSyntaxError: invalid syntax\n"},
	}
	for _, tt := range tests {
		_, err := Parse("<script>", []byte(tt.src))
		e, ok := err.(*Error)
		if !ok {
			t.Errorf("%q: got %v, want an *Error", tt.src, err)
			continue
		}
		if got := e.Format(); got != tt.want {
			t.Errorf("%q:\n got %q\nwant %q", tt.src, got, tt.want)
		}
	}
	e := &Error{Kind: KindSyntax, Msg: "invalid syntax", Filename: "<script>", Pos: Position{3, 1}}
	if got, want := e.Error(), "SyntaxError: invalid syntax (<script>, line 3)"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

// TestWalk checks that Walk visits every node once in source order and
// that returning false prunes a subtree.
func TestWalk(t *testing.T) {
	f, err := Parse("<script>", []byte("def f(a=1):\n    return [x + a for x in y if x]\nz = f(2)\n"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	Walk(f, func(n Node) bool {
		if id, ok := n.(*Ident); ok {
			names = append(names, id.Name)
		}
		return true
	})
	if got, want := strings.Join(names, " "), "f a x a x y x z f"; got != want {
		t.Errorf("identifiers %q, want %q", got, want)
	}
	count := 0
	Walk(f, func(n Node) bool {
		count++
		_, isDef := n.(*DefStmt)
		return !isDef
	})
	if count != 7 { // File, DefStmt (body pruned), AssignStmt, z, CallExpr, f, 2
		t.Errorf("pruned walk visited %d nodes, want 7", count)
	}
}

// TestPositionsUnicode checks that columns count code points.
func TestPositionsUnicode(t *testing.T) {
	f, err := Parse("<script>", []byte("s = 'ééé'; t = x\n"))
	if err != nil {
		t.Fatal(err)
	}
	as := f.Stmts[1].(*AssignStmt)
	if got := as.Targets[0].(*Ident).NamePos; got != (Position{1, 12}) {
		t.Errorf("t at %v, want 1:12", got)
	}
	if n := utf8.RuneCountInString("s = 'ééé'; "); n != 11 {
		t.Fatalf("bad test: %d", n)
	}
}
