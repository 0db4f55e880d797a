package alloc

import (
	"errors"
	"fmt"
	"sort"

	"github.com/gpumem/playground/sim/trace"
)

// expSegment is one expandable segment: a reserved address range of whole
// pages, mapped on demand (spec §7).
type expSegment struct {
	base uint64
	size int64 // reserved bytes (a multiple of page)
	page int64 // 2 MiB (small pool) or large_segment_size
}

// insertUnmapped adds an unmapped block to the pool's address-ordered list.
func (p *pool) insertUnmapped(b *Block) {
	i := sort.Search(len(p.unmapped), func(i int) bool { return p.unmapped[i].addr >= b.addr })
	p.unmapped = append(p.unmapped, nil)
	copy(p.unmapped[i+1:], p.unmapped[i:])
	p.unmapped[i] = b
}

// removeUnmapped deletes an unmapped block from the list.
func (p *pool) removeUnmapped(b *Block) {
	for i, u := range p.unmapped {
		if u == b {
			p.unmapped = append(p.unmapped[:i], p.unmapped[i+1:]...)
			return
		}
	}
}

// allocatable reports whether b can be used to grow an allocation.
func allocatable(b *Block) bool { return b != nil && !b.allocated }

// findExpandableBlock is find_expandable_block: the lowest-address place in
// p's expandable segments where free and unmapped space add up to size, or a
// new segment's unmapped block.
func (a *Allocator) findExpandableBlock(p *pool, size int64) (*Block, error) {
	for _, u := range p.unmapped {
		c := u
		if allocatable(c.prev) {
			c = c.prev
		}
		var bytes int64
		for b := c; bytes < size && allocatable(b); b = b.next {
			bytes += b.size
		}
		if bytes >= size {
			return c, nil
		}
	}
	page := a.cfg.LargeSegmentSize
	if p.small {
		page = kSmallBuffer
	}
	total := a.prof.TotalMemory
	vaSize := (total + total/8 + page - 1) / page * page
	addr, err := a.dev.Reserve(vaSize)
	if err != nil {
		return nil, fmt.Errorf("alloc: reserving %d bytes of address space: %w", vaSize, err)
	}
	es := &expSegment{base: addr, size: vaSize, page: page}
	a.expSegs = append(a.expSegs, es)
	b := &Block{addr: addr, size: vaSize, segment: addr, pool: p, exp: es}
	p.insertUnmapped(b)
	return b, nil
}

// mapBlock is map_block: map the whole pages covering the first size bytes
// of the unmapped block b, merge the result with free neighbours and cache
// it. It returns false when the device has no memory for the pages.
func (a *Allocator) mapBlock(b *Block, size int64) (bool, error) {
	es, p := b.exp, b.pool
	off := int64(b.addr - es.base)
	begin := off / es.page
	end := (off + size + es.page - 1) / es.page
	start, length := es.base+uint64(begin*es.page), (end-begin)*es.page
	if err := a.dev.Map(start, length); err != nil {
		if errors.Is(err, ErrDeviceOOM) {
			return false, nil
		}
		return false, fmt.Errorf("alloc: mapping %d bytes at %#x: %w", length, start, err)
	}
	p.removeUnmapped(b)
	b.mapped = true
	if length < b.size {
		rem := &Block{addr: b.addr + uint64(length), size: b.size - length, segment: b.segment, pool: p, exp: es}
		rem.prev, rem.next = b, b.next
		if b.next != nil {
			b.next.prev = rem
		}
		b.next = rem
		p.insertUnmapped(rem)
		b.size = length
	}
	a.tryMerge(b, b.prev)
	a.tryMerge(b, b.next)
	p.insert(b)
	a.totalAllocated += length
	a.stats.ReservedBytes.increase(p.stat, length)
	a.stats.NumDeviceAlloc++
	a.record("segment_map", start, length)
	if a.sink != nil {
		a.emit(trace.Event{Kind: trace.SegmentMap, Addr: start, Size: length, Segment: es.base, Pool: poolName(p)})
	}
	return true, nil
}

// tryAllocateExpandable is try_allocate_expandable_block: grow an
// expandable segment of p until a free block of size bytes exists, and
// return that block (out of the free set), or nil when out of memory.
func (a *Allocator) tryAllocateExpandable(p *pool, size int64) (*Block, error) {
	c, err := a.findExpandableBlock(p, size)
	if err != nil {
		return nil, err
	}
	if !c.mapped {
		ok, err := a.mapBlock(c, min(c.size, size))
		if !ok || err != nil {
			return nil, err
		}
	}
	for c.size < size {
		next := c.next
		ok, err := a.mapBlock(next, min(size-c.size, next.size))
		if !ok || err != nil {
			return nil, err
		}
		c = next
	}
	p.free.remove(c)
	return c, nil
}

// unmapBlock is unmap_block: unmap the whole pages inside the free block b,
// leaving mapped remnants before and after them as free blocks.
func (a *Allocator) unmapBlock(b *Block) {
	es, p := b.exp, b.pool
	off := int64(b.addr - es.base)
	begin := (off + es.page - 1) / es.page
	end := (off + b.size) / es.page
	if begin >= end {
		return
	}
	start, length := es.base+uint64(begin*es.page), (end-begin)*es.page
	if err := a.dev.Unmap(start, length); err != nil && a.err == nil {
		a.err = fmt.Errorf("alloc: unmapping %d bytes at %#x: %w", length, start, err)
	}
	p.free.remove(b)
	if before := int64(start - b.addr); before > 0 {
		f := &Block{addr: b.addr, size: before, segment: b.segment, pool: p, exp: es, mapped: true}
		f.prev, f.next = b.prev, b
		if b.prev != nil {
			b.prev.next = f
		}
		b.prev = f
		p.insert(f)
	}
	if after := b.size - int64(start-b.addr) - length; after > 0 {
		f := &Block{addr: start + uint64(length), size: after, segment: b.segment, pool: p, exp: es, mapped: true}
		f.prev, f.next = b, b.next
		if b.next != nil {
			b.next.prev = f
		}
		b.next = f
		p.insert(f)
	}
	b.addr, b.size, b.mapped = start, length, false
	a.tryMerge(b, b.prev)
	a.tryMerge(b, b.next)
	p.insertUnmapped(b)
	a.totalAllocated -= length
	a.stats.ReservedBytes.decrease(p.stat, length)
	a.stats.NumDeviceFree++
	a.record("segment_unmap", start, length)
	if a.sink != nil {
		a.emit(trace.Event{Kind: trace.SegmentUnmap, Addr: start, Size: length, Segment: es.base, Pool: poolName(p)})
	}
}

// releaseExpandableSegment gives back the address range of an expandable
// segment that is entirely unmapped (b is its only block).
func (a *Allocator) releaseExpandableSegment(b *Block) {
	es := b.exp
	b.pool.removeUnmapped(b)
	b.dead = true
	if err := a.dev.ReleaseRange(es.base, es.size); err != nil && a.err == nil {
		a.err = fmt.Errorf("alloc: releasing address range %#x: %w", es.base, err)
	}
	for i, s := range a.expSegs {
		if s == es {
			a.expSegs = append(a.expSegs[:i], a.expSegs[i+1:]...)
			break
		}
	}
}
