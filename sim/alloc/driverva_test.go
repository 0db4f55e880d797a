package alloc

import (
	"math/rand/v2"
	"testing"
)

// TestDriverVARules pins each placement rule of driverVA on a small window:
// sizes in MiB are taken ('+'), freed ('-', by index of the take) or
// reserved ('r'); want is each take's address as an offset in MiB from the
// first chunk's start (negative: in the heap below it).
func TestDriverVARules(t *testing.T) {
	type op struct {
		kind byte // '+', '-', 'r'
		mib  uint64
		idx  int // '-': which earlier op to free
	}
	take := func(m uint64) op { return op{kind: '+', mib: m} }
	free := func(i int) op { return op{kind: '-', idx: i} }
	const heap = -1024           // heap top relative to the first chunk (vaHeapGap)
	const bottom = -(8<<10 - 32) // the window's bottom (8 GiB below its top) relative to the first chunk
	tests := []struct {
		name   string
		upward bool
		ops    []op
		want   []int64 // per op; ignored for frees
	}{
		{"small segments fill the first chunk upward", false,
			[]op{take(2), take(2), take(2)}, []int64{8, 12, 14}},
		{"20 MiB fits the first chunk's tail, a later 2 MiB the hole below it", false,
			[]op{take(20), take(2)}, []int64{12, 8}},
		{"larger segments take new chunks, each below the last", false,
			[]op{take(32), take(32), take(26)}, []int64{heap - 32, heap - 64, heap - 96}},
		{"a small segment prefers the lowest hole: a heap chunk's tail", false,
			[]op{take(20), take(20), take(2), take(2)}, []int64{12, heap - 32, heap - 12, heap - 10}},
		{"chunk size rounds up to 32 MiB", false,
			[]op{take(34), take(100), take(2)}, []int64{heap - 64, heap - 192, heap - 92}},
		{"a freed chunk's range returns to the heap and merges", false,
			[]op{take(3072), free(0), take(3584)}, []int64{heap - 3072, 0, heap - 3584}},
		{"a freed hole in a live chunk is reused", false,
			[]op{take(16), take(16), take(16), free(1), take(14)}, []int64{12, heap - 32, heap - 16, 0, heap - 32}},
		{"the first chunk keeps its place when emptied", false,
			[]op{take(2), free(0), take(2)}, []int64{8, 0, 8}},
		{"a reservation takes a chunk of its own, its tail stays unused", false,
			[]op{{kind: 'r', mib: 20}, take(20), take(2)}, []int64{heap - 32, 12, 8}},
		{"upward: larger segments take new chunks, each above the last", true,
			[]op{take(32), take(32), take(26)}, []int64{bottom, bottom + 32, bottom + 64}},
		{"upward: a small segment prefers the lowest hole, the oldest chunk's tail", true,
			[]op{take(20), take(20), take(20), take(2)}, []int64{12, bottom, bottom + 32, bottom + 20}},
		{"upward: a freed chunk's range returns to the heap's bottom and is taken first", true,
			[]op{take(64), take(32), free(0), take(32)}, []int64{bottom, bottom + 64, 0, bottom}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			const base, span = 1 << 32, 8 << 30
			v := newDriverVA(base, span, tc.upward)
			first := uint64(base+span) - vaChunk
			addrs := make([]uint64, len(tc.ops))
			for i, o := range tc.ops {
				var a uint64
				ok := true
				switch o.kind {
				case '+':
					a, ok = v.take(o.mib << 20)
				case 'r':
					a, ok = v.reserve(o.mib << 20)
				case '-':
					v.give(addrs[o.idx], tc.ops[o.idx].mib<<20)
					continue
				}
				if !ok {
					t.Fatalf("op %d: no address", i)
				}
				addrs[i] = a
				if got := (int64(a) - int64(first)) >> 20; got != tc.want[i] {
					t.Errorf("op %d (%c%d MiB): at %+d MiB, want %+d", i, o.kind, o.mib, got, tc.want[i])
				}
			}
		})
	}
}

// TestDriverVARandom runs random takes, reservations and frees and checks
// that live ranges never overlap and stay inside the window, and that
// freeing everything leaves the whole heap free again.
func TestDriverVARandom(t *testing.T) {
	for _, w := range []struct {
		base, span uint64
		upward     bool
	}{{1 << 32, 64 << 30, false}, {1 << 32, 48 << 20, false}, {3 << 20, 200 << 20, false}, {1 << 32, 64 << 30, true}, {3 << 20, 200 << 20, true}} {
		r := rand.New(rand.NewPCG(uint64(w.span), 7))
		v := newDriverVA(w.base, w.span, w.upward)
		heap0 := append([]vaRange(nil), v.heap...)
		live := map[uint64]uint64{}
		for step := 0; step < 4000; step++ {
			if len(live) > 0 && r.IntN(3) == 0 {
				for a, n := range live {
					v.give(a, n)
					delete(live, a)
					break
				}
				continue
			}
			n := uint64(r.IntN(80)+1) << 20
			if r.IntN(10) == 0 {
				n = uint64(r.IntN(1<<20) + 1)
			}
			var a uint64
			var ok bool
			if r.IntN(8) == 0 {
				a, ok = v.reserve(n)
			} else {
				a, ok = v.take(n)
			}
			if !ok {
				continue
			}
			n = vaRoundUp(n, vaSegAlign)
			if a < w.base || a+n > w.base+w.span || a%vaSegAlign != 0 {
				t.Fatalf("window %#x+%#x step %d: %#x+%#x outside the window or unaligned", w.base, w.span, step, a, n)
			}
			for b, m := range live {
				if a < b+m && b < a+n {
					t.Fatalf("window %#x+%#x step %d: %#x+%#x overlaps %#x+%#x", w.base, w.span, step, a, n, b, m)
				}
			}
			live[a] = n
		}
		for a, n := range live {
			v.give(a, n)
		}
		if len(v.heap) != len(heap0) || (len(heap0) > 0 && v.heap[0] != heap0[0]) {
			t.Errorf("window %#x+%#x: heap after freeing everything %v, want %v", w.base, w.span, v.heap, heap0)
		}
	}
}
