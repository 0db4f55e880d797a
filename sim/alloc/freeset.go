package alloc

import "math/bits"

// freeSet is an ordered set of free blocks keyed by (size, address): the
// order of PyTorch 2.11's BlockComparatorSize for one stream. Every query
// answers exactly as std::set would (lower_bound, successor, predecessor).
//
// It is a segregated index: blocks are filed by size class (classOf, a
// monotone function of the size, 16 classes per power of two), each class
// keeps its blocks in (size, address) order in a short list of sorted
// chunks, and a two-level bitmap marks the non-empty classes. The set order
// is the concatenation of the classes in class order, so the first block of
// size ≥ n is the first such block of n's class or else the first block of
// the next non-empty class, found with two bit scans. A class usually holds
// a few dozen blocks in one chunk; many blocks of one size (tensor shapes
// repeat) spread over several chunks, so an update never moves more than
// one chunk. Keys are copied into the entries, so searching does not touch
// the blocks themselves; emptied chunk buffers are kept for reuse.
type freeSet struct {
	n       int
	summary uint64             // bit w: words[w] != 0
	words   [classWords]uint64 // bit c%64 of words[c/64]: class c is not empty
	classes [numClasses]classSet
	spare   [][]fentry // empty chunk buffers for reuse
}

// classSet holds the blocks of one size class in sorted chunks, none empty.
// Until a class needs a second chunk, chunks lives in one, next to the
// slice header, so reaching the entries costs one dependent load less; a
// freeSet must therefore not be copied once used.
type classSet struct {
	chunks [][]fentry
	one    [1][]fentry
}

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
func (s *freeSet) first(c int) *Block { return s.classes[c].chunks[0][0].b }

// last returns the last block of non-empty class c.
func (s *freeSet) last(c int) *Block {
	cs := s.classes[c].chunks
	ch := cs[len(cs)-1]
	return ch[len(ch)-1].b
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
		ch := cs[m]
		if keyLess(ch[len(ch)-1].k, k) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// chunkAfter returns the first chunk whose last key is > k.
func (cl *classSet) chunkAfter(k fkey) int {
	lo, hi := 0, len(cl.chunks)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		ch := cl.chunks[m]
		if !keyLess(k, ch[len(ch)-1].k) {
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
const linearMax = 16

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
func (s *freeSet) newChunk() []fentry {
	if n := len(s.spare); n > 0 {
		c := s.spare[n-1]
		s.spare[n-1] = nil
		s.spare = s.spare[:n-1]
		return c
	}
	return make([]fentry, 0, chunkCap+1)
}

// dropChunk keeps an emptied chunk buffer for reuse.
func (s *freeSet) dropChunk(c []fentry) {
	if len(s.spare) < maxSpareChunks {
		s.spare = append(s.spare, c[:0])
	}
}

// insert adds b, which must not be in the set.
func (s *freeSet) insert(b *Block) {
	k := keyOf(b)
	s.n++
	ci := classOf(k.size)
	cl := &s.classes[ci]
	if len(cl.chunks) == 0 {
		if cap(cl.chunks) == 0 {
			cl.chunks = cl.one[:0]
		}
		cl.chunks = append(cl.chunks, append(s.newChunk(), fentry{k, b}))
		s.mark(ci)
		return
	}
	i := cl.chunkFor(k)
	c := cl.chunks[i]
	pos := posFor(c, k)
	c = append(c, fentry{})
	copy(c[pos+1:], c[pos:])
	c[pos] = fentry{k, b}
	if len(c) <= chunkCap {
		cl.chunks[i] = c
		return
	}
	// Split the full chunk in two halves.
	half := len(c) / 2
	right := append(s.newChunk(), c[half:]...)
	clear(c[half:])
	cl.chunks[i] = c[:half]
	cl.chunks = append(cl.chunks, nil)
	copy(cl.chunks[i+2:], cl.chunks[i+1:])
	cl.chunks[i+1] = right
}

// remove deletes b from the set; it reports whether b was there.
func (s *freeSet) remove(b *Block) bool {
	k := keyOf(b)
	ci := classOf(k.size)
	cl := &s.classes[ci]
	if len(cl.chunks) == 0 {
		return false
	}
	i := cl.chunkFor(k)
	c := cl.chunks[i]
	pos := posFor(c, k)
	if pos == len(c) || c[pos].b != b {
		return false
	}
	s.removeAt(cursor{ci, i, pos})
	return true
}

// removeAt deletes the entry at cur.
func (s *freeSet) removeAt(cur cursor) {
	ci, i, pos := cur.ci, cur.i, cur.pos
	cl := &s.classes[ci]
	c := cl.chunks[i]
	copy(c[pos:], c[pos+1:])
	c[len(c)-1] = fentry{}
	c = c[:len(c)-1]
	s.n--
	if len(c) == 0 {
		s.dropChunk(c)
		copy(cl.chunks[i:], cl.chunks[i+1:])
		cl.chunks[len(cl.chunks)-1] = nil
		cl.chunks = cl.chunks[:len(cl.chunks)-1]
		if len(cl.chunks) == 0 {
			s.unmark(ci)
		}
		return
	}
	cl.chunks[i] = c
	// Merge with the next chunk when both are small, so chunks stay dense.
	if i+1 < len(cl.chunks) && len(c)+len(cl.chunks[i+1]) <= chunkCap/2 {
		next := cl.chunks[i+1]
		cl.chunks[i] = append(c, next...)
		clear(next)
		s.dropChunk(next)
		copy(cl.chunks[i+1:], cl.chunks[i+2:])
		cl.chunks[len(cl.chunks)-1] = nil
		cl.chunks = cl.chunks[:len(cl.chunks)-1]
	}
}

// lowerBound returns the first block with size ≥ size (lowest address among
// equal sizes), or nil.
func (s *freeSet) lowerBound(size int64) *Block {
	b, _ := s.lowerBoundAt(size)
	return b
}

// cursor locates an entry of the set (class, chunk, position) until the
// set next changes.
type cursor struct{ ci, i, pos int }

// lowerBoundAt is lowerBound that also returns where the block is, for
// removeAt.
func (s *freeSet) lowerBoundAt(size int64) (*Block, cursor) {
	size = max(size, 0) // every block is larger
	ci := classOf(size)
	if s.nonEmpty(ci) {
		cl := &s.classes[ci]
		k := fkey{size, 0}
		i := cl.chunkFor(k)
		c := cl.chunks[i]
		if pos := posFor(c, k); pos < len(c) {
			return c[pos].b, cursor{ci, i, pos}
		}
	}
	if ci = s.nextClass(ci + 1); ci < 0 {
		return nil, cursor{}
	}
	return s.first(ci), cursor{ci, 0, 0}
}

// successor returns the block after b in set order, or nil.
func (s *freeSet) successor(b *Block) *Block {
	k := keyOf(b)
	ci := classOf(k.size)
	cl := &s.classes[ci]
	if i := cl.chunkAfter(k); i < len(cl.chunks) {
		c := cl.chunks[i]
		return c[posAfter(c, k)].b
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
	cl := &s.classes[ci]
	if len(cl.chunks) > 0 {
		i := cl.chunkFor(k)
		c := cl.chunks[i]
		if pos := posFor(c, k); pos > 0 {
			return c[pos-1].b
		}
		if i > 0 {
			c := cl.chunks[i-1]
			return c[len(c)-1].b
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
		for _, c := range s.classes[ci].chunks {
			for _, e := range c {
				dst = append(dst, e.b)
			}
		}
	}
	return dst
}
