package py

import (
	"bytes"
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// chunk is one test case of a chunked test file: source, expected output
// (from "#: text" comments, in order) and an optional expected error regexp
// (a "### regexp" comment).
type chunk struct {
	file    string
	line    int // first line of the chunk in the file
	src     string
	want    []string
	wantErr string
	py311   bool // CPython 3.11 behaves differently; skip the differential check
}

func readChunks(t *testing.T, path string) []chunk {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []chunk
	lines := strings.Split(string(data), "\n")
	start := 0
	flush := func(end int) {
		c := chunk{file: path, line: start + 1}
		var src []string
		for _, l := range lines[start:end] {
			src = append(src, l)
			tl := strings.TrimSpace(l)
			switch {
			case strings.HasPrefix(tl, "#: "):
				c.want = append(c.want, tl[3:])
			case tl == "#:":
				c.want = append(c.want, "")
			case strings.HasPrefix(tl, "### "):
				c.wantErr = strings.Trim(tl[4:], `"`)
			case strings.HasPrefix(tl, "# py311-differs"):
				c.py311 = true
			}
		}
		c.src = strings.Join(src, "\n") + "\n"
		if strings.TrimSpace(c.src) != "" {
			out = append(out, c)
		}
	}
	for i, l := range lines {
		if l == "---" {
			flush(i)
			start = i + 1
		}
	}
	flush(len(lines))
	return out
}

var update = flag.Bool("update", false, "rewrite the expected outputs of testdata/*.py from python3")

// exitMarker precedes what a final gc.collect() prints after the script's
// exec returned (objects kept alive by cycles through the globals dict).
const exitMarker = "<gc at exit>"

// runChunk runs src in a fresh interpreter, like the oracle harness (exec
// in a fresh globals dict), then runs gc.collect(); it returns stdout and
// the last traceback line ("" if none).
func runChunk(src string) (string, string) {
	var out bytes.Buffer
	it := New(Options{Stdout: &out, Limits: Limits{MaxSteps: 2_000_000, MaxCollection: 1_000_000}, KeepGenerators: true})
	err := it.ExecScript(context.Background(), []byte(src))
	n := out.Len()
	it.Collect(2)
	it.Close()
	res := out.String()
	if out.Len() > n {
		res = res[:n] + exitMarker + "\n" + res[n:]
	}
	if err != nil {
		if se, ok := err.(*ScriptError); ok {
			return res, se.Error()
		}
		return res, err.Error()
	}
	return res, ""
}

// pythonRunner runs a chunk the way runChunk does.
const pythonRunner = `import sys, io, gc, os
src = sys.stdin.read()
real = sys.stdout
buf = io.StringIO()
sys.stdout = buf
err = None
try:
    exec(compile(src, '<script>', 'exec'), {'__name__': '__main__'})
except BaseException as e:
    err = type(e).__name__ + ': ' + str(e)
n = len(buf.getvalue())
gc.collect()
out = buf.getvalue()
if len(out) > n:
    out = out[:n] + '` + exitMarker + `\n' + out[n:]
real.write(out)
if err is not None:
    real.write('\x00' + err + '\n')
real.flush()
os._exit(0)
`

// runPython runs a chunk with python3: stdout and the error line.
func runPython(py, src string) (string, string) {
	cmd := exec.Command(py, "-c", pythonRunner)
	cmd.Stdin = strings.NewReader(src)
	outb, _ := cmd.Output()
	out := string(outb)
	pyErr := ""
	if i := strings.Index(out, "\x00"); i >= 0 {
		pyErr = strings.TrimSpace(out[i+1:])
		out = out[:i]
	}
	return out, pyErr
}

func TestChunks(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.py")
	for _, f := range files {
		for _, c := range readChunks(t, f) {
			got, gotErr := runChunk(c.src)
			want := ""
			if len(c.want) > 0 {
				want = strings.Join(c.want, "\n") + "\n"
			}
			if got != want {
				t.Errorf("%s:%d: output differs\n--- got\n%s--- want\n%s", c.file, c.line, got, want)
			}
			if c.wantErr == "" && gotErr != "" {
				t.Errorf("%s:%d: unexpected error %s", c.file, c.line, gotErr)
			} else if c.wantErr != "" {
				if ok, _ := regexp.MatchString(c.wantErr, gotErr); !ok {
					t.Errorf("%s:%d: error %q does not match %q", c.file, c.line, gotErr, c.wantErr)
				}
			}
		}
	}
}

// TestChunksAgainstCPython checks the expected outputs of every chunk
// against CPython 3.12 (python312: $PYTHON312, python3.12 or pyenv's), the
// reference. Without 3.12 it falls back to python3 and skips the chunks
// marked "# py311-differs"; without any python3 it is skipped.
func TestChunksAgainstCPython(t *testing.T) {
	py, is312 := python312(), true
	if py == "" {
		is312 = false
		var err error
		if py, err = exec.LookPath("python3"); err != nil {
			t.Skip("python3 not available")
		}
	}
	files, _ := filepath.Glob("testdata/*.py")
	if *update {
		for _, f := range files {
			updateFile(t, py, f, is312)
		}
		return
	}
	for _, f := range files {
		for _, c := range readChunks(t, f) {
			if c.py311 && !is312 {
				continue
			}
			out, pyErr := runPython(py, c.src)
			want := ""
			if len(c.want) > 0 {
				want = strings.Join(c.want, "\n") + "\n"
			}
			if out != want {
				t.Errorf("%s:%d: python3 prints\n%s--- but the case expects\n%s", c.file, c.line, out, want)
			}
			if c.wantErr != "" {
				if ok, _ := regexp.MatchString(c.wantErr, pyErr); !ok {
					t.Errorf("%s:%d: python3 error %q does not match %q", c.file, c.line, pyErr, c.wantErr)
				}
			} else if pyErr != "" {
				t.Errorf("%s:%d: python3 raised %s", c.file, c.line, pyErr)
			}
		}
	}
}

// updateFile rewrites the "#:" expectations of every chunk from the reference
// CPython (3.12; python3 for the chunks not marked py311-differs).
func updateFile(t *testing.T, py, path string, is312 bool) {
	var outChunks []string
	for _, c := range readChunks(t, path) {
		lines := strings.Split(strings.TrimRight(c.src, "\n"), "\n")
		if c.py311 && !is312 {
			outChunks = append(outChunks, strings.Join(lines, "\n"))
			continue
		}
		var keep []string
		for _, l := range lines {
			tl := strings.TrimSpace(l)
			if strings.HasPrefix(tl, "#: ") || tl == "#:" || strings.HasPrefix(tl, "### ") {
				continue
			}
			keep = append(keep, l)
		}
		out, pyErr := runPython(py, strings.Join(keep, "\n")+"\n")
		if out != "" {
			for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
				if l == "" {
					keep = append(keep, "#:")
				} else {
					keep = append(keep, "#: "+l)
				}
			}
		}
		if pyErr != "" {
			keep = append(keep, "### \""+regexp.QuoteMeta(pyErr)+"\"")
		}
		outChunks = append(outChunks, strings.Join(keep, "\n"))
	}
	if err := os.WriteFile(path, []byte(strings.Join(outChunks, "\n---\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}
