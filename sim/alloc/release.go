package alloc

import (
	"fmt"

	"github.com/gpumem/playground/sim/trace"
)

// EmptyCache is torch.cuda.empty_cache(): release every cached whole
// segment (spec §6).
func (a *Allocator) EmptyCache() { a.releaseCachedBlocks() }

// releaseCachedBlocks is release_cached_blocks (spec §4.4): count a
// synchronisation, then release whole free segments (unmap free pages of
// expandable segments), large pool first.
func (a *Allocator) releaseCachedBlocks() {
	a.stats.NumSyncAllStreams++
	a.releaseBlocks(&a.large)
	a.releaseBlocks(&a.small)
}

// releaseBlocks releases the whole free segments of p and unmaps the free
// pages of its expandable segments.
func (a *Allocator) releaseBlocks(p *pool) {
	var toUnmap []*Block
	for _, b := range p.free.appendAll(nil) {
		if b.exp != nil {
			toUnmap = append(toUnmap, b)
		} else if !b.isSplit() {
			a.releaseBlock(b)
		}
	}
	for _, b := range toUnmap {
		if b.dead {
			continue
		}
		a.unmapBlock(b)
		if !b.isSplit() && !b.mapped {
			a.releaseExpandableSegment(b)
		}
	}
}

// releaseBlock is release_block (spec §6.3): cudaFree a whole free segment.
func (a *Allocator) releaseBlock(b *Block) {
	p := b.pool
	a.stats.NumDeviceFree++
	a.record("segment_free", b.addr, b.size)
	if err := a.dev.Free(b.addr, b.size); err != nil && a.err == nil {
		a.err = fmt.Errorf("alloc: cudaFree of %#x: %w", b.addr, err)
	}
	a.totalAllocated -= b.size
	a.stats.Segment.decrease(p.stat, 1)
	a.stats.ReservedBytes.decrease(p.stat, b.size)
	if b.size >= a.cfg.MaxSplitSize {
		a.stats.OversizeSegments.decrease(1)
	}
	p.free.remove(b)
	b.dead = true
	if a.sink != nil {
		a.emit(trace.Event{Kind: trace.SegmentFree, Addr: b.addr, Size: b.size, Segment: b.addr, Pool: poolName(p)})
	}
}

// releaseAvailableCachedBlocks is release_available_cached_blocks (spec
// §4.4): with max_split_size set, free one cached oversize segment big
// enough for the request, or else oversize segments from the largest down
// until enough is freed. Expandable blocks are skipped (2.11).
func (a *Allocator) releaseAvailableCachedBlocks(p *pool, size int64) bool {
	if a.cfg.MaxSplitSize == unlimited {
		return false
	}
	key := max(size, a.cfg.MaxSplitSize)
	b := p.free.lowerBound(key)
	if b != nil && b.exp == nil {
		if b.isSplit() {
			// Cannot happen with settings fixed at start-up (oversize blocks
			// are never split); PyTorch would cudaFree part of a segment.
			return false
		}
		a.releaseBlock(b)
		return true
	}
	var cur *Block
	if b == nil {
		cur = p.free.max()
	} else {
		cur = p.free.predecessor(b)
	}
	var released int64
	for cur != nil && released < key && cur.size >= a.cfg.MaxSplitSize {
		prev := p.free.predecessor(cur)
		if cur.exp == nil && !cur.isSplit() {
			released += cur.size
			a.releaseBlock(cur)
		}
		cur = prev
	}
	return released >= key
}

// garbageCollect is garbage_collect_cached_blocks (spec §4.2): release whole
// cached large segments, oldest first by average age, until reserved memory
// is back under the threshold.
func (a *Allocator) garbageCollect() {
	limit := int64(a.cfg.GarbageCollectionThreshold * float64(a.allowed))
	if a.totalAllocated <= limit {
		return
	}
	target := a.totalAllocated - limit
	p := &a.large
	candidate := func(b *Block) bool { return !b.isSplit() && b.exp == nil }
	var totalAge, count int64
	blocks := p.free.appendAll(nil)
	for _, b := range blocks {
		if candidate(b) {
			totalAge += p.callCount - b.gcBase
			count++
		}
	}
	if count == 0 {
		return
	}
	var reclaimed int64
	freed := true
	for reclaimed < target && freed && count > 0 {
		threshold := float64(totalAge) / float64(count)
		freed = false
		for _, b := range p.free.appendAll(blocks[:0]) {
			if !candidate(b) {
				continue
			}
			if age := p.callCount - b.gcBase; float64(age) >= threshold {
				freed = true
				reclaimed += b.size
				totalAge -= age
				count--
				a.releaseBlock(b)
			}
		}
	}
}
