package fidelity

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

const oracleDir = "../testdata/oracle"

// TestOracle runs every recorded case and fails when a case listed in
// exact.txt (known to match PyTorch exactly) no longer does.
func TestOracle(t *testing.T) {
	cases, err := Load(oracleDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 8 {
		t.Fatalf("only %d oracle cases found", len(cases))
	}
	want, err := Expected(filepath.Join(oracleDir, "exact.txt"))
	if err != nil {
		t.Fatal(err)
	}
	rs := RunAll(context.Background(), cases, "")
	if testing.Verbose() {
		WriteTable(os.Stdout, rs)
	}
	for _, r := range rs {
		if want[r.Case.Name] && !r.Diff.Exact() {
			t.Errorf("%s: regression: %s", r.Case.Name, r.Diff.FirstIssue)
		}
		delete(want, r.Case.Name)
	}
	for name := range want {
		t.Errorf("exact.txt lists %s, which has no case", name)
	}
}

func TestCompareFindsDifferences(t *testing.T) {
	e := "RuntimeError: x"
	a := goldenOf("out\n", nil, [][]int64{{1, 0, 0, 0, 0, 0, 0, 0}, {-1, 512, 2097152, 512, 2097152, 1, 0, 0}})
	if d := Compare(a, a); !d.Exact() {
		t.Fatalf("identical goldens differ: %+v", d)
	}
	b := goldenOf("out\n", &e, [][]int64{{1, 0, 0, 0, 0, 0, 0, 0}, {-1, 1024, 2097152, 1024, 2097152, 1, 0, 0}})
	d := Compare(a, b)
	if d.Exact() || d.Error || d.Rows != 1 || !d.Stdout {
		t.Fatalf("differences not found: %+v", d)
	}
	c := goldenOf("out!\n", nil, a.Trace[:1])
	d = Compare(a, c)
	if d.Stdout || d.Rows != 1 || d.FirstIssue == "" {
		t.Fatalf("stdout/row-count differences not found: %+v", d)
	}
}

func TestEnvLine(t *testing.T) {
	env := EnvLine("# env: PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True\nimport torch\n")
	if env["PYTORCH_CUDA_ALLOC_CONF"] != "expandable_segments:True" {
		t.Fatalf("got %v", env)
	}
	if EnvLine("import torch\n") != nil {
		t.Fatal("env from a line without the marker")
	}
}
