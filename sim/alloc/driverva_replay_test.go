package alloc

import (
	"bufio"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gpumem/playground/sim/profile"
)

// vaRecord, when set, rewrites testdata/driver_va_h200.txt from the GPU
// backend's recordings (gpu/compare's TestOracleCasesOnGPU streams, one
// NAME.json per oracle case with key "gpu": {"events": [...]}).
var vaRecord = flag.String("va-record", "", "directory of recorded GPU-backend streams to rewrite testdata/driver_va_h200.txt from")

const driverVAFile = "testdata/driver_va_h200.txt"

// vaOp is one recorded cudaMalloc (free=false) or cudaFree of a segment.
type vaOp struct {
	free bool
	addr uint64 // the real driver's address
	size int64
}

// vaCase is one oracle case's segment sequence.
type vaCase struct {
	name string
	ops  []vaOp
}

// driverVAMismatch lists the recorded cases the address model does not
// reproduce, each with the reason. The GPU backend recorded all cases in one
// long-lived process, and memory it allocated outside the caching allocator
// (never recorded) changed the free space the driver had to offer:
const (
	// the 2 MiB range after the first chunk's single 2 MiB hole was taken
	// before the first segment, so a 20 MiB segment no longer fit there and
	// went to a new chunk (the model leaves room for it).
	tookFirstChunkTail = "first chunk's 20 MiB tail already partly taken"
	// a 96 MiB range below the top 32 MiB chunk slot was taken, so the
	// first segments larger than 32 MiB went below it and a later 20–32 MiB
	// segment went above them, into the top slot.
	tookHeapBelowTopSlot = "96 MiB below the top chunk slot taken"
)

var driverVAMismatch = map[string]string{
	"q016_max_split":        tookHeapBelowTopSlot,
	"q019_del_empty_cache":  tookHeapBelowTopSlot,
	"s004_nograd":           tookHeapBelowTopSlot,
	"q031_clip_zero_grad":   tookFirstChunkTail,
	"q032_inplace_views":    tookFirstChunkTail,
	"q034_eval_metrics":     tookFirstChunkTail,
	"q035_channels_last":    tookFirstChunkTail,
	"q038_multi_index":      tookFirstChunkTail,
	"q039_multi_index_grad": tookFirstChunkTail,
	"q044_dcgan":            tookFirstChunkTail,
	"s001_checkpoint":       tookFirstChunkTail,
}

// TestDriverVAReplay replays every recorded case's segment cudaMalloc/cudaFree
// sequence (sizes in order) through SimDevice, new chunks going down as they
// did in the GPU backend's one long process, and checks, after every step,
// that the live segments sort by simulated address exactly as they sorted by
// the real driver's addresses (absolute addresses need not match). The
// cases the model misses are listed in driverVAMismatch with the reason; a
// newly failing case, or a listed one that starts to match, fails the test.
func TestDriverVAReplay(t *testing.T) {
	if *vaRecord != "" {
		if err := writeDriverVA(*vaRecord, driverVAFile); err != nil {
			t.Fatal(err)
		}
	}
	cases, err := readDriverVA(driverVAFile)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 80 {
		t.Fatalf("%s: %d cases, want the 80 recorded", driverVAFile, len(cases))
	}
	matched := 0
	for _, c := range cases {
		step, msg := replayDriverVA(c, false)
		reason, listed := driverVAMismatch[c.name]
		switch {
		case step < 0 && listed:
			t.Errorf("%s: now reproduced; drop it from driverVAMismatch (%s)", c.name, reason)
		case step >= 0 && !listed:
			t.Errorf("%s: step %d: %s", c.name, step, msg)
		}
		if step < 0 {
			matched++
		}
	}
	t.Logf("address order reproduced in %d of %d recorded cases", matched, len(cases))
}

// TestDriverVAReplayH100 replays the segments of twelve oracle cases run by
// PyTorch itself on an H100 (one process per case; no segment was freed) and
// counts the pairs of segments the simulated addresses order as the real
// ones did. Neither direction reproduces the real layout (it moves with
// memory the simulator never sees: CUDA modules loaded lazily, the
// libraries' own allocations; q056's first three 32 MiB chunks went down,
// its later ones up), but new chunks going up, the default profile's model,
// orders more pairs in 11 of the 12 cases and more pairs of equal-size
// segments in all but q056 — equal free blocks are where the address
// decides best fit: q051 and q055 are exact with chunks going up, q056 only
// with chunks going down. The figures are pinned: a model change that moves
// them must say why here.
func TestDriverVAReplayH100(t *testing.T) {
	cases, err := readDriverVA("testdata/driver_va_h100.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2][4]int{ // case → {down, up}: pairs agreeing, pairs, equal-size agreeing, equal-size
		"q051_activations":          {{44, 105, 17, 35}, {80, 105, 35, 35}},
		"q053_pad_upsample":         {{42, 78, 10, 25}, {58, 78, 19, 25}},
		"q055_seq2seq_transformer":  {{395, 741, 223, 423}, {452, 741, 243, 423}},
		"q056_pointwise_math":       {{462, 630, 116, 182}, {239, 630, 87, 182}},
		"q057_reduce_products":      {{22, 28, 10, 11}, {23, 28, 11, 11}},
		"q058_scatter_index_models": {{15, 21, 6, 7}, {16, 21, 7, 7}},
		"q059_shape_creation":       {{5, 15, 1, 4}, {10, 15, 2, 4}},
		"q060_cells_bag":            {{32, 45, 21, 22}, {45, 45, 22, 22}},
		"q061_vision_modules":       {{16, 28, 4, 8}, {24, 28, 8, 8}},
		"q062_margin_losses":        {{21, 36, 8, 16}, {24, 36, 9, 16}},
		"q063_train_utils":          {{11, 21, 6, 11}, {12, 21, 7, 11}},
		"q064_large_masks":          {{6, 15, 0, 2}, {9, 15, 1, 2}},
	}
	if len(cases) != len(want) {
		t.Fatalf("%d cases, want the %d recorded", len(cases), len(want))
	}
	for _, c := range cases {
		for i, up := range []bool{false, true} {
			if got := pairOrder(t, c, up); got != want[c.name][i] {
				t.Errorf("%s upward=%v: pairs in real order %v, want %v", c.name, up, got, want[c.name][i])
			}
		}
	}
}

// pairOrder mallocs c's segments (c has no frees) on a fresh SimDevice and
// returns how many pairs of them the simulated addresses order as the real
// ones, of how many, and the same for pairs of equal size.
func pairOrder(t *testing.T, c vaCase, upward bool) [4]int {
	p, err := profile.Lookup(profile.DefaultName)
	if err != nil {
		t.Fatal(err)
	}
	p.Address.Upward = upward
	p.TotalMemory = 1 << 40
	d := NewSimDevice(p)
	sim := make([]uint64, len(c.ops))
	for i, op := range c.ops {
		if op.free {
			t.Fatalf("%s: op %d frees a segment", c.name, i)
		}
		if sim[i], err = d.Malloc(op.size); err != nil {
			t.Fatal(err)
		}
	}
	var n [4]int
	for i := range c.ops {
		for j := i + 1; j < len(c.ops); j++ {
			same := (c.ops[i].addr < c.ops[j].addr) == (sim[i] < sim[j])
			eq := c.ops[i].size == c.ops[j].size
			n[1]++
			if same {
				n[0]++
			}
			if eq {
				n[3]++
				if same {
					n[2]++
				}
			}
		}
	}
	return n
}

// replayDriverVA runs c through a fresh SimDevice of the default profile
// (every profile has the same address window) whose new chunks go upward or
// down. It returns the first step whose live segments sort differently from
// the recording (and what differed), or -1.
func replayDriverVA(c vaCase, upward bool) (int, string) {
	p, err := profile.Lookup(profile.DefaultName)
	if err != nil {
		return 0, err.Error()
	}
	p.Address.Upward = upward
	p.TotalMemory = 1 << 40 // only placement matters here (q017 holds 7 GiB)
	d := NewSimDevice(p)
	sim := map[uint64]uint64{} // real address → simulated address
	for i, op := range c.ops {
		if op.free {
			a, ok := sim[op.addr]
			if !ok {
				return i, fmt.Sprintf("free of unknown segment %#x", op.addr)
			}
			if err := d.Free(a, op.size); err != nil {
				return i, err.Error()
			}
			delete(sim, op.addr)
		} else {
			a, err := d.Malloc(op.size)
			if err != nil {
				return i, err.Error()
			}
			sim[op.addr] = a
		}
		real := make([]uint64, 0, len(sim))
		for r := range sim {
			real = append(real, r)
		}
		slices.Sort(real)
		bySim := slices.Clone(real)
		slices.SortFunc(bySim, func(a, b uint64) int { return cmp.Compare(sim[a], sim[b]) })
		if !slices.Equal(real, bySim) {
			return i, fmt.Sprintf("order by real address %s, by simulated address %s", vaOrder(real, real), vaOrder(bySim, real))
		}
	}
	return -1, ""
}

// vaOrder names each segment of addrs by its rank in real (ascending order).
func vaOrder(addrs, real []uint64) string {
	parts := make([]string, len(addrs))
	for i, a := range addrs {
		parts[i] = strconv.Itoa(slices.Index(real, a))
	}
	return strings.Join(parts, " ")
}

// readDriverVA parses the fixture: comment lines start with '#'; every other
// line is "NAME op op ...", op being +SIZE@ADDR (cudaMalloc) or -SIZE@ADDR
// (cudaFree), ADDR in hex.
func readDriverVA(path string) ([]vaCase, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("driver VA fixture: %w", err)
	}
	defer f.Close()
	var cases []vaCase
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		c := vaCase{name: fields[0]}
		for _, tok := range fields[1:] {
			size, addr, ok := strings.Cut(tok[1:], "@")
			n, err1 := strconv.ParseInt(size, 10, 64)
			a, err2 := strconv.ParseUint(addr, 0, 64)
			if !ok || err1 != nil || err2 != nil || (tok[0] != '+' && tok[0] != '-') {
				return nil, fmt.Errorf("driver VA fixture: %s: bad op %q", c.name, tok)
			}
			c.ops = append(c.ops, vaOp{free: tok[0] == '-', addr: a, size: n})
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("driver VA fixture: %w", err)
	}
	return cases, nil
}

// writeDriverVA extracts every segment_alloc/segment_free of the recorded
// streams in dir into the fixture at path.
func writeDriverVA(dir, path string) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		return fmt.Errorf("driver VA record %s: no streams (%v)", dir, err)
	}
	slices.Sort(files)
	var sb strings.Builder
	sb.WriteString("# Segment cudaMalloc (+SIZE@ADDR) and cudaFree (-SIZE@ADDR) of every oracle case run\n")
	sb.WriteString("# through the GPU backend (gpu/compare TestOracleCasesOnGPU) on an NVIDIA H200, driver\n")
	sb.WriteString("# 580.159.04, CUDA 13, all cases in one process: the real driver's addresses.\n")
	sb.WriteString("# Regenerate: go test ./sim/alloc -run TestDriverVAReplay -va-record DIR\n")
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			return fmt.Errorf("driver VA record: %w", err)
		}
		var rec struct {
			Device string `json:"device"`
			GPU    struct {
				Events []struct {
					Kind string `json:"kind"`
					Addr uint64 `json:"addr"`
					Size int64  `json:"size"`
				} `json:"events"`
			} `json:"gpu"`
		}
		if err := json.Unmarshal(raw, &rec); err != nil {
			return fmt.Errorf("driver VA record %s: %w", file, err)
		}
		if !strings.Contains(rec.Device, "H200") {
			return fmt.Errorf("driver VA record %s: device %q, want an H200", file, rec.Device)
		}
		sb.WriteString(strings.TrimSuffix(filepath.Base(file), ".json"))
		for _, e := range rec.GPU.Events {
			switch e.Kind {
			case "segment_alloc":
				fmt.Fprintf(&sb, " +%d@%#x", e.Size, e.Addr)
			case "segment_free":
				fmt.Fprintf(&sb, " -%d@%#x", e.Size, e.Addr)
			}
		}
		sb.WriteString("\n")
	}
	return os.WriteFile(path, []byte(sb.String()), 0o644)
}
