package alloc

import (
	"errors"
	"fmt"

	"github.com/gpumem/playground/sim/profile"
	"github.com/gpumem/playground/sim/trace"
)

// pool is one of the two block pools (PyTorch's BlockPool).
type pool struct {
	small     bool
	stat      int      // statLarge or statSmall
	free      freeSet  // free mapped blocks, ordered by (size, address)
	unmapped  []*Block // expandable segments: unmapped blocks, ordered by address
	callCount int64    // get_free_blocks_call_count (GC ages)
}

// insert puts b into the free set and stamps its GC age base.
func (p *pool) insert(b *Block) {
	b.gcBase = p.callCount
	p.free.insert(b)
}

// Allocator is PyTorch 2.11's CUDA caching allocator for one device and one
// stream (DeviceCachingAllocator). It is not safe for concurrent use.
type Allocator struct {
	prof profile.Profile
	cfg  Config
	dev  Device
	sink func(trace.Event)

	large, small pool
	stats        counters

	totalAllocated int64 // bytes obtained from the device (reserved)
	fractionSet    bool  // a memory-fraction limit is in force
	allowed        int64 // allowed_memory_maximum

	live     []*Block // allocated blocks, in no particular order (Block.slot is the index)
	spare    *Block   // merged-away Block objects kept for reuse (linked through next)
	numSpare int
	expSegs  []*expSegment

	hist *history
	err  error // first device error met while releasing memory
}

// New returns an allocator for profile p with settings cfg on device dev
// (nil: a new SimDevice for p). sink, if not nil, receives one event per
// thing the allocator does, with Seq and Line left 0 for the caller to stamp.
// A per_process_memory_fraction in cfg is applied as if set at start-up.
func New(p profile.Profile, cfg Config, dev Device, sink func(trace.Event)) *Allocator {
	if dev == nil {
		dev = NewSimDevice(p)
	}
	a := &Allocator{prof: p, cfg: cfg, dev: dev, sink: sink}
	a.large = pool{small: false, stat: statLarge}
	a.small = pool{small: true, stat: statSmall}
	if cfg.HasMemoryFraction {
		a.applyFraction(cfg.MemoryFraction)
	}
	return a
}

// Config returns the settings in force.
func (a *Allocator) Config() Config { return a.cfg }

// Profile returns the allocator's device profile.
func (a *Allocator) Profile() profile.Profile { return a.prof }

// Err returns the first error the device reported while the allocator was
// releasing memory (cudaFree, unmap), which PyTorch would raise from
// empty_cache() or the next allocation; nil normally.
func (a *Allocator) Err() error { return a.err }

// MemGetInfo is torch.cuda.mem_get_info(): the device's free and total bytes.
func (a *Allocator) MemGetInfo() (free, total int64) { return a.dev.MemGetInfo() }

// poolFor returns the pool of a rounded size.
func (a *Allocator) poolFor(size int64) *pool {
	if size <= kSmallSize {
		return &a.small
	}
	return &a.large
}

// gcEnabled reports whether garbage collection runs (spec §4.2).
func (a *Allocator) gcEnabled() bool {
	return a.fractionSet && a.cfg.GarbageCollectionThreshold > 0
}

// Malloc allocates size bytes for a tensor storage labelled label (spec §4).
// A size of 0 returns (nil, nil), as PyTorch never calls the allocator for
// it; a negative size is an error. Out of memory is reported as *OOMError;
// any other device error is returned wrapped.
func (a *Allocator) Malloc(size int64, label trace.Label) (*Block, error) {
	switch {
	case size < 0:
		return nil, fmt.Errorf("alloc: invalid allocation size %d", size)
	case size == 0:
		return nil, nil
	case size >= oneExaBytes:
		e := &OOMError{Format: a.prof.OOMFormat, OneEB: true}
		if a.sink != nil {
			a.emit(trace.Event{Kind: trace.OOM, Size: size, Requested: size, Text: e.Error()})
		}
		return nil, e
	}
	orig := size
	size = roundSize(orig, &a.cfg.RoundupPower2Divisions)
	p := a.poolFor(size)
	if b := a.getFreeBlock(p, size); b != nil {
		return a.allocFoundBlock(b, p, size, orig, a.shouldSplit(b, p, size), label), nil
	}
	return a.mallocSlow(p, size, orig, label)
}

// mallocSlow is the rest of Malloc when no cached block fits: garbage
// collection, a new segment, releasing cached memory and retrying, OOM.
func (a *Allocator) mallocSlow(p *pool, size, orig int64, label trace.Label) (*Block, error) {
	allocSize := allocationSize(size, a.cfg.LargeSegmentSize)
	if a.gcEnabled() {
		a.garbageCollect()
	}
	b, err := a.allocBlock(p, size, allocSize, false)
	if err != nil {
		return nil, err
	}
	if b == nil && a.releaseAvailableCachedBlocks(p, size) {
		if b, err = a.allocBlock(p, size, allocSize, false); err != nil {
			return nil, err
		}
	}
	if b == nil {
		a.releaseCachedBlocks()
		if b, err = a.allocBlock(p, size, allocSize, true); err != nil {
			return nil, err
		}
	}
	if b == nil {
		return nil, a.raiseOOM(p, orig, size, allocSize)
	}
	return a.allocFoundBlock(b, p, size, orig, a.shouldSplit(b, p, size), label), nil
}

// getFreeBlock is get_free_block (spec §4.1): the best-fitting cached block,
// removed from the free set, or nil.
func (a *Allocator) getFreeBlock(p *pool, size int64) *Block {
	if a.gcEnabled() {
		p.callCount++
	}
	b, cur := p.free.lowerBoundAt(size)
	if b == nil {
		return nil
	}
	moved := false
	if b.exp != nil {
		moved = true
		if a.cfg.ExpandableSegments {
			// A block before the unmapped tail counts with the tail it can grow into.
			for b.exp != nil {
				n := p.free.successor(b)
				if n == nil || expandableSize(n) >= expandableSize(b) {
					break
				}
				b = n
			}
		} else {
			for b != nil && b.exp != nil {
				b = p.free.successor(b)
			}
			if b == nil {
				return nil
			}
		}
	}
	if size < a.cfg.MaxSplitSize && b.size >= a.cfg.MaxSplitSize {
		return nil
	}
	if size >= a.cfg.MaxSplitSize && b.size-size >= a.cfg.MaxNonSplitRounding {
		return nil
	}
	if moved {
		p.free.remove(b)
	} else {
		p.free.removeAt(cur)
	}
	return b
}

// expandableSize is the size a free expandable block can reach by mapping
// the unmapped block after it.
func expandableSize(b *Block) int64 {
	if b.next != nil && !b.next.mapped {
		return b.size + b.next.size
	}
	return b.size
}

// allocBlock is alloc_block (spec §4.3): a new segment (or newly mapped
// pages) for the request, or nil when the device or the memory fraction
// refuses it.
func (a *Allocator) allocBlock(p *pool, size, allocSize int64, isRetry bool) (*Block, error) {
	if isRetry {
		a.stats.NumAllocRetries++
	}
	if a.fractionSet && a.totalAllocated+allocSize > a.allowed {
		return nil, nil
	}
	if a.cfg.ExpandableSegments {
		return a.tryAllocateExpandable(p, size)
	}
	addr, err := a.dev.Malloc(allocSize)
	if err != nil {
		if errors.Is(err, ErrDeviceOOM) {
			return nil, nil
		}
		return nil, fmt.Errorf("alloc: cudaMalloc of %d bytes: %w", allocSize, err)
	}
	a.totalAllocated += allocSize
	b := &Block{addr: addr, size: allocSize, segment: addr, pool: p, mapped: true}
	a.stats.Segment.increase(p.stat, 1)
	a.stats.ReservedBytes.increase(p.stat, allocSize)
	if allocSize >= a.cfg.MaxSplitSize {
		a.stats.OversizeSegments.increase(1)
	}
	a.stats.NumDeviceAlloc++
	a.record("segment_alloc", addr, allocSize)
	if a.sink != nil {
		a.emit(trace.Event{Kind: trace.SegmentAlloc, Addr: addr, Size: allocSize, Segment: addr, Pool: poolName(p)})
	}
	return b, nil
}

// shouldSplit is should_split (spec §4.5).
func (a *Allocator) shouldSplit(b *Block, p *pool, size int64) bool {
	remaining := b.size - size
	if p.small || a.cfg.ExpandableSegments {
		return remaining >= kMinBlockSize
	}
	return size < a.cfg.MaxSplitSize && remaining > kSmallSize
}

// allocFoundBlock is alloc_found_block (spec §4.6): split off the front of b
// if asked and hand it out.
func (a *Allocator) allocFoundBlock(b *Block, p *pool, size, orig int64, split bool, label trace.Label) *Block {
	alreadySplit := b.isSplit()
	if split {
		rem := b
		b = a.newBlock()
		// Set the fields that the rest of this function does not (cheaper
		// than writing the whole object): a reused object's allocated,
		// requested, label and slot are set below, and its gcBase is read
		// only after pool.insert has set it again.
		b.addr, b.size, b.segment, b.pool, b.exp = rem.addr, size, rem.segment, p, rem.exp
		b.mapped, b.dead = true, false
		b.prev = rem.prev
		if b.prev != nil {
			b.prev.next = b
		}
		b.next = rem
		rem.prev = b
		rem.addr += uint64(size)
		rem.size -= size
		p.insert(rem)
		if b.exp == nil {
			if alreadySplit {
				a.stats.InactiveSplitBytes.decrease(p.stat, b.size)
			} else {
				a.stats.InactiveSplitBytes.increase(p.stat, rem.size)
				a.stats.InactiveSplit.increase(p.stat, 1)
			}
		}
	} else if alreadySplit && b.exp == nil {
		a.stats.InactiveSplitBytes.decrease(p.stat, b.size)
		a.stats.InactiveSplit.decrease(p.stat, 1)
	}
	b.allocated = true
	b.requested = orig
	b.label = label
	a.pushAllocated(b)
	a.record("alloc", b.addr, orig)
	a.stats.Allocation.increase(p.stat, 1) // also active (see counters)
	a.stats.AllocatedBytes.increase(p.stat, b.size)
	a.stats.RequestedBytes.increase(p.stat, orig)
	if b.size >= a.cfg.MaxSplitSize {
		a.stats.OversizeAllocations.increase(1)
	}
	if a.sink != nil {
		l := b.label
		a.emit(trace.Event{Kind: trace.Alloc, Addr: b.addr, Size: b.size, Requested: orig, Segment: b.segment, Pool: poolName(p), Label: &l})
	}
	return b
}

// Free returns a block from Malloc (spec §5). Freeing nil, a block of
// another allocator or a block that is not allocated is an error and
// changes nothing.
func (a *Allocator) Free(b *Block) error {
	switch {
	case b == nil:
		return errors.New("alloc: free of a nil block")
	case !a.owns(b):
		return fmt.Errorf("alloc: free of a block at %#x that this allocator did not hand out", b.addr)
	case !b.allocated:
		return fmt.Errorf("alloc: double free of the block at %#x", b.addr)
	}
	p := b.pool
	b.allocated = false
	a.popAllocated(b)
	a.stats.Allocation.decrease(p.stat, 1)
	a.stats.AllocatedBytes.decrease(p.stat, b.size)
	a.record("free_requested", b.addr, b.requested)
	if b.size >= a.cfg.MaxSplitSize {
		a.stats.OversizeAllocations.decrease(1)
	}
	if a.sink == nil {
		a.freeBlock(b)
		return nil
	}
	l := b.label
	ev := trace.Event{Kind: trace.Free, Addr: b.addr, Size: b.size, Requested: b.requested, Segment: b.segment, Pool: poolName(p), Label: &l}
	a.freeBlock(b)
	a.emit(ev)
	return nil
}

// freeBlock is free_block (spec §5.2): merge with free neighbours and cache.
func (a *Allocator) freeBlock(b *Block) {
	a.record("free_completed", b.addr, b.requested)
	p := b.pool
	req := b.requested
	var netCount, netBytes int64
	// Test both neighbours before merging either, so that their (likely
	// uncached) loads overlap; merging one does not change the other.
	prev, next := b.prev, b.next
	mergePrev, mergeNext := mergeable(b, prev), mergeable(b, next)
	if mergePrev {
		netCount--
		netBytes -= a.merge(b, prev)
	}
	if mergeNext {
		netCount--
		netBytes -= a.merge(b, next)
	}
	p.insert(b)
	if b.isSplit() {
		netCount++
		netBytes += b.size
	}
	if b.exp == nil {
		applyNet(&a.stats.InactiveSplit, p.stat, netCount)
		applyNet(&a.stats.InactiveSplitBytes, p.stat, netBytes)
	}
	a.stats.RequestedBytes.decrease(p.stat, req)
}

// applyNet applies a signed change as an increase or a decrease.
func applyNet(s *poolStat, p int, n int64) {
	if n > 0 {
		s.increase(p, n)
	} else if n < 0 {
		s.decrease(p, -n)
	}
}

// mergeable is try_merge_blocks's test: src, a neighbour of dst, is free
// and in the same mapped state.
func mergeable(dst, src *Block) bool {
	return src != nil && !src.allocated && dst.mapped == src.mapped
}

// tryMerge is try_merge_blocks: absorb src (a neighbour of dst) into dst if
// it is free and in the same mapped state; returns the bytes absorbed. dst
// must not be in a free set.
func (a *Allocator) tryMerge(dst, src *Block) int64 {
	if !mergeable(dst, src) {
		return 0
	}
	return a.merge(dst, src)
}

// merge absorbs src, a mergeable neighbour of dst, into dst and returns the
// bytes absorbed.
func (a *Allocator) merge(dst, src *Block) int64 {
	if dst.prev == src {
		dst.addr = src.addr
		dst.prev = src.prev
		if dst.prev != nil {
			dst.prev.next = dst
		}
	} else {
		dst.next = src.next
		if dst.next != nil {
			dst.next.prev = dst
		}
	}
	dst.size += src.size
	if src.mapped {
		src.pool.free.remove(src)
	} else {
		src.pool.removeUnmapped(src)
	}
	src.dead = true
	src.prev, src.next = nil, nil
	size := src.size
	a.keepBlock(src)
	return size
}

// maxSpareBlocks bounds the Block objects kept for reuse.
const maxSpareBlocks = 1 << 12

// keepBlock keeps a Block object that was merged into a neighbour for
// reuse by newBlock, as PyTorch reuses whole free blocks; it stays marked
// dead until then. Blocks are only reused by allocFoundBlock, so the dead
// mark holds for the whole of any release pass.
func (a *Allocator) keepBlock(b *Block) {
	if a.numSpare >= maxSpareBlocks {
		return
	}
	b.next = a.spare
	a.spare = b
	a.numSpare++
}

// newBlock returns a Block object to fill in: a kept one, or a new one.
func (a *Allocator) newBlock() *Block {
	b := a.spare
	if b == nil {
		return new(Block)
	}
	a.spare = b.next
	a.numSpare--
	return b
}

// Relabel gives a live block a new label (e.g. the variable it was bound to)
// and emits trace.Relabel. Blocks that are not live blocks of this allocator
// are ignored.
func (a *Allocator) Relabel(b *Block, label trace.Label) {
	if b == nil || !a.owns(b) || !b.allocated {
		return
	}
	b.label = label
	if a.sink != nil {
		l := label
		a.emit(trace.Event{Kind: trace.Relabel, Addr: b.addr, Size: b.size, Requested: b.requested, Segment: b.segment, Pool: poolName(b.pool), Label: &l})
	}
}

// pushAllocated adds b to the allocated blocks.
func (a *Allocator) pushAllocated(b *Block) {
	b.slot = int32(len(a.live))
	a.live = append(a.live, b)
}

// popAllocated removes b from the allocated blocks: the last one takes its
// slot (usually the block allocated last, still in cache).
func (a *Allocator) popAllocated(b *Block) {
	n := len(a.live) - 1
	last := a.live[n]
	a.live[b.slot] = last
	last.slot = b.slot
	a.live[n] = nil
	a.live = a.live[:n]
}

// poolName names a pool for events.
func poolName(p *pool) trace.Pool {
	if p.small {
		return trace.Small
	}
	return trace.Large
}

// emit sends ev with the figures after it to the sink.
func (a *Allocator) emit(ev trace.Event) {
	ev.Stats = a.Stats()
	a.sink(ev)
}
