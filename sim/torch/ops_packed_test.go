package torch

import (
	"strings"
	"testing"

	"github.com/gpumem/playground/sim/alloc"
	"github.com/gpumem/playground/sim/profile"
	"github.com/gpumem/playground/sim/trace"
)

// traceRuntime is a runtime over the simulated allocator that logs every
// allocator event into *evs.
func traceRuntime(evs *[]trace.Event) *Runtime {
	p := profile.Default()
	a := alloc.New(p, alloc.DefaultConfig(), alloc.NewSimDevice(p), func(e trace.Event) { *evs = append(*evs, e) })
	return NewRuntime(Config{CuBLASWorkspace: p.CuBLASWorkspace, CuBLASLtWorkspace: p.CuBLASLtWorkspace,
		InitCUDA: func() (Memory, error) { return AllocMemory{a}, nil }})
}

// TestPackPaddedSequence checks _pack_padded_sequence's shapes, batch
// sizes, allocations (one copy per non-contiguous block, the cat, the
// copies freed in order) and its backward (one zeros of the input size)
// against what PackedSequence.cpp does.
func TestPackPaddedSequence(t *testing.T) {
	lens := []int64{20, 18, 15, 15, 10, 7, 3, 1}
	cases := []struct {
		name       string
		shape      []int64
		lengths    []int64
		batchFirst bool
		dt         DType
		rows       int64
		sizes      []int64 // first batch sizes
		fwd, bwd   string
	}{
		{"sorted", []int64{20, 8, 64}, lens, false, Float32, 89, []int64{8, 7, 7, 6, 6, 6, 6, 5},
			"+1:3584 +2:6144 +3:3840 +4:5120 +5:1536 +6:512 +7:22784 -1 -2 -3 -4 -5 -6", "+1:40960"},
		// batch_first: the first block is strided too, the last ([2, 1, 64])
		// is not; AccumulateGrad copies the transposed gradient
		{"batch_first", []int64{8, 20, 64}, lens, true, Float32, 89, []int64{8, 7},
			"+1:2048 +2:3584 +3:6144 +4:3840 +5:5120 +6:1536 +7:22784 -1 -2 -3 -4 -5 -6", "+1:40960 +2:40960 -1"},
		// every sequence full: one contiguous block, only the cat allocates
		{"full", []int64{20, 8, 64}, []int64{20, 20, 20, 20, 20, 20, 20, 20}, false, Float32, 160, []int64{8, 8},
			"+1:40960", "+1:40960"},
		{"fp16 2-d", []int64{20, 8}, lens, false, Float16, 89, []int64{8, 7},
			"+1:28 +2:48 +3:30 +4:40 +5:12 +6:4 +7:178 -1 -2 -3 -4 -5 -6", "+1:320"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var evs []trace.Event
			rt := traceRuntime(&evs)
			x := must[*Tensor](t)(rt.Factory("randn", c.shape, c.dt, CUDA0, true))
			start := len(evs)
			data, bs, err := rt.PackPaddedSequence(x, c.lengths, c.batchFirst)
			if err != nil {
				t.Fatal(err)
			}
			if got := formatEvents(evs[start:]); got != c.fwd {
				t.Errorf("forward: %s\nwant     %s", got, c.fwd)
			}
			if data.shape[0] != c.rows || int64(len(bs)) != c.lengths[0] {
				t.Errorf("data %v, %d batch sizes", data.shape, len(bs))
			}
			for i, b := range c.sizes {
				if bs[i] != b {
					t.Errorf("batch_sizes %v, want prefix %v", bs, c.sizes)
					break
				}
			}
			if data.GradFn() == nil || data.GradFn().Name() != "PackPaddedSequenceBackward0" {
				t.Fatalf("grad_fn %v", data.GradFn())
			}
			g := must[*Tensor](t)(rt.OnesLike(data))
			start = len(evs)
			if err := rt.Backward([]*Tensor{data}, []*Tensor{g}, BackwardOptions{}); err != nil {
				t.Fatal(err)
			}
			if got := formatEvents(evs[start:]); got != c.bwd {
				t.Errorf("backward: %s\nwant      %s", got, c.bwd)
			}
			if gr := x.Grad(); gr == nil || !sameShape(gr.shape, c.shape) {
				t.Errorf("x.grad %v", gr)
			}
		})
	}
}

// TestPackPaddedSequenceErrors checks PyTorch's messages, in its order.
func TestPackPaddedSequenceErrors(t *testing.T) {
	cases := []struct {
		shape   []int64
		lengths []int64
		want    string
	}{
		{[]int64{20, 8, 4}, []int64{20, 18, 15, 15, 10, 7, 3}, "Expected `len(lengths)` to be equal to batch_size, but got 7 (batch_size=8)"},
		{[]int64{20, 2, 4}, []int64{20, 0}, "Length of all samples has to be greater than 0"},
		{[]int64{20, 3, 4}, []int64{15, 20, 3}, "`lengths` array must be sorted in decreasing order when `enforce_sorted` is True"},
		{[]int64{0, 3, 4}, []int64{1, 1, 1}, "Cannot pack empty tensors."},
		{[]int64{20}, []int64{20}, "Dimension out of range"},
	}
	for _, c := range cases {
		var evs []trace.Event
		rt := traceRuntime(&evs)
		x := must[*Tensor](t)(rt.Factory("randn", c.shape, Float32, CUDA0, false))
		_, _, err := rt.PackPaddedSequence(x, c.lengths, false)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v %v: error %v, want %q", c.shape, c.lengths, err, c.want)
		}
	}
}

// TestWeightNormInterface checks the fused kernel's outputs (w, then norms
// like g, float32 for half g), WeightNormInterfaceBackward0 and its
// backward's grad_v then grad_g.
func TestWeightNormInterface(t *testing.T) {
	cases := []struct {
		name     string
		v, g     []int64
		dim      int64
		dt       DType
		fwd, bwd string
		err      string
	}{
		{"linear dim0", []int64{256, 512}, []int64{256, 1}, 0, Float32, "+1:524288 +2:1024", "+1:524288 +2:1024", ""},
		{"conv1d dim0", []int64{256, 80, 7}, []int64{256, 1, 1}, 0, Float32, "+1:573440 +2:1024", "+1:573440 +2:1024", ""},
		{"linear last", []int64{256, 512}, []int64{1, 512}, 1, BFloat16, "+1:262144 +2:1024", "+1:262144 +2:1024", ""},
		{"half g", []int64{64, 32}, []int64{64, 1}, 0, Float16, "+1:4096 +2:256", "+1:4096 +2:128", ""},
		{"middle dim", []int64{4, 5, 6}, []int64{1, 5, 1}, 1, Float32, "", "", "dim must be 0 or the last dimension"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var evs []trace.Event
			rt := traceRuntime(&evs)
			v := must[*Tensor](t)(rt.Factory("randn", c.v, c.dt, CUDA0, true))
			g := must[*Tensor](t)(rt.Factory("randn", c.g, c.dt, CUDA0, true))
			start := len(evs)
			res, err := rt.WeightNormInterface(v, g, c.dim)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := formatEvents(evs[start:]); got != c.fwd {
				t.Errorf("forward: %s, want %s", got, c.fwd)
			}
			if res[0].GradFn().Name() != "WeightNormInterfaceBackward0" || !sameShape(res[0].shape, c.v) || !sameShape(res[1].shape, c.g) {
				t.Fatalf("outputs %v %v", res[0].shape, res[1].shape)
			}
			gr := must[*Tensor](t)(rt.OnesLike(res[0]))
			start = len(evs)
			if err := rt.Backward(res[:1], []*Tensor{gr}, BackwardOptions{}); err != nil {
				t.Fatal(err)
			}
			if got := formatEvents(evs[start:]); got != c.bwd {
				t.Errorf("backward: %s, want %s", got, c.bwd)
			}
		})
	}
}
