package alloc

import (
	"testing"
)

// step is one operation of a worked example and the state after it.
type step struct {
	name      string
	alloc     int64 // bytes to allocate (0: none)
	free      int   // index of an earlier step's block to free (−1: none)
	empty     bool  // call EmptyCache
	allocated int64
	reserved  int64
	layout    string // "" skips the check
}

// runSteps runs the steps on a, checking allocated/reserved/layout after each.
func runSteps(t *testing.T, a *Allocator, steps []step) []*Block {
	t.Helper()
	blocks := make([]*Block, len(steps))
	for i, s := range steps {
		switch {
		case s.alloc > 0:
			blocks[i] = mustMalloc(t, a, s.alloc)
		case s.free >= 0:
			mustFree(t, a, blocks[s.free])
		}
		if s.empty {
			a.EmptyCache()
		}
		st := a.Stats()
		if st.Allocated != s.allocated || st.Reserved != s.reserved {
			t.Errorf("step %d (%s): allocated/reserved = %d/%d, want %d/%d", i, s.name, st.Allocated, st.Reserved, s.allocated, s.reserved)
		}
		if s.layout != "" {
			if got := layout(a); got != s.layout {
				t.Errorf("step %d (%s): layout\n got %s\nwant %s", i, s.name, got, s.layout)
			}
		}
	}
	return blocks
}

// TestExampleA is worked example (a) of spec §16.
func TestExampleA(t *testing.T) {
	a := newTest(t, "")
	runSteps(t, a, []step{
		{name: "x 4 MiB", alloc: 4194304, free: -1, allocated: 4194304, reserved: 20971520, layout: "[4194304A(4194304) 16777216F(0)]"},
		{name: "y 16 MiB", alloc: 16777216, free: -1, allocated: 20971520, reserved: 20971520, layout: "[4194304A(4194304) 16777216A(16777216)]"},
		{name: "del x", free: 0, allocated: 16777216, reserved: 20971520, layout: "[4194304F(4194304) 16777216A(16777216)]"},
		{name: "del y", free: 1, allocated: 0, reserved: 20971520, layout: "[20971520F(16777216)]"},
		{name: "empty_cache", free: -1, empty: true, allocated: 0, reserved: 0, layout: ""},
	})
	checkStats(t, a, map[string]int64{
		"allocation.all.allocated": 2, "allocation.all.freed": 2, "allocation.all.peak": 2,
		"active.all.allocated": 2, "active.all.freed": 2, "active.all.peak": 2,
		"allocated_bytes.all.peak": 20971520, "active_bytes.all.peak": 20971520,
		"requested_bytes.all.peak": 20971520, "reserved_bytes.all.peak": 20971520,
		"segment.all.allocated": 1, "segment.all.freed": 1,
		"inactive_split.all.allocated": 2, "inactive_split.all.freed": 2, "inactive_split.all.peak": 1,
		"inactive_split_bytes.all.allocated": 20971520, "inactive_split_bytes.all.freed": 20971520,
		"inactive_split_bytes.all.peak": 16777216,
		"num_device_alloc":              1, "num_device_free": 1, "num_sync_all_streams": 1,
		"num_alloc_retries": 0, "num_ooms": 0, "max_split_size": -1,
		"allocated_bytes.small_pool.peak": 0, "segment.large_pool.peak": 1,
	})
	if got := layout(a); got != "" {
		t.Errorf("after empty_cache layout = %s", got)
	}
	if n := len(a.MemoryStats()); n != 122 {
		t.Errorf("memory_stats has %d keys, want 122", n)
	}
}

// TestExampleB is worked example (b): ten 1000-byte tensors and more.
func TestExampleB(t *testing.T) {
	a := newTest(t, "")
	var bs []*Block
	for i := 0; i < 10; i++ {
		bs = append(bs, mustMalloc(t, a, 1000))
	}
	checkStats(t, a, map[string]int64{
		"allocated_bytes.all.current": 10240, "reserved_bytes.all.current": 2097152,
		"requested_bytes.all.current": 10000, "segment.small_pool.current": 1,
		"inactive_split.all.current": 1, "inactive_split_bytes.all.current": 2086912,
	})
	want := "[" + repeat("1024A(1000) ", 10) + "2086912F(0)]"
	if got := layout(a); got != want {
		t.Errorf("layout\n got %s\nwant %s", got, want)
	}
	for i := 0; i < 3; i++ {
		bs = append(bs, mustMalloc(t, a, 1000))
	}
	four := mustMalloc(t, a, 4)
	if four.Size() != 512 {
		t.Errorf("4-byte tensor block = %d, want 512", four.Size())
	}
	if b, err := a.Malloc(0, four.Label()); b != nil || err != nil {
		t.Errorf("Malloc(0) = %v, %v; want nil, nil", b, err)
	}
	mustFree(t, a, bs[3])
	mustFree(t, a, bs[5])
	mustFree(t, a, bs[4])
	segs := a.Snapshot().Segments
	if len(segs) != 1 {
		t.Fatalf("%d segments, want 1", len(segs))
	}
	var merged *BlockInfo
	for i, b := range segs[0].Blocks {
		if b.State == StateInactive && b.Size == 3072 {
			merged = &segs[0].Blocks[i]
		}
	}
	if merged == nil || merged.RequestedSize != 1000 {
		t.Errorf("merged free block = %+v, want 3072 B with requested 1000", merged)
	}
	checkStats(t, a, map[string]int64{"inactive_split.all.current": 2})
}

func repeat(s string, n int) string {
	out := ""
	for i := 0; i < n; i++ {
		out += s
	}
	return out
}

// TestExampleC is worked example (c): 30 MB tensors.
func TestExampleC(t *testing.T) {
	a := newTest(t, "")
	mustMalloc(t, a, 31457280)
	checkStats(t, a, map[string]int64{"allocated_bytes.all.current": 31457280, "reserved_bytes.all.current": 31457280, "inactive_split.all.current": 0})

	a = newTest(t, "")
	mustMalloc(t, a, 30_000_000)
	checkStats(t, a, map[string]int64{
		"allocated_bytes.all.current": 30000128, "reserved_bytes.all.current": 31457280,
		"requested_bytes.all.current": 30000000, "inactive_split_bytes.all.current": 1457152,
	})
	b := mustMalloc(t, a, 1_400_000)
	if b.Size() != 1457152 {
		t.Errorf("1 400 000 B took a %d-byte block, want 1457152", b.Size())
	}
	checkStats(t, a, map[string]int64{"allocated_bytes.all.current": 30000128 + 1457152, "reserved_bytes.all.current": 31457280})
}

// TestExampleD is worked example (d): 5 MB then 15 MB, and the follow-ups.
func TestExampleD(t *testing.T) {
	a := newTest(t, "")
	runSteps(t, a, []step{
		{name: "5 MiB", alloc: 5 << 20, free: -1, allocated: 5 << 20, reserved: 20 << 20, layout: "[5242880A(5242880) 15728640F(0)]"},
		{name: "15 MiB", alloc: 15 << 20, free: -1, allocated: 20 << 20, reserved: 20 << 20},
	})
	checkStats(t, a, map[string]int64{"inactive_split.all.current": 0})

	a = newTest(t, "")
	bs := runSteps(t, a, []step{
		{name: "5e6", alloc: 5_000_000, free: -1, allocated: 5000192, reserved: 20971520, layout: "[5000192A(5000000) 15971328F(0)]"},
		{name: "15e6", alloc: 15_000_000, free: -1, allocated: 20971520, reserved: 20971520, layout: "[5000192A(5000000) 15971328A(15000000)]"},
		{name: "1MiB+1", alloc: 1<<20 + 1, free: -1, allocated: 20971520 + 1049088, reserved: 2 * 20971520},
		{name: "1MiB", alloc: 1 << 20, free: -1, allocated: 20971520 + 1049088 + 1048576, reserved: 2*20971520 + 2097152},
		{name: "12MiB", alloc: 12 << 20, free: -1, allocated: 20971520 + 1049088 + 1048576 + 12582912, reserved: 2*20971520 + 2097152},
		{name: "del 12MiB", free: 4, allocated: 20971520 + 1049088 + 1048576, reserved: 2*20971520 + 2097152},
		{name: "11MiB", alloc: 11 << 20, free: -1, allocated: 20971520 + 1049088 + 1048576 + 11534336, reserved: 2*20971520 + 2097152},
	})
	checkStats(t, a, map[string]int64{
		"requested_bytes.all.current": 20_000_000 + 1<<20 + 1 + 1<<20 + 11<<20,
		"allocated_bytes.all.peak":    35652096, "reserved_bytes.all.peak": 44040192,
	})
	// The remainder of the 11 MiB split keeps the 12 MiB tensor's requested size.
	seg := bs[2].Segment()
	for _, s := range a.Snapshot().Segments {
		if s.Address != seg {
			continue
		}
		want := "1049088A 11534336A 8388096F"
		var got string
		for _, b := range s.Blocks {
			st := "F"
			if b.State == StateActiveAllocated {
				st = "A"
			}
			if got != "" {
				got += " "
			}
			got += itoa(b.Size) + st
		}
		if got != want {
			t.Errorf("segment of 1MiB+1: %s, want %s", got, want)
		}
		if last := s.Blocks[len(s.Blocks)-1]; last.RequestedSize != 12582912 {
			t.Errorf("remainder requested_size = %d, want 12582912", last.RequestedSize)
		}
	}
}

func itoa(n int64) string { return fmtInt(n) }

// TestExampleE is worked example (e): OOM with a fraction.
func TestExampleE(t *testing.T) {
	a := newTest(t, "")
	if err := a.SetMemoryFraction(0.05); err != nil {
		t.Fatal(err)
	}
	mustMalloc(t, a, 4040<<20)
	k := mustMalloc(t, a, 1000)
	mustFree(t, a, k)
	_, err := a.Malloc(5_000_000, k.Label())
	oom, ok := err.(*OOMError)
	if !ok {
		t.Fatalf("Malloc error = %v, want *OOMError", err)
	}
	want := "CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 79.18 GiB of which "
	if msg := oom.Error(); len(msg) < len(want) || msg[:len(want)] != want {
		t.Errorf("message starts %q", msg)
	}
	if !contains(oom.Error(), "3.96 GiB allowed; Of the allocated memory 3.95 GiB is allocated by PyTorch, and 0 bytes is reserved by PyTorch but unallocated.") {
		t.Errorf("message = %q", oom.Error())
	}
	checkStats(t, a, map[string]int64{
		"num_alloc_retries": 1, "num_sync_all_streams": 1, "num_device_alloc": 2, "num_device_free": 1,
		"num_ooms": 1, "reserved_bytes.all.current": 4236247040,
	})
	if a.allowed != 4250874675 {
		t.Errorf("allowed = %d, want 4250874675", a.allowed)
	}
}
