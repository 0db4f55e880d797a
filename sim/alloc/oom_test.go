package alloc

import (
	"testing"

	"github.com/gpumem/playground/sim/profile"
	"github.com/gpumem/playground/sim/trace"
)

const oomTail211 = " If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://docs.pytorch.org/docs/stable/notes/cuda.html#optimizing-memory-usage-with-pytorch-cuda-alloc-conf)"

// TestOOMVerified200GiB is the first verified message of spec §10.2.
func TestOOMVerified200GiB(t *testing.T) {
	var events []trace.Event
	a := New(profile.Default(), DefaultConfig(), nil, func(e trace.Event) { events = append(events, e) })
	mustMalloc(t, a, 100<<20)
	_, err := a.Malloc(200<<30, trace.Label{})
	want := "CUDA out of memory. Tried to allocate 200.00 GiB. GPU 0 has a total capacity of 79.18 GiB of which 78.57 GiB is free. Including non-PyTorch memory, this process has 618.00 MiB memory in use. Of the allocated memory 100.00 MiB is allocated by PyTorch, and 0 bytes is reserved by PyTorch but unallocated." + oomTail211
	if err == nil || err.Error() != want {
		t.Fatalf("error =\n%v\nwant\n%s", err, want)
	}
	checkStats(t, a, map[string]int64{"num_ooms": 1, "num_alloc_retries": 1, "num_sync_all_streams": 1})
	last := events[len(events)-1]
	if last.Kind != trace.OOM || last.Size != 200<<30 || last.Text != want || last.Stats.OOMs != 1 {
		t.Errorf("last event = %+v", last)
	}
}

// TestOOMVerifiedFraction is the second verified message of spec §10.2 and
// the counters of spec §4.4 (oracle case q010_oom_fraction).
func TestOOMVerifiedFraction(t *testing.T) {
	a := newTest(t, "")
	if err := a.SetMemoryFraction(0.05); err != nil {
		t.Fatal(err)
	}
	if got := a.GetMemoryFraction(); got != 0.049999999997647544 {
		t.Errorf("GetMemoryFraction = %v", got)
	}
	x := mustMalloc(t, a, 3<<30)
	mustFree(t, a, x)
	mustMalloc(t, a, 3584<<20)
	checkStats(t, a, map[string]int64{
		"num_alloc_retries": 1, "num_sync_all_streams": 1, "num_device_alloc": 2, "num_device_free": 1,
		"reserved_bytes.all.current": 3584 << 20,
	})
	_, err := a.Malloc(1<<30, trace.Label{})
	want := "CUDA out of memory. Tried to allocate 1024.00 MiB. GPU 0 has a total capacity of 79.18 GiB of which 75.16 GiB is free. Including non-PyTorch memory, this process has 4.01 GiB memory in use. 3.96 GiB allowed; Of the allocated memory 3.50 GiB is allocated by PyTorch, and 0 bytes is reserved by PyTorch but unallocated." + oomTail211
	if err == nil || err.Error() != want {
		t.Fatalf("error =\n%v\nwant\n%s", err, want)
	}
	checkStats(t, a, map[string]int64{"num_alloc_retries": 2, "num_sync_all_streams": 2, "num_ooms": 1})
}

// TestOOMOneExabyte: requests ≥ 1 EiB fail at once without touching the counters.
func TestOOMOneExabyte(t *testing.T) {
	a := newTest(t, "")
	_, err := a.Malloc(1<<60, trace.Label{})
	if err == nil || err.Error() != "CUDA out of memory. Tried to allocate more than 1EB memory." {
		t.Fatalf("error = %v", err)
	}
	checkStats(t, a, map[string]int64{"num_ooms": 0, "num_alloc_retries": 0, "num_sync_all_streams": 0})
	if _, err := a.Malloc(1<<60-1, trace.Label{}); err == nil || err.Error() == "CUDA out of memory. Tried to allocate more than 1EB memory." {
		t.Errorf("1 EiB − 1 error = %v, want an ordinary OOM", err)
	}
}

// TestOOMSeed004 reproduces seed 004's ≤1.9 message on the 1.x profile.
func TestOOMSeed004(t *testing.T) {
	p, err := profile.Lookup("8gb-pt1.x")
	if err != nil {
		t.Fatal(err)
	}
	a := New(p, DefaultConfig(), nil, nil)
	mustMalloc(t, a, 3552*2<<20) // one exact 7 449 083 904-byte segment
	// Three 58-page segments; each keeps a 1.5 MiB tensor at its end and
	// has 114.5 MiB cached in front of it, too little for 128 MiB.
	var fronts []*Block
	for i := 0; i < 3; i++ {
		fronts = append(fronts, mustMalloc(t, a, 58*2<<20-3<<19))
		mustMalloc(t, a, 3<<19)
	}
	for _, f := range fronts {
		mustFree(t, a, f)
	}
	_, err = a.Malloc(128<<20, trace.Label{})
	want := "CUDA out of memory. Tried to allocate 128.00 MiB (GPU 0; 7.93 GiB total capacity; 6.94 GiB already allocated; 10.56 MiB free; 7.28 GiB reserved in total by PyTorch)"
	if err == nil || err.Error() != want {
		t.Fatalf("error =\n%v\nwant\n%s", err, want)
	}
}

// TestOOMFormats checks every message format from the same figures.
func TestOOMFormats(t *testing.T) {
	base := OOMError{AllocSize: 20 << 20, Total: 85017493504, Free: 1 << 30, HasProcess: true, Process: 4301258752,
		Allocated: 3 << 30, Reserved: 3<<30 + 1152, HasAllowed: true, Allowed: 4250874675}
	tests := []struct {
		format profile.OOMFormat
		want   string
	}{
		{profile.OOM211, "CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 79.18 GiB of which 1024.00 MiB is free. Including non-PyTorch memory, this process has 4.01 GiB memory in use. 3.96 GiB allowed; Of the allocated memory 3.00 GiB is allocated by PyTorch, and 1.12 KiB is reserved by PyTorch but unallocated." + oomTail211},
		{profile.OOM23, "CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 79.18 GiB of which 1024.00 MiB is free. Including non-PyTorch memory, this process has 4.01 GiB memory in use. 3.96 GiB allowed; Of the allocated memory 3.00 GiB is allocated by PyTorch, and 1.12 KiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)"},
		{profile.OOM21, "CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 79.18 GiB of which 1024.00 MiB is free. Including non-PyTorch memory, this process has 4.01 GiB memory in use. Of the allocated memory 3.00 GiB is allocated by PyTorch, and 1.12 KiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)"},
		{profile.OOM110, "CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 79.18 GiB total capacity; 3.00 GiB already allocated; 1024.00 MiB free; 3.96 GiB allowed; 3.00 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF"},
		{profile.OOM19, "CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 79.18 GiB total capacity; 3.00 GiB already allocated; 1024.00 MiB free; 3.96 GiB allowed; 3.00 GiB reserved in total by PyTorch)"},
	}
	for _, tc := range tests {
		e := base
		e.Format = tc.format
		if got := e.Error(); got != tc.want {
			t.Errorf("%v:\n got %s\nwant %s", tc.format, got, tc.want)
		}
	}
	// Private pools and a missing NVML.
	e := base
	e.Private, e.HasProcess, e.HasAllowed = 1<<20, false, false
	want := "CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 79.18 GiB of which 1024.00 MiB is free. Of the allocated memory 3.00 GiB is allocated by PyTorch, with 1024.00 KiB allocated in private pools (e.g., CUDA Graphs), and -1047424 bytes is reserved by PyTorch but unallocated." + oomTail211
	if got := e.Error(); got != want {
		t.Errorf("private pools:\n got %s\nwant %s", got, want)
	}
}

func TestFormatSize(t *testing.T) {
	tests := []struct {
		n    int64
		want string
	}{
		{0, "0 bytes"}, {1024, "1024 bytes"}, {1025, "1.00 KiB"}, {1152, "1.12 KiB"},
		{1 << 20, "1024.00 KiB"}, {1<<20 + 1, "1.00 MiB"}, {1 << 30, "1024.00 MiB"},
		{1<<30 + 1, "1.00 GiB"}, {85017493504, "79.18 GiB"}, {20971520, "20.00 MiB"},
		{4250874675, "3.96 GiB"}, {200 << 30, "200.00 GiB"}, {1 << 50, "1048576.00 GiB"},
	}
	for _, tc := range tests {
		if got := FormatSize(tc.n); got != tc.want {
			t.Errorf("FormatSize(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
