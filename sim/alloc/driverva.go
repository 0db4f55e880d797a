package alloc

import (
	"slices"
	"sort"
)

// Layout of the simulated driver's virtual-address space (allocator spec
// §15), fitted to the real addresses of every oracle case run through the
// GPU backend on an H200 (driver 580.159.04, testdata/driver_va_h200.txt).
const (
	// vaChunk is the driver's reservation granule: a cudaMalloc that fits in
	// no free hole reserves a new chunk of its size rounded up to a multiple
	// of 32 MiB, and later segments fill the chunk's unused tail.
	vaChunk = 32 << 20
	// vaSegAlign is the alignment and size granule of a segment's range.
	vaSegAlign = kSmallBuffer
	// vaHeapGap separates the first chunk from the heap of later chunks (the
	// H200 put 1.4 GiB between them); only the order matters.
	vaHeapGap = 1 << 30
)

// vaFirstHoles are the free ranges of the first chunk, the one the driver
// reserved at context creation, as offsets from its start: it already holds
// the driver's own allocations in its first 8 MiB and at 10–12 MiB. Without
// the 2 MiB hole p026_snapshot's printed snapshot order breaks; with 2 MiB
// less in the tail (as late in the GPU backend's recording) it breaks too.
var vaFirstHoles = []vaRange{{8 << 20, 10 << 20}, {12 << 20, vaChunk}}

// vaRange is a half-open address range.
type vaRange struct{ start, end uint64 }

// vaRoundUp rounds n up to a multiple of the power of two a.
func vaRoundUp(n, a uint64) uint64 { return (n + a - 1) &^ (a - 1) }

// vaHole is a free range inside a chunk.
type vaHole struct {
	vaRange
	chunk *vaChunkState
}

// vaChunkState is one reserved chunk: how many segments live in it, and
// whether it is the permanent first chunk.
type vaChunkState struct {
	vaRange
	live      int
	permanent bool
}

// driverVA models the CUDA driver's virtual-address allocator as the H200
// showed it (allocator spec §15):
//
//   - a segment takes the lowest free hole of any chunk that holds its size
//     rounded up to 2 MiB, at the hole's start (first fit by address);
//   - with no such hole it reserves a new chunk (size rounded up to 32 MiB)
//     at the top of the highest free heap range that holds it, and lies at
//     the chunk's start, so new chunks go downward and their tails serve
//     later small segments — or, upward (PyTorch's own processes on an H100,
//     testdata/driver_va_h100.txt), at the bottom of the lowest one, so
//     later chunks lie above earlier ones;
//   - a chunk goes back to the heap when its last segment is freed, except
//     the first chunk, which sits above the heap and keeps the driver's own
//     allocations;
//   - an address reservation (expandable segments) takes a chunk of its own.
//
// So the first 2 MiB and up to 20 MiB segments go to the first chunk, above
// everything else, in ascending order; later small segments fill the tails
// of the newest (lowest) chunks first.
type driverVA struct {
	upward bool                     // new chunks from the heap's bottom up (profile.AddressModel.Upward)
	heap   []vaRange                // free heap ranges, sorted by start
	holes  []vaHole                 // free ranges inside chunks, sorted by start
	owner  map[uint64]*vaChunkState // live segment or reservation start → its chunk
}

// newDriverVA returns the address space of window [base, base+span): the
// first chunk at the top, the heap below it; upward says where new chunks
// come from (see driverVA).
func newDriverVA(base, span uint64, upward bool) *driverVA {
	v := &driverVA{upward: upward, owner: map[uint64]*vaChunkState{}}
	top := (base + span) &^ (vaChunk - 1)
	if top < base+vaChunk {
		v.heap = []vaRange{{base, base + span}}
		return v
	}
	first := &vaChunkState{vaRange: vaRange{top - vaChunk, top}, permanent: true}
	for _, h := range vaFirstHoles {
		v.holes = append(v.holes, vaHole{vaRange{first.start + h.start, first.start + h.end}, first})
	}
	heapTop := first.start
	if heapTop-base > 2*vaHeapGap {
		heapTop -= vaHeapGap
	}
	heapBase := base
	if upward {
		heapBase = vaRoundUp(base, vaChunk) // chunks start aligned going up too
	}
	v.heap = []vaRange{{heapBase, heapTop}}
	return v
}

// take places a segment of size bytes and returns its address.
func (v *driverVA) take(size uint64) (uint64, bool) {
	seg := vaRoundUp(size, vaSegAlign)
	for i, h := range v.holes {
		if h.end-h.start < seg {
			continue
		}
		a := h.start
		if h.end-h.start == seg {
			v.holes = append(v.holes[:i], v.holes[i+1:]...)
		} else {
			v.holes[i].start += seg
		}
		h.chunk.live++
		v.owner[a] = h.chunk
		return a, true
	}
	c, ok := v.newChunk(seg)
	if !ok {
		return 0, false
	}
	if tail := c.start + seg; tail < c.end {
		v.addHole(vaHole{vaRange{tail, c.end}, c})
	}
	c.live = 1
	v.owner[c.start] = c
	return c.start, true
}

// reserve places an address reservation of size bytes in a chunk of its own.
func (v *driverVA) reserve(size uint64) (uint64, bool) {
	c, ok := v.newChunk(vaRoundUp(size, vaSegAlign))
	if !ok {
		return 0, false
	}
	c.live = 1
	v.owner[c.start] = c
	return c.start, true
}

// give frees the segment or reservation of size bytes at addr.
func (v *driverVA) give(addr, size uint64) {
	c := v.owner[addr]
	if c == nil {
		return
	}
	delete(v.owner, addr)
	c.live--
	if c.live == 0 && !c.permanent {
		v.dropHoles(c)
		v.freeHeap(c.vaRange)
		return
	}
	v.addHole(vaHole{vaRange{addr, addr + vaRoundUp(size, vaSegAlign)}, c})
}

// newChunk reserves a chunk for seg bytes at the top of the highest free heap
// range that holds it, or, upward, at the bottom of the lowest.
func (v *driverVA) newChunk(seg uint64) (*vaChunkState, bool) {
	n := vaRoundUp(seg, vaChunk)
	if v.upward {
		for i, r := range v.heap {
			if r.end-r.start < n {
				continue
			}
			c := &vaChunkState{vaRange: vaRange{r.start, r.start + n}}
			if r.end-r.start == n {
				v.heap = append(v.heap[:i], v.heap[i+1:]...)
			} else {
				v.heap[i].start += n
			}
			return c, true
		}
		return nil, false
	}
	for i := len(v.heap) - 1; i >= 0; i-- {
		r := v.heap[i]
		if r.end-r.start < n {
			continue
		}
		c := &vaChunkState{vaRange: vaRange{r.end - n, r.end}}
		if r.end-r.start == n {
			v.heap = append(v.heap[:i], v.heap[i+1:]...)
		} else {
			v.heap[i].end -= n
		}
		return c, true
	}
	return nil, false
}

// addHole inserts h into the chunk holes, merging with neighbours of the
// same chunk.
func (v *driverVA) addHole(h vaHole) {
	i := sort.Search(len(v.holes), func(i int) bool { return v.holes[i].start >= h.start })
	if i > 0 && v.holes[i-1].chunk == h.chunk && v.holes[i-1].end == h.start {
		i--
		h.start = v.holes[i].start
		v.holes = append(v.holes[:i], v.holes[i+1:]...)
	}
	if i < len(v.holes) && v.holes[i].chunk == h.chunk && v.holes[i].start == h.end {
		h.end = v.holes[i].end
		v.holes = append(v.holes[:i], v.holes[i+1:]...)
	}
	v.holes = append(v.holes, vaHole{})
	copy(v.holes[i+1:], v.holes[i:])
	v.holes[i] = h
}

// dropHoles removes every hole of chunk c.
func (v *driverVA) dropHoles(c *vaChunkState) {
	v.holes = slices.DeleteFunc(v.holes, func(h vaHole) bool { return h.chunk == c })
}

// freeHeap returns r to the heap, merging neighbours.
func (v *driverVA) freeHeap(r vaRange) {
	i := sort.Search(len(v.heap), func(i int) bool { return v.heap[i].start >= r.start })
	if i > 0 && v.heap[i-1].end == r.start {
		i--
		r.start = v.heap[i].start
		v.heap = append(v.heap[:i], v.heap[i+1:]...)
	}
	if i < len(v.heap) && v.heap[i].start == r.end {
		r.end = v.heap[i].end
		v.heap = append(v.heap[:i], v.heap[i+1:]...)
	}
	v.heap = append(v.heap, vaRange{})
	copy(v.heap[i+1:], v.heap[i:])
	v.heap[i] = r
}
