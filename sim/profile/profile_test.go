package profile

import (
	"strings"
	"testing"
)

func TestLookup(t *testing.T) {
	tests := []struct {
		name    string
		want    string
		wantErr string
	}{
		{name: "", want: DefaultName},
		{name: DefaultName, want: DefaultName},
		{name: "8gb-pt1.x", want: "8gb-pt1.x"},
		{name: "nope", wantErr: `unknown profile "nope"`},
	}
	for _, tc := range tests {
		p, err := Lookup(tc.name)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("Lookup(%q) error = %v, want %q", tc.name, err, tc.wantErr)
			}
			continue
		}
		if err != nil || p.Name != tc.want {
			t.Errorf("Lookup(%q) = %q, %v; want %q", tc.name, p.Name, err, tc.want)
		}
	}
}

// TestDefaultMeasured pins the measured H100 figures (allocator spec §10.2,
// §13, stack.md).
func TestDefaultMeasured(t *testing.T) {
	p := Default()
	checks := []struct {
		name      string
		got, want int64
	}{
		{"TotalMemory", p.TotalMemory, 85_017_493_504},
		{"ContextBytes", p.ContextBytes, 518 << 20},
		{"DriverUsedAtInit", p.DriverUsedAtInit, 552_402_944},
		{"CuBLASWorkspace", p.CuBLASWorkspace, 33_554_432},
		{"CuBLASLtWorkspace", p.CuBLASLtWorkspace, 1 << 20},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
		}
	}
	if p.GPUName != "NVIDIA H100 80GB HBM3" || p.TorchVersion != "2.11.0+cu130" || p.OOMFormat != OOM211 {
		t.Errorf("identity = %q %q %v", p.GPUName, p.TorchVersion, p.OOMFormat)
	}
	if n, ok := p.MeasuredNote("TotalMemory"); !ok || !n.Measured {
		t.Errorf("TotalMemory note = %+v, %v; want measured", n, ok)
	}
}

func TestAllProfilesConsistent(t *testing.T) {
	all := All()
	if len(all) != 6 || all[0].Name != DefaultName {
		t.Fatalf("All() = %d profiles, first %q", len(all), all[0].Name)
	}
	seen := map[string]bool{}
	for _, p := range all {
		if seen[p.Name] {
			t.Errorf("duplicate profile %q", p.Name)
		}
		seen[p.Name] = true
		if p.TotalMemory <= p.DriverUsedAtInit || p.GPUName == "" || p.Title == "" || p.TorchVersion == "" {
			t.Errorf("%s: incomplete profile %+v", p.Name, p)
		}
		if p.Address.Span == 0 || p.Address.Base+p.Address.Span < p.Address.Base {
			t.Errorf("%s: bad address window %+v", p.Name, p.Address)
		}
		// Every figure that is not self-evident has a provenance note.
		for _, f := range []string{"TotalMemory", "ContextBytes", "DriverUsedAtInit", "CuBLASWorkspace"} {
			if _, ok := p.MeasuredNote(f); !ok {
				t.Errorf("%s: no Measured note for %s", p.Name, f)
			}
		}
	}
	// The 1.x profile: seed 004's "7.93 GiB total capacity", old message, no workspaces.
	old, err := Lookup("8gb-pt1.x")
	if err != nil {
		t.Fatal(err)
	}
	if old.TotalMemory != 8_514_437_120 || old.OOMFormat != OOM19 || old.WorkspacesCounted || !old.LegacyFraction {
		t.Errorf("8gb-pt1.x = %+v", old)
	}
	// Lookup returns a copy.
	a := Default()
	a.Measured[0].Source = "changed"
	if Default().Measured[0].Source == "changed" {
		t.Error("Lookup shares the Measured slice with the table")
	}
}

func TestOOMFormatString(t *testing.T) {
	want := map[OOMFormat]string{OOM211: "2.11", OOM23: "2.3-2.6", OOM21: "2.1-2.2", OOM110: "1.10-2.0", OOM19: "<=1.9", OOMFormat(42): "OOMFormat(42)"}
	for f, s := range want {
		if f.String() != s {
			t.Errorf("%d.String() = %q, want %q", int(f), f.String(), s)
		}
	}
}
