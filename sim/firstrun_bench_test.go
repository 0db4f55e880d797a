package sim

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// firstRunEnv names the script a child process of BenchmarkFirstRunCold
// runs once (TestMain); empty in an ordinary test run.
const firstRunEnv = "SIM_FIRST_RUN_CASE"

// TestMain runs the child of BenchmarkFirstRunCold when asked to, and the
// tests otherwise.
func TestMain(m *testing.M) {
	if c := os.Getenv(firstRunEnv); c != "" {
		if err := firstRunChild(c); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// firstRunChild runs the oracle case c once in this fresh process and
// prints the run's duration and what it allocated.
func firstRunChild(c string) error {
	src, err := os.ReadFile(filepath.Join("testdata", "oracle", "cases", c+".py"))
	if err != nil {
		return err
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	// NoGolden: the browser's first run skips the harness's record too.
	res, err := Run(context.Background(), Request{Script: string(src), NoGolden: true}, nil)
	d := time.Since(start)
	runtime.ReadMemStats(&after)
	if err != nil {
		return err
	}
	if res.Error != nil {
		return fmt.Errorf("%s: script error: %v", c, res.Error)
	}
	fmt.Printf("first-run %d %d %d %d\n", d.Nanoseconds(), after.Mallocs-before.Mallocs,
		after.TotalAlloc-before.TotalAlloc, after.NumGC-before.NumGC)
	return nil
}

// BenchmarkFirstRunCold measures the first run of a process, as the
// browser's first result after navigation: nothing is compiled yet, so the
// torch prelude is parsed and compiled. Each iteration starts this test
// binary afresh (GOMAXPROCS=1 and GOGC=400 as wasm/main.go runs) and
// reports the run alone (not the process start): ns/first-run, the Go
// allocations and collections during it.
func BenchmarkFirstRunCold(b *testing.B) {
	for _, c := range []string{"s000_release", "p010_adam"} {
		b.Run(c, func(b *testing.B) {
			var ns, mallocs, bytes, gcs float64
			for b.Loop() {
				cmd := exec.Command(os.Args[0])
				cmd.Env = append(os.Environ(), firstRunEnv+"="+c, "GOMAXPROCS=1", "GOGC=400")
				out, err := cmd.Output()
				if err != nil {
					b.Fatalf("%s: %v: %s", c, err, out)
				}
				f := strings.Fields(strings.TrimSpace(string(out)))
				if len(f) != 5 || f[0] != "first-run" {
					b.Fatalf("%s: unexpected child output %q", c, out)
				}
				var v [4]float64
				for i := range v {
					if v[i], err = strconv.ParseFloat(f[i+1], 64); err != nil {
						b.Fatal(err)
					}
				}
				ns += v[0]
				mallocs += v[1]
				bytes += v[2]
				gcs += v[3]
			}
			n := float64(b.N)
			b.ReportMetric(ns/n, "ns/first-run")
			b.ReportMetric(mallocs/n, "mallocs/first-run")
			b.ReportMetric(bytes/n, "B/first-run")
			b.ReportMetric(gcs/n, "gcs/first-run")
		})
	}
}
