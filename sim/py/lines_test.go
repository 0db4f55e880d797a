package py

import (
	"context"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// scriptLines runs src and returns its line events and final error.
func scriptLines(src string) ([]int, error) {
	var lines []int
	it := New(Options{OnLine: func(l int) { lines = append(lines, l) }, Limits: Limits{MaxSteps: 1_000_000}})
	err := it.ExecScript(context.Background(), []byte(src))
	return lines, err
}

const pyLineTracer = `import sys
src = sys.stdin.read()
code = compile(src, '<script>', 'exec')
ev = []
def local(frame, event, arg):
    if event == 'line':
        ev.append(frame.f_lineno)
    return local
def glob(frame, event, arg):
    if frame.f_code.co_filename == '<script>':
        return local
    return None
sys.settrace(glob)
try:
    exec(code, {'__name__': '__main__'})
except BaseException:
    pass
sys.settrace(None)
sys.stdout = sys.__stdout__
print('\nEV:' + ' '.join(map(str, ev)))
`

// TestLineEventsAgainstCPython compares line events with sys.settrace's
// in CPython 3.12 ($PYTHON312 or python3.12). Without 3.12 it falls back to
// python3 and skips the chunks marked "# py311-differs" and the files named
// *_312.py.
func TestLineEventsAgainstCPython(t *testing.T) {
	py, is312 := python312(), true
	if py == "" {
		is312 = false
		var err error
		if py, err = exec.LookPath("python3"); err != nil {
			t.Skip("python3 not available")
		}
	}
	files, _ := filepath.Glob("testdata/lines/*.py")
	for _, f := range files {
		if strings.HasSuffix(f, "_312.py") && !is312 {
			t.Logf("%s: skipped (needs CPython 3.12)", f)
			continue
		}
		for _, c := range readChunks(t, f) {
			if c.py311 && !is312 {
				continue
			}
			if strings.Contains(c.src, "# known-gap") {
				t.Logf("%s:%d: skipped (known gap, see NOTES.md)", f, c.line)
				continue
			}
			cmd := exec.Command(py, "-c", pyLineTracer)
			cmd.Stdin = strings.NewReader(c.src)
			out, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			want := string(out)
			if i := strings.LastIndex(want, "EV:"); i >= 0 {
				want = strings.TrimSpace(want[i+3:])
			}
			gotL, _ := scriptLines(c.src)
			var got []string
			for _, l := range gotL {
				got = append(got, strconv.Itoa(l))
			}
			if g := strings.Join(got, " "); g != want {
				t.Errorf("%s:%d: line events\n got %s\nwant %s", f, c.line, g, want)
			}
		}
	}
}
