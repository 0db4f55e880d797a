package prelude_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOracleStdout runs the oracle cases through the binding and the
// prelude and compares their stdout with the H100 recordings (the memory
// rows are compared by sim/fidelity). Cases listed in
// testdata/stdout_exact.txt must match; the others are reported.
func TestOracleStdout(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "oracle")
	cases, err := filepath.Glob(filepath.Join(dir, "cases", "*.py"))
	if err != nil {
		t.Fatal(err)
	}
	exact := map[string]bool{}
	if b, err := os.ReadFile(filepath.Join("testdata", "stdout_exact.txt")); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
				exact[l] = true
			}
		}
	}
	only := os.Getenv("PRELUDE_CASE")
	for _, c := range cases {
		name := strings.TrimSuffix(filepath.Base(c), ".py")
		if only != "" && !strings.Contains(name, only) {
			continue
		}
		src, err := os.ReadFile(c)
		if err != nil {
			t.Fatal(err)
		}
		gb, err := os.ReadFile(filepath.Join(dir, "golden", name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var g struct {
			Stdout string  `json:"stdout"`
			Error  *string `json:"error"`
		}
		if err := json.Unmarshal(gb, &g); err != nil {
			t.Fatal(err)
		}
		out, _, rerr := run(t, string(src))
		diff := firstDiff(g.Stdout, out)
		if rerr != nil && g.Error == nil {
			diff += "\n    error: " + firstLine(rerr.Error())
		}
		if diff == "" {
			t.Logf("%-24s stdout exact", name)
			continue
		}
		if exact[name] {
			t.Errorf("%s: stdout differs: %s", name, diff)
		} else {
			t.Logf("%-24s %s", name, diff)
		}
	}
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndex(s, "\n"); i >= 0 {
		return s[i+1:]
	}
	return s
}

func firstDiff(want, got string) string {
	w := strings.Split(want, "\n")
	g := strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return "line " + itoa(i+1) + ": want " + quote(a) + " got " + quote(b)
		}
	}
	return ""
}

func quote(s string) string { return "\"" + s + "\"" }

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}
