package syntax

import (
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

// addCorpus seeds a fuzz target with the test corpus and error snippets.
func addCorpus(f *testing.F) {
	files, _ := filepath.Glob("testdata/*/*.py")
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	if b, err := os.ReadFile("testdata/differential.py"); err == nil {
		for _, c := range splitChunks(string(b)) {
			f.Add([]byte(c))
		}
	}
}

// FuzzScan checks that the scanner terminates without panicking on any
// input and that token positions never go backwards.
func FuzzScan(f *testing.F) {
	addCorpus(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		s := newScanner("<fuzz>", src)
		var tok token
		var last Position
		for i := 0; ; i++ {
			if i > 4*len(src)+1000 {
				t.Fatalf("scanner does not terminate")
			}
			s.next(&tok)
			if tok.tok == EOF || tok.tok == ILLEGAL {
				break
			}
			if tok.pos.Before(last) {
				t.Fatalf("token %v at %v before previous %v", tok.tok, tok.pos, last)
			}
			last = tok.pos
		}
		if s.err != nil && (s.err.Pos.Line < 1 || s.err.Msg == "") {
			t.Fatalf("bad error %+v", s.err)
		}
	})
}

// FuzzParse checks that Parse never panics, returns either a tree or an
// *Error with a position inside the source, and that trees can be walked,
// dumped and formatted.
func FuzzParse(f *testing.F) {
	addCorpus(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := Parse("<fuzz>", src)
		if err != nil {
			e, ok := err.(*Error)
			if !ok {
				t.Fatalf("error of type %T", err)
			}
			lines := int32(1)
			for _, c := range src {
				if c == '\n' || c == '\r' {
					lines++
				}
			}
			if e.Pos.Line < 1 || e.Pos.Line > lines+1 || e.Msg == "" {
				t.Fatalf("bad error position %v (%d lines): %s", e.Pos, lines, e.Msg)
			}
			if out := e.Format(); !utf8.ValidString(out) && utf8.Valid(src) {
				t.Fatalf("Format produced invalid UTF-8")
			}
			return
		}
		Walk(file, func(n Node) bool {
			start, end := n.Span()
			if !start.IsValid() || end.Before(start) {
				t.Fatalf("%T has span %v-%v", n, start, end)
			}
			return true
		})
		_ = Dump(file)
	})
}
