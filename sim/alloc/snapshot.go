package alloc

import (
	"sort"

	"github.com/gpumem/playground/sim/trace"
)

// Snapshot is torch.cuda.memory._snapshot() as data.
type Snapshot struct {
	Segments []SegmentInfo // sorted by address
	Traces   []TraceEntry  // device_traces of device 0, oldest first (empty without history)
	Settings Config        // for allocator_settings
}

// SegmentInfo is one segment of the snapshot; with expandable segments, one
// contiguous mapped range.
type SegmentInfo struct {
	Address       uint64
	TotalSize     int64
	AllocatedSize int64 // sum of allocated blocks
	ActiveSize    int64 // sum of active blocks (= allocated in single-stream programs)
	RequestedSize int64 // sum of requested_size of active blocks
	Pool          trace.Pool
	IsExpandable  bool
	Blocks        []BlockInfo
}

// BlockInfo is one block of a segment.
type BlockInfo struct {
	Address       uint64
	Size          int64
	RequestedSize int64 // stale on inactive blocks (spec §5.3)
	State         string
	Label         trace.Label // not part of PyTorch's snapshot
}

// Block states of the snapshot.
const (
	StateActiveAllocated = "active_allocated"
	StateInactive        = "inactive"
)

// allBlocks returns every block the allocator knows.
func (a *Allocator) allBlocks() []*Block {
	blocks := a.small.free.appendAll(nil)
	blocks = a.large.free.appendAll(blocks)
	blocks = append(blocks, a.small.unmapped...)
	blocks = append(blocks, a.large.unmapped...)
	blocks = append(blocks, a.live...)
	return blocks
}

// Snapshot returns the segments and blocks, and the history entries when
// recording is on; like PyTorch it then records a "snapshot" entry (which
// shows in the next snapshot).
func (a *Allocator) Snapshot() Snapshot {
	var segs []SegmentInfo
	var totalActive int64
	for _, head := range a.allBlocks() {
		if !head.mapped || (head.prev != nil && head.prev.mapped) {
			continue
		}
		s := SegmentInfo{Address: head.addr, Pool: poolName(head.pool), IsExpandable: head.exp != nil}
		for b := head; b != nil && b.mapped; b = b.next {
			bi := BlockInfo{Address: b.addr, Size: b.size, RequestedSize: b.requested, State: StateInactive}
			s.TotalSize += b.size
			if b.allocated {
				bi.State, bi.Label = StateActiveAllocated, b.label
				s.AllocatedSize += b.size
				s.ActiveSize += b.size
				s.RequestedSize += b.requested
			}
			s.Blocks = append(s.Blocks, bi)
		}
		totalActive += s.ActiveSize
		segs = append(segs, s)
	}
	sort.Slice(segs, func(i, j int) bool { return segs[i].Address < segs[j].Address })
	snap := Snapshot{Segments: segs, Settings: a.cfg}
	if a.hist != nil {
		snap.Traces = a.hist.list()
	}
	a.record("snapshot", 0, totalActive)
	return snap
}
