package script

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gpumem/playground/gpu/gputest"
	"github.com/gpumem/playground/sim"
)

// gpuOut names a folder of outputs of the real GPU backend
// (<family>.gpu.out, from `playground run --backend gpu` on the device):
// with it, TestValuesAgainstPyTorch compares those instead of running the
// CPU reference.
var gpuOut = flag.String("gpu-out", "", "compare <family>.gpu.out files of this folder with the PyTorch outputs")

// TestValuesAgainstPyTorch runs every testdata/torch/*.py on the CPU
// reference of the GPU backend and compares its stdout with what PyTorch
// 2.11 printed for the same script on a GPU (the .torch.out next to it):
// the same text, numbers equal within a tolerance (see sameNumbers), and no
// "not computed" anywhere.
func TestValuesAgainstPyTorch(t *testing.T) {
	scripts, err := filepath.Glob("testdata/torch/*.py")
	if err != nil {
		t.Fatal(err)
	}
	if len(scripts) == 0 {
		t.Fatal("no testdata/torch/*.py")
	}
	for _, path := range scripts {
		family := strings.TrimSuffix(filepath.Base(path), ".py")
		t.Run(family, func(t *testing.T) {
			var got string
			if *gpuOut != "" {
				b, err := os.ReadFile(filepath.Join(*gpuOut, family+".gpu.out"))
				if err != nil {
					t.Skipf("no GPU output: %v", err)
				}
				got = scriptStdout(string(b))
			} else {
				got = runReference(t, path)
			}
			want, err := os.ReadFile(strings.TrimSuffix(path, ".py") + ".torch.out")
			if err != nil {
				t.Fatalf("no PyTorch output recorded for %s (%v); this run printed:\n%s", path, err, got)
			}
			for _, d := range compareOutputs(got, string(want)) {
				t.Error(d)
			}
		})
	}
}

// runReference runs a script on the fake device with the pure-Go kernels.
func runReference(t *testing.T, path string) string {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dev := gputest.New(gputest.Options{Compute: true})
	run, err := Run(context.Background(), dev, sim.Request{Script: string(src), Filename: filepath.Base(path)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if run.Result.Error != nil {
		t.Fatalf("script error: %s", run.Result.Error.Traceback)
	}
	return run.Result.Stdout
}

// numberRE matches the numbers of PyTorch's printing: decimals with an
// optional exponent, inf and nan.
var numberRE = regexp.MustCompile(`-?(?:\d+\.?\d*(?:e[+-]?\d+)?|\.\d+(?:e[+-]?\d+)?|inf|nan)`)

// records splits an output into printed values: a line and the indented
// or empty lines after it (a multi-line tensor).
func records(s string) []string {
	var out []string
	for _, line := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		if n := len(out); n > 0 && (line == "" || strings.HasPrefix(line, " ")) {
			out[n-1] += "\n" + line
			continue
		}
		out = append(out, line)
	}
	return out
}

// compareOutputs lists the differences between got and want, record by
// record: "not computed", a different text around the numbers, or a number
// outside the tolerance.
func compareOutputs(got, want string) []string {
	var diffs []string
	if strings.Contains(got, "not computed") {
		diffs = append(diffs, "output has values that were not computed")
	}
	g, w := records(got), records(want)
	if len(g) != len(w) {
		diffs = append(diffs, fmt.Sprintf("%d records, want %d", len(g), len(w)))
	}
	for i := 0; i < min(len(g), len(w)) && len(diffs) < 20; i++ {
		if d := compareRecord(g[i], w[i]); d != "" {
			diffs = append(diffs, fmt.Sprintf("record %d: %s\n got: %s\nwant: %s", i+1, d, g[i], w[i]))
		}
	}
	return diffs
}

// compareRecord compares one record: the text between the numbers must be
// equal byte for byte (the model prints as torch/_tensor_str.py: widths,
// line wraps, suffixes), and each number equal within tolerance(record).
func compareRecord(got, want string) string {
	gt, wt := numberRE.Split(got, -1), numberRE.Split(want, -1)
	if len(gt) != len(wt) {
		return fmt.Sprintf("%d numbers, want %d", len(gt)-1, len(wt)-1)
	}
	for i := range wt {
		if gt[i] != wt[i] {
			return fmt.Sprintf("text differs after number %d: %q, want %q", i, gt[i], wt[i])
		}
	}
	gn, wn := numberRE.FindAllString(got, -1), numberRE.FindAllString(want, -1)
	rel, abs := tolerance(want)
	for i := range wn {
		if !sameNumbers(gn[i], wn[i], rel, abs) {
			return fmt.Sprintf("number %d: %s, want %s", i+1, gn[i], wn[i])
		}
	}
	return ""
}

// tolerance is rel 1e-4 / abs 1e-5, or the dtype's epsilon for a record
// that names float16 or bfloat16 (values rounded to 11 or 8 bits), or
// rel/abs 1e-12 for one that names float64 (computed in float64: an f32
// computation is off by ~1e-8; the printed digits still bound it), or 0
// for one that names "exact int" (integer arithmetic is exact: 2^40 + 1
// must not pass for 2^40).
func tolerance(record string) (rel, abs float64) {
	switch {
	case strings.Contains(record, "exact int"):
		return 0, 0
	case strings.Contains(record, "float64"):
		return 1e-12, 1e-12
	case strings.Contains(record, "bfloat16"):
		return 1.0 / 128, 1.0 / 128
	case strings.Contains(record, "float16") || strings.Contains(record, "half"):
		return 1.0 / 1024, 1.0 / 1024
	}
	return 1e-4, 1e-5
}

// sameNumbers reports a and b equal within rel and abs, or within one unit
// of the last digit either prints (PyTorch prints 4 decimals: two values a
// hair apart can round to neighbouring last digits).
func sameNumbers(a, b string, rel, abs float64) bool {
	if a == b {
		return true
	}
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	if err1 != nil || err2 != nil || math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
		return false
	}
	tol := max(abs, rel*math.Abs(y), lastDigit(a), lastDigit(b))
	return math.Abs(x-y) <= tol*(1+1e-9) // 0.2134−0.2133 is a hair above 1e-4 in binary
}

// lastDigit is the value of one unit in the last printed digit of a
// decimal ("0.0900" → 1e-4; "3." → 1; "1.5e-03" → 1e-4); 0 for an
// integer, which must match exactly.
func lastDigit(s string) float64 {
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant = s[:i]
		exp, _ = strconv.Atoi(s[i+1:])
	}
	i := strings.IndexByte(mant, '.')
	if i < 0 && exp == 0 {
		return 0 // an integer: exact
	}
	dec := 0
	if i >= 0 {
		dec = len(mant) - i - 1
	}
	return math.Pow(10, float64(exp-dec))
}

// scriptStdout cuts what `playground run --backend gpu` prints after the
// script's own output: a blank line, the GPU's name and the per-line table.
func scriptStdout(s string) string {
	i := strings.LastIndex(s, "\nline  code ")
	if i < 0 {
		return s
	}
	s = s[:i]
	if j := strings.LastIndex(s, "\n\n"); j >= 0 {
		s = s[:j+1]
	}
	return s
}

// TestCompareRecord checks the comparator: exact text, numbers within
// tolerance.
func TestCompareRecord(t *testing.T) {
	cases := []struct {
		got, want string
		ok        bool
	}{
		{"tensor([1.0000, 2.0000])", "tensor([1.0000, 2.0000])", true},
		{"tensor([1.0001, 2.0000])", "tensor([1.0000, 2.0000])", true},
		{"tensor([1.0100, 2.0000])", "tensor([1.0000, 2.0000])", false},
		{"tensor([ 1.0000, 2.0000])", "tensor([1.0000, 2.0000])", false},
		{"tensor([1., 2.],\n       device='cuda:0')", "tensor([1., 2.], device='cuda:0')", false},
		{"tensor([0.5000], dtype=torch.float16)", "tensor([0.5005], dtype=torch.float16)", true},
		{"tensor(3)", "tensor(4)", false},
		{"tensor([inf, nan])", "tensor([inf, nan])", true},
		{"tensor([inf])", "tensor([nan])", false},
	}
	for _, c := range cases {
		if d := compareRecord(c.got, c.want); (d == "") != c.ok {
			t.Errorf("compareRecord(%q, %q) = %q, want ok=%v", c.got, c.want, d, c.ok)
		}
	}
}
