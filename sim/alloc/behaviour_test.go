package alloc

import (
	"reflect"
	"testing"

	"github.com/gpumem/playground/sim/pickle"
	"github.com/gpumem/playground/sim/profile"
	"github.com/gpumem/playground/sim/trace"
)

// TestRoundSize covers spec §3.1 and §3.2 (all [verified 2.11]).
func TestRoundSize(t *testing.T) {
	def := DefaultConfig()
	four, _ := ParseConfig("roundup_power2_divisions:4")
	tests := []struct {
		cfg        Config
		n, want    int64
		small      bool
		allocation int64
	}{
		{def, 1, 512, true, 2 << 20}, {def, 4, 512, true, 2 << 20}, {def, 1000, 1024, true, 2 << 20},
		{def, 1048576, 1048576, true, 2 << 20}, {def, 1048577, 1049088, false, 20 << 20},
		{def, 5_000_000, 5000192, false, 20 << 20}, {def, 15_000_000, 15000064, false, 16 << 20},
		{def, 30_000_000, 30000128, false, 31457280}, {def, 1_400_000, 1400320, false, 20 << 20},
		{def, 1_000_000, 1000448, true, 2 << 20}, {def, 31457280, 31457280, false, 31457280},
		{four, 1200, 1536, true, 2 << 20}, {four, 3000, 3072, true, 2 << 20},
		{four, 5<<20 + 1, 6291456, false, 20 << 20}, {four, 13_000_000, 14680064, false, 14680064},
		{four, 100_000_000, 100663296, false, 100663296}, {four, 1 << 30, 1 << 30, false, 1 << 30},
	}
	for _, tc := range tests {
		got := roundSize(tc.n, &tc.cfg.RoundupPower2Divisions)
		if got != tc.want {
			t.Errorf("roundSize(%d) = %d, want %d", tc.n, got, tc.want)
		}
		if (got <= kSmallSize) != tc.small {
			t.Errorf("%d: small pool = %v", tc.n, got <= kSmallSize)
		}
		if as := allocationSize(got, kLargeBuffer); as != tc.allocation {
			t.Errorf("allocationSize(%d) = %d, want %d", got, as, tc.allocation)
		}
	}
	// roundup_power2_divisions with 2 divisions and a power-of-two step of 0.
	if got := roundupPower2NextDivision(3<<20, 1<<40); got != 4<<20 {
		t.Errorf("step 0 rounding = %d", got)
	}
	if got := allocationSize(5<<20, 40<<20); got != 40<<20 {
		t.Errorf("large_segment_size 40 MiB: %d", got)
	}
}

// TestRoundupScript is oracle case q018_roundup.
func TestRoundupScript(t *testing.T) {
	a := newTest(t, "roundup_power2_divisions:4")
	want := []struct{ alloc, res, req int64 }{
		{1536, 2097152, 1200}, {1536 + 3072, 2097152, 4200},
		{1536 + 3072 + 6291456, 2097152 + 20971520, 4200 + 5<<20 + 1},
		{1536 + 3072 + 6291456 + 14680064, 2097152 + 20971520, 4200 + 5<<20 + 1 + 13_000_000},
		{1536 + 3072 + 6291456 + 14680064 + 100663296, 2097152 + 20971520 + 100663296, 4200 + 5<<20 + 1 + 13_000_000 + 100_000_000},
	}
	var bs []*Block
	for i, n := range []int64{1200, 3000, 5<<20 + 1, 13_000_000, 100_000_000} {
		bs = append(bs, mustMalloc(t, a, n))
		s := a.Stats()
		if s.Allocated != want[i].alloc || s.Reserved != want[i].res || s.Requested != want[i].req {
			t.Errorf("after %d: %d %d %d, want %+v", n, s.Allocated, s.Reserved, s.Requested, want[i])
		}
	}
	for _, b := range bs {
		mustFree(t, a, b)
	}
	a.EmptyCache()
	if s := a.Stats(); s.Allocated != 0 || s.Reserved != 0 {
		t.Errorf("after freeing: %+v", s)
	}
}

// TestMaxSplitSize is spec §4.1's verified example and oracle case q016.
func TestMaxSplitSize(t *testing.T) {
	a := newTest(t, "max_split_size_mb:64")
	type st struct{ alloc, res, ovA, ovS int64 }
	check := func(name string, w st) {
		t.Helper()
		m := stats(a)
		g := st{m["allocated_bytes.all.current"], m["reserved_bytes.all.current"], m["oversize_allocations.current"], m["oversize_segments.current"]}
		if g != w {
			t.Errorf("%s: %+v, want %+v", name, g, w)
		}
	}
	if m := stats(a); m["max_split_size"] != 64<<20 {
		t.Errorf("max_split_size = %d", m["max_split_size"])
	}
	x := mustMalloc(t, a, 100<<20)
	mustFree(t, a, x)
	check("cached 100 MiB", st{0, 100 << 20, 0, 1})
	b := mustMalloc(t, a, 90<<20)
	check("90 MiB reuses the 100 MiB block", st{100 << 20, 100 << 20, 1, 1})
	mustFree(t, a, b)
	mustMalloc(t, a, 70<<20)
	check("70 MiB gets its own segment", st{70 << 20, 170 << 20, 1, 2})
	var small []*Block
	for i := 0; i < 3; i++ {
		small = append(small, mustMalloc(t, a, 30<<20))
	}
	check("30 MiB x3", st{160 << 20, 260 << 20, 1, 2})
	mustFree(t, a, small[0])
	mustFree(t, a, small[1])
	mustMalloc(t, a, 50<<20)
	check("50 MiB", st{150 << 20, 310 << 20, 1, 2})
	a.EmptyCache()
	check("empty_cache", st{150 << 20, 150 << 20, 1, 1})
}

// TestReleaseAvailableCachedBlocks: with max_split_size set, a failing
// cudaMalloc first frees cached oversize blocks (spec §4.4) without a
// synchronisation.
func TestReleaseAvailableCachedBlocks(t *testing.T) {
	a := newTest(t, "max_split_size_mb:64")
	if err := a.SetMemoryFraction(0.01); err != nil { // ≈ 810 MiB allowed
		t.Fatal(err)
	}
	var bs []*Block
	for _, n := range []int64{300 << 20, 200 << 20, 100 << 20} {
		bs = append(bs, mustMalloc(t, a, n))
	}
	for _, b := range bs {
		mustFree(t, a, b)
	}
	// 400 MiB: no cached block fits; 600 + 400 > 810: release the largest
	// cached oversize blocks until 400 MiB are freed (300 and 200).
	mustMalloc(t, a, 400<<20)
	checkStats(t, a, map[string]int64{"num_device_free": 2, "num_sync_all_streams": 0, "num_alloc_retries": 0, "reserved_bytes.all.current": 500 << 20})
	// 700 MiB: a single cached block would not do; 500+700 > 810; releasing
	// the 100 MiB block is not enough, so the full flush and retry follow.
	if _, err := a.Malloc(700<<20, trace.Label{}); err == nil {
		t.Fatal("700 MiB should not fit")
	}
	checkStats(t, a, map[string]int64{"num_device_free": 3, "num_sync_all_streams": 1, "num_alloc_retries": 1, "num_ooms": 1})
}

// TestGarbageCollection is spec §4.2's verified example (oracle case q017).
func TestGarbageCollection(t *testing.T) {
	a := newTest(t, "garbage_collection_threshold:0.5")
	if err := a.SetMemoryFraction(0.1); err != nil {
		t.Fatal(err)
	}
	x := mustMalloc(t, a, 3<<30)
	mustFree(t, a, x)
	y := mustMalloc(t, a, 3584<<20)
	mustFree(t, a, y)
	checkStats(t, a, map[string]int64{"reserved_bytes.all.current": 6656 << 20, "num_device_free": 0})
	mustMalloc(t, a, 4<<30)
	checkStats(t, a, map[string]int64{
		"allocated_bytes.all.current": 4 << 30, "reserved_bytes.all.current": 7680 << 20,
		"num_device_free": 1, "num_sync_all_streams": 0, "num_alloc_retries": 0,
	})
	// Without a fraction the threshold does nothing.
	b := newTest(t, "garbage_collection_threshold:0.5")
	x = mustMalloc(t, b, 3<<30)
	mustFree(t, b, x)
	mustMalloc(t, b, 4<<30)
	checkStats(t, b, map[string]int64{"num_device_free": 0, "reserved_bytes.all.current": 7 << 30})
}

// TestMemoryFraction covers spec §11: validation, the 2.11 semantics of 1.0
// and the legacy semantics.
func TestMemoryFraction(t *testing.T) {
	a := newTest(t, "")
	for _, f := range []float64{-0.1, 1.5} {
		if err := a.SetMemoryFraction(f); err == nil {
			t.Errorf("SetMemoryFraction(%v) accepted", f)
		}
	}
	if err := a.SetMemoryFraction(2); err == nil || err.Error() != "Invalid fraction value: 2.0. Allowed range: 0~1" {
		t.Errorf("error text: %v", err)
	}
	if err := a.SetMemoryFraction(1.0); err != nil || a.fractionSet || a.GetMemoryFraction() != 1.0 {
		t.Errorf("1.0 should remove the limit: %v %v", err, a.fractionSet)
	}
	if err := a.SetMemoryFraction(0); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Malloc(1, trace.Label{}); err == nil {
		t.Error("fraction 0 allowed an allocation")
	}
	// Existing reserved memory is never trimmed by a lower fraction.
	b := newTest(t, "")
	mustMalloc(t, b, 1<<30)
	_ = b.SetMemoryFraction(0.001)
	if b.Stats().Reserved != 1<<30 {
		t.Error("lower fraction trimmed reserved memory")
	}
	// Legacy (pre-2.5): 1.0 installs a limit and "allowed" is printed.
	old, _ := profile.Lookup("8gb-pt1.x")
	c := New(old, DefaultConfig(), nil, nil)
	_ = c.SetMemoryFraction(1.0)
	if !c.fractionSet || c.allowed != old.TotalMemory || c.GetMemoryFraction() != 1.0 {
		t.Errorf("legacy 1.0: set=%v allowed=%d", c.fractionSet, c.allowed)
	}
	_, err := c.Malloc(8<<30, trace.Label{})
	if oe, ok := err.(*OOMError); !ok || !oe.HasAllowed || !contains(oe.Error(), "7.93 GiB allowed; ") {
		t.Errorf("legacy OOM = %v", err)
	}
}

// TestExpandable is spec §7's verified example (oracle case q015's start).
func TestExpandable(t *testing.T) {
	a := newTest(t, "expandable_segments:True")
	type st struct{ alloc, res, segs, devAlloc int64 }
	check := func(name string, w st) {
		t.Helper()
		m := stats(a)
		g := st{m["allocated_bytes.all.current"], m["reserved_bytes.all.current"], m["segment.all.current"], m["num_device_alloc"]}
		if g != w {
			t.Errorf("%s: %+v, want %+v", name, g, w)
		}
	}
	x := mustMalloc(t, a, 5<<20)
	check("5 MiB", st{5 << 20, 20 << 20, 0, 1})
	if got := layout(a); got != "[5242880A(5242880) 15728640F(0)]" {
		t.Errorf("layout %s", got)
	}
	mustMalloc(t, a, 30<<20)
	check("+30 MiB", st{35 << 20, 40 << 20, 0, 2})
	if got := layout(a); got != "[5242880A(5242880) 31457280A(31457280) 5242880F(0)]" {
		t.Errorf("layout %s", got)
	}
	mustMalloc(t, a, 1000)
	check("+1000 B", st{35<<20 + 1024, 42 << 20, 0, 3})
	mustFree(t, a, x)
	a.EmptyCache()
	check("del 5 MiB + empty_cache", st{30<<20 + 1024, 42 << 20, 0, 3})
	checkStats(t, a, map[string]int64{"num_device_free": 0, "inactive_split.all.allocated": 0, "segment.all.allocated": 0})
	for _, s := range a.Snapshot().Segments {
		if !s.IsExpandable {
			t.Errorf("segment %+v not expandable", s)
		}
	}
}

// TestExpandableExampleA: worked example (a) with expandable segments gives
// the same allocated/reserved figures but no segment or inactive_split counts.
func TestExpandableExampleA(t *testing.T) {
	a := newTest(t, "expandable_segments:True")
	runSteps(t, a, []step{
		{name: "x", alloc: 4194304, free: -1, allocated: 4194304, reserved: 20971520},
		{name: "y", alloc: 16777216, free: -1, allocated: 20971520, reserved: 20971520},
		{name: "del x", free: 0, allocated: 16777216, reserved: 20971520},
		{name: "del y", free: 1, allocated: 0, reserved: 20971520},
		{name: "empty_cache", free: -1, empty: true, allocated: 0, reserved: 0},
	})
	checkStats(t, a, map[string]int64{"segment.all.allocated": 0, "inactive_split.all.allocated": 0,
		"inactive_split_bytes.all.allocated": 0, "num_device_alloc": 1, "num_device_free": 1})
	if len(a.expSegs) != 0 || len(a.large.unmapped) != 0 {
		t.Errorf("address range not released: %d segments", len(a.expSegs))
	}
	if d := a.dev.(*SimDevice); d.Used() != 0 || len(d.reserved) != 0 {
		t.Errorf("device still holds %d bytes, %d ranges", d.Used(), len(d.reserved))
	}
}

// TestExpandableHoles is the rest of oracle case q015: a freed hole in the
// middle is reused, and empty_cache unmaps only whole free pages.
func TestExpandableHoles(t *testing.T) {
	a := newTest(t, "expandable_segments:True")
	x := mustMalloc(t, a, 5<<20)
	b := mustMalloc(t, a, 30<<20)
	c := mustMalloc(t, a, 1000)
	var xs []*Block
	for i := 0; i < 5; i++ {
		xs = append(xs, mustMalloc(t, a, 7<<20))
	}
	// 5+30+35 = 70 MiB in 80 MiB of large pages.
	checkStats(t, a, map[string]int64{"reserved_bytes.all.current": 82 << 20, "num_device_alloc": 5})
	mustFree(t, a, xs[1])
	mustFree(t, a, xs[2])
	d := mustMalloc(t, a, 13<<20)
	if d.Addr() != xs[0].Addr()+7<<20 {
		t.Errorf("13 MiB did not go into the 14 MiB hole")
	}
	mustFree(t, a, x)
	a.EmptyCache()
	checkStats(t, a, map[string]int64{"reserved_bytes.all.current": 82 << 20})
	for _, blk := range append([]*Block{b, c, d}, xs[0], xs[3], xs[4]) {
		mustFree(t, a, blk)
	}
	a.EmptyCache()
	checkStats(t, a, map[string]int64{"reserved_bytes.all.current": 0, "allocated_bytes.all.current": 0, "num_device_free": 2})
}

// TestHistoryTrace is spec §14's verified trace and small-segment entry.
func TestHistoryTrace(t *testing.T) {
	a := newTest(t, "")
	a.RecordHistory(true, 1000)
	x := mustMalloc(t, a, 4<<20)
	mustMalloc(t, a, 1000)
	mustFree(t, a, x)
	a.EmptyCache()
	snap := a.Snapshot()
	var got []string
	for _, e := range snap.Traces {
		got = append(got, e.Action+":"+fmtInt(e.Size))
	}
	want := []string{"segment_alloc:20971520", "alloc:4194304", "segment_alloc:2097152", "alloc:1000",
		"free_requested:4194304", "free_completed:4194304", "segment_free:20971520"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("trace = %v\nwant %v", got, want)
	}
	if len(snap.Segments) != 1 {
		t.Fatalf("segments: %+v", snap.Segments)
	}
	s := snap.Segments[0]
	wantBlocks := []BlockInfo{{Address: s.Address, Size: 1024, RequestedSize: 1000, State: StateActiveAllocated},
		{Address: s.Address + 1024, Size: 2096128, State: StateInactive}}
	for i := range s.Blocks {
		s.Blocks[i].Label = BlockInfo{}.Label
	}
	if !reflect.DeepEqual(s.Blocks, wantBlocks) || s.RequestedSize != 1000 || s.AllocatedSize != 1024 || s.ActiveSize != 1024 || s.Pool != trace.Small {
		t.Errorf("segment = %+v", s)
	}
	next := a.Snapshot().Traces
	if last := next[len(next)-1]; last.Action != "snapshot" || last.Size != 1024 {
		t.Errorf("last entry = %+v", last)
	}
	// Ring buffer: only the newest entries survive.
	a.RecordHistory(true, 3)
	for i := 0; i < 5; i++ {
		mustFree(t, a, mustMalloc(t, a, 1<<20))
	}
	if tr := a.Snapshot().Traces; len(tr) != 3 || tr[2].Action != "free_completed" || tr[0].TimeUS >= tr[2].TimeUS {
		t.Errorf("ring buffer = %+v", tr)
	}
	a.RecordHistory(false, 0)
	if tr := a.Snapshot().Traces; len(tr) != 0 {
		t.Errorf("history after disabling: %v", tr)
	}
}

// TestSnapshotValue checks the 2.11 key sets of the _snapshot() dict.
func TestSnapshotValue(t *testing.T) {
	a := newTest(t, "max_split_size_mb:100")
	a.RecordHistory(true, 100)
	mustMalloc(t, a, 1000)
	if _, err := a.Malloc(100<<30, trace.Label{}); err == nil {
		t.Fatal("expected OOM")
	}
	top := a.Snapshot().PickleValue().(*pickle.Dict)
	keys := func(d *pickle.Dict) []any { return d.Keys }
	if want := []any{"segments", "device_traces", "allocator_settings", "external_annotations"}; !reflect.DeepEqual(keys(top), want) {
		t.Errorf("top keys %v", keys(top))
	}
	segs, _ := top.Get("segments")
	seg := segs.([]any)[0].(*pickle.Dict)
	if want := []any{"device", "address", "total_size", "allocated_size", "active_size", "requested_size", "stream", "segment_type", "segment_pool_id", "is_expandable", "frames", "blocks"}; !reflect.DeepEqual(keys(seg), want) {
		t.Errorf("segment keys %v", keys(seg))
	}
	if id, _ := seg.Get("segment_pool_id"); !reflect.DeepEqual(id, pickle.Tuple{int64(0), int64(0)}) {
		t.Errorf("segment_pool_id = %v", id)
	}
	blocks, _ := seg.Get("blocks")
	if want := []any{"address", "size", "requested_size", "state", "frames"}; !reflect.DeepEqual(keys(blocks.([]any)[0].(*pickle.Dict)), want) {
		t.Errorf("block keys")
	}
	dt, _ := top.Get("device_traces")
	entries := dt.([]any)[0].([]any)
	oom := entries[len(entries)-1].(*pickle.Dict)
	if a, _ := oom.Get("action"); a != "oom" {
		t.Fatalf("last entry %v", a)
	}
	if _, ok := oom.Get("device_free"); !ok {
		t.Error("oom entry lacks device_free")
	}
	settings, _ := top.Get("allocator_settings")
	sd := settings.(*pickle.Dict)
	if want := []any{"PYTORCH_CUDA_ALLOC_CONF", "max_split_size", "garbage_collection_threshold", "expandable_segments", "pinned_num_register_threads", "release_lock_on_cudamalloc", "pinned_use_cuda_host_register", "graph_capture_record_stream_reuse", "roundup_power2_divisions"}; !reflect.DeepEqual(keys(sd), want) {
		t.Errorf("settings keys %v", keys(sd))
	}
	if v, _ := sd.Get("max_split_size"); v != int64(100<<20) {
		t.Errorf("max_split_size = %v", v)
	}
	if r, _ := sd.Get("roundup_power2_divisions"); r.(*pickle.Dict).Len() != 16 {
		t.Error("roundup_power2_divisions must have 16 keys")
	}
	js, err := a.Snapshot().MarshalJSON()
	if err != nil || !contains(string(js), `"allocator_settings":{"PYTORCH_CUDA_ALLOC_CONF":"max_split_size_mb:100","max_split_size":104857600`) {
		t.Errorf("JSON = %s, %v", js, err)
	}
}

// TestMisuse: bad calls return errors or are documented no-ops, never panic.
func TestMisuse(t *testing.T) {
	a := newTest(t, "")
	other := newTest(t, "")
	if _, err := a.Malloc(-1, trace.Label{}); err == nil {
		t.Error("negative size accepted")
	}
	if err := a.Free(nil); err == nil {
		t.Error("Free(nil) accepted")
	}
	b := mustMalloc(t, a, 100)
	if err := other.Free(b); err == nil {
		t.Error("foreign free accepted")
	}
	mustFree(t, a, b)
	if err := a.Free(b); err == nil {
		t.Error("double free accepted")
	}
	c := mustMalloc(t, a, 100)
	d := mustMalloc(t, a, 100)
	mustFree(t, a, c)
	mustFree(t, a, d) // merges c into d: c's object is gone
	if err := a.Free(c); err == nil {
		t.Error("free of a merged block accepted")
	}
	a.Relabel(c, trace.Label{Name: "x"}) // ignored
	a.Relabel(nil, trace.Label{})
	if s := a.Stats(); s.Allocated != 0 || s.Active != 0 {
		t.Errorf("stats changed by misuse: %+v", s)
	}
	if a.Err() != nil {
		t.Errorf("device error: %v", a.Err())
	}
}

// TestEvents checks the event stream of a small script.
func TestEvents(t *testing.T) {
	var evs []trace.Event
	a := New(profile.Default(), DefaultConfig(), nil, func(e trace.Event) { evs = append(evs, e) })
	x := mustMalloc(t, a, 4<<20)
	a.Relabel(x, trace.Label{Kind: trace.LabelUser, Name: "x"})
	mustFree(t, a, x)
	a.EmptyCache()
	kinds := []trace.Kind{trace.SegmentAlloc, trace.Alloc, trace.Relabel, trace.Free, trace.SegmentFree}
	if len(evs) != len(kinds) {
		t.Fatalf("events %+v", evs)
	}
	for i, k := range kinds {
		if evs[i].Kind != k {
			t.Errorf("event %d = %s, want %s", i, evs[i].Kind, k)
		}
	}
	if e := evs[1]; e.Addr != x.Addr() || e.Size != 4<<20 || e.Requested != 4<<20 || e.Segment != x.Segment() || e.Pool != trace.Large || e.Stats.Allocated != 4<<20 {
		t.Errorf("alloc event %+v", e)
	}
	if e := evs[3]; e.Label == nil || e.Label.Name != "x" || e.Stats.Allocated != 0 || e.Stats.Reserved != 20<<20 {
		t.Errorf("free event %+v", e)
	}
	if e := evs[4]; e.Stats.Reserved != 0 || e.Seq != 0 || e.Line != 0 {
		t.Errorf("segment_free event %+v", e)
	}
}

// TestResets covers reset_peak_memory_stats and reset_accumulated_memory_stats.
func TestResets(t *testing.T) {
	a := newTest(t, "")
	x := mustMalloc(t, a, 1<<30)
	mustMalloc(t, a, 1000)
	mustFree(t, a, x)
	a.ResetPeakStats()
	a.ResetAccumulatedStats()
	for _, e := range a.MemoryStats() {
		switch {
		case hasSuffix(e.Key, ".allocated"), hasSuffix(e.Key, ".freed"), e.Key == "num_device_alloc", e.Key == "num_sync_all_streams":
			if e.Value != 0 {
				t.Errorf("%s = %d after reset", e.Key, e.Value)
			}
		}
	}
	m := stats(a)
	if m["allocated_bytes.all.peak"] != 1024 || m["reserved_bytes.all.peak"] != 1<<30+2<<20 {
		t.Errorf("peaks: %d %d", m["allocated_bytes.all.peak"], m["reserved_bytes.all.peak"])
	}
}

func hasSuffix(s, suf string) bool { return len(s) >= len(suf) && s[len(s)-len(suf):] == suf }
