package examples

import (
	"os"
	"path/filepath"
	"testing"
)

func TestAllGroupsAndDefault(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) == 0 {
		t.Fatal("no examples embedded")
	}
	seen := map[string]bool{}
	lastGroup := -1
	for _, e := range all {
		if seen[e.ID] {
			t.Errorf("duplicate id %s", e.ID)
		}
		seen[e.ID] = true
		if e.Source == "" || e.Title == "" {
			t.Errorf("%s: empty source or title", e.ID)
		}
		gi := -1
		for i, g := range groups {
			if g.name == e.Group {
				gi = i
			}
		}
		if gi < lastGroup {
			t.Errorf("%s: group %q out of menu order", e.ID, e.Group)
		}
		lastGroup = gi
	}
	if _, ok := Lookup(DefaultID); !ok {
		t.Errorf("default example %s is missing", DefaultID)
	}
}

func TestTitle(t *testing.T) {
	tests := map[string]string{
		"q004_autocast_fp16":  "Autocast fp16",
		"q001_ckpt_reentrant": "Checkpoint reentrant",
		"p021_gpt_block":      "GPT block",
		"s000_release":        "Release",
		"plain":               "Plain",
	}
	for in, want := range tests {
		if got := title(in); got != want {
			t.Errorf("title(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCopiesMatchOracle checks that the embedded copies equal the oracle cases
// they come from, so that the menu shows what the simulator is tested on.
func TestCopiesMatchOracle(t *testing.T) {
	src, _ := filepath.Glob("../../sim/testdata/oracle/cases/*.py")
	if len(src) == 0 {
		t.Skip("oracle cases not found beside this checkout")
	}
	for _, p := range src {
		want, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := files.ReadFile("oracle/" + filepath.Base(p))
		if err != nil {
			t.Errorf("%s is not copied into web/examples/oracle (make examples)", filepath.Base(p))
			continue
		}
		if string(got) != string(want) {
			t.Errorf("%s differs from the oracle case (make examples)", filepath.Base(p))
		}
	}
}
