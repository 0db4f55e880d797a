package syntax

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// pyResult is what python3's compile() said about one snippet.
type pyResult struct {
	OK   bool   `json:"ok"`
	Kind string `json:"kind"`
	Msg  string `json:"msg"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
}

// pyCompile runs CPython's compile() over every snippet in one process.
const pyCompile = `
import json, sys, warnings
warnings.simplefilter("ignore")
out = []
for src in json.load(sys.stdin):
    try:
        compile(src, "<script>", "exec")
        out.append({"ok": True})
    except SyntaxError as e:
        out.append({"ok": False, "kind": type(e).__name__, "msg": e.msg, "line": e.lineno or 0, "col": e.offset or 0})
json.dump(out, sys.stdout)
`

// runPython compiles each source with python3 and returns the results;
// it skips the test when python3 is missing.
func runPython(t *testing.T, srcs []string) []pyResult {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	in, _ := json.Marshal(srcs)
	cmd := exec.Command(python, "-c", pyCompile)
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	var res []pyResult
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatal(err)
	}
	if len(res) != len(srcs) {
		t.Fatalf("python3 answered %d of %d", len(res), len(srcs))
	}
	return res
}

// ourResult is what Parse says about src, in pyResult form.
func ourResult(src string) pyResult {
	_, err := Parse("<script>", []byte(src))
	if err == nil {
		return pyResult{OK: true}
	}
	e := err.(*Error)
	return pyResult{Kind: e.Kind, Msg: e.Msg, Line: int(e.Pos.Line), Col: int(e.Pos.Col)}
}

// TestDifferentialEdges compares line-ending, end-of-file, form-feed and
// number-boundary cases (which a chunk file cannot hold) with python3,
// columns included.
func TestDifferentialEdges(t *testing.T) {
	srcs := []string{
		"x = 1\r\nif x:\r\n    y = 2\r\n",
		"x = 1\r\nif x:\r\n    y = (2\r\n",
		"x = '''a\r\nb'''\r\nz = $\r\n",
		"if x:\n    pass\n# end",
		"if x:\n    pass\n    # end\n  ",
		"\x0cx = 1\n",
		"if x:\n\x0c    y = 1\n",
		"x = 1\\\n",
		"x = 1\\",
		"x = (1,\n",
		"if x:\n  y\n\n\n",
		"if x:",
		"if x:\n",
		"def f():\n    '''doc'''\n",
		"x = 1 # comment \\\ny = 2\n",
		"   # indented comment\nx = 1\n",
		"x = 1\n   \n\t\ny = 2\n",
		"class A:\n    pass\n  # c\n    \n",
		"\ufeffx = 1\n",
		"\n\n\n   ",
		"",
		"for x in y:\n    pass\nelse:\n    pass\nelif z:\n    pass\n",
		"x = [\n  1 2\n]\n",
		"print(f'{x}' f'{y!r:>{w}}' 'z')\n",
		"a = b'\\xff' b'c'\n",
		"x = 1.e5 + 1e+ 5\n",
		"x = 0_1\n",
		"x = 00_0\n",
		"x = 0x1_\n",
		"x = 1.5_0\n",
		"x = 1._5\n",
		"x = 1e1_0\n",
		"x = 5 if 1else 6\n",
		"x = 0b1and 1\n",
		"x = 1_000j\n",
	}
	want := runPython(t, srcs)
	for i, src := range srcs {
		if got := ourResult(src); got != want[i] {
			t.Errorf("%q:\n got %+v\nwant %+v", src, got, want[i])
		}
	}
}

// splitChunks splits a chunked test file at lines that are exactly "---".
func splitChunks(data string) []string {
	var chunks []string
	for _, c := range strings.Split(data, "\n---\n") {
		chunks = append(chunks, strings.TrimPrefix(c, "\n"))
	}
	return chunks
}

// TestDifferential checks that our accept/reject decision, error kind,
// message, line and (unless the snippet says "# nocol") column agree with
// python3's compile() for every snippet of testdata/differential.py.
func TestDifferential(t *testing.T) {
	data, err := os.ReadFile("testdata/differential.py")
	if err != nil {
		t.Fatal(err)
	}
	chunks := splitChunks(string(data))
	want := runPython(t, chunks)
	for i, src := range chunks {
		w := want[i]
		_, err := Parse("<script>", []byte(src))
		if w.OK {
			if err != nil {
				t.Errorf("chunk %d: python accepts, we reject: %v\n%s", i, err, src)
			}
			continue
		}
		if err == nil {
			t.Errorf("chunk %d: python rejects (%s: %s, line %d), we accept\n%s", i, w.Kind, w.Msg, w.Line, src)
			continue
		}
		e := err.(*Error)
		if e.Kind != w.Kind || e.Msg != w.Msg || int(e.Pos.Line) != w.Line {
			t.Errorf("chunk %d: got %s: %s (line %d), python %s: %s (line %d)\n%s",
				i, e.Kind, e.Msg, e.Pos.Line, w.Kind, w.Msg, w.Line, src)
			continue
		}
		if !strings.Contains(src, "# nocol") && int(e.Pos.Col) != w.Col {
			t.Errorf("chunk %d: %s: column %d, python %d\n%s", i, e.Msg, e.Pos.Col, w.Col, src)
		}
	}
}

// TestCorpusPython checks that python3 itself accepts every corpus script
// (the hand-restored seed snippets included), so TestCorpusParses tests
// real Python.
func TestCorpusPython(t *testing.T) {
	files := corpusFiles(t)
	var srcs []string
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, string(b))
	}
	for i, r := range runPython(t, srcs) {
		if !r.OK {
			t.Errorf("%s: python3 rejects it: %s: %s (line %d)", files[i], r.Kind, r.Msg, r.Line)
		}
	}
}
