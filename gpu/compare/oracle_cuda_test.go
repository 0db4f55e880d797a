//go:build cuda

package compare

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/sim"
)

var (
	casesDir  = flag.String("cases", "../../sim/testdata/oracle/cases", "the oracle cases to run on the GPU")
	recordDir = flag.String("record-dir", "", "write each case's Pair (JSON) and table (text) to this folder")
)

// TestOracleCasesOnGPU runs every oracle case on the simulator and on the
// GPU and checks that allocated and reserved agree line by line (where no
// one-sided OOM explains a difference) and that every byte came back.
func TestOracleCasesOnGPU(t *testing.T) {
	dev, err := gpu.Open(gpu.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	paths, err := filepath.Glob(filepath.Join(*casesDir, "*.py"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no cases in %s (%v); pass -cases DIR", *casesDir, err)
	}
	sort.Strings(paths)
	for _, path := range paths {
		name := filepath.Base(path)
		t.Run(strings.TrimSuffix(name, ".py"), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			p, err := RunPair(context.Background(), dev, sim.Request{Script: string(src), Filename: name}, nil)
			if err != nil {
				t.Fatal(err)
			}
			tab := Compare(p, Options{})
			var b strings.Builder
			tab.WriteText(&b, p.Script)
			if !tab.Agree {
				t.Errorf("allocated/reserved disagree:\n%s", b.String())
			}
			if p.Sim.Error != p.GPU.Error && !strings.Contains(p.GPU.Error, "OutOfMemoryError") {
				t.Errorf("error: simulation %q, GPU %q", p.Sim.Error, p.GPU.Error)
			}
			t.Logf("%d lines, GPU time %.3f ms, same stdout %v", len(tab.Rows), float64(tab.GPUNanos)/1e6, tab.SameStdout)
			if *recordDir != "" {
				p.Source = "recorded by gpu/compare's TestOracleCasesOnGPU on " + p.Device
				raw, err := json.MarshalIndent(p, "", " ")
				if err != nil {
					t.Fatal(err)
				}
				base := filepath.Join(*recordDir, strings.TrimSuffix(name, ".py"))
				if err := os.WriteFile(base+".json", append(raw, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(base+".txt", []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
