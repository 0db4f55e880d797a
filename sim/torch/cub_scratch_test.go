package torch

import (
	"bufio"
	"os"
	"regexp"
	"strconv"
	"testing"
)

// sortProbe is one line of testdata/questions/q10_sort_scratch.out: a
// backward measured on an H200 with PyTorch 2.11, its peak over the memory
// allocated before it and the requested sizes of its allocations in order.
type sortProbe struct {
	line             string
	kind             string // "index" or "embedding"
	rows, cols, n    int64
	peak             int64
	allocs           map[int]int64 // allocation number -> requested bytes
	indexBitsOfProbe int64         // get_num_bits((rows*cols-1)/cols)
}

var (
	probeHead  = regexp.MustCompile(`^(index|embedding) (\d+)x(\d+) n=(\d+)(?: mod=\d+)? peak_delta=(\d+) events:`)
	probeAlloc = regexp.MustCompile(`\+(\d+):(\d+)`)
)

// readSortProbes parses the probe's output.
func readSortProbes(t *testing.T) []sortProbe {
	t.Helper()
	f, err := os.Open("testdata/questions/q10_sort_scratch.out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	num := func(s string) int64 {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	var out []sortProbe
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		m := probeHead.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		p := sortProbe{line: m[0], kind: m[1], rows: num(m[2]), cols: num(m[3]), n: num(m[4]), peak: num(m[5]), allocs: map[int]int64{}}
		for _, a := range probeAlloc.FindAllStringSubmatch(sc.Text(), -1) {
			p.allocs[int(num(a[1]))] = num(a[2])
		}
		p.indexBitsOfProbe = cubKeyBits((p.rows*p.cols - 1) / p.cols)
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) < 40 {
		t.Fatalf("read %d probe lines, want at least 40", len(out))
	}
	return out
}

// TestCubTempMatchesProbe checks every measured cub temp storage request:
// the index backward's sort (its 9th allocation), and the embedding
// backward's sort, unique_by_key and exclusive_sum (6th, 11th, 14th).
func TestCubTempMatchesProbe(t *testing.T) {
	for _, p := range readSortProbes(t) {
		type want struct {
			at  int
			got int64
		}
		var checks []want
		if p.kind == "index" {
			checks = []want{{9, cubSortPairsTemp(p.n, 8, 8, p.indexBitsOfProbe)}}
		} else if p.n > embeddingSortThreshold {
			checks = []want{
				{6, cubSortPairsTemp(p.n, 8, 8, 64)},
				{11, cubLookbackScanTemp(p.n, cubUniqueByKeyTile)},
				{14, cubLookbackScanTemp(min(p.n, p.rows), cubExclusiveSumTile)},
			}
		}
		for _, c := range checks {
			if m, ok := p.allocs[c.at]; !ok || m != c.got {
				t.Errorf("%s: allocation %d is %d bytes, model %d", p.line, c.at, m, c.got)
			}
		}
	}
}

// TestSortBackwardPeaksMatchProbe replays every probe case (w[rows].sum()
// or an embedding's sum, then backward) and compares the backward peak.
func TestSortBackwardPeaksMatchProbe(t *testing.T) {
	for _, p := range readSortProbes(t) {
		t.Run(p.line, func(t *testing.T) {
			rt, a := newTestRuntime(t)
			w := must[*Tensor](t)(rt.Factory("randn", []int64{p.rows, p.cols}, Float32, CUDA0, true))
			idx := must[*Tensor](t)(rt.Factory("zeros", []int64{p.n}, Int64, CUDA0, false))
			var out *Tensor
			if p.kind == "index" {
				out = must[*Tensor](t)(rt.IndexTensor(w, 0, idx))
			} else {
				out = must[*Tensor](t)(rt.Embedding(idx, w, -1))
			}
			s := must[*Tensor](t)(rt.Sum(out, nil, false, nil))
			out.Release()
			idx.Release()
			one := must[*Tensor](t)(rt.OnesLike(s))
			base := a.Stats().Allocated
			a.ResetPeakStats()
			if err := rt.Backward([]*Tensor{s}, []*Tensor{one}, BackwardOptions{}); err != nil {
				t.Fatal(err)
			}
			// The probe's base excludes the ones() gradient (512 bytes).
			if got := a.Stats().PeakAllocated - base + 512; got != p.peak {
				t.Errorf("backward peak %d over the base, measured %d (%+d)", got, p.peak, got-p.peak)
			}
		})
	}
}
