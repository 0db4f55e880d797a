package py

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// goldenLines reads the line column of an oracle golden's trace (without
// the final -1 row).
func goldenLines(t *testing.T, path string) []int {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Trace [][]int64 `json:"trace"`
	}
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []int
	for _, r := range g.Trace {
		if len(r) > 0 && r[0] >= 0 {
			out = append(out, int(r[0]))
		}
	}
	return out
}

// oracleModules are the torch modules the oracle cases import; the fake
// torch module stands for all of them (testdata/faketorch/trace.py lists
// the same names for CPython).
var oracleModules = []string{"torch", "torch.nn", "torch.nn.functional", "torch.optim", "torch.utils",
	"torch.utils.data", "torch.utils.checkpoint", "torch.cuda", "torch.cuda.amp", "torch.amp",
	"torch.nn.utils", "torch.autograd", "torch.cuda.memory", "torch.nn.init", "torch.optim.lr_scheduler"}

// runOracleFake runs an oracle case with the fake torch of testdata/faketorch
// and returns its line events, with "error T" appended if it raised T.
func runOracleFake(fake, src []byte) []string {
	var lines []string
	it := New(Options{OnLine: func(l int) { lines = append(lines, strconv.Itoa(l)) }, Limits: Limits{MaxSteps: 5_000_000}})
	for _, m := range oracleModules {
		flags := HideFrames
		if !strings.Contains(m, ".") || m == "torch.nn" || m == "torch.utils" || m == "torch.cuda" {
			flags |= Package
		}
		it.RegisterSource(m, "<fake>/"+m+".py", fake, flags)
	}
	if err := it.ExecScript(context.Background(), src); err != nil {
		if se, ok := err.(*ScriptError); ok {
			lines = append(lines, "error "+se.Type)
		} else {
			lines = append(lines, "error "+err.Error())
		}
	}
	return lines
}

// python312 returns a CPython 3.12 interpreter ($PYTHON312, python3.12 on
// PATH or a pyenv install, checked to run and to be 3.12: a pyenv shim may
// not), or "".
func python312() string {
	py312Once.Do(func() {
		cands := []string{os.Getenv("PYTHON312"), "python3.12"}
		if home, err := os.UserHomeDir(); err == nil {
			m, _ := filepath.Glob(filepath.Join(home, ".pyenv/versions/3.12*/bin/python3.12"))
			cands = append(cands, m...)
		}
		for _, p := range cands {
			if p == "" {
				continue
			}
			if err := exec.Command(p, "-c", "import sys; assert sys.version_info[:2] == (3, 12)").Run(); err == nil {
				py312Path = p
				return
			}
		}
	})
	return py312Path
}

var (
	py312Once sync.Once
	py312Path string
)

// TestOracleLineEvents runs every oracle case with the fake torch and
// compares its line events with CPython 3.12's for the same fake run
// (testdata/oracle_lines/*.txt, rewritten by -update from $PYTHON312 or
// python3.12), event for event, including the exception that stops it.
// It also reports how much of the golden recorded with real torch the fake
// run covers: the two agree until the first place where the script's
// control flow depends on torch's values (a loop over parameters, an OOM).
func TestOracleLineEvents(t *testing.T) {
	cases, _ := filepath.Glob("../testdata/oracle/cases/*.py")
	if len(cases) == 0 {
		t.Skip("no oracle cases")
	}
	fake, err := os.ReadFile("testdata/faketorch/torch.py")
	if err != nil {
		t.Fatal(err)
	}
	py := python312()
	if *update && py == "" {
		t.Fatal("-update needs CPython 3.12 ($PYTHON312 or python3.12 on PATH)")
	}
	exact, full := 0, 0
	for _, path := range cases {
		name := strings.TrimSuffix(filepath.Base(path), ".py")
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		ref := filepath.Join("testdata/oracle_lines", name+".txt")
		if *update {
			out, err := exec.Command(py, "testdata/faketorch/trace.py", path).Output()
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if err := os.WriteFile(ref, out, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		data, err := os.ReadFile(ref)
		if err != nil {
			if _, gerr := os.Stat(filepath.Join("../testdata/oracle/golden", name+".json")); gerr != nil {
				// A case still being written (no golden yet): -update records it.
				t.Logf("%s: no line-event reference yet (go test -run TestOracleLineEvents -update)", name)
				continue
			}
			t.Fatal(err)
		}
		want := strings.Fields(strings.ReplaceAll(string(data), "error ", "error_"))
		got := runOracleFake(fake, src)
		for i := range got {
			got[i] = strings.ReplaceAll(got[i], "error ", "error_")
		}
		if i := firstDiff(got, want); i >= 0 {
			t.Errorf("%s: line events differ from CPython 3.12 at event %d\n got …%v\nwant …%v", name, i, window(got, i), window(want, i))
			continue
		}
		golden := filepath.Join("../testdata/oracle/golden", name+".json")
		if _, err := os.Stat(golden); err != nil {
			t.Logf("%s: matches CPython 3.12; no real-torch golden yet", name)
			exact++
			continue
		}
		real := goldenLines(t, golden)
		n := 0
		for n < len(real) && n < len(want) && want[n] == strconv.Itoa(real[n]) {
			n++
		}
		if n == len(real) && len(want) == n {
			full++
		} else {
			t.Logf("%s: matches CPython 3.12; covers %d of %d events of the real-torch golden", name, n, len(real))
		}
		exact++
	}
	t.Logf("%d of %d cases match CPython 3.12 with the fake torch; %d of them cover the whole real-torch golden", exact, len(cases), full)
}

// firstDiff returns the index of the first difference of a and b, or -1.
func firstDiff(a, b []string) int {
	for i := 0; i < len(a) || i < len(b); i++ {
		if i >= len(a) || i >= len(b) || a[i] != b[i] {
			return i
		}
	}
	return -1
}

// window returns the elements of s around index i.
func window(s []string, i int) []string {
	lo, hi := i-8, i+8
	if lo < 0 {
		lo = 0
	}
	if hi > len(s) {
		hi = len(s)
	}
	if lo > hi {
		lo = hi
	}
	return s[lo:hi]
}
