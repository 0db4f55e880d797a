package syntax

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// benchScript builds a realistic script of about n lines by repeating the
// oracle cases and seed snippets.
func benchScript(b *testing.B, n int) []byte {
	files, _ := filepath.Glob("testdata/oracle/*.py")
	seeds, _ := filepath.Glob("testdata/seeds/*.py")
	files = append(files, seeds...)
	var parts [][]byte
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			b.Fatal(err)
		}
		parts = append(parts, src)
	}
	var buf bytes.Buffer
	for lines := 0; lines < n; {
		for _, p := range parts {
			buf.Write(p)
			buf.WriteByte('\n')
			lines += bytes.Count(p, []byte("\n")) + 1
			if lines >= n {
				break
			}
		}
	}
	return buf.Bytes()
}

// BenchmarkParse parses a 1000-line script built from the corpus.
func BenchmarkParse(b *testing.B) {
	src := benchScript(b, 1000)
	if _, err := Parse("<bench>", src); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("<bench>", src); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScan scans the same script without parsing.
func BenchmarkScan(b *testing.B) {
	src := benchScript(b, 1000)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		s := newScanner("<bench>", src)
		var t token
		for s.next(&t); t.tok != EOF && t.tok != ILLEGAL; s.next(&t) {
		}
	}
}
