package refkern

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"os"
	"testing"

	"github.com/gpumem/playground/gpu/kernels"
)

// TestCPUStateMatchesPyTorch replays the CPU draws of
// testdata/rng_state_h200.jsonl (torch.get_rng_state() recorded on an
// H200 with PyTorch 2.11 after manual_seed(7), rand(3), randn(3),
// randn(1, float64)) and compares every byte of State, then checks that
// SetState of each recorded state gives it back and continues the stream.
func TestCPUStateMatchesPyTorch(t *testing.T) {
	f, err := os.Open("testdata/rng_state_h200.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string][]byte{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var row struct {
			Step string `json:"step"`
			CPU  []any  `json:"cpu"`
		}
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatal(err)
		}
		b, err := hex.DecodeString(row.CPU[3].(string))
		if err != nil {
			t.Fatal(err)
		}
		want[row.Step] = b
	}
	g := NewCPUGenerator(7)
	steps := []struct {
		name string
		draw func() error
	}{
		{"manual_seed(7)", func() error { return nil }},
		{"rand(3) cpu", func() error { _, err := g.Uniform(kernels.F32, 3, 0, 1); return err }},
		{"randn(3) cpu", func() error { _, err := g.Normal(kernels.F32, 3, true, 0, 1); return err }},
		{"randn(1) f64 cpu", func() error { _, err := g.Normal(kernels.F64, 1, true, 0, 1); return err }},
	}
	for _, s := range steps {
		if err := s.draw(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		w, ok := want[s.name]
		if !ok {
			t.Fatalf("no recorded state %q", s.name)
		}
		got := g.State()
		if len(got) != len(w) {
			t.Fatalf("%s: %d bytes, want %d", s.name, len(got), len(w))
		}
		for i := range got {
			if got[i] != w[i] {
				t.Errorf("%s: byte %d = %#x, want %#x", s.name, i, got[i], w[i])
				break
			}
		}
		// set it back into a fresh generator: same state, same next draws
		h := NewCPUGenerator(1)
		if err := h.SetState(w); err != nil {
			t.Fatalf("%s: SetState: %v", s.name, err)
		}
		a, _ := h.Normal(kernels.F64, 3, true, 0, 1)
		save := g.State()
		b, _ := g.Normal(kernels.F64, 3, true, 0, 1)
		if err := g.SetState(save); err != nil {
			t.Fatal(err)
		}
		for i := range a {
			if a[i] != b[i] {
				t.Errorf("%s: after SetState draw %d = %v, want %v", s.name, i, a[i], b[i])
			}
		}
	}
	if err := g.SetState(make([]byte, 100)); err == nil {
		t.Error("SetState of 100 bytes succeeded")
	}
}
