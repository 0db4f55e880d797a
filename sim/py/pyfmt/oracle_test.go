package pyfmt

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/oracle.golden from python3")

// oracleCase is one differential test: an operation, its JSON-encoded
// arguments and CPython's result ("ok:..." or "err:Type: msg").
type oracleCase struct {
	Op   string `json:"op"`
	A    []any  `json:"a"`
	Want string `json:"want,omitempty"`
}

const goldenPath = "testdata/oracle.golden"

// runPython evaluates cases with testdata/oracle.py; ok is false when no
// python3 is installed.
func runPython(t *testing.T, cases []oracleCase) (results []string, ok bool) {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		return nil, false
	}
	in, err := json.Marshal(cases)
	if err != nil {
		t.Fatalf("encoding cases: %v", err)
	}
	cmd := exec.Command(py, "testdata/oracle.py")
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3 oracle: %v\n%s", err, stderr.String())
	}
	if err := json.Unmarshal(out, &results); err != nil {
		t.Fatalf("decoding oracle output: %v", err)
	}
	if len(results) != len(cases) {
		t.Fatalf("oracle returned %d results for %d cases", len(results), len(cases))
	}
	return results, true
}

// readGolden loads the committed expectations.
func readGolden(t *testing.T) []oracleCase {
	t.Helper()
	f, err := os.Open(goldenPath)
	if err != nil {
		t.Fatalf("opening golden file (run go test -update with python3): %v", err)
	}
	defer f.Close()
	var cases []oracleCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var c oracleCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("golden line %d: %v", len(cases)+1, err)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("reading golden: %v", err)
	}
	return cases
}

// writeGolden stores cases, one JSON object per line.
func writeGolden(t *testing.T, cases []oracleCase) {
	t.Helper()
	var b bytes.Buffer
	for _, c := range cases {
		line, err := json.Marshal(c)
		if err != nil {
			t.Fatalf("encoding golden: %v", err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(goldenPath, b.Bytes(), 0o644); err != nil {
		t.Fatalf("writing golden: %v", err)
	}
}

// checkCases compares the Go result of every case with want.
func checkCases(t *testing.T, cases []oracleCase) {
	t.Helper()
	bad := 0
	for _, c := range cases {
		got := evalCase(c)
		if got != c.Want {
			bad++
			if bad <= 40 {
				args, _ := json.Marshal(c.A)
				t.Errorf("%s %s:\n got %q\nwant %q", c.Op, args, got, c.Want)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d cases differ", bad, len(cases))
	}
}

// TestOracleGolden checks every committed CPython result.
func TestOracleGolden(t *testing.T) {
	if *update {
		t.Skip("golden being rewritten by TestOraclePython")
	}
	cases := readGolden(t)
	if len(cases) < 1000 {
		t.Fatalf("golden file has only %d cases", len(cases))
	}
	checkCases(t, cases)
}

// TestOraclePython runs the generated cases through python3 live, so a
// stale golden file or a generator change is noticed; -update rewrites
// the golden file.
func TestOraclePython(t *testing.T) {
	cases := generateCases()
	results, ok := runPython(t, cases)
	if !ok {
		if *update {
			t.Fatal("-update needs python3")
		}
		t.Skip("python3 not installed")
	}
	for i := range cases {
		cases[i].Want = results[i]
	}
	if *update {
		writeGolden(t, cases)
	}
	checkCases(t, cases)
}

// evalCase computes the Go side of a case in the oracle's result format.
func evalCase(c oracleCase) (out string) {
	defer func() {
		if r := recover(); r != nil {
			out = fmt.Sprintf("panic: %v", r)
		}
	}()
	s, err := evalOp(c.Op, c.A)
	if err != nil {
		var pe *Error
		if errors.As(err, &pe) {
			return "err:" + pe.Type + ": " + pe.Msg
		}
		return "goerr:" + err.Error()
	}
	return "ok:" + s
}

// str returns argument i as a string.
func str(a []any, i int) string {
	s, _ := a[i].(string)
	return s
}

// val decodes argument i as a typed test value.
func val(a []any, i int) tv {
	b, _ := json.Marshal(a[i])
	var v tv
	_ = json.Unmarshal(b, &v)
	return v
}

// joinReprs is a small helper for ops returning two reprs.
func joinReprs(xs ...string) string { return strings.Join(xs, " ") }
