package alloc

import (
	"math/rand/v2"
	"testing"

	"github.com/gpumem/playground/sim/profile"
	"github.com/gpumem/playground/sim/trace"
)

// smallProfile is a 2 GiB device, so that random programs run out of memory.
func smallProfile() profile.Profile {
	p := profile.Default()
	p.Name, p.TotalMemory, p.DriverUsedAtInit = "test-2gb", 2<<30, 100<<20
	return p
}

// randomConfigs are the settings the randomized tests run under.
var randomConfigs = []struct {
	conf     string
	fraction float64 // 0: none
}{
	{"", 0},
	{"expandable_segments:True", 0},
	{"max_split_size_mb:40", 0},
	{"max_split_size_mb:20,max_non_split_rounding_mb:60", 0.7},
	{"garbage_collection_threshold:0.6", 0.5},
	{"roundup_power2_divisions:[1:4,16:8,>:2]", 0},
	{"expandable_segments:True,large_segment_size_mb:12,roundup_power2_divisions:2", 0.8},
}

// randomSize draws a request size: mostly small, some medium, a few huge.
func randomSize(r *rand.Rand) int64 {
	switch x := r.IntN(100); {
	case x < 50:
		return 1 + r.Int64N(1<<20)
	case x < 85:
		return 1<<20 + r.Int64N(15<<20)
	case x < 98:
		return 16<<20 + r.Int64N(200<<20)
	default:
		return 256<<20 + r.Int64N(1<<30)
	}
}

// runRandom performs n random operations, checking the invariants after each.
func runRandom(t *testing.T, seed uint64, conf string, fraction float64, n int) {
	r := rand.New(rand.NewPCG(seed, 7))
	cfg, err := ParseConfig(conf)
	if err != nil {
		t.Fatal(err)
	}
	events := 0
	a := New(smallProfile(), cfg, nil, func(trace.Event) { events++ })
	if fraction > 0 {
		if err := a.SetMemoryFraction(fraction); err != nil {
			t.Fatal(err)
		}
	}
	var live []*Block
	resetPeaks := false
	ooms := 0
	for i := 0; i < n; i++ {
		switch x := r.IntN(100); {
		case x < 55:
			b, err := a.Malloc(randomSize(r), trace.Label{Kind: trace.LabelUser})
			if err != nil {
				if _, ok := err.(*OOMError); !ok {
					t.Fatalf("op %d: %v", i, err)
				}
				ooms++
			} else {
				live = append(live, b)
			}
		case x < 95:
			if len(live) > 0 {
				j := r.IntN(len(live))
				if err := a.Free(live[j]); err != nil {
					t.Fatalf("op %d: %v", i, err)
				}
				live[j] = live[len(live)-1]
				live = live[:len(live)-1]
			}
		case x < 97:
			a.EmptyCache()
		case x < 98:
			a.ResetPeakStats()
			resetPeaks = true
		default:
			if got := len(a.Snapshot().Segments); got == 0 && a.Stats().Reserved > 0 {
				t.Fatalf("op %d: snapshot has no segments", i)
			}
		}
		if err := checkInvariants(a, resetPeaks); err != nil {
			t.Fatalf("seed %d %q op %d: %v", seed, conf, i, err)
		}
	}
	for _, b := range live {
		if err := a.Free(b); err != nil {
			t.Fatal(err)
		}
	}
	a.EmptyCache()
	if err := checkInvariants(a, resetPeaks); err != nil {
		t.Fatal(err)
	}
	// An expandable segment whose first mapping failed keeps its (unmapped)
	// address range, as in PyTorch; nothing else may remain.
	mapped := 0
	for _, b := range a.allBlocks() {
		if b.mapped {
			mapped++
		}
	}
	if s := a.Stats(); s.Allocated != 0 || s.Reserved != 0 || mapped != 0 {
		t.Errorf("after freeing everything: %+v, %d mapped blocks", s, mapped)
	}
	if events == 0 || (ooms == 0 && n > 1000) {
		t.Logf("%q: %d events, %d OOMs", conf, events, ooms)
	}
}

// TestRandomOperations runs thousands of random operations under several
// configurations and checks every invariant after each one.
func TestRandomOperations(t *testing.T) {
	n := 4000
	if testing.Short() {
		n = 500
	}
	for i, rc := range randomConfigs {
		for seed := uint64(1); seed <= 3; seed++ {
			runRandom(t, seed*100+uint64(i), rc.conf, rc.fraction, n)
		}
	}
}

// FuzzOps drives the allocator with an arbitrary operation sequence.
func FuzzOps(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{1, 200, 10, 3, 250, 40, 2, 2, 2, 9, 0})
	f.Add([]byte{6, 0, 255, 255, 1, 128, 7, 7})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		rc := randomConfigs[int(data[0])%len(randomConfigs)]
		cfg, _ := ParseConfig(rc.conf)
		a := New(smallProfile(), cfg, nil, nil)
		if rc.fraction > 0 {
			_ = a.SetMemoryFraction(rc.fraction)
		}
		var live []*Block
		for i := 1; i+1 < len(data); i += 2 {
			op, arg := data[i], int64(data[i+1])
			switch op % 8 {
			case 0, 1, 2:
				size := arg * arg * arg * int64(op/8+1) * 37
				if op%8 == 2 {
					size <<= 10
				}
				if b, err := a.Malloc(size, trace.Label{}); err == nil && b != nil {
					live = append(live, b)
				} else if err != nil {
					if _, ok := err.(*OOMError); !ok {
						t.Fatal(err)
					}
				}
			case 3, 4:
				if len(live) > 0 {
					j := int(arg) % len(live)
					if err := a.Free(live[j]); err != nil {
						t.Fatal(err)
					}
					live = append(live[:j], live[j+1:]...)
				}
			case 5:
				a.EmptyCache()
			case 6:
				if len(live) > 0 { // double free must be refused
					b := live[int(arg)%len(live)]
					_ = a.Free(b)
					if a.Free(b) == nil {
						t.Fatal("double free accepted")
					}
					for k, l := range live {
						if l == b {
							live = append(live[:k], live[k+1:]...)
							break
						}
					}
				}
			case 7:
				_ = a.SetMemoryFraction(float64(arg) / 200)
			}
			if err := checkInvariants(a, false); err != nil {
				t.Fatalf("op %d: %v", i, err)
			}
		}
	})
}
