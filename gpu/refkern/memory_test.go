package refkern

import "testing"

func TestMemory(t *testing.T) {
	var m Memory
	if err := m.Add(0x1000, 0x100); err != nil {
		t.Fatal(err)
	}
	if err := m.Add(0x2000, 0x10); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		base uint64
		size int64
		ok   bool
	}{
		{0x1080, 0x10, false},  // inside the first range
		{0x0f80, 0x100, false}, // overlaps its start
		{0x1100, 0x10, true},   // right after it
	} {
		if err := m.Add(tt.base, tt.size); (err == nil) != tt.ok {
			t.Errorf("Add(%#x, %d): %v", tt.base, tt.size, err)
		}
	}
	tests := []struct {
		addr uint64
		n    int64
		ok   bool
	}{
		{0x1000, 0x100, true},
		{0x10f0, 0x10, true},
		{0x10f0, 0x11, false}, // runs past the range
		{0x0fff, 1, false},    // before any range
		{0x2008, 8, true},
	}
	for _, tt := range tests {
		if _, err := m.Bytes(tt.addr, tt.n); (err == nil) != tt.ok {
			t.Errorf("Bytes(%#x, %d): %v", tt.addr, tt.n, err)
		}
	}
	b, _ := m.Bytes(0x2000, 4)
	b[3] = 7
	if c, _ := m.Bytes(0x2003, 1); c[0] != 7 {
		t.Error("Bytes does not alias the range")
	}
	if !m.Remove(0x2000) || m.Remove(0x2000) || m.Ranges() != 2 {
		t.Errorf("Remove: %d ranges left", m.Ranges())
	}
}
