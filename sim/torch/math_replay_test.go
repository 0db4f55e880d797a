package torch

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestMathReplaysMeasurement replays items of
// testdata/questions/q20_math_reduce_products.out (PyTorch 2.11 on an
// H100): every allocation (requested size) and free of the op and of its
// backward, in order, must match the recorded trace (segment events
// aside). Items without a replay in mathItems are not modelled (see
// NOTES.md) or are errors checked in TestMathErrors.
func TestMathReplaysMeasurement(t *testing.T) {
	want := readQuestion(t, "q20_math_reduce_products.out")
	items := mathItems()
	for name, it := range items {
		rec, ok := want[name]
		if !ok {
			t.Errorf("%s: not in the recording", name)
			continue
		}
		t.Run(name, func(t *testing.T) {
			fwd, bwd := replayItem(t, it)
			if fwd != rec.fwd {
				t.Errorf("forward\n got: %s\nwant: %s", fwd, rec.fwd)
			}
			if rec.bwd != "" && bwd != rec.bwd {
				t.Errorf("backward\n got: %s\nwant: %s", bwd, rec.bwd)
			}
		})
	}
	if len(items) < 150 {
		t.Errorf("only %d items replayed", len(items))
	}
}

// readQuestion parses "NAME | desc | F: events | B: events" lines of a
// recording, dropping segment events.
func readQuestion(t *testing.T, name string) map[string]q16Record {
	t.Helper()
	out := map[string]q16Record{}
	f, err := os.Open("testdata/questions/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		parts := strings.Split(sc.Text(), " | ")
		if len(parts) < 3 {
			continue
		}
		var r q16Record
		for _, p := range parts[2:] {
			switch {
			case strings.HasPrefix(p, "F:"):
				r.fwd = dropSegments(p[2:])
			case strings.HasPrefix(p, "B:"):
				r.bwd = dropSegments(p[2:])
			}
		}
		out[parts[0]] = r
	}
	return out
}

// cloned makes a non-leaf input: x.clone() of a leaf that requires grad
// (the clone is the only input kept; its graph holds the leaf).
func cloned(dt DType, shape ...int64) func(rt *Runtime) []*Tensor {
	return func(rt *Runtime) []*Tensor {
		x := rnd(dt, true, shape...)(rt)[0]
		c, err := rt.Clone(x)
		if err != nil {
			panic(err)
		}
		x.Release()
		return []*Tensor{c}
	}
}

// two adapts a two-tensor op.
func two(f func(*Runtime, *Tensor, *Tensor) (*Tensor, error)) func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
	return func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
		r, err := f(rt, in[0], in[1])
		return []*Tensor{r}, err
	}
}

// pair adapts an op with two results.
func pair(f func(rt *Runtime, in []*Tensor) (*Tensor, *Tensor, error)) func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
	return func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
		a, b, err := f(rt, in)
		return []*Tensor{a, b}, err
	}
}

func mathItems() map[string]q16Item {
	items := map[string]q16Item{}
	S := []int64{64, 1000}
	f32 := func(grad bool) func(rt *Runtime) []*Tensor { return rnd(Float32, grad, S...) }
	unary := func(op string) func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
		return func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
			r, err := rt.MathUnary(op, in[0])
			return []*Tensor{r}, err
		}
	}
	for _, op := range []string{"log1p", "expm1", "erf", "erfc", "erfinv", "frac", "sin", "cos", "tan", "asin",
		"acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "log2", "log10", "exp2", "logit", "deg2rad",
		"lgamma", "digamma", "sinc"} {
		items[op+" f32 [64, 1000] bwd"] = q16Item{f32(true), unary(op)}
	}
	items["logit eps f32 [64, 1000] bwd"] = q16Item{f32(true), unary("logit")}
	items["sgn f32 [64, 1000] bwd"] = q16Item{f32(true), one((*Runtime).Sgn)}
	items["sign f32 [64, 1000] bwd"] = q16Item{f32(true), one(func(rt *Runtime, a *Tensor) (*Tensor, error) { return rt.RoundLike("sign", a) })}
	items["fix f32 [64, 1000] bwd"] = q16Item{f32(true), one(func(rt *Runtime, a *Tensor) (*Tensor, error) { return rt.RoundLike("trunc", a) })}
	items["nan_to_num f32 [64, 1000] bwd"] = q16Item{f32(true), one((*Runtime).NanToNum)}
	items["nan_to_num(0,1,-1) f32 [64, 1000] bwd"] = q16Item{f32(true), one((*Runtime).NanToNum)}
	items["nan_to_num f16 bwd"] = q16Item{rnd(Float16, true, S...), one((*Runtime).NanToNum)}
	items["nan_to_num i64"] = q16Item{rnd(Int64, false, S...), one((*Runtime).NanToNum)}
	for _, op := range []string{"clamp_min", "clamp_max"} {
		items[op+" 0.1 f32 [64, 1000] bwd"] = q16Item{f32(true), one(func(rt *Runtime, a *Tensor) (*Tensor, error) {
			return rt.ClampNumberBound(op, a, Float(0.1))
		})}
	}
	items["clamp_min i64 3"] = q16Item{rnd(Int64, false, S...), one(func(rt *Runtime, a *Tensor) (*Tensor, error) { return rt.ClampNumberBound("clamp_min", a, Int(3)) })}
	items["clamp_min i64 0.5"] = q16Item{rnd(Int64, false, S...), one(func(rt *Runtime, a *Tensor) (*Tensor, error) {
		return rt.ClampNumberBound("clamp_min", a, Float(0.5))
	})}
	items["log1p f16 bwd"] = q16Item{rnd(Float16, true, S...), unary("log1p")}
	items["erf bf16 bwd"] = q16Item{rnd(BFloat16, true, S...), unary("erf")}
	items["expm1 f64 bwd"] = q16Item{rnd(Float64, true, S...), unary("expm1")}
	items["log1p i64"] = q16Item{rnd(Int64, false, S...), unary("log1p")}
	items["erf i64"] = q16Item{rnd(Int64, false, S...), unary("erf")}
	items["sgn i64"] = q16Item{rnd(Int64, false, S...), one((*Runtime).Sgn)}
	items["isfinite f32"] = q16Item{f32(false), one((*Runtime).Isfinite)}
	items["isfinite i64"] = q16Item{rnd(Int64, false, S...), one((*Runtime).Isfinite)}
	items["isfinite bool"] = q16Item{rnd(Bool, false, S...), one((*Runtime).Isfinite)}
	for _, op := range []string{"isneginf", "isposinf", "isreal", "signbit"} {
		items[op+" f32"] = q16Item{f32(false), one(func(rt *Runtime, a *Tensor) (*Tensor, error) { return rt.BoolCheck(op, a) })}
	}
	items["erfinv f32 [64,1000].t() bwd"] = q16Item{f32(true), onT(unary("erfinv"))}
	items["clamp_min tensor bwd"] = q16Item{both(f32(true), f32(true)), two(func(rt *Runtime, a, b *Tensor) (*Tensor, error) {
		return rt.ClampTensorBound("clamp_min", a, b)
	})}
	items["clamp_max tensor bcast bwd"] = q16Item{both(f32(true), rnd(Float32, true, 1000)), two(func(rt *Runtime, a, b *Tensor) (*Tensor, error) {
		return rt.ClampTensorBound("clamp_max", a, b)
	})}
	items["clamp tensor min max bwd"] = q16Item{both(both(f32(true), rnd(Float32, true, 1000)), rnd(Float32, true, 1000)), func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
		r, err := rt.ClampTensors(in[0], in[1], in[2])
		return []*Tensor{r}, err
	}}
	// in place on a clone of a leaf
	inplace := func(op string) func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
		return func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
			r, err := rt.MathUnaryInplace(op, in[0])
			return []*Tensor{r}, err
		}
	}
	for _, op := range []string{"log1p", "expm1", "erf", "erfc", "erfinv", "frac", "sin", "cos", "atan", "log2", "sinh", "logit"} {
		items[op+"_ f32 bwd"] = q16Item{cloned(Float32, S...), inplace(op)}
	}
	items["torch.log1p_ f32 bwd"] = q16Item{cloned(Float32, S...), inplace("log1p")}
	items["sgn_ f32 bwd"] = q16Item{cloned(Float32, S...), one((*Runtime).SgnInplace)}
	items["nan_to_num_ f32 bwd"] = q16Item{cloned(Float32, S...), one((*Runtime).NanToNumInplace)}
	items["clamp_min_ 0 f32 bwd"] = q16Item{cloned(Float32, S...), one(func(rt *Runtime, a *Tensor) (*Tensor, error) { return rt.ClampBoundInplace("clamp_min", a, 0) })}
	items["clamp_max_ 0 f32 bwd"] = q16Item{cloned(Float32, S...), one(func(rt *Runtime, a *Tensor) (*Tensor, error) { return rt.ClampBoundInplace("clamp_max", a, 0) })}
	for _, op := range []string{"hypot", "atan2"} {
		items[op+"_ f32 bwd"] = q16Item{both(cloned(Float32, S...), f32(true)), two(func(rt *Runtime, a, b *Tensor) (*Tensor, error) {
			return rt.MathBinaryInplace(op, a, b)
		})}
	}
	items["clamp_min_ t f32 bwd"] = q16Item{both(cloned(Float32, S...), f32(true)), two(func(rt *Runtime, a, b *Tensor) (*Tensor, error) {
		return rt.ClampTensorBoundInplace("clamp_min", a, b)
	})}
	items["xlogy_ f32 bwd"] = q16Item{both(cloned(Float32, S...), f32(true)), two((*Runtime).XlogyInplace)}
	binary := func(op string) func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
		return two(func(rt *Runtime, a, b *Tensor) (*Tensor, error) { return rt.MathBinary(op, a, b) })
	}
	for _, op := range []string{"hypot", "atan2", "logaddexp", "logaddexp2", "copysign", "fmax", "fmin"} {
		items[op+" f32 [64, 1000] bwd"] = q16Item{both(f32(true), f32(true)), binary(op)}
	}
	items["arctan2 f32 [64, 1000] bwd"] = q16Item{both(f32(true), f32(true)), binary("atan2")}
	items["xlogy f32 [64, 1000] bwd"] = q16Item{both(f32(true), f32(true)), two((*Runtime).Xlogy)}
	items["xlogy scalar other bwd"] = q16Item{f32(true), one(func(rt *Runtime, a *Tensor) (*Tensor, error) { return rt.XlogyScalarOther(a, Float(2)) })}
	items["xlogy scalar self bwd"] = q16Item{f32(true), one(func(rt *Runtime, a *Tensor) (*Tensor, error) { return rt.XlogyScalarSelf(Float(2), a) })}
	items["hypot bcast [64,1000]x[1000] bwd"] = q16Item{both(f32(true), rnd(Float32, true, 1000)), binary("hypot")}
	items["atan2 bcast [64,1]x[1,1000] bwd"] = q16Item{both(rnd(Float32, true, 64, 1), rnd(Float32, true, 1, 1000)), binary("atan2")}
	items["logaddexp bcast [64,1000]x[64,1] bwd"] = q16Item{both(f32(true), rnd(Float32, true, 64, 1)), binary("logaddexp")}
	items["logaddexp f16 bwd"] = q16Item{both(rnd(Float16, true, S...), rnd(Float16, true, S...)), binary("logaddexp")}
	items["xlogy self only grad"] = q16Item{both(f32(true), f32(false)), two((*Runtime).Xlogy)}
	items["xlogy other only grad"] = q16Item{both(f32(false), f32(true)), two((*Runtime).Xlogy)}
	items["xlogy i64"] = q16Item{both(rnd(Int64, false, S...), rnd(Int64, false, S...)), two((*Runtime).Xlogy)}
	items["hypot f32 x f16"] = q16Item{both(f32(false), rnd(Float16, false, S...)), binary("hypot")}
	items["atan2 f32 x scalar-tensor"] = q16Item{both(f32(false), rnd(Float32, false)), binary("atan2")}
	items["atan2 i64"] = q16Item{both(rnd(Int64, false, S...), rnd(Int64, false, S...)), binary("atan2")}
	isclose := func(rtol, atol float64, nan bool) func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
		return two(func(rt *Runtime, a, b *Tensor) (*Tensor, error) { return rt.Isclose(a, b, rtol, atol, nan) })
	}
	items["isclose f32"] = q16Item{both(f32(false), f32(false)), isclose(1e-5, 1e-8, false)}
	items["isclose f32 equal_nan"] = q16Item{both(f32(false), f32(false)), isclose(1e-5, 1e-8, true)}
	items["isclose f32 tol 0"] = q16Item{both(f32(false), f32(false)), isclose(0, 0, false)}
	items["isclose bcast [64,1000]x[1000]"] = q16Item{both(f32(false), rnd(Float32, false, 1000)), isclose(1e-5, 1e-8, false)}
	items["isclose i64"] = q16Item{both(rnd(Int64, false, S...), rnd(Int64, false, S...)), isclose(1e-5, 1e-8, false)}
	items["isclose bool"] = q16Item{both(rnd(Bool, false, S...), rnd(Bool, false, S...)), isclose(1e-5, 1e-8, false)}
	items["isclose f16"] = q16Item{both(rnd(Float16, false, S...), rnd(Float16, false, S...)), isclose(1e-5, 1e-8, false)}
	items["allclose f32"] = q16Item{both(f32(false), f32(false)), func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
		_, err := rt.Allclose(in[0], in[1], 1e-5, 1e-8, false)
		r, _ := rt.Factory("empty", nil, Bool, CPUDevice, false)
		return []*Tensor{r}, err
	}}
	addMathReductionItems(items, f32)
	addMathProductItems(items)
	return items
}

func addMathReductionItems(items map[string]q16Item, f32 func(bool) func(rt *Runtime) []*Tensor) {
	S := []int64{64, 1000}
	cnz := func(dims []int64) func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
		return one(func(rt *Runtime, a *Tensor) (*Tensor, error) { return rt.CountNonzero(a, dims) })
	}
	items["count_nonzero f32 all"] = q16Item{f32(false), cnz(nil)}
	items["count_nonzero f32 dim1"] = q16Item{f32(false), cnz([]int64{1})}
	items["count_nonzero f32 dim0"] = q16Item{f32(false), cnz([]int64{0})}
	items["count_nonzero f32 dims(0,1)"] = q16Item{f32(false), cnz([]int64{0, 1})}
	items["count_nonzero i64 dim1"] = q16Item{rnd(Int64, false, S...), cnz([]int64{1})}
	items["count_nonzero bool all"] = q16Item{rnd(Bool, false, S...), cnz(nil)}
	items["count_nonzero f32 [1000000]"] = q16Item{rnd(Float32, false, 1000000), cnz(nil)}
	items["aminmax i64 all"] = q16Item{rnd(Int64, false, S...), pair(func(rt *Runtime, in []*Tensor) (*Tensor, *Tensor, error) {
		return rt.Aminmax(in[0], nil, false)
	})}
	items["aminmax f32 [1000000]"] = q16Item{rnd(Float32, false, 1000000), pair(func(rt *Runtime, in []*Tensor) (*Tensor, *Tensor, error) {
		return rt.Aminmax(in[0], nil, false)
	})}
	for _, op := range []string{"std", "var"} {
		sm := func(dims []int64, corr float64, keep bool) func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
			return pair(func(rt *Runtime, in []*Tensor) (*Tensor, *Tensor, error) {
				return rt.StdVarMean(op, in[0], dims, corr, keep)
			})
		}
		name := op + "_mean"
		items[name+" f32 all bwd"] = q16Item{f32(true), sm(nil, 1, false)}
		items[name+" f32 dim1 bwd"] = q16Item{f32(true), sm([]int64{1}, 1, false)}
		items[name+" f32 dim0 keepdim bwd"] = q16Item{f32(true), sm([]int64{0}, 1, true)}
		items[name+" f32 dim1 unbiased=False bwd"] = q16Item{f32(true), sm([]int64{1}, 0, false)}
		items[name+" f32 dim1 correction=0 bwd"] = q16Item{f32(true), sm([]int64{1}, 0, false)}
		items[name+" f32 dims(0,1) bwd"] = q16Item{f32(true), sm([]int64{0, 1}, 1, false)}
		items[name+" f16 dim1 bwd"] = q16Item{rnd(Float16, true, S...), sm([]int64{1}, 1, false)}
		items[name+" f32 [8,64,32] dim(0,2) bwd"] = q16Item{rnd(Float32, true, 8, 64, 32), sm([]int64{0, 2}, 1, false)}
		items[name+" f32 [1000000] bwd"] = q16Item{rnd(Float32, true, 1000000), sm(nil, 1, false)}
	}
	cm := func(op string, dim int64) func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
		return pair(func(rt *Runtime, in []*Tensor) (*Tensor, *Tensor, error) { return rt.CumMaxMin(op, in[0], dim) })
	}
	items["cummax f32 [64,100] dim1 bwd"] = q16Item{rnd(Float32, true, 64, 100), cm("cummax", 1)}
	items["cummin f32 [64,100] dim0 bwd"] = q16Item{rnd(Float32, true, 64, 100), cm("cummin", 0)}
	items["cummax f32 [1000] bwd"] = q16Item{rnd(Float32, true, 1000), cm("cummax", 0)}
	items["cummax f32 [100000] bwd"] = q16Item{rnd(Float32, true, 100000), cm("cummax", 0)}
	items["cummin f16 [64,100] bwd"] = q16Item{rnd(Float16, true, 64, 100), cm("cummin", 1)}
	items["cummax i64 [64,100]"] = q16Item{rnd(Int64, false, 64, 100), cm("cummax", 1)}
	items["cummax f32 0-dim bwd"] = q16Item{rnd(Float32, true), cm("cummax", 0)}
	items["cummax f32 [64,100].t() dim1 bwd"] = q16Item{rnd(Float32, true, 64, 100), onT(cm("cummax", 1))}
	lcse := func(dim int64) func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
		return one(func(rt *Runtime, a *Tensor) (*Tensor, error) { return rt.Logcumsumexp(a, dim) })
	}
	items["logcumsumexp f32 [1000] bwd"] = q16Item{rnd(Float32, true, 1000), lcse(0)}
	items["logcumsumexp f32 [64,100] dim0 bwd"] = q16Item{rnd(Float32, true, 64, 100), lcse(0)}
	items["logcumsumexp f32 [100000] bwd"] = q16Item{rnd(Float32, true, 100000), lcse(0)}
	items["logcumsumexp f16 [64,100] bwd"] = q16Item{rnd(Float16, true, 64, 100), lcse(1)}
	diff := func(n, dim int64) func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
		return func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
			var pre, app *Tensor
			if len(in) > 1 {
				pre = in[1]
			}
			if len(in) > 2 {
				app = in[2]
			}
			r, err := rt.Diff(in[0], n, dim, pre, app)
			return []*Tensor{r}, err
		}
	}
	items["diff f32 [64,1000] bwd"] = q16Item{f32(true), diff(1, -1)}
	items["diff f32 dim0 bwd"] = q16Item{f32(true), diff(1, 0)}
	items["diff f32 n=2 bwd"] = q16Item{f32(true), diff(2, -1)}
	items["diff f32 prepend bwd"] = q16Item{both(f32(true), rnd(Float32, true, 64, 1)), diff(1, -1)}
	items["diff f32 prepend append bwd"] = q16Item{both(both(f32(true), rnd(Float32, true, 64, 1)), rnd(Float32, true, 64, 2)), diff(1, -1)}
	items["diff bool"] = q16Item{rnd(Bool, false, S...), diff(1, -1)}
	items["diff i64"] = q16Item{rnd(Int64, false, S...), diff(1, -1)}
	items["diff f32 [1000] n=3 bwd"] = q16Item{rnd(Float32, true, 1000), diff(3, -1)}
	items["diff f32 n=0"] = q16Item{f32(true), diff(0, -1)}
	items["trace f32 [100,100] bwd"] = q16Item{rnd(Float32, true, 100, 100), one((*Runtime).Trace)}
	items["trace f32 [100,200] bwd"] = q16Item{rnd(Float32, true, 100, 200), one((*Runtime).Trace)}
	items["trace f32 [200,100].t() bwd"] = q16Item{rnd(Float32, true, 200, 100), onT(one((*Runtime).Trace))}
	items["trace i64 [100,100]"] = q16Item{rnd(Int64, false, 100, 100), one((*Runtime).Trace)}
	items["trace i32 [100,100]"] = q16Item{rnd(Int32, false, 100, 100), one((*Runtime).Trace)}
	items["trace f16 [100,100] bwd"] = q16Item{rnd(Float16, true, 100, 100), one((*Runtime).Trace)}
	dist := func(p float64) func(rt *Runtime, in []*Tensor) ([]*Tensor, error) {
		return two(func(rt *Runtime, a, b *Tensor) (*Tensor, error) { return rt.Dist(a, b, p) })
	}
	for _, p := range []float64{2, 1, 3} {
		items[fmt.Sprintf("dist f32 p=%g bwd", p)] = q16Item{both(f32(true), f32(true)), dist(p)}
	}
	items["dist f32 p=inf bwd"] = q16Item{both(f32(true), f32(true)), dist(posInfinity)}
	items["dist f32 bcast [64,1000]x[1000] bwd"] = q16Item{both(f32(true), rnd(Float32, true, 1000)), dist(2)}
	items["dist f16 bwd"] = q16Item{both(rnd(Float16, true, S...), rnd(Float16, true, S...)), dist(2)}
	items["dist self-only grad"] = q16Item{both(f32(true), f32(false)), dist(2)}
}
