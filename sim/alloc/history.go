package alloc

// TraceEntry is one entry of the memory-history ring buffer
// (snapshot()["device_traces"][0][i]).
type TraceEntry struct {
	Action string // segment_alloc, alloc, free_requested, free_completed, segment_free, segment_map, segment_unmap, oom, snapshot
	Addr   uint64 // block or range address; for "oom" the device's free bytes (key device_free)
	Size   int64
	TimeUS int64 // logical clock: the entry's sequence number (the simulator has no wall time)
}

// history is the ring buffer of trace entries (TraceEntryRingBuffer).
type history struct {
	entries []TraceEntry
	next    int // oldest entry once the buffer is full
	max     int
	clock   int64
}

// RecordHistory is torch.cuda.memory._record_memory_history: enabled starts
// (or keeps) recording into a ring buffer of maxEntries entries (at least 1);
// disabling stops recording and discards the entries. Shrinking an active
// buffer keeps its newest entries (PyTorch keeps the larger buffer and
// overwrites its first slots; that quirk is not reproduced).
func (a *Allocator) RecordHistory(enabled bool, maxEntries int) {
	if !enabled {
		a.hist = nil
		return
	}
	maxEntries = max(maxEntries, 1)
	if a.hist == nil {
		a.hist = &history{}
	}
	h := a.hist
	h.max = maxEntries
	if len(h.entries) > maxEntries {
		all := h.list()
		h.entries = append(h.entries[:0], all[len(all)-maxEntries:]...)
		h.next = 0
	}
}

// record adds an entry when history is on.
func (a *Allocator) record(action string, addr uint64, size int64) {
	if a.hist != nil {
		a.hist.add(TraceEntry{Action: action, Addr: addr, Size: size})
	}
}

// recordOOM adds an "oom" entry.
func (a *Allocator) recordOOM(free, size int64) {
	a.record("oom", uint64(free), size)
}

func (h *history) add(e TraceEntry) {
	h.clock++
	e.TimeUS = h.clock
	if len(h.entries) < h.max {
		h.entries = append(h.entries, e)
		return
	}
	h.entries[h.next] = e
	h.next++
	if h.next >= len(h.entries) {
		h.next = 0
	}
}

// list returns the entries oldest first.
func (h *history) list() []TraceEntry {
	out := make([]TraceEntry, 0, len(h.entries))
	if h.next < len(h.entries) {
		out = append(out, h.entries[h.next:]...)
	}
	return append(out, h.entries[:min(h.next, len(h.entries))]...)
}
