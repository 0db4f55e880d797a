package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/compare"
	"github.com/gpumem/playground/gpu/gputest"
)

const oracleCases = "../../sim/testdata/oracle/cases"

// withFakeGPU makes openGPU return fake devices for the test.
func withFakeGPU(t *testing.T, opts gputest.Options) {
	t.Helper()
	old := openGPU
	openGPU = func(gpu.Options) (gpu.Device, error) { return gputest.New(opts), nil }
	t.Cleanup(func() { openGPU = old })
}

func TestRunWithoutGPUBackend(t *testing.T) {
	old := openGPU
	openGPU = func(gpu.Options) (gpu.Device, error) { return nil, gpu.ErrNotBuilt }
	defer func() { openGPU = old }()
	var out, errb bytes.Buffer
	code := dispatch([]string{"run", "--backend", "gpu", filepath.Join(oracleCases, "s000_release.py")}, &out, &errb)
	if code != 2 || !strings.Contains(errb.String(), "built without the GPU backend (build with -tags cuda)") {
		t.Errorf("exit %d, stderr %q; want 2 and the build hint", code, errb.String())
	}
}

func TestRunBackendGPU(t *testing.T) {
	withFakeGPU(t, gputest.Options{Context: 554500096})
	var out, errb bytes.Buffer
	code := dispatch([]string{"run", "--backend", "gpu", filepath.Join(oracleCases, "s000_release.py")}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d, stderr %s", code, errb.String())
	}
	for _, want := range []string{
		"start: 20979712 39845888\n", // the script's own output
		"line  code", "driver used", "malloc/free",
		"7     output = model(data).detach()     57.01          70.00     57.01  4         598.81",
		"device calls: 4 cuMemAlloc/map", "driver used 554500096 B before, 554500096 B after",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestRunCompareRecords(t *testing.T) {
	withFakeGPU(t, gputest.Options{Context: 554500096})
	rec := filepath.Join(t.TempDir(), "pair.json")
	t.Setenv(recordEnv, rec)
	var out, errb bytes.Buffer
	code := dispatch([]string{"run", "--compare", filepath.Join(oracleCases, "q013_loss_leak.py")}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d, stderr %s", code, errb.String())
	}
	for _, want := range []string{"sim alloc MiB", "Δdriver", "context +2.00 MiB", "allocated and reserved agree on every line", "every byte returned"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	raw, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	var p compare.Pair
	if err := json.Unmarshal(raw, &p); err != nil || len(p.GPU.Events) == 0 || len(p.Sim.Events) == 0 {
		t.Fatalf("recording: %v, %d GPU and %d sim events", err, len(p.GPU.Events), len(p.Sim.Events))
	}
}

func TestRunGPULeakFails(t *testing.T) {
	withFakeGPU(t, gputest.Options{LeakBytes: 2 << 20})
	var out, errb bytes.Buffer
	code := dispatch([]string{"run", "--backend", "gpu", filepath.Join(oracleCases, "s000_release.py")}, &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), "memory not returned") {
		t.Errorf("exit %d, stderr %q; want 1 and the leak", code, errb.String())
	}
}

func TestRunUnknownBackend(t *testing.T) {
	var out, errb bytes.Buffer
	if code := dispatch([]string{"run", "--backend", "tpu", filepath.Join(oracleCases, "s000_release.py")}, &out, &errb); code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
}
