package gpuexec

import (
	"encoding/binary"
	"slices"
	"testing"

	"github.com/gpumem/playground/sim/torch"
)

// intTensor is a CUDA tensor of integer type dt holding vals exactly (the
// low bits of each, as the type wraps): int64 beyond 2^53 included.
func (f *fixture) intTensor(dt torch.DType, shape []int64, vals []int64) torch.ExecTensor {
	f.t.Helper()
	et := f.tensor(true, dt, shape, nil)
	size := dt.Size()
	raw := make([]byte, int64(len(vals))*size)
	for i, v := range vals {
		b := raw[int64(i)*size:]
		switch size {
		case 8:
			binary.LittleEndian.PutUint64(b, uint64(v))
		case 4:
			binary.LittleEndian.PutUint32(b, uint32(v))
		case 2:
			binary.LittleEndian.PutUint16(b, uint16(v))
		default:
			b[0] = byte(v)
		}
	}
	if err := f.dev.CopyToDevice(et.Addr, raw); err != nil {
		f.t.Fatal(err)
	}
	f.ex.computed[et.Storage] = true
	return et
}

// wrapInt is v as integer type dt holds it (two's complement low bits,
// uint8 unsigned).
func wrapInt(dt torch.DType, v int64) int64 {
	switch dt {
	case torch.Int32:
		return int64(int32(v))
	case torch.Int16:
		return int64(int16(v))
	case torch.Int8:
		return int64(int8(v))
	case torch.Uint8:
		return int64(uint8(v))
	}
	return v
}

// intTypes are the integer dtypes of the session-12 integer kernels.
var intTypes = []torch.DType{torch.Int64, torch.Int32, torch.Uint8, torch.Int8, torch.Int16}

// intSample is a [3, 4] sample with negative values, ties (first index
// must win) and, for int64, neighbours beyond 2^53 that float64 merges.
func intSample(dt torch.DType) []int64 {
	v := []int64{-5, 7, 7, -9, 3, -100, 3, -3, 0, 1, -1, -4}
	if dt == torch.Int64 {
		v[4], v[6] = 1<<60+1, 1<<60
		v[5] = -(1 << 60) - 1
	}
	for i := range v {
		v[i] = wrapInt(dt, v[i])
	}
	return v
}

// TestIntPick checks max/min (all and over a dim, with indices) and
// argmax/argmin of every integer type against direct loops: exact int64
// comparisons, the first index of ties.
func TestIntPick(t *testing.T) {
	for _, dt := range intTypes {
		f := newFixture(t)
		v := intSample(dt)
		x := f.intTensor(dt, []int64{3, 4}, v)
		for _, mode := range []torch.ExecKind{torch.ExecMaxDim, torch.ExecMinDim} {
			for dim := int64(0); dim < 2; dim++ {
				n, m := int64(3), int64(4) // rows kept, elements per row
				if dim == 0 {
					n, m = 4, 3
				}
				wantV, wantI := make([]int64, n), make([]int64, n)
				for r := int64(0); r < n; r++ {
					at := func(j int64) int64 {
						if dim == 1 {
							return v[r*4+j]
						}
						return v[j*4+r]
					}
					best := int64(0)
					for j := int64(1); j < m; j++ {
						if (mode == torch.ExecMaxDim && at(j) > at(best)) || (mode == torch.ExecMinDim && at(j) < at(best)) {
							best = j
						}
					}
					wantV[r], wantI[r] = at(best), best
				}
				vals := f.tensor(true, dt, []int64{n}, nil)
				idx := f.tensor(true, torch.Int64, []int64{n}, nil)
				if err := f.ex.Exec(&torch.ExecOp{Kind: mode, Out: []torch.ExecTensor{vals, idx}, In: []torch.ExecTensor{x}, Ints: []int64{dim}}); err != nil {
					t.Fatalf("%s %s dim %d: %v", dt, mode, dim, err)
				}
				if gv, gi := f.ints(vals), f.ints(idx); !slices.Equal(gv, wantV) || !slices.Equal(gi, wantI) {
					t.Errorf("%s %s dim %d: %v %v, want %v %v", dt, mode, dim, gv, gi, wantV, wantI)
				}
				arg := torch.ExecArgmax
				if mode == torch.ExecMinDim {
					arg = torch.ExecArgmin
				}
				ai := f.tensor(true, torch.Int64, []int64{n}, nil)
				if err := f.exec(arg, ai, []torch.ExecTensor{x}, nil, []int64{dim}); err != nil {
					t.Fatalf("%s %s dim %d: %v", dt, arg, dim, err)
				}
				if gi := f.ints(ai); !slices.Equal(gi, wantI) {
					t.Errorf("%s %s dim %d: %v, want %v", dt, arg, dim, gi, wantI)
				}
			}
		}
		mx, mn := slices.Max(v), slices.Min(v)
		for kind, want := range map[torch.ExecKind]int64{
			torch.ExecMaxAll: mx, torch.ExecMinAll: mn,
			torch.ExecArgmax: int64(slices.Index(v, mx)), torch.ExecArgmin: int64(slices.Index(v, mn)),
		} {
			odt := dt
			if kind == torch.ExecArgmax || kind == torch.ExecArgmin {
				odt = torch.Int64
			}
			out := f.tensor(true, odt, nil, nil)
			if err := f.exec(kind, out, []torch.ExecTensor{x}, nil, nil); err != nil {
				t.Fatalf("%s %s: %v", dt, kind, err)
			}
			if got := f.ints(out); len(got) != 1 || got[0] != want {
				t.Errorf("%s %s: %v, want %d", dt, kind, got, want)
			}
		}
	}
}

// TestIntMapMore checks the integer map operators of session 12 (relu,
// sign, square, pow by an integer, isnan/isinf, logical_not, where,
// tril) and all/any against direct loops, wrapping in the type.
func TestIntMapMore(t *testing.T) {
	for _, dt := range intTypes {
		f := newFixture(t)
		v := intSample(dt)
		x := f.intTensor(dt, []int64{3, 4}, v)
		each := func(g func(int64) int64) []int64 {
			out := make([]int64, len(v))
			for i, a := range v {
				out[i] = wrapInt(dt, g(a))
			}
			return out
		}
		b := func(c bool) int64 {
			if c {
				return 1
			}
			return 0
		}
		for _, c := range []struct {
			kind    torch.ExecKind
			scalars []float64
			out     torch.DType
			want    []int64
		}{
			{torch.ExecRelu, nil, dt, each(func(a int64) int64 { return max(a, 0) })},
			{"sign", nil, dt, each(func(a int64) int64 { return b(a > 0) - b(a < 0) })},
			{torch.ExecPow, []float64{2}, dt, each(func(a int64) int64 { return a * a })},
			{torch.ExecPow, []float64{3}, dt, each(func(a int64) int64 { return a * a * a })},
			{torch.ExecPow, []float64{5}, dt, each(func(a int64) int64 { return a * a * a * a * a })},
			{torch.ExecPow, []float64{-1}, dt, each(func(a int64) int64 { return b(a == 1) - b(a == -1) })},
			{"isnan", nil, torch.Bool, make([]int64, len(v))},
			{"isinf", nil, torch.Bool, make([]int64, len(v))},
			{torch.ExecLogicalNot, nil, torch.Bool, each(func(a int64) int64 { return b(a == 0) })},
			{torch.ExecTril, nil, dt, nil},
		} {
			if c.kind == torch.ExecPow && c.scalars[0] == -1 {
				c.kind = "pow_int_neg" // the executor maps -1 to reciprocal: the kernel directly below
			}
			if c.kind == torch.ExecTril {
				c.want = slices.Clone(v)
				for i := range c.want {
					if i%4 > i/4 {
						c.want[i] = 0
					}
				}
			}
			out := f.tensor(true, c.out, []int64{3, 4}, nil)
			var err error
			switch c.kind {
			case "pow_int_neg":
				var o, in operand
				if o, err = f.ex.resolve(out); err == nil {
					if in, err = f.ex.resolve(x); err == nil {
						err = f.ex.mapOp64(f.ex.kern(true), "pow", o, []operand{in}, -1, 0)
						f.ex.computed[out.Storage] = err == nil
					}
				}
			case torch.ExecTril:
				err = f.exec(c.kind, out, []torch.ExecTensor{x}, nil, []int64{0})
			default:
				err = f.exec(c.kind, out, []torch.ExecTensor{x}, c.scalars, nil)
			}
			if err != nil {
				t.Fatalf("%s %s %v: %v", dt, c.kind, c.scalars, err)
			}
			if got := f.ints(out); !slices.Equal(got, c.want) {
				t.Errorf("%s %s %v: %v, want %v", dt, c.kind, c.scalars, got, c.want)
			}
		}
		cond := f.tensor(true, torch.Bool, []int64{3, 4}, []float64{1, 0, 1, 0, 1, 1, 0, 0, 1, 0, 1, 0})
		y := f.intTensor(dt, []int64{3, 4}, slices.Repeat([]int64{wrapInt(dt, -7)}, 12))
		w := f.tensor(true, dt, []int64{3, 4}, nil)
		if err := f.exec(torch.ExecWhere, w, []torch.ExecTensor{cond, x, y}, nil, nil); err != nil {
			t.Fatalf("%s where: %v", dt, err)
		}
		want := slices.Clone(v)
		for i, c := range []int{1, 0, 1, 0, 1, 1, 0, 0, 1, 0, 1, 0} {
			if c == 0 {
				want[i] = wrapInt(dt, -7)
			}
		}
		if got := f.ints(w); !slices.Equal(got, want) {
			t.Errorf("%s where: %v, want %v", dt, got, want)
		}
		for kind, want := range map[torch.ExecKind]int64{torch.ExecAll: 0, torch.ExecAny: 1} {
			odt := torch.Bool
			if dt == torch.Uint8 {
				odt = torch.Uint8
			}
			out := f.tensor(true, odt, nil, nil)
			if err := f.exec(kind, out, []torch.ExecTensor{x}, nil, nil); err != nil {
				t.Fatalf("%s %s: %v", dt, kind, err)
			}
			if got := f.ints(out); len(got) != 1 || got[0] != want {
				t.Errorf("%s %s: %v, want %d", dt, kind, got, want)
			}
		}
	}
}
