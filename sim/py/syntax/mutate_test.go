package syntax

import (
	"flag"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var (
	mutantCount = flag.Int("mutants", 400, "number of mutated snippets TestDifferentialMutations compares")
	mutantSeed  = flag.Int64("mutantseed", 1, "random seed of the mutations")
)

// mutants derives n broken variants of the corpus files deterministically:
// one token-ish edit each (delete, duplicate or insert a character).
func mutants(t *testing.T, n int) []string {
	files, _ := filepath.Glob("testdata/oracle/*.py")
	seeds, _ := filepath.Glob("testdata/seeds/*.py")
	files = append(files, seeds...)
	var srcs []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, string(b))
	}
	r := rand.New(rand.NewSource(*mutantSeed))
	const inserts = "()[]{}:,.=+-*'\"\\ \n\tx1#@!"
	var out []string
	for len(out) < n {
		src := srcs[r.Intn(len(srcs))]
		if len(src) == 0 {
			continue
		}
		i := r.Intn(len(src))
		var m string
		switch r.Intn(3) {
		case 0:
			m = src[:i] + src[i+1:]
		case 1:
			m = src[:i] + src[i:i+1] + src[i:]
		default:
			m = src[:i] + string(inserts[r.Intn(len(inserts))]) + src[i:]
		}
		if strings.ToValidUTF8(m, "") != m {
			continue
		}
		out = append(out, m)
	}
	return out
}

// TestDifferentialMutations compares accept/reject, kind and error line
// with python3's compile() on mutated versions of the corpus.
func TestDifferentialMutations(t *testing.T) {
	n := *mutantCount
	if testing.Short() {
		n = 100
	}
	srcs := mutants(t, n)
	want := runPython(t, srcs)
	// Known residual differences (see NOTES.md) are rare; more than 1% of
	// disagreeing mutants means a regression.
	bad, badCol := 0, 0
	for i, src := range srcs {
		w := want[i]
		got := ourResult(src)
		if strings.Contains(got.Msg, "not supported in the playground") {
			continue // a deliberate difference
		}
		if got.OK != w.OK || got.Kind != w.Kind || got.Line != w.Line || got.Msg != w.Msg {
			bad++
			line := lineText([]byte(src), int32(max(w.Line, got.Line)))
			t.Logf("mutant %d: got %+v, python %+v\n%q", i, got, w, line)
		} else if got.Col != w.Col && !strings.HasPrefix(w.Msg, "f-string") {
			badCol++
			t.Logf("mutant %d: column %d, python %d: %s\n%q", i, got.Col, w.Col, w.Msg, lineText([]byte(src), int32(w.Line)))
		}
	}
	t.Logf("%d of %d mutants disagree, %d more only on the column", bad, len(srcs), badCol)
	if bad*100 > len(srcs) || badCol*100 > len(srcs) {
		t.Errorf("%d of %d mutants disagree, %d more only on the column (limit 1%%)", bad, len(srcs), badCol)
	}
}
