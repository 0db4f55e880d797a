package torch

import (
	"os"
	"strings"
	"testing"

	"github.com/gpumem/playground/sim/alloc"
	"github.com/gpumem/playground/sim/profile"
	"github.com/gpumem/playground/sim/trace"
)

// TestMathFollowupReplays replays the backward traces of
// testdata/questions/q20b_math_followup.out: loss = sum of the op's
// outputs' sums on a fresh leaf, loss.backward() (its implicit ones
// gradient is the first allocation).
func TestMathFollowupReplays(t *testing.T) {
	data, err := os.ReadFile("testdata/questions/q20b_math_followup.out")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, l := range strings.Split(string(data), "\n") {
		if p := strings.SplitN(l, " | B: ", 2); len(p) == 2 {
			want[p[0]] = p[1]
		}
	}
	cases := map[string]func(rt *Runtime, y *Tensor) ([]*Tensor, error){
		"std_mean both": func(rt *Runtime, y *Tensor) ([]*Tensor, error) {
			a, b, err := rt.StdVarMean("std", y, []int64{1}, 1, false)
			return []*Tensor{a, b}, err
		},
		"var_mean both all": func(rt *Runtime, y *Tensor) ([]*Tensor, error) {
			a, b, err := rt.StdVarMean("var", y, nil, 1, false)
			return []*Tensor{a, b}, err
		},
		"amax dim1": func(rt *Runtime, y *Tensor) ([]*Tensor, error) {
			r, err := rt.AmaxDims("amax", y, []int64{1}, false)
			return []*Tensor{r}, err
		},
		"amin dims keep": func(rt *Runtime, y *Tensor) ([]*Tensor, error) {
			r, err := rt.AmaxDims("amin", y, []int64{0, 1}, true)
			return []*Tensor{r}, err
		},
	}
	for name, op := range cases {
		t.Run(name, func(t *testing.T) {
			w, ok := want[name]
			if !ok {
				t.Fatalf("%s: not in the recording", name)
			}
			// the recording's items share y: only the first finds no .grad
			got := followupBackward(t, op, name != "std_mean both")
			// the recording's tail frees blocks of earlier items (y.grad
			// of the previous item, saved tensors): compare the node's part
			if cut := strings.Index(w, " -?"); cut >= 0 {
				w = w[:cut]
			}
			if !strings.HasPrefix(got, w) {
				t.Errorf("backward\n got: %s\nwant: %s ...", got, w)
			}
		})
	}
}

// followupBackward builds y (64x1000, a leaf, with a .grad when hasGrad),
// loss = sum of the sums of op(y)'s outputs, and returns loss.backward()'s
// trace.
func followupBackward(t *testing.T, op func(rt *Runtime, y *Tensor) ([]*Tensor, error), hasGrad bool) string {
	t.Helper()
	var evs []trace.Event
	rt := newEventRuntime(&evs)
	y := rnd(Float32, true, 64, 1000)(rt)[0]
	if hasGrad {
		y.grad = must[*Tensor](t)(rt.ZerosLike(y))
	}
	outs, err := op(rt, y)
	if err != nil {
		t.Fatal(err)
	}
	var loss *Tensor
	for _, o := range outs {
		s := must[*Tensor](t)(rt.Sum(o, nil, false, nil))
		if loss == nil {
			loss = s
			continue
		}
		l := must[*Tensor](t)(rt.Add(loss, s, 1))
		loss.Release()
		s.Release()
		loss = l
	}
	releaseAll(outs)
	start := len(evs)
	g := must[*Tensor](t)(rt.OnesLike(loss))
	if err := rt.Backward([]*Tensor{loss}, []*Tensor{g}, BackwardOptions{}); err != nil {
		t.Fatal(err)
	}
	g.Release()
	return formatEvents(evs[start:])
}

// newEventRuntime is a runtime over the simulated H100 allocator whose
// events are appended to evs.
func newEventRuntime(evs *[]trace.Event) *Runtime {
	p := profile.Default()
	a := alloc.New(p, alloc.DefaultConfig(), alloc.NewSimDevice(p), func(e trace.Event) { *evs = append(*evs, e) })
	return NewRuntime(Config{CuBLASWorkspace: p.CuBLASWorkspace, CuBLASLtWorkspace: p.CuBLASLtWorkspace,
		InitCUDA: func() (Memory, error) { return AllocMemory{a}, nil }})
}
