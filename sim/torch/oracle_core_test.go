package torch

import "testing"

// TestNoGradCase replays oracle case s004_nograd in Go: eval-mode forward
// keeping the graph, del, no_grad forward (figures recorded on an H100).
func TestNoGradCase(t *testing.T) {
	rt, a := newTestRuntime(t)
	w1, b1 := param(t, rt, "0.weight", 4096, 1024), param(t, rt, "0.bias", 4096)
	w2, b2 := param(t, rt, "2.weight", 4096, 4096), param(t, rt, "2.bias", 4096)
	w3, b3 := param(t, rt, "4.weight", 1000, 4096), param(t, rt, "4.bias", 1000)
	check(t, a, "weights", 100700160, 102760448, 100700160)
	x := must[*Tensor](t)(rt.Factory("randn", []int64{256, 1024}, Float32, CUDA0, false))
	check(t, a, "input", 101748736, 102760448, 101748736)
	forward := func() *Tensor {
		return seq(t, x,
			func(x *Tensor) (*Tensor, error) { return rt.Linear(x, w1, b1) }, rt.Relu,
			func(x *Tensor) (*Tensor, error) { return rt.Linear(x, w2, b2) }, rt.Relu,
			func(x *Tensor) (*Tensor, error) { return rt.Linear(x, w3, b3) })
	}
	out := forward()
	check(t, a, "graph kept", 145764352, 159383552, 148934656)
	if !out.RequiresGrad() || out.GradFn().Name() != "AddmmBackward0" {
		t.Errorf("output grad_fn %v", out.GradFn())
	}
	out.Release()
	check(t, a, "del outputs", 136351744, 159383552, 148934656)
	prev := rt.SetGradEnabled(false)
	out = forward()
	rt.SetGradEnabled(prev)
	check(t, a, "no_grad", 137375744, 159383552, 148934656)
	for _, p := range []*Tensor{out, x, w1, b1, w2, b2, w3, b3} {
		p.Release()
	}
	check(t, a, "end", 34603008, 159383552, 148934656)
	if len(rt.Bugs()) > 0 {
		t.Errorf("refcount bugs: %v", rt.Bugs())
	}
}

// TestCheckpointCasePlain replays the plain half of s001_checkpoint:
// eight Linear+ReLU blocks on an input requiring grad, sum, backward.
func TestCheckpointCasePlain(t *testing.T) {
	rt, a := newTestRuntime(t)
	var ws, bs []*Tensor
	for i := 0; i < 8; i++ {
		ws = append(ws, param(t, rt, "w", 1024, 1024))
		bs = append(bs, param(t, rt, "b", 1024))
	}
	check(t, a, "params", 33587200, 44040192, -1)
	x := must[*Tensor](t)(rt.Factory("randn", []int64{512, 1024}, Float32, CUDA0, true))
	check(t, a, "x", 35684352, 44040192, 35684352)
	h := x.Retain()
	for i := 0; i < 8; i++ {
		nh := seq(t, h, func(x *Tensor) (*Tensor, error) { return rt.Linear(x, ws[i], bs[i]) }, rt.Relu)
		h.Release()
		h = nh
		if i == 0 {
			check(t, a, "block 1", 72384512, 77594624, 74481664)
		}
	}
	loss := must[*Tensor](t)(rt.Sum(h, nil, false, nil))
	h.Release()
	check(t, a, "forward", 87065088, 98566144, 89161728)
	if err := rt.Backward([]*Tensor{loss}, nil, BackwardOptions{}); err != nil {
		t.Fatal(err)
	}
	check(t, a, "backward", 139526656, 153092096, 141624320)
	loss.Release()
	check(t, a, "del loss", 139526144, 153092096, 141624320)
	if err := x.SetGrad(nil); err != nil {
		t.Fatal(err)
	}
	check(t, a, "x.grad = None", 137428992, -1, -1)
}

// TestConvAccumCase replays the first iteration of oracle case s003_accum:
// conv → relu → max-pool → view → linear, cross-entropy, loss / 4, backward.
func TestConvAccumCase(t *testing.T) {
	rt, a := newTestRuntime(t)
	cw, cb := param(t, rt, "conv1.weight", 64, 3, 3, 3), param(t, rt, "conv1.bias", 64)
	fw, fb := param(t, rt, "fc.weight", 10, 64*16*16), param(t, rt, "fc.bias", 10)
	check(t, a, "model", 663552, 2097152, -1)
	x := must[*Tensor](t)(rt.Factory("randn", []int64{64, 3, 32, 32}, Float32, CUDA0, false))
	y := must[*Tensor](t)(rt.Factory("randint", []int64{64}, Int64, CUDA0, false))
	check(t, a, "data", 1450496, 2097152, -1)
	c := must[*Tensor](t)(rt.Conv2d(x, cw, cb, [2]int64{1, 1}, [2]int64{1, 1}, [2]int64{1, 1}, 1))
	r := must[*Tensor](t)(rt.Relu(c))
	c.Release()
	h := must[*Tensor](t)(rt.MaxPool2d(r, [2]int64{2, 2}, [2]int64{2, 2}, [2]int64{}, [2]int64{1, 1}, false))
	r.Release()
	check(t, a, "conv block", 30810624, 35651584, 35004928)
	v := must[*Tensor](t)(rt.View(h, []int64{64, -1}))
	h.Release()
	out := must[*Tensor](t)(rt.Linear(v, fw, fb))
	v.Release()
	check(t, a, "forward", 65416192, 71303168, 65416192)
	loss := must[*Tensor](t)(rt.CrossEntropy(out, y, "mean"))
	check(t, a, "criterion", 65419776, 71303168, 65419776)
	l2 := must[*Tensor](t)(rt.DivScalar(loss, Int(4)))
	loss.Release()
	check(t, a, "loss / 4", 65419776, 71303168, 65420288)
	if err := rt.Backward([]*Tensor{l2}, nil, BackwardOptions{}); err != nil {
		t.Fatal(err)
	}
	check(t, a, "backward", 70274560, 121634816, 120599040)
}

// TestMseModelCase replays s002_model's loss and backward: five small
// Linear layers without activations, MSE loss, backward.
func TestMseModelCase(t *testing.T) {
	rt, a := newTestRuntime(t)
	x := must[*Tensor](t)(rt.Factory("randn", []int64{10, 3}, Float32, CUDA0, false))
	lbl := must[*Tensor](t)(rt.Factory("randn", []int64{10, 100}, Float32, CUDA0, false))
	dims := [][2]int64{{3, 300}, {300, 300}, {300, 400}, {400, 300}, {300, 100}}
	var ws, bs []*Tensor
	for _, d := range dims {
		ws = append(ws, param(t, rt, "w", d[1], d[0]))
		bs = append(bs, param(t, rt, "b", d[1]))
	}
	check(t, a, "model", 1457152, 2097152, -1)
	h := x.Retain()
	for i := range dims {
		nh := must[*Tensor](t)(rt.Linear(h, ws[i], bs[i]))
		h.Release()
		h = nh
	}
	check(t, a, "forward", 36117504, 37748736, -1)
	loss := must[*Tensor](t)(rt.MseLoss(h, lbl, "mean"))
	check(t, a, "loss", 36121600, 37748736, 36125696)
	if err := rt.Backward([]*Tensor{loss}, nil, BackwardOptions{}); err != nil {
		t.Fatal(err)
	}
	check(t, a, "backward", 71075328, 71303168, 71107072)
}
