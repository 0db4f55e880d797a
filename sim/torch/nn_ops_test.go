package torch

import "testing"

// The figures below are the H100 oracle goldens' (sim/testdata/oracle/golden)
// for the same ops, relative to the tensors the test creates first.

// TestLossMemory checks l1/bce/bce-with-logits against p012_losses: what
// the forward keeps, its peak, and the backward's peak.
func TestLossMemory(t *testing.T) {
	const buf = 512 * 1000 * 4 // one [512, 1000] float32 tensor
	tests := []struct {
		name                  string
		loss                  func(rt *Runtime, logits, y *Tensor) (*Tensor, error)
		kept, fwdPeak, bwPeak int64 // over the two inputs
	}{
		{"l1", func(rt *Runtime, x, y *Tensor) (*Tensor, error) { return rt.L1Loss(x, y, "mean") },
			buf + 512, 2*buf + 1536, 4*buf + 1024},
		{"bce", func(rt *Runtime, x, y *Tensor) (*Tensor, error) {
			s, err := rt.Sigmoid(x)
			if err != nil {
				return nil, err
			}
			defer s.Release()
			return rt.BinaryCrossEntropy(s, y, nil, "mean")
		}, 2 * buf, 2*buf + 1536, 4*buf + 512},
		{"bcelogits", func(rt *Runtime, x, y *Tensor) (*Tensor, error) { return rt.BCEWithLogits(x, y, nil, nil, "mean") },
			512, 2*buf + 1536, 2*buf + 1536},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rt, a := newTestRuntime(t)
			x := must[*Tensor](t)(rt.Factory("randn", []int64{512, 1000}, Float32, CUDA0, true))
			y := must[*Tensor](t)(rt.Factory("rand", []int64{512, 1000}, Float32, CUDA0, false))
			base := a.Stats().Allocated
			loss := must[*Tensor](t)(tc.loss(rt, x, y))
			check(t, a, "forward", base+tc.kept, -1, base+tc.fwdPeak)
			ones := must[*Tensor](t)(rt.OnesLike(loss))
			if err := rt.Backward([]*Tensor{loss}, []*Tensor{ones}, BackwardOptions{}); err != nil {
				t.Fatal(err)
			}
			ones.Release()
			if got := a.Stats().PeakAllocated - base; got != tc.bwPeak {
				t.Errorf("backward peak %d over the inputs, want %d", got, tc.bwPeak)
			}
		})
	}
}

// TestSoftmaxExpandedGrad: p013_activations' Softmax backward copies the
// expanded gradient of sum() before _softmax_backward_data.
func TestSoftmaxExpandedGrad(t *testing.T) {
	rt, a := newTestRuntime(t)
	x := must[*Tensor](t)(rt.Factory("randn", []int64{1024, 1024}, Float32, CUDA0, true))
	y := must[*Tensor](t)(rt.Softmax(x, 1, false, nil))
	s := must[*Tensor](t)(rt.Sum(y, nil, false, nil))
	ones := must[*Tensor](t)(rt.OnesLike(s))
	if err := rt.Backward([]*Tensor{s}, []*Tensor{ones}, BackwardOptions{}); err != nil {
		t.Fatal(err)
	}
	const mb4 = 4 << 20
	check(t, a, "backward", 3*mb4+512+512, -1, 4*mb4+1024)
}

// TestBatchNormAndEmbedding replays p015_norm_embed's BatchNorm1d on
// [128, 256] (native kernels: the channels-last-shaped reduce) and the
// embedding backward with an expanded gradient.
func TestBatchNormAndEmbedding(t *testing.T) {
	rt, a := newTestRuntime(t)
	w, b := param(t, rt, "bn.weight", 256), param(t, rt, "bn.bias", 256)
	rm := must[*Tensor](t)(rt.Factory("zeros", []int64{256}, Float32, CUDA0, false))
	rv := must[*Tensor](t)(rt.Factory("ones", []int64{256}, Float32, CUDA0, false))
	x := must[*Tensor](t)(rt.Factory("randn", []int64{128, 256}, Float32, CUDA0, true))
	base := a.Stats().Allocated
	y := must[*Tensor](t)(rt.BatchNorm(BatchNormArgs{X: x, RunningMean: rm, RunningVar: rv, Weight: w, Bias: b, Training: true, Eps: 1e-5}))
	check(t, a, "bn forward", base+133120, -1, base+133120)
	s := must[*Tensor](t)(rt.Sum(y, nil, false, nil))
	ones := must[*Tensor](t)(rt.OnesLike(s))
	if err := rt.Backward([]*Tensor{s}, []*Tensor{ones}, BackwardOptions{}); err != nil {
		t.Fatal(err)
	}
	ones.Release()
	s.Release()
	check(t, a, "bn backward", base+133120-2048+131072+2048, -1, base+133120+136192)

	emb := param(t, rt, "emb.weight", 10000, 256)
	ids := must[*Tensor](t)(rt.Factory("randint", []int64{32, 64}, Int64, CUDA0, false))
	e := must[*Tensor](t)(rt.Embedding(ids, emb, -1))
	base = a.Stats().Allocated
	s = must[*Tensor](t)(rt.Sum(e, nil, false, nil))
	ones = must[*Tensor](t)(rt.OnesLike(s))
	if err := rt.Backward([]*Tensor{s}, []*Tensor{ones}, BackwardOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := a.Stats().PeakAllocated - base; got != 10240000+2097152+1024 {
		t.Errorf("embedding backward peak %d over the forward, want %d", got, 10240000+2097152+1024)
	}
}

// TestConvShapes checks conv1d/2d outputs (p014_conv_pool) and the
// layout-independent errors.
func TestConvShapes(t *testing.T) {
	rt, _ := newTestRuntime(t)
	tests := []struct {
		x, w             []int64
		stride, pad, dil []int64
		mode             ConvPadMode
		want             []int64
		wantErr          bool
	}{
		{[]int64{8, 16, 100}, []int64{32, 16, 3}, []int64{1}, []int64{1}, []int64{1}, PadExplicit, []int64{8, 32, 100}, false},
		{[]int64{16, 3, 64, 64}, []int64{16, 3, 3, 3}, []int64{1, 1}, []int64{1, 1}, []int64{1, 1}, PadExplicit, []int64{16, 16, 64, 64}, false},
		{[]int64{3, 64, 64}, []int64{16, 3, 3, 3}, []int64{2, 2}, []int64{0, 0}, []int64{1, 1}, PadExplicit, []int64{16, 31, 31}, false},
		{[]int64{2, 4, 10}, []int64{6, 4, 4}, []int64{1}, nil, []int64{1}, PadSame, []int64{2, 6, 10}, false},
		{[]int64{2, 5, 10}, []int64{6, 4, 4}, []int64{1}, []int64{0}, []int64{1}, PadExplicit, nil, true},
	}
	for i, tc := range tests {
		x := must[*Tensor](t)(rt.Factory("randn", tc.x, Float32, CUDA0, false))
		w := must[*Tensor](t)(rt.Factory("randn", tc.w, Float32, CUDA0, false))
		y, err := rt.Conv(x, w, nil, tc.stride, tc.pad, tc.dil, 1, tc.mode)
		if tc.wantErr {
			if err == nil {
				t.Errorf("case %d: no error", i)
			}
			continue
		}
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if !sameShape(y.Shape(), tc.want) {
			t.Errorf("case %d: shape %v, want %v", i, y.Shape(), tc.want)
		}
	}
}

// TestSDPAOutputLayout: p017's fp32 SDPA keeps only the output, laid out
// as [B, L, H, E] so that transpose(1, 2) is contiguous.
func TestSDPAOutputLayout(t *testing.T) {
	rt, a := newTestRuntime(t)
	var qkv [3]*Tensor
	for i := range qkv {
		qkv[i] = must[*Tensor](t)(rt.Factory("randn", []int64{16, 8, 128, 32}, Float32, CUDA0, false))
	}
	base := a.Stats().Allocated
	o := must[*Tensor](t)(rt.SDPA(qkv[0], qkv[1], qkv[2], nil, 0, false, 0))
	check(t, a, "sdpa", base+2097152, -1, -1)
	ot := must[*Tensor](t)(rt.Transpose(o, 1, 2))
	if !ot.IsContiguous() {
		t.Errorf("out.transpose(1, 2) is not contiguous: strides %v", ot.Strides())
	}
}
