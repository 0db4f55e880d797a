package alloc

import (
	"sort"

	"github.com/gpumem/playground/sim/trace"
)

// Stat is one counter of memory_stats(): current value, peak, and totals of
// increases and decreases.
type Stat struct {
	Current, Peak, Allocated, Freed int64
}

func (s *Stat) increase(n int64) {
	s.Current += n
	if s.Current > s.Peak {
		s.Peak = s.Current
	}
	s.Allocated += n
}

func (s *Stat) decrease(n int64) {
	s.Current -= n
	s.Freed += n
}

// Stat types: the aggregate and the two pools.
const (
	statAll = iota
	statLarge
	statSmall
	numStatTypes
)

// StatArray is a Stat for "all", "large_pool" and "small_pool", in that order.
type StatArray [numStatTypes]Stat

// increase updates the aggregate and pool p.
func (a *StatArray) increase(p int, n int64) {
	a[statAll].increase(n)
	a[p].increase(n)
}

func (a *StatArray) decrease(p int, n int64) {
	a[statAll].decrease(n)
	a[p].decrease(n)
}

// DeviceStats are all the allocator's counters (PyTorch's DeviceStats).
type DeviceStats struct {
	Allocation, Segment, Active, InactiveSplit                                 StatArray
	AllocatedBytes, ReservedBytes, ActiveBytes, InactiveSplitBytes             StatArray
	RequestedBytes                                                             StatArray
	NumAllocRetries, NumOOMs, NumSyncAllStreams, NumDeviceAlloc, NumDeviceFree int64
	OversizeAllocations, OversizeSegments                                      Stat
}

// StatEntry is one key of memory_stats().
type StatEntry struct {
	Key   string
	Value int64
}

// statArrays lists the StatArrays with their memory_stats() names.
func (d *DeviceStats) statArrays() []struct {
	name string
	a    *StatArray
} {
	return []struct {
		name string
		a    *StatArray
	}{
		{"active", &d.Active}, {"active_bytes", &d.ActiveBytes}, {"allocated_bytes", &d.AllocatedBytes},
		{"allocation", &d.Allocation}, {"inactive_split", &d.InactiveSplit},
		{"inactive_split_bytes", &d.InactiveSplitBytes}, {"requested_bytes", &d.RequestedBytes},
		{"reserved_bytes", &d.ReservedBytes}, {"segment", &d.Segment},
	}
}

// DeviceStats returns a copy of every counter.
func (a *Allocator) DeviceStats() DeviceStats { return a.stats }

// MemoryStats returns every key of torch.cuda.memory_stats(), sorted by key
// as Python sorts them (122 keys in 2.11).
func (a *Allocator) MemoryStats() []StatEntry {
	out := make([]StatEntry, 0, 122)
	poolNames := [numStatTypes]string{"all", "large_pool", "small_pool"}
	stat := func(prefix string, s Stat) {
		out = append(out,
			StatEntry{prefix + ".allocated", s.Allocated}, StatEntry{prefix + ".current", s.Current},
			StatEntry{prefix + ".freed", s.Freed}, StatEntry{prefix + ".peak", s.Peak})
	}
	for _, sa := range a.stats.statArrays() {
		for i, pn := range poolNames {
			stat(sa.name+"."+pn, sa.a[i])
		}
	}
	maxSplit := a.cfg.MaxSplitSize
	if maxSplit == unlimited {
		maxSplit = -1
	}
	out = append(out,
		StatEntry{"max_split_size", maxSplit},
		StatEntry{"num_alloc_retries", a.stats.NumAllocRetries},
		StatEntry{"num_device_alloc", a.stats.NumDeviceAlloc},
		StatEntry{"num_device_free", a.stats.NumDeviceFree},
		StatEntry{"num_ooms", a.stats.NumOOMs},
		StatEntry{"num_sync_all_streams", a.stats.NumSyncAllStreams})
	stat("oversize_allocations", a.stats.OversizeAllocations)
	stat("oversize_segments", a.stats.OversizeSegments)
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// Stats returns the headline figures every view draws.
func (a *Allocator) Stats() trace.Stats {
	s := &a.stats
	return trace.Stats{
		Allocated:     s.AllocatedBytes[statAll].Current,
		Reserved:      s.ReservedBytes[statAll].Current,
		PeakAllocated: s.AllocatedBytes[statAll].Peak,
		PeakReserved:  s.ReservedBytes[statAll].Peak,
		Active:        s.ActiveBytes[statAll].Current,
		Requested:     s.RequestedBytes[statAll].Current,
		Segments:      s.Segment[statAll].Current,
		AllocRetries:  s.NumAllocRetries,
		OOMs:          s.NumOOMs,
	}
}

// ResetPeakStats is torch.cuda.reset_peak_memory_stats(): every peak becomes
// the current value.
func (a *Allocator) ResetPeakStats() {
	for _, sa := range a.stats.statArrays() {
		for i := range sa.a {
			sa.a[i].Peak = sa.a[i].Current
		}
	}
	a.stats.OversizeAllocations.Peak = a.stats.OversizeAllocations.Current
	a.stats.OversizeSegments.Peak = a.stats.OversizeSegments.Current
}

// ResetAccumulatedStats is torch.cuda.reset_accumulated_memory_stats():
// allocated/freed totals and the event counters become 0.
func (a *Allocator) ResetAccumulatedStats() {
	for _, sa := range a.stats.statArrays() {
		for i := range sa.a {
			sa.a[i].Allocated, sa.a[i].Freed = 0, 0
		}
	}
	s := &a.stats
	s.NumAllocRetries, s.NumOOMs, s.NumSyncAllStreams, s.NumDeviceAlloc, s.NumDeviceFree = 0, 0, 0, 0, 0
	s.OversizeAllocations.Allocated, s.OversizeAllocations.Freed = 0, 0
	s.OversizeSegments.Allocated, s.OversizeSegments.Freed = 0, 0
}
