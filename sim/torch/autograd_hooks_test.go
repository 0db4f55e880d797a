package torch

import (
	"errors"
	"testing"
)

// recHooks is a SavedTensorHooks that keeps a detached alias (as
// checkpoint's hooks do: keeping an output itself would be a reference
// cycle through its grad_fn, in PyTorch too) and records what the pack hook
// saw; fail makes the n-th pack fail.
type recHooks struct {
	seen []bool // per pack: the tensor required grad (had its history)
	fail int
}

func (h *recHooks) Pack(t *Tensor) (any, error) {
	h.seen = append(h.seen, t.RequiresGrad())
	if len(h.seen) == h.fail {
		return nil, errors.New("stop")
	}
	return t.detachAlias(), nil
}
func (h *recHooks) Unpack(p any) (*Tensor, error) { return p.(*Tensor).Retain(), nil }
func (h *recHooks) Drop(p any)                    { p.(*Tensor).Release() }

// TestPackHookSeesOutputHistory checks that an op's own output reaches the
// pack hook after set_history (it requires grad), as in PyTorch, and that a
// failing hook's error is kept for the binding (TakeError) while the op
// finishes.
func TestPackHookSeesOutputHistory(t *testing.T) {
	for _, tc := range []struct {
		name string
		fail int
		seen []bool
	}{
		{"output packed after history", 0, []bool{true}},
		{"failing pack is reported", 1, []bool{true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rt, m := newRecRuntime()
			x := must[*Tensor](t)(rt.Factory("empty", []int64{4}, Float32, CUDA0, true))
			h := &recHooks{fail: tc.fail}
			rt.PushSavedTensorHooks(h)
			y := must[*Tensor](t)(rt.Relu(x)) // ReluBackward0 saves its result
			rt.PopSavedTensorHooks()
			if len(h.seen) != len(tc.seen) || h.seen[0] != tc.seen[0] {
				t.Fatalf("pack saw requires_grad %v, want %v", h.seen, tc.seen)
			}
			if err := rt.TakeError(); (err != nil) != (tc.fail > 0) {
				t.Fatalf("TakeError = %v, want an error: %v", err, tc.fail > 0)
			}
			if rt.TakeError() != nil {
				t.Fatal("TakeError must clear the error")
			}
			y.Release()
			x.Release()
			if m.live != 0 || len(rt.Bugs()) > 0 {
				t.Fatalf("live %d bugs %v", m.live, rt.Bugs())
			}
		})
	}
}

// TestGradComputesOnlyNeededInputs checks exec_info: autograd.grad with
// respect to a alone does not compute the gradient of b in MulBackward0.
func TestGradComputesOnlyNeededInputs(t *testing.T) {
	rt, m := newRecRuntime()
	a := must[*Tensor](t)(rt.Factory("empty", []int64{10}, Float32, CUDA0, true))
	b := must[*Tensor](t)(rt.Factory("empty", []int64{10}, Float32, CUDA0, true))
	p := must[*Tensor](t)(rt.Mul(a, b))
	l := must[*Tensor](t)(rt.Sum(p, nil, false, nil))
	m.log = nil
	gs, err := rt.Grad([]*Tensor{l}, []*Tensor{a}, nil, BackwardOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n40 := 0
	for _, v := range m.log {
		if v == 40 {
			n40++
		}
	}
	if n40 != 1 {
		t.Fatalf("allocations %v: want one 40-byte gradient (a's only)", m.log)
	}
	releaseAll(append(gs, l, p, a, b))
	if m.live != 0 || len(rt.Bugs()) > 0 {
		t.Fatalf("live %d bugs %v", m.live, rt.Bugs())
	}
}

// TestForeachNorm checks the fast route's memory events: the zeroed
// per-chunk buffer (ntensors * max_chunks floats), one 0-dim result per
// tensor, then the buffer is freed.
func TestForeachNorm(t *testing.T) {
	rt, m := newRecRuntime()
	a := must[*Tensor](t)(rt.Factory("empty", []int64{foreachChunk + 1}, Float32, CUDA0, false))
	b := must[*Tensor](t)(rt.Factory("empty", []int64{10}, Float32, CUDA0, false))
	m.log = nil
	out := must[[]*Tensor](t)(rt.ForeachNorm([]*Tensor{a, b}))
	want := []int64{2 * 2 * 4, 4, 4, -16}
	if len(m.log) != len(want) {
		t.Fatalf("log %v, want %v", m.log, want)
	}
	for i := range want {
		if m.log[i] != want[i] {
			t.Fatalf("log %v, want %v", m.log, want)
		}
	}
	releaseAll(append(out, a, b))
	if m.live != 0 {
		t.Fatalf("live %d", m.live)
	}
}

type releaseCount struct{ n *int }

func (r releaseCount) Release() { *r.n++ }

// TestCustomNode checks a torch.autograd.Function node: edges to its tensor
// inputs, saved tensors released by backward, the owner released when the
// node dies, and the number of gradients checked.
func TestCustomNode(t *testing.T) {
	rt, m := newRecRuntime()
	x := must[*Tensor](t)(rt.Factory("empty", []int64{10}, Float32, CUDA0, true))
	n := rt.NewCustomNode("MyFnBackward", []*Tensor{x})
	y := must[*Tensor](t)(rt.Factory("empty", []int64{10}, Float32, CUDA0, false))
	n.SetOutputs([]*Tensor{y})
	if err := n.SaveForBackward([]*Tensor{x, y}); err != nil {
		t.Fatal(err)
	}
	released := 0
	n.SetCustom(releaseCount{&released}, func(grads []*Tensor) ([]*Tensor, error) {
		saved, err := n.SavedTensors()
		if err != nil {
			return nil, err
		}
		releaseAll(saved)
		return []*Tensor{grads[0].Retain()}, nil
	})
	n.Release()
	if !y.RequiresGrad() || y.GradFn() != n {
		t.Fatal("output has no history")
	}
	l := must[*Tensor](t)(rt.Sum(y, nil, false, nil))
	if err := rt.Backward([]*Tensor{l}, nil, BackwardOptions{}); err != nil {
		t.Fatal(err)
	}
	if x.Grad() == nil {
		t.Fatal("no gradient reached the input")
	}
	if _, err := n.SavedTensors(); err == nil {
		t.Fatal("saved tensors survive backward")
	}
	l.Release()
	y.Release()
	if released != 1 {
		t.Fatalf("owner released %d times, want 1", released)
	}
	x.Release()
	if m.live != 0 || len(rt.Bugs()) > 0 {
		t.Fatalf("live %d bugs %v", m.live, rt.Bugs())
	}
}
