package gpuexec

import (
	"errors"
	"math"
	"testing"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
	"github.com/gpumem/playground/sim/torch"
)

// fixture makes tensors on a device (newTestDevice: the fake compute
// device, or the real GPU with -tags cuda) and on the executor's host.
type fixture struct {
	t     testing.TB
	dev   gpu.Device
	ex    *Executor
	next  uint64
	addrs map[uint64][2]int64 // storage → (addr, size) of device storages
}

func newFixture(t testing.TB) *fixture {
	dev := newTestDevice(t)
	f := &fixture{t: t, dev: dev, ex: New(dev), next: 1, addrs: map[uint64][2]int64{}}
	t.Cleanup(func() {
		for _, a := range f.addrs {
			if err := dev.Free(uint64(a[0]), a[1]); err != nil {
				t.Errorf("free: %v", err)
			}
		}
	})
	return f
}

func strides(shape []int64) []int64 { return contiguousStrides(shape) }

// tensor makes a contiguous tensor of shape on CUDA or the CPU; vals (if
// not nil) are written and the storage marked computed.
func (f *fixture) tensor(cuda bool, dt torch.DType, shape []int64, vals []float64) torch.ExecTensor {
	f.t.Helper()
	n := numel(shape)
	et := torch.ExecTensor{Storage: f.next, CUDA: cuda, Nbytes: n * dt.Size(), Shape: shape, Strides: strides(shape), DType: dt}
	f.next++
	if cuda {
		addr, err := f.dev.Malloc(max(et.Nbytes, 8))
		if err != nil {
			f.t.Fatal(err)
		}
		et.Addr = addr
		f.addrs[et.Storage] = [2]int64{int64(addr), max(et.Nbytes, 8)}
	}
	if vals != nil {
		f.write(et, vals)
	}
	return et
}

// write stores vals through a host staging buffer and a copy op.
func (f *fixture) write(et torch.ExecTensor, vals []float64) {
	f.t.Helper()
	kt, _ := kernelType(et.DType)
	raw := make([]byte, int64(len(vals))*kt.Size())
	for i, v := range vals {
		encode(kt, raw[int64(i)*kt.Size():], v)
	}
	if et.CUDA {
		if err := f.dev.CopyToDevice(et.Addr, raw); err != nil {
			f.t.Fatal(err)
		}
	} else {
		a, err := f.ex.hostAddr(et.Storage, et.Nbytes)
		if err != nil {
			f.t.Fatal(err)
		}
		b, err := f.ex.host.Bytes(a, int64(len(raw)))
		if err != nil {
			f.t.Fatal(err)
		}
		copy(b, raw)
	}
	f.ex.computed[et.Storage] = true
}

func (f *fixture) exec(kind torch.ExecKind, out torch.ExecTensor, ins []torch.ExecTensor, scalars []float64, ints []int64) error {
	return f.ex.Exec(&torch.ExecOp{Kind: kind, Out: []torch.ExecTensor{out}, In: ins, Scalars: scalars, Ints: ints})
}

func (f *fixture) read(et torch.ExecTensor) []float64 {
	f.t.Helper()
	v, err := f.ex.Read(et)
	if err != nil {
		f.t.Fatalf("read: %v", err)
	}
	return v
}

func near(got, want []float64, tol float64) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if math.IsNaN(want[i]) != math.IsNaN(got[i]) || math.Abs(got[i]-want[i]) > tol*(1+math.Abs(want[i])) {
			return false
		}
	}
	return true
}

// view returns t with another shape/strides/offset over the same storage.
func view(t torch.ExecTensor, shape, st []int64, off int64) torch.ExecTensor {
	t.Shape, t.Strides, t.Offset = shape, st, off
	return t
}

func seq(n int, f func(i int) float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = f(i)
	}
	return v
}

func TestElementwise(t *testing.T) {
	a := seq(6, func(i int) float64 { return float64(i) - 2.5 })
	b := []float64{1, 2, 3}
	tests := []struct {
		kind    torch.ExecKind
		scalars []float64
		two     bool
		want    func(x, y float64) float64
	}{
		{torch.ExecAdd, []float64{2}, true, func(x, y float64) float64 { return x + 2*y }},
		{torch.ExecSub, []float64{1}, true, func(x, y float64) float64 { return x - y }},
		{torch.ExecMul, nil, true, func(x, y float64) float64 { return x * y }},
		{torch.ExecDiv, nil, true, func(x, y float64) float64 { return x / y }},
		{torch.ExecReluBack, nil, true, func(x, y float64) float64 { return map[bool]float64{true: 0, false: x}[y <= 0] }},
		{torch.ExecRelu, nil, false, func(x, _ float64) float64 { return math.Max(x, 0) }},
		{torch.ExecNeg, nil, false, func(x, _ float64) float64 { return -x }},
		{torch.ExecGelu, nil, false, func(x, _ float64) float64 { return x / 2 * (1 + math.Erf(x/math.Sqrt2)) }},
		{torch.ExecSigmoid, nil, false, func(x, _ float64) float64 { return 1 / (1 + math.Exp(-x)) }},
		{torch.ExecTanh, nil, false, func(x, _ float64) float64 { return math.Tanh(x) }},
		{torch.ExecExp, nil, false, func(x, _ float64) float64 { return math.Exp(x) }},
		{torch.ExecAffine, []float64{3, 1}, false, func(x, _ float64) float64 { return 3*x + 1 }},
		{torch.ExecAbs, nil, false, func(x, _ float64) float64 { return math.Abs(x) }},
	}
	for _, cuda := range []bool{true, false} {
		for _, dt := range []torch.DType{torch.Float32, torch.Float16, torch.BFloat16} {
			f := newFixture(t)
			x := f.tensor(cuda, dt, []int64{2, 3}, a)
			y := f.tensor(cuda, dt, []int64{3}, b) // broadcast along dim 0
			for _, tt := range tests {
				out := f.tensor(cuda, dt, []int64{2, 3}, nil)
				ins := []torch.ExecTensor{x}
				if tt.two {
					ins = append(ins, y)
				}
				if err := f.exec(tt.kind, out, ins, tt.scalars, nil); err != nil {
					t.Fatalf("%s %v cuda=%v: %v", tt.kind, dt, cuda, err)
				}
				want := make([]float64, 6)
				for i := range want {
					want[i] = tt.want(round(dt, a[i]), round(dt, b[i%3]))
				}
				tol := 1e-5
				if dt != torch.Float32 {
					tol = 1e-2
				}
				if got := f.read(out); !near(got, want, tol) {
					t.Errorf("%s %v cuda=%v: got %v, want %v", tt.kind, dt, cuda, got, want)
				}
			}
		}
	}
}

// round is the value of x stored as dt.
func round(dt torch.DType, x float64) float64 {
	switch dt {
	case torch.Float16:
		return float64(kernels.F16ToF32(kernels.F16Bits(float32(x))))
	case torch.BFloat16:
		return float64(kernels.BF16ToF32(kernels.BF16Bits(float32(x))))
	}
	return float64(float32(x))
}

func TestStridedCopyAndTransfer(t *testing.T) {
	f := newFixture(t)
	vals := seq(12, func(i int) float64 { return float64(i) })
	host := f.tensor(false, torch.Float32, []int64{3, 4}, vals)
	dev := f.tensor(true, torch.Float32, []int64{3, 4}, nil)
	if err := f.exec(torch.ExecCopy, dev, []torch.ExecTensor{host}, nil, nil); err != nil {
		t.Fatal(err)
	}
	if got := f.read(dev); !near(got, vals, 0) {
		t.Fatalf("host→device copy: %v", got)
	}
	// Transpose on the device into f16, then back to the host as f32.
	tr := view(dev, []int64{4, 3}, []int64{1, 4}, 0)
	half := f.tensor(true, torch.Float16, []int64{4, 3}, nil)
	if err := f.exec(torch.ExecCopy, half, []torch.ExecTensor{tr}, nil, nil); err != nil {
		t.Fatal(err)
	}
	back := f.tensor(false, torch.Float32, []int64{4, 3}, nil)
	if err := f.exec(torch.ExecCopy, back, []torch.ExecTensor{half}, nil, nil); err != nil {
		t.Fatal(err)
	}
	want := make([]float64, 12)
	for i := 0; i < 4; i++ {
		for j := 0; j < 3; j++ {
			want[i*3+j] = vals[j*4+i]
		}
	}
	if got := f.read(back); !near(got, want, 0) {
		t.Fatalf("transpose via f16 and back: %v, want %v", got, want)
	}
	// A column of the device tensor read directly (strided Read).
	if got := f.read(view(dev, []int64{3}, []int64{4}, 1)); !near(got, []float64{1, 5, 9}, 0) {
		t.Fatalf("column read: %v", got)
	}
	// int64 round trip through the device keeps big values exactly.
	ih := f.tensor(false, torch.Int64, []int64{2}, []float64{1 << 40, -7})
	id := f.tensor(true, torch.Int64, []int64{2}, nil)
	if err := f.exec(torch.ExecCopy, id, []torch.ExecTensor{ih}, nil, nil); err != nil {
		t.Fatal(err)
	}
	if got := f.read(id); !near(got, []float64{1 << 40, -7}, 0) {
		t.Fatalf("int64 copy: %v", got)
	}
}

func TestCreation(t *testing.T) {
	f := newFixture(t)
	ar := f.tensor(true, torch.Int64, []int64{5}, nil)
	if err := f.exec(torch.ExecArange, ar, nil, []float64{2, 3}, nil); err != nil {
		t.Fatal(err)
	}
	if got := f.read(ar); !near(got, []float64{2, 5, 8, 11, 14}, 0) {
		t.Fatalf("arange: %v", got)
	}
	full := f.tensor(true, torch.BFloat16, []int64{2, 2}, nil)
	if err := f.exec(torch.ExecFill, full, nil, []float64{1.5}, nil); err != nil {
		t.Fatal(err)
	}
	if got := f.read(full); !near(got, []float64{1.5, 1.5, 1.5, 1.5}, 0) {
		t.Fatalf("fill: %v", got)
	}
	// Normal and uniform: moments of 100k draws; the same seed gives the
	// same values again (the CPU and CUDA generators differ, as PyTorch's).
	const n = 100000
	for _, kind := range []torch.ExecKind{torch.ExecNormal, torch.ExecUniform} {
		var sc []float64
		wantMean, wantVar := 0.0, 1.0
		if kind == torch.ExecUniform {
			sc, wantMean, wantVar = []float64{-1, 3}, 1, 16.0/12
		} else {
			sc = []float64{0, 1}
		}
		_ = f.ex.Exec(&torch.ExecOp{Kind: ExecManualSeed, Ints: []int64{42}})
		d := f.tensor(true, torch.Float32, []int64{n}, nil)
		if err := f.exec(kind, d, nil, sc, nil); err != nil {
			t.Fatal(err)
		}
		_ = f.ex.Exec(&torch.ExecOp{Kind: ExecManualSeed, Ints: []int64{42}})
		h := f.tensor(true, torch.Float32, []int64{n}, nil)
		if err := f.exec(kind, h, nil, sc, nil); err != nil {
			t.Fatal(err)
		}
		dv, hv := f.read(d), f.read(h)
		if !near(dv, hv, 0) {
			t.Errorf("%s: the same seed drew other values", kind)
		}
		mean, sq := 0.0, 0.0
		for _, v := range dv {
			mean += v
			sq += v * v
		}
		mean /= n
		vr := sq/n - mean*mean
		if math.Abs(mean-wantMean) > 0.02 || math.Abs(vr-wantVar) > 0.03*wantVar {
			t.Errorf("%s: mean %.4f var %.4f, want %.4f %.4f", kind, mean, vr, wantMean, wantVar)
		}
	}
	ri := f.tensor(true, torch.Int64, []int64{1000}, nil)
	if err := f.exec(torch.ExecRandInt, ri, nil, []float64{3, 7}, nil); err != nil {
		t.Fatal(err)
	}
	seen := map[float64]bool{}
	for _, v := range f.read(ri) {
		if v < 3 || v >= 7 {
			t.Fatalf("randint value %v outside [3, 7)", v)
		}
		seen[v] = true
	}
	if len(seen) != 4 {
		t.Errorf("randint hit %d of 4 values", len(seen))
	}
}

func TestMatmul(t *testing.T) {
	for _, dt := range []torch.DType{torch.Float32, torch.Float16} {
		f := newFixture(t)
		// [2, 3, 4] · [4, 5] (broadcast batch), and a transposed B view.
		av := seq(24, func(i int) float64 { return float64(i%7) - 3 })
		bv := seq(20, func(i int) float64 { return float64(i%5) * 0.5 })
		a := f.tensor(true, dt, []int64{2, 3, 4}, av)
		b := f.tensor(true, dt, []int64{4, 5}, bv)
		out := f.tensor(true, dt, []int64{2, 3, 5}, nil)
		if err := f.exec(torch.ExecMatmul, out, []torch.ExecTensor{a, b}, nil, nil); err != nil {
			t.Fatal(err)
		}
		want := make([]float64, 30)
		for z := 0; z < 2; z++ {
			for i := 0; i < 3; i++ {
				for j := 0; j < 5; j++ {
					for p := 0; p < 4; p++ {
						want[z*15+i*5+j] += av[z*12+i*4+p] * bv[p*5+j]
					}
				}
			}
		}
		if got := f.read(out); !near(got, want, 1e-3) {
			t.Errorf("%v matmul: %v, want %v", dt, got, want)
		}
		// A · Aᵀ over the batch via a transposed view.
		at := view(a, []int64{2, 4, 3}, []int64{12, 1, 4}, 0)
		o2 := f.tensor(true, dt, []int64{2, 3, 3}, nil)
		if err := f.exec(torch.ExecMatmul, o2, []torch.ExecTensor{a, at}, nil, nil); err != nil {
			t.Fatal(err)
		}
		w2 := make([]float64, 18)
		for z := 0; z < 2; z++ {
			for i := 0; i < 3; i++ {
				for j := 0; j < 3; j++ {
					for p := 0; p < 4; p++ {
						w2[z*9+i*3+j] += av[z*12+i*4+p] * av[z*12+j*4+p]
					}
				}
			}
		}
		if got := f.read(o2); !near(got, w2, 1e-3) {
			t.Errorf("%v batched A·Aᵀ: %v, want %v", dt, got, w2)
		}
	}
}

func TestReductionsSoftmaxLosses(t *testing.T) {
	f := newFixture(t)
	xv := seq(24, func(i int) float64 { return math.Sin(float64(i)) })
	x := f.tensor(true, torch.Float32, []int64{2, 3, 4}, xv)
	// sum over dims (0, 1) → [4] (a bias gradient), mean over the last → [2, 3].
	s := f.tensor(true, torch.Float32, []int64{4}, nil)
	if err := f.exec(torch.ExecSum, s, []torch.ExecTensor{x}, nil, []int64{0, 1}); err != nil {
		t.Fatal(err)
	}
	ws := make([]float64, 4)
	for i, v := range xv {
		ws[i%4] += v
	}
	if got := f.read(s); !near(got, ws, 1e-5) {
		t.Errorf("sum: %v, want %v", got, ws)
	}
	m := f.tensor(true, torch.Float32, []int64{2, 3}, nil)
	if err := f.exec(torch.ExecMean, m, []torch.ExecTensor{x}, nil, []int64{-1}); err != nil {
		t.Fatal(err)
	}
	wm := make([]float64, 6)
	for i, v := range xv {
		wm[i/4] += v / 4
	}
	if got := f.read(m); !near(got, wm, 1e-5) {
		t.Errorf("mean: %v, want %v", got, wm)
	}
	// softmax over dim 1 (not the last: strided rows).
	sm := f.tensor(true, torch.Float32, []int64{2, 3, 4}, nil)
	if err := f.exec(torch.ExecSoftmax, sm, []torch.ExecTensor{x}, nil, []int64{1}); err != nil {
		t.Fatal(err)
	}
	wsm := make([]float64, 24)
	for o := 0; o < 2; o++ {
		for q := 0; q < 4; q++ {
			tot := 0.0
			for d := 0; d < 3; d++ {
				tot += math.Exp(xv[o*12+d*4+q])
			}
			for d := 0; d < 3; d++ {
				wsm[o*12+d*4+q] = math.Exp(xv[o*12+d*4+q]) / tot
			}
		}
	}
	got := f.read(sm)
	if !near(got, wsm, 1e-5) {
		t.Errorf("softmax: %v, want %v", got, wsm)
	}
	// softmax backward with grad = 1 is 0.
	ones := f.tensor(true, torch.Float32, []int64{2, 3, 4}, seq(24, func(int) float64 { return 1 }))
	gb := f.tensor(true, torch.Float32, []int64{2, 3, 4}, nil)
	if err := f.exec(torch.ExecSoftmaxBack, gb, []torch.ExecTensor{ones, sm}, nil, []int64{1}); err != nil {
		t.Fatal(err)
	}
	if g := f.read(gb); !near(g, make([]float64, 24), 1e-5) {
		t.Errorf("softmax backward of ones: %v", g)
	}
	// cross entropy = nll(log_softmax): logits [3, 4], targets with one ignored.
	logits := view(x, []int64{6, 4}, []int64{4, 1}, 0)
	lsm := f.tensor(true, torch.Float32, []int64{6, 4}, nil)
	if err := f.exec(torch.ExecLogSoftm, lsm, []torch.ExecTensor{logits}, nil, []int64{1}); err != nil {
		t.Fatal(err)
	}
	tgt := f.tensor(true, torch.Int64, []int64{6}, []float64{0, 3, -100, 1, 2, 2})
	loss := f.tensor(true, torch.Float32, nil, nil)
	if err := f.exec(torch.ExecNLLLoss, loss, []torch.ExecTensor{lsm, tgt}, nil, []int64{1, -100}); err != nil {
		t.Fatal(err)
	}
	want, cnt := 0.0, 0.0
	tv := []int{0, 3, -100, 1, 2, 2}
	for i, c := range tv {
		if c < 0 {
			continue
		}
		row := xv[i*4 : i*4+4]
		lse := 0.0
		for _, v := range row {
			lse += math.Exp(v)
		}
		want += math.Log(lse) - row[c]
		cnt++
	}
	want /= cnt
	if got := f.read(loss); !near(got, []float64{want}, 1e-5) {
		t.Errorf("cross entropy: %v, want %v", got, want)
	}
	g0 := f.tensor(true, torch.Float32, nil, []float64{1})
	gin := f.tensor(true, torch.Float32, []int64{6, 4}, nil)
	if err := f.exec(torch.ExecNLLLossBack, gin, []torch.ExecTensor{g0, tgt}, nil, []int64{1, -100}); err != nil {
		t.Fatal(err)
	}
	wg := make([]float64, 24)
	for i, c := range tv {
		if c >= 0 {
			wg[i*4+c] = -1 / cnt
		}
	}
	if got := f.read(gin); !near(got, wg, 1e-6) {
		t.Errorf("nll backward: %v, want %v", got, wg)
	}
	// mse: mean((x - 0.5)²) and its gradient.
	half := f.tensor(true, torch.Float32, []int64{2, 3, 4}, seq(24, func(int) float64 { return 0.5 }))
	mse := f.tensor(true, torch.Float32, nil, nil)
	if err := f.exec(torch.ExecMSELoss, mse, []torch.ExecTensor{x, half}, nil, []int64{1}); err != nil {
		t.Fatal(err)
	}
	wmse := 0.0
	for _, v := range xv {
		wmse += (v - 0.5) * (v - 0.5) / 24
	}
	if got := f.read(mse); !near(got, []float64{wmse}, 1e-5) {
		t.Errorf("mse: %v, want %v", got, wmse)
	}
	gm := f.tensor(true, torch.Float32, []int64{2, 3, 4}, nil)
	if err := f.exec(torch.ExecMSELossBack, gm, []torch.ExecTensor{g0, x, half}, nil, []int64{1}); err != nil {
		t.Fatal(err)
	}
	if got := f.read(gm); !near(got, seq(24, func(i int) float64 { return 2 * (xv[i] - 0.5) / 24 }), 1e-5) {
		t.Errorf("mse backward: %v", got)
	}
}

func TestNotComputed(t *testing.T) {
	f := newFixture(t)
	x := f.tensor(true, torch.Float32, []int64{4}, nil) // never written
	out := f.tensor(true, torch.Float32, []int64{4}, nil)
	err := f.exec(torch.ExecRelu, out, []torch.ExecTensor{x}, nil, nil)
	if !IsNotComputed(err) {
		t.Fatalf("relu of unset values: %v, want ErrNotComputed", err)
	}
	if _, err := f.ex.Read(out); !errors.Is(err, torch.ErrNotComputed) {
		t.Fatalf("read: %v", err)
	}
	// A dtype without kernels.
	d := f.tensor(true, torch.Complex64, []int64{4}, nil)
	if err := f.exec(torch.ExecFill, d, nil, []float64{1}, nil); !IsNotComputed(err) {
		t.Fatalf("fill complex64: %v", err)
	}
	// An op kind without kernels.
	y := f.tensor(true, torch.Float32, []int64{4}, []float64{1, 2, 3, 4})
	if err := f.exec("cumsum", out, []torch.ExecTensor{y}, nil, nil); !IsNotComputed(err) {
		t.Fatalf("unknown op: %v", err)
	}
	// Host storages go when released.
	h := f.tensor(false, torch.Float32, []int64{4}, []float64{1, 2, 3, 4})
	if f.ex.HostRanges() == 0 {
		t.Fatal("no host range for a CPU tensor")
	}
	f.ex.Release(h.Storage)
	if f.ex.HostRanges() != 0 {
		t.Fatalf("%d host ranges after release", f.ex.HostRanges())
	}
}
