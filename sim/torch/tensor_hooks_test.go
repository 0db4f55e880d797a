package torch

import "testing"

// scaleHook is a GradHook returning grad * 3 (or nil when keep is set),
// counting its calls.
type scaleHook struct {
	rt       *Runtime
	keep     bool
	calls    int
	released bool
}

func (h *scaleHook) Call(g *Tensor) (*Tensor, error) {
	h.calls++
	if h.keep {
		return nil, nil
	}
	return h.rt.MulScalar(g, Int(3))
}

func (h *scaleHook) Release() { h.released = true }

// TestRegisterHookMemory checks register_hook on a leaf and a non-leaf
// (x: 100 floats; loss (h * h).sum() with h = x or x * 2): hooks run in
// order on the previous result, a replacement's predecessor dies when it
// is replaced, the original gradient after the last hook (q23's
// "register_hook" lines: leaf, nonleaf-new, nonleaf-none, removed, two).
func TestRegisterHookMemory(t *testing.T) {
	cases := []struct {
		name    string
		nonLeaf bool
		hooks   []bool // keep (return None) per hook
		remove  bool   // remove the first hook before backward
		bwd     []int64
	}{
		// seed, the two products (summed into the second), the hook's
		// result, then the original and the seed die
		{"leaf", false, []bool{false}, false, []int64{4, 400, 400, -400, 400, -400, -4}},
		{"nonleaf new", true, []bool{false}, false, []int64{4, 400, 400, -400, 400, -400, 400, -400, -4}},
		{"nonleaf none", true, []bool{true}, false, []int64{4, 400, 400, -400, 400, -400, -4}},
		{"removed", true, []bool{false}, true, []int64{4, 400, 400, -400, 400, -400, -4}},
		// the second hook's result replaces the first's, which dies first
		{"two", true, []bool{false, false}, false, []int64{4, 400, 400, -400, 400, 400, -400, -400, 400, -400, -4}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rt, m := newRecRuntime()
			x := must[*Tensor](t)(rt.Factory("empty", []int64{100}, Float32, CUDA0, true))
			h := x
			if c.nonLeaf {
				h = must[*Tensor](t)(rt.MulScalar(x, Int(2)))
			}
			var hs []*scaleHook
			var list *HookList
			var first int
			for i, keep := range c.hooks {
				sh := &scaleHook{rt: rt, keep: keep}
				l, id, err := rt.RegisterHook(h, sh)
				if err != nil {
					t.Fatal(err)
				}
				if i == 0 {
					list, first = l, id
				}
				hs = append(hs, sh)
			}
			if c.remove {
				list.Remove(first)
				if !hs[0].released || list.Len() != 0 {
					t.Errorf("remove: released %v, %d hooks left", hs[0].released, list.Len())
				}
			}
			p := must[*Tensor](t)(rt.Mul(h, h))
			y := must[*Tensor](t)(rt.Sum(p, nil, false, nil))
			p.Release()
			m.log = nil
			if err := rt.Backward([]*Tensor{y}, nil, BackwardOptions{}); err != nil {
				t.Fatal(err)
			}
			compareLog(t, "backward", m.log, c.bwd)
			for i, sh := range hs {
				want := 1
				if c.remove && i == 0 {
					want = 0
				}
				if sh.calls != want {
					t.Errorf("hook %d ran %d times, want %d", i, sh.calls, want)
				}
			}
		})
	}
}

// TestRegisterHookNoGrad checks PyTorch's message for a tensor that does
// not require grad.
func TestRegisterHookNoGrad(t *testing.T) {
	rt, _ := newRecRuntime()
	x := must[*Tensor](t)(rt.Factory("empty", []int64{3}, Float32, CUDA0, false))
	_, _, err := rt.RegisterHook(x, &scaleHook{rt: rt})
	want := "cannot register a hook on a tensor that doesn't require gradient"
	if err == nil || err.Error() != want {
		t.Errorf("%v, want %q", err, want)
	}
}
