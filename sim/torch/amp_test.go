package torch

import "testing"

// TestAmpCase replays oracle case s001_amp: an fp32 step, then an autocast
// (fp16) forward with the weight-cast cache, cache clearing on exit, and a
// GradScaler-style scaled backward. With the reduction scratch of the bias
// gradients (q2/q3) the peak is the H100's, and with the loss keeping
// mse_loss's second buffer the scratch fits in freed blocks (reserved as on
// the H100).
func TestAmpCase(t *testing.T) {
	rt, a := newTestRuntime(t)
	w1, b1 := param(t, rt, "0.weight", 2048, 2048), param(t, rt, "0.bias", 2048)
	w2, b2 := param(t, rt, "2.weight", 2048, 2048), param(t, rt, "2.bias", 2048)
	x := must[*Tensor](t)(rt.Factory("randn", []int64{1024, 2048}, Float32, CUDA0, false))
	y := must[*Tensor](t)(rt.Factory("randn", []int64{1024, 2048}, Float32, CUDA0, false))
	check(t, a, "data", 50348032, 56623104, -1)
	forward := func() *Tensor {
		return seq(t, x, func(x *Tensor) (*Tensor, error) { return rt.Linear(x, w1, b1) }, rt.Relu,
			func(x *Tensor) (*Tensor, error) { return rt.Linear(x, w2, b2) })
	}
	out := forward()
	check(t, a, "fp32 forward", 101728256, 111149056, -1)
	loss := must[*Tensor](t)(rt.MseLoss(out, y, "mean"))
	check(t, a, "fp32 loss", 110116864, 132120576, -1)
	if err := rt.Backward([]*Tensor{loss}, nil, BackwardOptions{}); err != nil {
		t.Fatal(err)
	}
	check(t, a, "fp32 backward", 168853504, 220200960, 194020352)
	if p := a.Stats().PeakAllocated; p != 194020352 {
		t.Logf("fp32 backward peak %d, H100 194020352 (known gap)", p)
	}
	for _, p := range []*Tensor{w1, b1, w2, b2} {
		if err := p.SetGrad(nil); err != nil {
			t.Fatal(err)
		}
	}
	out.Release()
	loss.Release()
	check(t, a, "after step", 118505472, -1, -1)

	rt.AutocastEnter()
	rt.SetAutocast(true, Float16)
	out = forward()
	check(t, a, "amp forward", 147873792, -1, -1)
	loss = must[*Tensor](t)(rt.MseLoss(out, y, "mean"))
	check(t, a, "amp loss", 164651008, -1, -1)
	rt.SetAutocast(false, Float16)
	rt.AutocastExit()
	check(t, a, "autocast exit", 156254208, -1, -1)

	scale := must[*Tensor](t)(rt.Factory("full", nil, Float32, CUDA0, false))
	growth := must[*Tensor](t)(rt.Factory("full", nil, Int32, CUDA0, false))
	scaled := must[*Tensor](t)(rt.Mul(loss, scale))
	if err := rt.Backward([]*Tensor{scaled}, nil, BackwardOptions{}); err != nil {
		t.Fatal(err)
	}
	scaled.Release()
	check(t, a, "amp backward", 164660224, -1, -1)
	if p := a.Stats().PeakAllocated; p != 194020352 {
		t.Logf("overall peak %d, H100 194020352", p)
	}
	for _, p := range []*Tensor{out, loss, scale, growth, x, y, w1, b1, w2, b2} {
		p.Release()
	}
	check(t, a, "end", 68157440, -1, -1)
	if len(rt.Bugs()) > 0 {
		t.Error(rt.Bugs())
	}
}
