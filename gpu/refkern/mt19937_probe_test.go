package refkern

import (
	"bufio"
	"encoding/json"
	"math"
	"math/bits"
	"os"
	"testing"

	"github.com/gpumem/playground/gpu/kernels"
)

// probeRecord is one line of gpu/testdata/rng/probe-out.jsonl: the exact
// bits of one output of PyTorch 2.11 (see gpu/testdata/rng/probe.py).
type probeRecord struct {
	Name     string  `json:"name"`
	Device   string  `json:"device"`
	DType    string  `json:"dtype"`
	Shape    []int64 `json:"shape"`
	Bits     []int64 `json:"bits"`
	Head     []int64 `json:"head"`
	Tail     []int64 `json:"tail"`
	Checksum uint64  `json:"checksum"`
}

// loadProbe reads the recorded outputs of one device by name.
func loadProbe(t *testing.T, device string) map[string]probeRecord {
	t.Helper()
	f, err := os.Open("../testdata/rng/probe-out.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs := map[string]probeRecord{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var r probeRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if r.Device == device {
			recs[r.Name] = r
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return recs
}

// probeChecksum is probe.py's checksum: Σ (i+1)·bits[i] (bits as unsigned
// 64-bit) mod 2^61 − 1.
func probeChecksum(b []int64) uint64 {
	const p = 1<<61 - 1
	var sum uint64
	for i, v := range b {
		hi, lo := bits.Mul64(uint64(i+1), uint64(v))
		_, r := bits.Div64(hi%p, lo, p)
		sum = (sum + r) % p
	}
	return sum
}

// bitsOf are the probe's bits of float values of a dtype name.
func bitsOf(dtype string, vals []float64) []int64 {
	out := make([]int64, len(vals))
	for i, v := range vals {
		switch dtype {
		case "torch.float32":
			out[i] = int64(int32(math.Float32bits(float32(v))))
		case "torch.float64":
			out[i] = int64(math.Float64bits(v))
		case "torch.float16":
			out[i] = int64(int16(kernels.F16Bits(float32(v))))
		case "torch.bfloat16":
			out[i] = int64(int16(kernels.BF16Bits(float32(v))))
		default:
			out[i] = int64(v)
		}
	}
	return out
}

// ulpDiff is the distance in units in the last place between two bit
// patterns of a float type of width bits, read as signed integers as the
// probe records them (sign-magnitude mapped onto one line).
func ulpDiff(width uint, a, b int64) int64 {
	line := func(v int64) int64 {
		if v < 0 {
			return -(1 << (width - 1)) - v
		}
		return v
	}
	d := line(a) - line(b)
	if d < 0 {
		d = -d
	}
	return d
}
