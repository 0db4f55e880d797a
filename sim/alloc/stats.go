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

// DeviceStats are all the allocator's counters (PyTorch's DeviceStats).
type DeviceStats struct {
	Allocation, Segment, Active, InactiveSplit                                 StatArray
	AllocatedBytes, ReservedBytes, ActiveBytes, InactiveSplitBytes             StatArray
	RequestedBytes                                                             StatArray
	NumAllocRetries, NumOOMs, NumSyncAllStreams, NumDeviceAlloc, NumDeviceFree int64
	OversizeAllocations, OversizeSegments                                      Stat
}

// poolStat is the allocator's working form of a StatArray: only the pools
// are counted, and the "all" entry is derived from them when read (its
// current, allocated and freed are the sums) except its peak, which is
// kept in all.Peak. An update thus touches one pool's Stat, not two.
type poolStat struct {
	pools [numStatTypes]Stat // statLarge and statSmall; statAll unused
	peak  int64              // peak of the "all" current value
}

// increase adds n to pool p.
func (s *poolStat) increase(p int, n int64) {
	s.pools[p].increase(n)
	if c := s.pools[statLarge].Current + s.pools[statSmall].Current; c > s.peak {
		s.peak = c
	}
}

// decrease subtracts n from pool p.
func (s *poolStat) decrease(p int, n int64) { s.pools[p].decrease(n) }

// all returns the aggregate "all" Stat.
func (s *poolStat) all() Stat {
	l, m := &s.pools[statLarge], &s.pools[statSmall]
	return Stat{Current: l.Current + m.Current, Peak: s.peak, Allocated: l.Allocated + m.Allocated, Freed: l.Freed + m.Freed}
}

// array returns the StatArray the counter stands for.
func (s *poolStat) array() StatArray {
	return StatArray{s.all(), s.pools[statLarge], s.pools[statSmall]}
}

// resetPeak makes every peak the current value.
func (s *poolStat) resetPeak() {
	for i := range s.pools {
		s.pools[i].Peak = s.pools[i].Current
	}
	s.peak = s.all().Current
}

// resetAccumulated zeroes the allocated and freed totals.
func (s *poolStat) resetAccumulated() {
	for i := range s.pools {
		s.pools[i].Allocated, s.pools[i].Freed = 0, 0
	}
}

// counters is the allocator's working form of DeviceStats. Allocation also
// stands for Active and AllocatedBytes for ActiveBytes: with one stream and
// no stream uses, a block is active exactly while it is allocated (free
// calls free_block at once), so PyTorch's two pairs of counters move
// together and hold equal values, peaks and totals included.
type counters struct {
	Allocation, Segment, InactiveSplit                                         poolStat
	AllocatedBytes, ReservedBytes, InactiveSplitBytes, RequestedBytes          poolStat
	NumAllocRetries, NumOOMs, NumSyncAllStreams, NumDeviceAlloc, NumDeviceFree int64
	OversizeAllocations, OversizeSegments                                      Stat
}

// poolStats lists the counters of c.
func (c *counters) poolStats() []*poolStat {
	return []*poolStat{&c.Allocation, &c.Segment, &c.InactiveSplit, &c.AllocatedBytes,
		&c.ReservedBytes, &c.InactiveSplitBytes, &c.RequestedBytes}
}

// deviceStats returns the counters as DeviceStats.
func (c *counters) deviceStats() DeviceStats {
	return DeviceStats{
		Allocation: c.Allocation.array(), Active: c.Allocation.array(), Segment: c.Segment.array(),
		InactiveSplit: c.InactiveSplit.array(), AllocatedBytes: c.AllocatedBytes.array(),
		ActiveBytes: c.AllocatedBytes.array(), ReservedBytes: c.ReservedBytes.array(),
		InactiveSplitBytes: c.InactiveSplitBytes.array(), RequestedBytes: c.RequestedBytes.array(),
		NumAllocRetries: c.NumAllocRetries, NumOOMs: c.NumOOMs, NumSyncAllStreams: c.NumSyncAllStreams,
		NumDeviceAlloc: c.NumDeviceAlloc, NumDeviceFree: c.NumDeviceFree,
		OversizeAllocations: c.OversizeAllocations, OversizeSegments: c.OversizeSegments,
	}
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
func (a *Allocator) DeviceStats() DeviceStats { return a.stats.deviceStats() }

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
	d := a.stats.deviceStats()
	for _, sa := range d.statArrays() {
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
		StatEntry{"num_alloc_retries", d.NumAllocRetries},
		StatEntry{"num_device_alloc", d.NumDeviceAlloc},
		StatEntry{"num_device_free", d.NumDeviceFree},
		StatEntry{"num_ooms", d.NumOOMs},
		StatEntry{"num_sync_all_streams", d.NumSyncAllStreams})
	stat("oversize_allocations", d.OversizeAllocations)
	stat("oversize_segments", d.OversizeSegments)
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// Stats returns the headline figures every view draws.
func (a *Allocator) Stats() trace.Stats {
	s := &a.stats
	l, m := &s.AllocatedBytes.pools[statLarge], &s.AllocatedBytes.pools[statSmall]
	rl, rm := &s.ReservedBytes.pools[statLarge], &s.ReservedBytes.pools[statSmall]
	allocated := l.Current + m.Current
	return trace.Stats{
		Allocated:     allocated,
		Reserved:      rl.Current + rm.Current,
		PeakAllocated: s.AllocatedBytes.peak,
		PeakReserved:  s.ReservedBytes.peak,
		Active:        allocated, // active_bytes moves with allocated_bytes (see counters)
		Requested:     s.RequestedBytes.pools[statLarge].Current + s.RequestedBytes.pools[statSmall].Current,
		Segments:      s.Segment.pools[statLarge].Current + s.Segment.pools[statSmall].Current,
		AllocRetries:  s.NumAllocRetries,
		OOMs:          s.NumOOMs,
	}
}

// ResetPeakStats is torch.cuda.reset_peak_memory_stats(): every peak becomes
// the current value.
func (a *Allocator) ResetPeakStats() {
	for _, ps := range a.stats.poolStats() {
		ps.resetPeak()
	}
	a.stats.OversizeAllocations.Peak = a.stats.OversizeAllocations.Current
	a.stats.OversizeSegments.Peak = a.stats.OversizeSegments.Current
}

// ResetAccumulatedStats is torch.cuda.reset_accumulated_memory_stats():
// allocated/freed totals and the event counters become 0.
func (a *Allocator) ResetAccumulatedStats() {
	for _, ps := range a.stats.poolStats() {
		ps.resetAccumulated()
	}
	s := &a.stats
	s.NumAllocRetries, s.NumOOMs, s.NumSyncAllStreams, s.NumDeviceAlloc, s.NumDeviceFree = 0, 0, 0, 0, 0
	s.OversizeAllocations.Allocated, s.OversizeAllocations.Freed = 0, 0
	s.OversizeSegments.Allocated, s.OversizeSegments.Freed = 0, 0
}
