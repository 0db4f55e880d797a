package alloc

import "math/bits"

// freeSet is an ordered set of free blocks keyed by (size, address): the
// order of PyTorch 2.11's BlockComparatorSize for one stream. Every query
// answers exactly as std::set would (lower_bound, successor, predecessor).
//
// It is a segregated index: blocks are filed by size class (classOf, a
// monotone function of the size, 64 classes per power of two), each class
// keeps its blocks in (size, address) order in a short list of sorted
// chunks, and a two-level bitmap marks the non-empty classes. The set order
// is the concatenation of the classes in class order, so the first block of
// size ≥ n is the first such block of n's class or else the first block of
// the next non-empty class, found with two bit scans. A class usually holds
// a few blocks in one chunk; many blocks of one size spread over several
// chunks, so an update never moves more than one chunk. A chunk's entries
// sit anywhere in a fixed buffer, so an update shifts the shorter side and
// removing the first entry (what best fit usually takes) moves nothing.
// Keys are copied into the entries, so searching does not touch the blocks
// themselves; emptied chunk buffers are kept for reuse. The classes of one
// bitmap word (a power of two of sizes) form a group, allocated when a
// block of that group first arrives: a pool uses a few of the 59 groups,
// and a new allocator does not clear 150 KB per pool.
type freeSet struct {
	n       int
	summary uint64                  // bit w: words[w] != 0
	words   [classWords]uint64      // bit c%64 of words[c/64]: class c is not empty
	groups  [classWords]*classGroup // classes 64w…64w+63; nil until used
	spare   []*chunkBuf             // empty chunk buffers for reuse
}

// classGroup holds the classes of one bitmap word.
type classGroup [64]classSet

// class returns class c, whose group must exist: c is non-empty, or it is
// the class of a block in the set.
func (s *freeSet) class(c int) *classSet { return &s.groups[c>>6][c&63] }

// classIfAny returns class c, or nil if its group was never used (then
// the class is empty).
func (s *freeSet) classIfAny(c int) *classSet {
	g := s.groups[c>>6]
	if g == nil {
		return nil
	}
	return &g[c&63]
}

// classSet holds the blocks of one size class in sorted chunks, none empty.
// While a class has at most one chunk, chunks lives in one, next to the
// slice header, so the chunk is read without waiting for the slice's
// pointer (see at); a freeSet must therefore not be copied once used.
type classSet struct {
	chunks []chunk
	one    [1]chunk
}

// chunkBuf is the storage of one chunk.
type chunkBuf [chunkCap]fentry

// chunk is a sorted run of entries e[lo:hi] of its buffer.
type chunk struct {
	e      *chunkBuf
	lo, hi int32
}

// at returns chunk i of cl. A class of one chunk, the common case, has it
// in cl.one: reading it there does not wait for the load of cl.chunks.
func (cl *classSet) at(i int) *chunk {
	if len(cl.chunks) == 1 {
		return &cl.one[0]
	}
	return &cl.chunks[i]
}

// shrink drops the last chunk of cl, which must be empty or moved away,
// and moves a lone remaining chunk back into cl.one.
func (cl *classSet) shrink() {
	cs := cl.chunks
	cs[len(cs)-1] = chunk{}
	cs = cs[:len(cs)-1]
	if len(cs) == 1 && &cs[0] != &cl.one[0] {
		cl.one[0] = cs[0]
		cs[0] = chunk{}
		cs = cl.one[:1]
	}
	cl.chunks = cs
}

// entries returns the chunk's entries.
func (c *chunk) entries() []fentry { return c.e[c.lo:c.hi] }

// lastKey returns the key of the chunk's last entry.
func (c *chunk) lastKey() fkey { return c.e[c.hi-1].k }

// fkey is the ordering key of a free block.
type fkey struct {
	size int64
	addr uint64
}

// fentry is one element of the set.
type fentry struct {
	k fkey
	b *Block
}

const (
	// classBits is log2 of the number of size classes per power of two.
	classBits = 6
	// numClasses covers every positive int64 size.
	numClasses = (65 - classBits) << classBits
	classWords = (numClasses + 63) / 64
	// chunkCap is the most entries a chunk holds before it is split.
	chunkCap = 64
	// maxSpareChunks bounds the chunk buffers kept for reuse.
	maxSpareChunks = 64
)

// classOf returns the size class of size: sizes below 1<<classBits have a
// class each, larger ones are split by their top classBits+1 bits. It is
// monotone: a ≤ b implies classOf(a) ≤ classOf(b). Sizes ≤ 0 map to 0.
func classOf(size int64) int {
	if size < 1<<classBits {
		return int(max(size, 0))
	}
	u := uint64(size)
	e := bits.Len64(u) - 1 // ≥ classBits
	return (e-classBits+1)<<classBits | int(u>>(e-classBits))&(1<<classBits-1)
}

func keyOf(b *Block) fkey { return fkey{b.size, b.addr} }

func keyLess(a, b fkey) bool {
	return a.size < b.size || (a.size == b.size && a.addr < b.addr)
}

// less orders blocks by size, then address.
func less(a, b *Block) bool { return keyLess(keyOf(a), keyOf(b)) }

// nonEmpty reports whether class c holds blocks.
func (s *freeSet) nonEmpty(c int) bool { return s.words[c>>6]&(1<<(c&63)) != 0 }

// mark records that class c became non-empty.
func (s *freeSet) mark(c int) {
	s.words[c>>6] |= 1 << (c & 63)
	s.summary |= 1 << (c >> 6)
}

// unmark records that class c became empty.
func (s *freeSet) unmark(c int) {
	w := c >> 6
	s.words[w] &^= 1 << (c & 63)
	if s.words[w] == 0 {
		s.summary &^= 1 << w
	}
}

// nextClass returns the first non-empty class ≥ c, or -1.
func (s *freeSet) nextClass(c int) int {
	w := c >> 6
	if w >= classWords {
		return -1
	}
	if m := s.words[w] >> (c & 63); m != 0 {
		return c + bits.TrailingZeros64(m)
	}
	sm := s.summary >> (w + 1)
	if sm == 0 {
		return -1
	}
	w += 1 + bits.TrailingZeros64(sm)
	return w<<6 | bits.TrailingZeros64(s.words[w])
}

// prevClass returns the last non-empty class ≤ c, or -1.
func (s *freeSet) prevClass(c int) int {
	if c < 0 {
		return -1
	}
	w := c >> 6
	if m := s.words[w] << (63 - c&63); m != 0 {
		return c - bits.LeadingZeros64(m)
	}
	sm := s.summary & (1<<w - 1)
	if sm == 0 {
		return -1
	}
	w = 63 - bits.LeadingZeros64(sm)
	return w<<6 | (63 - bits.LeadingZeros64(s.words[w]))
}

// first returns the first block of non-empty class c.
func (s *freeSet) first(c int) *Block {
	ch := s.class(c).at(0)
	return ch.e[ch.lo].b
}

// last returns the last block of non-empty class c.
func (s *freeSet) last(c int) *Block {
	cs := s.class(c).chunks
	ch := &cs[len(cs)-1]
	return ch.e[ch.hi-1].b
}

// lessBit is keyLess as 0 or 1, without branches: the borrow of the
// 128-bit subtraction (a.size, a.addr) − (b.size, b.addr). Sizes must be
// ≥ 0, which holds for blocks and for clamped search keys.
func lessBit(a, b fkey) int {
	_, borrow := bits.Sub64(a.addr, b.addr, 0)
	_, borrow = bits.Sub64(uint64(a.size), uint64(b.size), borrow)
	return int(borrow)
}

// chunkFor returns the chunk where an entry of key k is or would go: the
// first chunk whose last key is ≥ k, or the last chunk if none is.
func (cl *classSet) chunkFor(k fkey) int {
	cs := cl.chunks
	if len(cs) <= 1 {
		return 0
	}
	lo, hi := 0, len(cs)-1
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if keyLess(cs[m].lastKey(), k) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// chunkAfter returns the first chunk whose last key is > k.
func (cl *classSet) chunkAfter(k fkey) int {
	cs := cl.chunks
	lo, hi := 0, len(cs)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if !keyLess(k, cs[m].lastKey()) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// posFor returns the first position in c whose key is ≥ k. It halves the
// range without branches (the comparisons are unpredictable) until at most
// linearMax entries are left, then counts those below k: independent loads
// of adjacent entries instead of a chain of dependent ones.
func posFor(c []fentry, k fkey) int {
	n := len(c)
	base := 0
	for n > linearMax {
		half := n >> 1
		base += half & -lessBit(c[base+half].k, k)
		n -= half
	}
	for _, e := range c[base : base+n] {
		base += lessBit(e.k, k)
	}
	return base
}

// linearMax is the range below which posFor scans instead of halving.
const linearMax = 8

// posAfter returns the first position in c whose key is > k.
func posAfter(c []fentry, k fkey) int {
	lo, hi := 0, len(c)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if !keyLess(k, c[m].k) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// newChunk returns an empty chunk buffer.
func (s *freeSet) newChunk() *chunkBuf {
	if n := len(s.spare); n > 0 {
		c := s.spare[n-1]
		s.spare[n-1] = nil
		s.spare = s.spare[:n-1]
		return c
	}
	return new(chunkBuf)
}

// dropChunk keeps an emptied chunk buffer for reuse.
func (s *freeSet) dropChunk(c *chunkBuf) {
	if len(s.spare) < maxSpareChunks {
		s.spare = append(s.spare, c)
	}
}

// insert adds b, which must not be in the set.
func (s *freeSet) insert(b *Block) {
	k := keyOf(b)
	s.n++
	ci := classOf(k.size)
	g := s.groups[ci>>6]
	if g == nil {
		g = new(classGroup)
		s.groups[ci>>6] = g
	}
	cl := &g[ci&63]
	if len(cl.chunks) == 0 {
		if cap(cl.chunks) == 0 {
			cl.chunks = cl.one[:0]
		}
		e := s.newChunk()
		e[chunkCap/2] = fentry{k, b}
		cl.chunks = append(cl.chunks, chunk{e, chunkCap / 2, chunkCap/2 + 1})
		s.mark(ci)
		return
	}
	i := cl.chunkFor(k)
	ch := cl.at(i)
	if ch.hi-ch.lo == chunkCap {
		s.split(cl, i)
		if keyLess(cl.chunks[i].lastKey(), k) {
			i++
		}
		ch = &cl.chunks[i]
	}
	ch.insertAt(int(ch.lo)+posFor(ch.entries(), k), fentry{k, b})
}

// insertAt inserts x at buffer position pos (lo ≤ pos ≤ hi) of a chunk that
// is not full, shifting the shorter side; if that side has no room, it
// moves the whole run to the middle of the buffer instead.
func (c *chunk) insertAt(pos int, x fentry) {
	lo, hi := int(c.lo), int(c.hi)
	e := c.e
	if pos-lo < hi-pos {
		if lo > 0 {
			shiftDown(e, lo, pos)
			e[pos-1] = x
			c.lo--
			return
		}
	} else if hi < chunkCap {
		shiftUp(e, pos, hi)
		e[pos] = x
		c.hi++
		return
	}
	// Recentre: the left part moves by d, the right part by d+1; moving
	// first the part that goes away from the other keeps both intact.
	n := hi - lo + 1
	d := (chunkCap-n)/2 - lo
	if d < 0 {
		copy(e[lo+d:pos+d], e[lo:pos])
		copy(e[pos+d+1:hi+d+1], e[pos:hi])
		clear(e[hi+d+1 : hi])
	} else {
		copy(e[pos+d+1:hi+d+1], e[pos:hi])
		copy(e[lo+d:pos+d], e[lo:pos])
		clear(e[lo : lo+d])
	}
	e[pos+d] = x
	c.lo, c.hi = int32(lo+d), int32(hi+d+1)
}

// shiftDown moves e[from:to] one place down. Shifts are short (the shorter
// side of a chunk, usually a few entries), so a loop beats a call to the
// runtime's copy.
func shiftDown(e *chunkBuf, from, to int) {
	for j := from; j < to; j++ {
		e[j-1] = e[j]
	}
}

// shiftUp moves e[from:to] one place up.
func shiftUp(e *chunkBuf, from, to int) {
	for j := to; j > from; j-- {
		e[j] = e[j-1]
	}
}

// split moves the second half of full chunk i of cl into a new chunk after it.
func (s *freeSet) split(cl *classSet, i int) {
	ch := &cl.chunks[i]
	lo, hi := int(ch.lo), int(ch.hi)
	half := (hi - lo) / 2
	right := chunk{e: s.newChunk()}
	right.lo = int32((chunkCap - (hi - lo - half)) / 2)
	right.hi = right.lo + int32(hi-lo-half)
	copy(right.entries(), ch.e[lo+half:hi])
	clear(ch.e[lo+half : hi])
	ch.hi = int32(lo + half)
	ch.recentreFor(half)
	cl.chunks = append(cl.chunks, chunk{})
	copy(cl.chunks[i+2:], cl.chunks[i+1:])
	cl.chunks[i+1] = right
}

// remove deletes b from the set; it reports whether b was there.
func (s *freeSet) remove(b *Block) bool {
	k := keyOf(b)
	ci := classOf(k.size)
	cl := s.classIfAny(ci)
	if cl == nil || len(cl.chunks) == 0 {
		return false
	}
	i := cl.chunkFor(k)
	ch := cl.at(i)
	pos := int(ch.lo) + posFor(ch.entries(), k)
	if pos == int(ch.hi) || ch.e[pos].b != b {
		return false
	}
	s.removeAt(cursor{cl, ci, i, pos})
	return true
}

// removeAt deletes the entry at cur.
func (s *freeSet) removeAt(cur cursor) {
	cl, ci, i, pos := cur.cl, cur.ci, cur.i, cur.pos
	ch := cl.at(i)
	lo, hi := int(ch.lo), int(ch.hi)
	e := ch.e
	s.n--
	if pos-lo < hi-1-pos {
		shiftUp(e, lo, pos)
		e[lo] = fentry{}
		ch.lo++
	} else {
		shiftDown(e, pos+1, hi)
		e[hi-1] = fentry{}
		ch.hi--
	}
	if ch.lo == ch.hi {
		s.dropChunk(e)
		copy(cl.chunks[i:], cl.chunks[i+1:])
		cl.shrink()
		if len(cl.chunks) == 0 {
			s.unmark(ci)
		}
		return
	}
	// Merge with the next chunk when both are small, so chunks stay dense.
	if i+1 < len(cl.chunks) {
		next := &cl.chunks[i+1]
		n, m := int(ch.hi-ch.lo), int(next.hi-next.lo)
		if n+m <= chunkCap/2 {
			ch.recentreFor(n + m)
			copy(ch.e[ch.hi:int(ch.hi)+m], next.entries())
			ch.hi += int32(m)
			clear(next.entries())
			s.dropChunk(next.e)
			copy(cl.chunks[i+1:], cl.chunks[i+2:])
			cl.shrink()
		}
	}
}

// recentreFor moves the chunk's entries to where a run of n entries that
// starts with them sits in the middle of the buffer.
func (c *chunk) recentreFor(n int) {
	lo, hi := int(c.lo), int(c.hi)
	nlo := (chunkCap - n) / 2
	if nlo == lo {
		return
	}
	copy(c.e[nlo:nlo+hi-lo], c.e[lo:hi])
	if nlo < lo {
		clear(c.e[max(nlo+hi-lo, lo):hi])
	} else {
		clear(c.e[lo:min(nlo, hi)])
	}
	c.lo, c.hi = int32(nlo), int32(nlo+hi-lo)
}

// lowerBound returns the first block with size ≥ size (lowest address among
// equal sizes), or nil.
func (s *freeSet) lowerBound(size int64) *Block {
	b, _ := s.lowerBoundAt(size)
	return b
}

// cursor locates an entry of the set (class, chunk, buffer position) until
// the set next changes.
type cursor struct {
	cl         *classSet // class ci
	ci, i, pos int
}

// lowerBoundAt is lowerBound that also returns where the block is, for
// removeAt.
func (s *freeSet) lowerBoundAt(size int64) (*Block, cursor) {
	size = max(size, 0) // every block is larger
	ci := classOf(size)
	if s.nonEmpty(ci) {
		cl := s.class(ci)
		// Usually the class's first block is large enough (classes below
		// 64 KiB hold one rounded size): no search.
		if ch := cl.at(0); ch.e[ch.lo].k.size >= size {
			return ch.e[ch.lo].b, cursor{cl, ci, 0, int(ch.lo)}
		}
		k := fkey{size, 0}
		i := cl.chunkFor(k)
		ch := cl.at(i)
		if pos := int(ch.lo) + posFor(ch.entries(), k); pos < int(ch.hi) {
			return ch.e[pos].b, cursor{cl, ci, i, pos}
		}
	}
	if ci = s.nextClass(ci + 1); ci < 0 {
		return nil, cursor{}
	}
	cl := s.class(ci)
	ch := cl.at(0)
	return ch.e[ch.lo].b, cursor{cl, ci, 0, int(ch.lo)}
}

// successor returns the block after b in set order, or nil.
func (s *freeSet) successor(b *Block) *Block {
	k := keyOf(b)
	ci := classOf(k.size)
	if cl := s.classIfAny(ci); cl != nil {
		if i := cl.chunkAfter(k); i < len(cl.chunks) {
			ch := &cl.chunks[i]
			return ch.e[int(ch.lo)+posAfter(ch.entries(), k)].b
		}
	}
	if ci = s.nextClass(ci + 1); ci < 0 {
		return nil
	}
	return s.first(ci)
}

// predecessor returns the block before b in set order (b need not be in the
// set), or nil.
func (s *freeSet) predecessor(b *Block) *Block {
	k := keyOf(b)
	ci := classOf(k.size)
	if cl := s.classIfAny(ci); cl != nil && len(cl.chunks) > 0 {
		i := cl.chunkFor(k)
		ch := cl.at(i)
		if pos := int(ch.lo) + posFor(ch.entries(), k); pos > int(ch.lo) {
			return ch.e[pos-1].b
		}
		if i > 0 {
			ch := &cl.chunks[i-1]
			return ch.e[ch.hi-1].b
		}
	}
	if ci = s.prevClass(ci - 1); ci < 0 {
		return nil
	}
	return s.last(ci)
}

// max returns the last block, or nil.
func (s *freeSet) max() *Block {
	ci := s.prevClass(numClasses - 1)
	if ci < 0 {
		return nil
	}
	return s.last(ci)
}

// appendAll appends the blocks in set order to dst.
func (s *freeSet) appendAll(dst []*Block) []*Block {
	for ci := s.nextClass(0); ci >= 0; ci = s.nextClass(ci + 1) {
		cl := s.class(ci)
		for i := range cl.chunks {
			for _, e := range cl.chunks[i].entries() {
				dst = append(dst, e.b)
			}
		}
	}
	return dst
}
