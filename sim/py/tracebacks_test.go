package py

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Traceback cases: testdata/tracebacks/*.py, chunks separated by "---",
// each a script that fails; its "#| " lines are the expected traceback
// (CPython 3.12's traceback.format_exception, position markers included).
// TestTracebacksAgainstCPython checks them against CPython 3.12 and
// rewrites them with -update.

// tbChunk is one traceback case.
type tbChunk struct {
	line int
	src  string // without the "#|" lines
	want string
}

func readTBChunks(t *testing.T, path string) []tbChunk {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []tbChunk
	start := 0
	for _, part := range strings.Split(string(data), "\n---\n") {
		c := tbChunk{line: start + 1}
		var src, want []string
		for _, l := range strings.Split(strings.TrimRight(part, "\n"), "\n") {
			switch {
			case strings.HasPrefix(l, "#| "):
				want = append(want, l[3:])
			case l == "#|":
				want = append(want, "")
			default:
				src = append(src, l)
			}
		}
		c.src = strings.Join(src, "\n") + "\n"
		if len(want) > 0 {
			c.want = strings.Join(want, "\n") + "\n"
		}
		start += strings.Count(part, "\n") + 2
		out = append(out, c)
	}
	return out
}

// ourTraceback runs src and returns its traceback ("" if it succeeds).
func ourTraceback(src string) string {
	var out bytes.Buffer
	it := New(Options{Stdout: &out, Limits: Limits{MaxSteps: 2_000_000}})
	err := it.ExecScript(context.Background(), []byte(src))
	if err == nil {
		return ""
	}
	if se, ok := err.(*ScriptError); ok {
		return se.Traceback
	}
	return err.Error() + "\n"
}

// pythonTBRunner prints the traceback of a script as the playground shows
// it: the source comes from linecache (a file's lines end with a newline),
// the runner's own frame is left out.
const pythonTBRunner = `import sys, io, linecache, traceback, os
src = sys.stdin.read()
lines = src.splitlines(True)
if lines and not lines[-1].endswith('\n'):
    lines[-1] += '\n'
linecache.cache['<script>'] = (len(src), None, lines, '<script>')
sys.stdout = io.StringIO()
out = ''
try:
    exec(compile(src, '<script>', 'exec'), {'__name__': '__main__'})
except BaseException as e:
    e.__traceback__ = e.__traceback__.tb_next
    out = ''.join(traceback.format_exception(e))
sys.__stdout__.write(out)
sys.__stdout__.flush()
os._exit(0)
`

func TestTracebacks(t *testing.T) {
	files, _ := filepath.Glob("testdata/tracebacks/*.py")
	for _, f := range files {
		for _, c := range readTBChunks(t, f) {
			if got := ourTraceback(c.src); got != c.want {
				t.Errorf("%s:%d: traceback\n--- got\n%s--- want\n%s", f, c.line, got, c.want)
			}
		}
	}
}

func TestTracebacksAgainstCPython(t *testing.T) {
	py := python312()
	if py == "" {
		t.Skip("needs CPython 3.12 ($PYTHON312, python3.12 or pyenv's)")
	}
	files, _ := filepath.Glob("testdata/tracebacks/*.py")
	for _, f := range files {
		var parts []string
		for _, c := range readTBChunks(t, f) {
			cmd := exec.Command(py, "-c", pythonTBRunner)
			cmd.Stdin = strings.NewReader(c.src)
			out, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			if *update {
				var b strings.Builder
				b.WriteString(strings.TrimRight(c.src, "\n") + "\n")
				for _, l := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
					if l == "" {
						b.WriteString("#|\n")
					} else {
						b.WriteString("#| " + l + "\n")
					}
				}
				parts = append(parts, strings.TrimSuffix(b.String(), "\n"))
				continue
			}
			if string(out) != c.want {
				t.Errorf("%s:%d: CPython 3.12 prints\n%s--- but the case expects\n%s", f, c.line, out, c.want)
			}
		}
		if *update {
			if err := os.WriteFile(f, []byte(strings.Join(parts, "\n---\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
