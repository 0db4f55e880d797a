package alloc

// freeSet is an ordered set of free blocks keyed by (size, address): the
// order of PyTorch 2.11's BlockComparatorSize for one stream. It is a
// two-level sorted array: a list of sorted chunks of at most chunkCap
// entries plus the last key of every chunk, so that a search is two binary
// searches over contiguous memory and an update moves at most one chunk's
// entries. Keys are copied into the entries, so searching does not touch
// the blocks themselves.
type freeSet struct {
	chunks [][]fentry
	last   []fkey // last key of each chunk
	n      int
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

// chunkCap is the most entries a chunk holds before it is split.
const chunkCap = 64

func keyOf(b *Block) fkey { return fkey{b.size, b.addr} }

func keyLess(a, b fkey) bool {
	if a.size != b.size {
		return a.size < b.size
	}
	return a.addr < b.addr
}

// less orders blocks by size, then address.
func less(a, b *Block) bool { return keyLess(keyOf(a), keyOf(b)) }

// chunkFor returns the first chunk whose last key is ≥ k (len(chunks) if none).
func (s *freeSet) chunkFor(k fkey) int {
	lo, hi := 0, len(s.last)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if keyLess(s.last[m], k) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// chunkAfter returns the first chunk whose last key is > k.
func (s *freeSet) chunkAfter(k fkey) int {
	lo, hi := 0, len(s.last)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if !keyLess(k, s.last[m]) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// posFor returns the first position in c whose key is ≥ k.
func posFor(c []fentry, k fkey) int {
	lo, hi := 0, len(c)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if keyLess(c[m].k, k) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

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

// insert adds b, which must not be in the set.
func (s *freeSet) insert(b *Block) {
	k := keyOf(b)
	s.n++
	if len(s.chunks) == 0 {
		c := make([]fentry, 1, chunkCap+1)
		c[0] = fentry{k, b}
		s.chunks = append(s.chunks, c)
		s.last = append(s.last, k)
		return
	}
	ci := s.chunkFor(k)
	if ci == len(s.chunks) {
		ci--
	}
	c := s.chunks[ci]
	pos := posFor(c, k)
	c = append(c, fentry{})
	copy(c[pos+1:], c[pos:])
	c[pos] = fentry{k, b}
	if len(c) <= chunkCap {
		s.chunks[ci] = c
		s.last[ci] = c[len(c)-1].k
		return
	}
	// Split the full chunk in two halves.
	half := len(c) / 2
	right := make([]fentry, len(c)-half, chunkCap+1)
	copy(right, c[half:])
	clear(c[half:])
	c = c[:half]
	s.chunks[ci] = c
	s.last[ci] = c[half-1].k
	s.chunks = append(s.chunks, nil)
	copy(s.chunks[ci+2:], s.chunks[ci+1:])
	s.chunks[ci+1] = right
	s.last = append(s.last, fkey{})
	copy(s.last[ci+2:], s.last[ci+1:])
	s.last[ci+1] = right[len(right)-1].k
}

// remove deletes b from the set; it reports whether b was there.
func (s *freeSet) remove(b *Block) bool {
	k := keyOf(b)
	ci := s.chunkFor(k)
	if ci == len(s.chunks) {
		return false
	}
	c := s.chunks[ci]
	pos := posFor(c, k)
	if pos == len(c) || c[pos].b != b {
		return false
	}
	copy(c[pos:], c[pos+1:])
	c[len(c)-1] = fentry{}
	c = c[:len(c)-1]
	s.n--
	if len(c) == 0 {
		s.chunks = append(s.chunks[:ci], s.chunks[ci+1:]...)
		s.chunks[len(s.chunks):cap(s.chunks)][0] = nil
		s.last = append(s.last[:ci], s.last[ci+1:]...)
		return true
	}
	s.chunks[ci] = c
	s.last[ci] = c[len(c)-1].k
	// Merge with the next chunk when both are small, so chunks stay dense.
	if ci+1 < len(s.chunks) && len(c)+len(s.chunks[ci+1]) <= chunkCap/2 {
		next := s.chunks[ci+1]
		s.chunks[ci] = append(c, next...)
		s.last[ci] = s.last[ci+1]
		s.chunks = append(s.chunks[:ci+1], s.chunks[ci+2:]...)
		s.chunks[len(s.chunks):cap(s.chunks)][0] = nil
		s.last = append(s.last[:ci+1], s.last[ci+2:]...)
	}
	return true
}

// lowerBound returns the first block with size ≥ size (lowest address among
// equal sizes), or nil.
func (s *freeSet) lowerBound(size int64) *Block {
	k := fkey{size, 0}
	ci := s.chunkFor(k)
	if ci == len(s.chunks) {
		return nil
	}
	c := s.chunks[ci]
	return c[posFor(c, k)].b
}

// successor returns the block after b in set order, or nil.
func (s *freeSet) successor(b *Block) *Block {
	k := keyOf(b)
	ci := s.chunkAfter(k)
	if ci == len(s.chunks) {
		return nil
	}
	c := s.chunks[ci]
	return c[posAfter(c, k)].b
}

// predecessor returns the block before b in set order (b need not be in the
// set), or nil.
func (s *freeSet) predecessor(b *Block) *Block {
	k := keyOf(b)
	ci := s.chunkFor(k)
	if ci < len(s.chunks) {
		c := s.chunks[ci]
		if pos := posFor(c, k); pos > 0 {
			return c[pos-1].b
		}
	}
	if ci == 0 {
		return nil
	}
	c := s.chunks[ci-1]
	return c[len(c)-1].b
}

// max returns the last block, or nil.
func (s *freeSet) max() *Block {
	if len(s.chunks) == 0 {
		return nil
	}
	c := s.chunks[len(s.chunks)-1]
	return c[len(c)-1].b
}

// appendAll appends the blocks in set order to dst.
func (s *freeSet) appendAll(dst []*Block) []*Block {
	for _, c := range s.chunks {
		for _, e := range c {
			dst = append(dst, e.b)
		}
	}
	return dst
}
