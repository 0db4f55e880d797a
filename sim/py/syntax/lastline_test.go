package syntax

import "testing"

// TestLastLine checks lastLine against lineText, which counts lines from
// the start of the file, for every prefix ending in a line break.
func TestLastLine(t *testing.T) {
	srcs := []string{
		"\n", "\r", "\r\n", "a\n", "ab\r\nc\r\n", "x\ry\n", "\n\n\n", "é€\n", "a\r\r\n",
		"def f():\n    return 1\n\n", "x = 1\r\ny = 2\rz = 3\n",
	}
	for _, src := range srcs {
		b := []byte(src)
		line := int32(1)
		for i := 0; i < len(b); i++ {
			c := b[i]
			if c != '\n' && c != '\r' {
				continue
			}
			if c == '\r' && i+1 < len(b) && b[i+1] == '\n' {
				continue // the line ends at the "\n" of "\r\n"
			}
			want := lineText(b, line)
			if got := string(lastLine(b[:i+1])); got != want {
				t.Errorf("%q up to %d: lastLine = %q, lineText(%d) = %q", src, i, got, line, want)
			}
			line++
		}
	}
}
