package alloc

import (
	"fmt"
)

// checkInvariants recounts everything from the allocator's state and
// compares it with the counters; it returns the first discrepancy.
func checkInvariants(a *Allocator, resetPeaks bool) error {
	s := a.DeviceStats()
	if s.AllocatedBytes[statAll].Current > s.ReservedBytes[statAll].Current {
		return fmt.Errorf("allocated %d > reserved %d", s.AllocatedBytes[statAll].Current, s.ReservedBytes[statAll].Current)
	}
	// Free sets: ordered, consistent, only free mapped blocks.
	seen := map[*Block]bool{}
	for _, p := range []*pool{&a.large, &a.small} {
		list := p.free.appendAll(nil)
		if len(list) != p.free.n {
			return fmt.Errorf("free set count %d, tree holds %d", p.free.n, len(list))
		}
		for i, b := range list {
			if i > 0 && !less(list[i-1], b) {
				return fmt.Errorf("free set out of order at %#x", b.addr)
			}
			if b.allocated || !b.mapped || b.dead || b.pool != p {
				return fmt.Errorf("bad block in free set: %+v", b)
			}
			seen[b] = true
		}
		for i, b := range p.unmapped {
			if b.mapped || b.allocated || b.dead || b.pool != p || b.exp == nil || (i > 0 && p.unmapped[i-1].addr >= b.addr) {
				return fmt.Errorf("bad unmapped block %+v", b)
			}
			seen[b] = true
		}
	}
	nAlloc := 0
	for i, b := range a.live {
		if int(b.slot) != i {
			return fmt.Errorf("allocated block %#x in slot %d, records %d", b.addr, i, b.slot)
		}
		if !b.allocated || b.dead || !b.mapped {
			return fmt.Errorf("bad block in allocated list: %+v", b)
		}
		seen[b] = true
		nAlloc++
	}
	// Walk every segment from its head.
	var cnt struct {
		alloc, allocBytes, req, segs, reserved, inact, inactBytes [numStatTypes]int64
		ovAlloc, ovSeg                                            int64
	}
	dev, _ := a.dev.(*SimDevice)
	walked := 0
	for b := range seen {
		if b.prev != nil {
			continue
		}
		p := b.pool.stat
		var total int64
		addr := b.addr
		split := b.next != nil
		for c := b; c != nil; c = c.next {
			walked++
			if !seen[c] {
				return fmt.Errorf("block %#x in a segment but in no set or list", c.addr)
			}
			if c.addr != addr {
				return fmt.Errorf("segment %#x: block at %#x, expected %#x", b.addr, c.addr, addr)
			}
			if c.size <= 0 || (c.exp == nil && c.size%kMinBlockSize != 0) {
				return fmt.Errorf("block %#x has size %d", c.addr, c.size)
			}
			if c.next != nil && c.next.prev != c {
				return fmt.Errorf("broken links at %#x", c.addr)
			}
			if n := c.next; n != nil && !c.allocated && !n.allocated && c.mapped == n.mapped {
				return fmt.Errorf("unmerged free neighbours at %#x and %#x", c.addr, n.addr)
			}
			if (c.exp != nil) != (b.exp != nil) || c.pool != b.pool || c.segment != b.segment {
				return fmt.Errorf("mixed segment at %#x", c.addr)
			}
			addr += uint64(c.size)
			total += c.size
			if c.allocated {
				cnt.alloc[p]++
				cnt.allocBytes[p] += c.size
				cnt.req[p] += c.requested
				if c.size >= a.cfg.MaxSplitSize {
					cnt.ovAlloc++
				}
			} else if c.exp == nil && split {
				cnt.inact[p]++
				cnt.inactBytes[p] += c.size
			}
			if c.exp != nil && c.mapped {
				cnt.reserved[p] += c.size
				if (c.addr-c.exp.base)%uint64(c.exp.page) != 0 && (c.prev == nil || !c.prev.mapped) {
					return fmt.Errorf("mapped range starts off a page at %#x", c.addr)
				}
			}
		}
		if b.exp != nil {
			if b.addr != b.exp.base || total != b.exp.size {
				return fmt.Errorf("expandable segment %#x covers %d of %d bytes", b.addr, total, b.exp.size)
			}
			continue
		}
		cnt.segs[p]++
		cnt.reserved[p] += total
		if total >= a.cfg.MaxSplitSize {
			cnt.ovSeg++
		}
		if dev != nil && dev.allocs[b.addr] != total {
			return fmt.Errorf("segment %#x: blocks sum to %d, device holds %d", b.addr, total, dev.allocs[b.addr])
		}
	}
	if walked != len(seen) {
		return fmt.Errorf("%d blocks known, %d reachable from segment heads", len(seen), walked)
	}
	for _, p := range []int{statLarge, statSmall} {
		cnt.alloc[statAll] += cnt.alloc[p]
		cnt.allocBytes[statAll] += cnt.allocBytes[p]
		cnt.req[statAll] += cnt.req[p]
		cnt.segs[statAll] += cnt.segs[p]
		cnt.reserved[statAll] += cnt.reserved[p]
		cnt.inact[statAll] += cnt.inact[p]
		cnt.inactBytes[statAll] += cnt.inactBytes[p]
	}
	checks := []struct {
		name string
		st   *StatArray
		want [numStatTypes]int64
	}{
		{"allocation", &s.Allocation, cnt.alloc}, {"active", &s.Active, cnt.alloc},
		{"allocated_bytes", &s.AllocatedBytes, cnt.allocBytes}, {"active_bytes", &s.ActiveBytes, cnt.allocBytes},
		{"requested_bytes", &s.RequestedBytes, cnt.req}, {"segment", &s.Segment, cnt.segs},
		{"reserved_bytes", &s.ReservedBytes, cnt.reserved}, {"inactive_split", &s.InactiveSplit, cnt.inact},
		{"inactive_split_bytes", &s.InactiveSplitBytes, cnt.inactBytes},
	}
	for _, c := range checks {
		for i := 0; i < numStatTypes; i++ {
			st := c.st[i]
			if st.Current != c.want[i] {
				return fmt.Errorf("%s[%d].current = %d, recount %d", c.name, i, st.Current, c.want[i])
			}
			if st.Peak < st.Current || (!resetPeaks && st.Allocated-st.Freed != st.Current) {
				return fmt.Errorf("%s[%d] = %+v inconsistent", c.name, i, st)
			}
		}
	}
	if s.OversizeAllocations.Current != cnt.ovAlloc || s.OversizeSegments.Current != cnt.ovSeg {
		return fmt.Errorf("oversize %d/%d, recount %d/%d", s.OversizeAllocations.Current, s.OversizeSegments.Current, cnt.ovAlloc, cnt.ovSeg)
	}
	if a.totalAllocated != s.ReservedBytes[statAll].Current {
		return fmt.Errorf("total_allocated_memory %d != reserved %d", a.totalAllocated, s.ReservedBytes[statAll].Current)
	}
	if dev != nil && dev.Used() != a.totalAllocated {
		return fmt.Errorf("device holds %d bytes, allocator %d", dev.Used(), a.totalAllocated)
	}
	if nAlloc != int(s.Allocation[statAll].Current) {
		return fmt.Errorf("allocated list has %d blocks", nAlloc)
	}
	return a.Err()
}
