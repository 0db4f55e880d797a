package py

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOracleCasesRun runs every recorded oracle case with a fake torch (a
// prelude module where every attribute and call yields a fake). Without
// the real model their numbers are meaningless; this checks that the
// Python around torch parses, compiles and runs without interpreter
// errors.
func TestOracleCasesRun(t *testing.T) {
	cases, _ := filepath.Glob("../testdata/oracle/cases/*.py")
	if len(cases) == 0 {
		t.Skip("no oracle cases")
	}
	fake, err := os.ReadFile("testdata/faketorch/torch.py")
	if err != nil {
		t.Fatal(err)
	}
	mods := []string{"torch", "torch.nn", "torch.nn.functional", "torch.optim", "torch.utils",
		"torch.utils.data", "torch.utils.checkpoint", "torch.cuda", "torch.cuda.amp", "torch.amp",
		"torch.nn.utils", "torch.autograd", "torch.cuda.memory", "torch.nn.init", "torch.optim.lr_scheduler"}
	for _, path := range cases {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		var lines int
		it := New(Options{Stdout: &out, OnLine: func(int) { lines++ }, Limits: Limits{MaxSteps: 5_000_000}})
		for _, m := range mods {
			flags := HideFrames
			if !strings.Contains(m, ".") || m == "torch.nn" || m == "torch.utils" || m == "torch.cuda" {
				flags |= Package
			}
			it.RegisterSource(m, "<fake>/"+m+".py", fake, flags)
		}
		err = it.ExecScript(context.Background(), src)
		if err != nil {
			se := err.(*ScriptError)
			switch se.Type {
			case "SyntaxError", "IndentationError", "InternalError", "LimitError", "NameError", "UnboundLocalError":
				t.Errorf("%s: %s\n%s", filepath.Base(path), se.Error(), se.Traceback)
			default:
				t.Logf("%s: stopped at line %d: %s (fake torch)", filepath.Base(path), se.Line, se.Error())
			}
		}
		if lines == 0 {
			t.Errorf("%s: no line events", filepath.Base(path))
		}
	}
}
