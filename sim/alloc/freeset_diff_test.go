package alloc

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/gpumem/playground/sim/profile"
	"github.com/gpumem/playground/sim/trace"
)

// refSet is the reference ordered set for the differential tests: a plain
// sorted slice of blocks in (size, address) order, searched with
// sort.Search, as simple as an ordered set can be.
type refSet struct{ s []*Block }

func (r *refSet) find(b *Block) int {
	return sort.Search(len(r.s), func(i int) bool { return !less(r.s[i], b) })
}

func (r *refSet) insert(b *Block) {
	i := r.find(b)
	r.s = slices.Insert(r.s, i, b)
}

func (r *refSet) remove(b *Block) bool {
	i := r.find(b)
	if i == len(r.s) || r.s[i] != b {
		return false
	}
	r.s = slices.Delete(r.s, i, i+1)
	return true
}

func (r *refSet) at(i int) *Block {
	if i < 0 || i >= len(r.s) {
		return nil
	}
	return r.s[i]
}

func (r *refSet) lowerBound(size int64) *Block {
	return r.at(sort.Search(len(r.s), func(i int) bool { return r.s[i].size >= size }))
}

func (r *refSet) successor(b *Block) *Block {
	return r.at(sort.Search(len(r.s), func(i int) bool { return less(b, r.s[i]) }))
}

func (r *refSet) predecessor(b *Block) *Block { return r.at(r.find(b) - 1) }

func (r *refSet) max() *Block { return r.at(len(r.s) - 1) }

// sizeDists are the size distributions of the free-set differential test.
var sizeDists = []struct {
	name string
	draw func(r *rand.Rand) int64
}{
	{"log-uniform 512 B–16 MiB", func(r *rand.Rand) int64 { return 512 * (1 + r.Int64N(1<<uint(r.IntN(16)))) }},
	{"few sizes, many addresses", func(r *rand.Rand) int64 { return 512 * (1 + r.Int64N(4)) }},
	{"one size", func(r *rand.Rand) int64 { return 2 << 20 }},
	{"any int64", func(r *rand.Rand) int64 { return 1 + r.Int64N(1<<uint(r.IntN(63))) }},
	{"tiny", func(r *rand.Rand) int64 { return 1 + r.Int64N(40) }},
}

// TestFreeSetDifferential runs long random sequences of inserts, removals
// and every query on freeSet and on the sorted-slice reference, and
// requires identical answers (the same *Block, or nil) throughout.
func TestFreeSetDifferential(t *testing.T) {
	n := 60000
	if testing.Short() {
		n = 8000
	}
	for di, d := range sizeDists {
		t.Run(d.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(di), 99))
			var fs freeSet
			var ref refSet
			var members []*Block
			addr := uint64(0)
			newBlock := func() *Block {
				addr += 512 * uint64(1+r.IntN(3))
				return &Block{size: d.draw(r), addr: addr ^ uint64(r.IntN(2))<<40}
			}
			target := 50 + r.IntN(3000) // set size the sequence drifts around
			check := func(op int, what string, got, want *Block) {
				t.Helper()
				if got != want {
					t.Fatalf("op %d: %s = %v, reference %v", op, what, blockKey(got), blockKey(want))
				}
			}
			for op := 0; op < n; op++ {
				if op%5000 == 0 {
					target = 1 + r.IntN(4000)
				}
				switch x := r.IntN(10); {
				case x < 4 && (len(members) < target || len(members) == 0):
					b := newBlock()
					fs.insert(b)
					ref.insert(b)
					members = append(members, b)
				case x < 8 && len(members) > 0:
					i := r.IntN(len(members))
					b := members[i]
					if !fs.remove(b) || !ref.remove(b) {
						t.Fatalf("op %d: member %v not removed", op, blockKey(b))
					}
					members[i] = members[len(members)-1]
					members = members[:len(members)-1]
				default:
					b := newBlock() // not a member
					if fs.remove(b) || ref.remove(b) {
						t.Fatalf("op %d: non-member %v removed", op, blockKey(b))
					}
				}
				// Queries: sizes near members' sizes and arbitrary ones.
				for q := 0; q < 3; q++ {
					size := d.draw(r)
					switch {
					case q == 1 && len(members) > 0:
						size = members[r.IntN(len(members))].size + int64(r.IntN(3)) - 1
					case q == 2 && r.IntN(50) == 0:
						size = []int64{-1, 0, 1, 1<<63 - 1}[r.IntN(4)]
					}
					check(op, fmt.Sprintf("lowerBound(%d)", size), fs.lowerBound(size), ref.lowerBound(size))
				}
				probe := newBlock()
				if len(members) > 0 && r.IntN(2) == 0 {
					probe = members[r.IntN(len(members))]
				}
				check(op, "successor", fs.successor(probe), ref.successor(probe))
				check(op, "predecessor", fs.predecessor(probe), ref.predecessor(probe))
				check(op, "max", fs.max(), ref.max())
				if fs.n != len(ref.s) {
					t.Fatalf("op %d: n = %d, reference %d", op, fs.n, len(ref.s))
				}
				if op%97 == 0 {
					if err := fs.checkLayout(); err != nil {
						t.Fatalf("op %d: %v", op, err)
					}
				}
				if op%997 == 0 && !slices.Equal(fs.appendAll(nil), ref.s) {
					t.Fatalf("op %d: contents differ", op)
				}
			}
			for _, b := range members {
				fs.remove(b)
			}
			if fs.n != 0 || fs.max() != nil || fs.lowerBound(0) != nil || fs.summary != 0 {
				t.Fatalf("set not empty after removing every member")
			}
		})
	}
}

// checkLayout checks the set's internal layout: every chunk of a class is
// non-empty, sorted and within its class, consecutive chunks are in order,
// the bitmaps mark exactly the non-empty classes, a class of one chunk
// keeps it in cl.one, and n counts the entries.
func (s *freeSet) checkLayout() error {
	n := 0
	for ci := range numClasses {
		cl := s.classIfAny(ci)
		if cl == nil {
			if s.nonEmpty(ci) {
				return fmt.Errorf("class %d: no group, bitmap says non-empty", ci)
			}
			continue
		}
		if (len(cl.chunks) > 0) != s.nonEmpty(ci) {
			return fmt.Errorf("class %d: %d chunks, bitmap says non-empty=%v", ci, len(cl.chunks), s.nonEmpty(ci))
		}
		if (s.words[ci>>6] != 0) != (s.summary&(1<<(ci>>6)) != 0) {
			return fmt.Errorf("class %d: summary bit disagrees with its word", ci)
		}
		if len(cl.chunks) == 1 && &cl.chunks[0] != &cl.one[0] {
			return fmt.Errorf("class %d: a lone chunk outside cl.one", ci)
		}
		var prev *fkey
		for i := range cl.chunks {
			ch := &cl.chunks[i]
			if ch.lo < 0 || ch.hi > chunkCap || ch.lo >= ch.hi {
				return fmt.Errorf("class %d chunk %d: bad range [%d, %d)", ci, i, ch.lo, ch.hi)
			}
			for j := range ch.entries() {
				e := &ch.entries()[j]
				if classOf(e.k.size) != ci || e.k != keyOf(e.b) {
					return fmt.Errorf("class %d chunk %d: entry %v in the wrong class or stale", ci, i, e.k)
				}
				if prev != nil && !keyLess(*prev, e.k) {
					return fmt.Errorf("class %d chunk %d: %v after %v", ci, i, e.k, *prev)
				}
				prev = &e.k
				n++
			}
		}
	}
	if n != s.n {
		return fmt.Errorf("%d entries, n = %d", n, s.n)
	}
	return nil
}

// blockKey formats a block's key for messages.
func blockKey(b *Block) string {
	if b == nil {
		return "nil"
	}
	return fmt.Sprintf("(%d, %#x)", b.size, b.addr)
}

// TestClassOfMonotone checks that size classes never decrease with the size
// and stay in range, which makes the class order agree with the set order.
func TestClassOfMonotone(t *testing.T) {
	prev := classOf(-5)
	check := func(s int64) {
		c := classOf(s)
		if c < prev || c >= numClasses {
			t.Fatalf("classOf(%d) = %d after %d", s, c, prev)
		}
		prev = c
	}
	for s := int64(-3); s < 1<<16; s++ {
		check(s)
	}
	for e := 16; e < 63; e++ {
		for _, d := range []int64{-1, 0, 1} {
			check(int64(1)<<e + d)
		}
	}
	check(1<<63 - 1)
}

// refChoice is get_free_block (spec §4.1) over the reference set: the block
// the allocator must hand out for a rounded size, or nil for a new segment.
func refChoice(a *Allocator, ref *refSet, size int64) *Block {
	b := ref.lowerBound(size)
	if b == nil {
		return nil
	}
	if b.exp != nil {
		if a.cfg.ExpandableSegments {
			for b.exp != nil {
				n := ref.successor(b)
				if n == nil || expandableSize(n) >= expandableSize(b) {
					break
				}
				b = n
			}
		} else {
			for b != nil && b.exp != nil {
				b = ref.successor(b)
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
	return b
}

// refFree builds the reference free set of pool p from the segments: every
// free mapped block found by walking each segment from its head, sorted.
func refFree(a *Allocator, p *pool) *refSet {
	ref := &refSet{}
	seen := map[*Block]bool{}
	for _, b := range a.allBlocks() {
		for b.prev != nil {
			b = b.prev
		}
		for ; b != nil && !seen[b]; b = b.next {
			seen[b] = true
			if b.pool == p && !b.allocated && b.mapped {
				ref.s = append(ref.s, b)
			}
		}
	}
	sort.Slice(ref.s, func(i, j int) bool { return less(ref.s[i], ref.s[j]) })
	return ref
}

// TestAllocatorChoicesDifferential runs long random programs under every
// randomized configuration and the benchmark's working set, and before each
// Malloc checks that the allocator takes exactly the block that
// get_free_block over the sorted-slice reference picks (same address, or a
// new segment when the reference finds none), and that the free sets answer
// lowerBound, successor and predecessor as the reference does.
func TestAllocatorChoicesDifferential(t *testing.T) {
	n := 2500
	if testing.Short() {
		n = 400
	}
	for i, rc := range randomConfigs {
		diffRun(t, fmt.Sprintf("config %d", i), smallProfile(), rc.conf, rc.fraction, uint64(i), n, randomSize)
	}
	work := func(r *rand.Rand) int64 {
		if r.IntN(5) == 0 {
			return 1<<20 + r.Int64N(15<<20)
		}
		return 512 * (1 + r.Int64N(1<<uint(r.IntN(11))))
	}
	diffRun(t, "workset", profile.Default(), "", 0, 42, n, work)
}

// diffRun is one program of TestAllocatorChoicesDifferential.
func diffRun(t *testing.T, name string, prof profile.Profile, conf string, fraction float64, seed uint64, n int, size func(*rand.Rand) int64) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 2024))
	cfg, err := ParseConfig(conf)
	if err != nil {
		t.Fatal(err)
	}
	a := New(prof, cfg, nil, nil)
	if fraction > 0 {
		if err := a.SetMemoryFraction(fraction); err != nil {
			t.Fatal(err)
		}
	}
	var live []*Block
	for op := 0; op < n; op++ {
		if x := r.IntN(100); x < 55 || len(live) == 0 {
			req := size(r)
			rounded := roundSize(req, &a.cfg.RoundupPower2Divisions)
			p := a.poolFor(rounded)
			ref := refFree(a, p)
			if !slices.Equal(p.free.appendAll(nil), ref.s) {
				t.Fatalf("%s op %d: free set differs from the segments' free blocks", name, op)
			}
			for q := 0; q < 4 && len(ref.s) > 0; q++ {
				m := ref.s[r.IntN(len(ref.s))]
				s := m.size + int64(r.IntN(3)) - 1
				if p.free.lowerBound(s) != ref.lowerBound(s) || p.free.successor(m) != ref.successor(m) || p.free.predecessor(m) != ref.predecessor(m) {
					t.Fatalf("%s op %d: queries around %v differ from the reference", name, op, blockKey(m))
				}
			}
			want := refChoice(a, ref, rounded)
			var wantAddr uint64 // before Malloc splits the block
			if want != nil {
				wantAddr = want.addr
			}
			wantKey := blockKey(want)
			b, err := a.Malloc(req, trace.Label{Kind: trace.LabelUser})
			if err != nil {
				continue
			}
			if want != nil && b.addr != wantAddr {
				t.Fatalf("%s op %d: Malloc(%d) took %v, reference choice %v", name, op, req, blockKey(b), wantKey)
			}
			live = append(live, b)
		} else if x < 97 {
			j := r.IntN(len(live))
			if err := a.Free(live[j]); err != nil {
				t.Fatalf("%s op %d: %v", name, op, err)
			}
			live[j] = live[len(live)-1]
			live = live[:len(live)-1]
		} else {
			a.EmptyCache()
		}
	}
	if err := checkInvariants(a, false); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}
