package torch

import "testing"

// TestEinsumMeasured replays einsum and the contraction ops against the
// allocator events PyTorch 2.11 recorded (testdata/questions/q18_*.out).
func TestEinsumMeasured(t *testing.T) {
	ein := func(eq string, shapes ...[]int64) func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
		return func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
			ops := make([]*Tensor, len(shapes))
			for i, s := range shapes {
				ops[i] = in(s...)
			}
			return rt.Einsum(eq, ops, EinsumPath(eq, ops))
		}
	}
	s := func(d ...int64) []int64 { return d }
	runTraceCases(t, []traceCase{
		{"bij,bjk->bik", ein("bij,bjk->bik", s(4, 5, 6), s(4, 6, 7)), "+1:560", "+1:672 +2:480", "ViewBackward0"},
		{"bhqd,bhkd->bhqk", ein("bhqd,bhkd->bhqk", s(2, 3, 5, 8), s(2, 3, 7, 8)), "+1:840", "+1:1344 +2:960 +3:1344 -1", ""},
		{"ij,j->i", ein("ij,j->i", s(5, 6), s(6)), "+1:20", "+1:24 +2:120", ""},
		{"i,j->ij", ein("i,j->ij", s(5), s(6)), "+1:120", "+1:120 +2:120 +3:20 -2 +4:24 -1", "MulBackward0"},
		{"bij,jk->bk", ein("bij,jk->bk", s(4, 5, 6), s(6, 7)), "+1:96 +2:112", "+1:168 +2:96 -? +3:480 -2", ""},
		{"ii->i", ein("ii->i", s(5, 5)), "", "+1:100", "PermuteBackward0"},
		{"bij->b", ein("bij->b", s(4, 5, 6)), "+1:16", "+1:480", "SumBackward1"},
		{"ijk,ikl,ilm->ijm", ein("ijk,ikl,ilm->ijm", s(2, 3, 4), s(2, 4, 5), s(2, 5, 6)), "+1:120 +2:144", "+1:120 +2:240 -? +3:160 +4:96 -1 +5:240 -2", ""},
		{"bi,bj,bk->bijk", ein("bi,bj,bk->bijk", s(2, 3), s(2, 4), s(2, 5)), "+1:96 +2:480", "+1:480 +2:480 +3:40 -2 +4:96 -1 -? +5:96 +6:96 +7:24 -6 +8:32 -5 -4", ""},
		{"bqhd,bkhd->bhqk", ein("bqhd,bkhd->bhqk", s(2, 5, 3, 8), s(2, 7, 3, 8)), "+1:960 +2:1344 +3:840", "+1:1344 +2:960 -? -? +3:1344 -1 +4:960 -2", ""},
		{"tensordot dims=2", func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
			return rt.Tensordot(in(3, 4, 5), in(4, 5, 6), []int64{-2, -1}, []int64{0, 1})
		}, "+1:72", "+1:480 +2:240", "ViewBackward0"},
		{"tensordot permuted", func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
			return rt.Tensordot(in(3, 4, 5), in(4, 3, 6), []int64{1, 0}, []int64{0, 1})
		}, "+1:240 +2:120", "+1:288 +2:240 -? +3:240 -2", ""},
		{"outer", func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
			return rt.Outer(in(5), in(6))
		}, "+1:120", "+1:120 +2:120 +3:20 -2 +4:24 -1", "MulBackward0"},
		{"dot", func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
			return rt.Dot("dot", in(7), in(7))
		}, "+1:4", "+1:28 +2:28", "DotBackward0"},
		{"baddbmm beta=0.5 alpha=2", func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
			return rt.Baddbmm(in(5, 7), in(4, 5, 6), in(4, 6, 7), 0.5, 2, false)
		}, "+1:560", "+1:480 +2:480 -1 +3:672 +4:672 -3 +5:560 +6:140 -5", "BaddbmmBackward0"},
		{"addcmul bcast", func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
			return rt.Addcmul(in(5, 6), in(5, 1), in(1, 6), 1)
		}, "+1:120", "+1:24 +2:120 -1 +3:20 +4:120 -3 +5:20 -2 +6:24 -4 +7:120", "AddcmulBackward0"},
		{"addcdiv", func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
			return rt.Addcdiv(in(5, 6), in(5, 6), in(5, 6), 0.5)
		}, "+1:120", "+1:120 +2:120 -1 +3:120 +4:120 +5:120 +6:120 +7:120 -6 -5 -4 -3 +8:120", "AddcdivBackward0"},
		{"lerp tensor", func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
			return rt.Lerp(in(5, 6), in(5, 6), in(5, 6), 0)
		}, "+1:120", "+1:120 +2:120 +3:120 -2 +4:120 +5:120 -4", "LerpBackward1"},
		{"tile", func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
			return rt.Tile(in(3, 4), []int64{2, 1, 3})
		}, "+1:288", "+1:144 +2:48 -1", "RepeatBackward0"},
		{"diag 2-d", func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
			return rt.Diag(in(5, 6), -1)
		}, "+1:16", "+1:120", "DiagonalBackward0_copy"},
		{"diag_embed", func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
			return rt.DiagEmbed(in(2, 5), 0, -2, -1)
		}, "+1:200", "+1:40", "DiagEmbedBackward0"},
		{"normalize", func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
			return rt.Normalize(in(2, 3, 5), 2, 1, 1e-12)
		}, "+1:40 +2:40 +3:120", "+1:120 +2:120 +3:120 +4:120 -3 -2 -1 +5:120 -? +6:40 -4 +7:4 +8:10 +9:40 -8 -7 -6 +10:120 +11:10 +12:120 -11 -10 -9 -? -12", "DivBackward0"},
		{"cosine_similarity", func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
			return rt.CosineSimilarity(in(4, 6), in(4, 6), 1, 1e-8)
		}, "+1:16 +2:16 +3:16 +4:16 +5:4 +6:96 +7:96 +8:96 +9:16 -8 -5",
			"+1:96 +2:96 -? -? +3:96 +4:96 +5:96 +6:96 -5 -4 -3 +7:96 +8:16 -6 -2 -? +9:96 +10:96 +11:96 +12:96 -11 -10 -9 +13:96 +14:16 -12 -1 -? +15:96 +16:4 +17:96 -16 -15 -14 -? -17 +18:96 +19:4 +20:96 -19 -18 -8 -? -20", "SumBackward1"},
	})
}

// TestEinsumErrors checks PyTorch's messages for bad equations (q18).
func TestEinsumErrors(t *testing.T) {
	rt, _ := newRecRuntime()
	a := must[*Tensor](t)(rt.Factory("empty", []int64{5, 6}, Float32, CUDA0, false))
	b := must[*Tensor](t)(rt.Factory("empty", []int64{6, 7}, Float32, CUDA0, false))
	for _, c := range []struct {
		eq   string
		ops  []*Tensor
		want string
	}{
		{"ij,jk->ik", []*Tensor{a}, "einsum(): fewer operands were provided than specified in the equation"},
		{"ijk,jk->ik", []*Tensor{a, b}, "einsum(): the number of subscripts in the equation (3) does not match the number of dimensions (2) for operand 0 and no ellipsis was given"},
		{"ij,jk->ik", []*Tensor{a, a}, "einsum(): subscript j has size 5 for operand 1 which does not broadcast with previously seen size 6"},
		{"ij,jk->iz", []*Tensor{a, b}, "einsum(): output subscript z does not appear in the equation for any input operand"},
		{"ij,jk->ii", []*Tensor{a, b}, "einsum(): output subscript i appears more than once in the output"},
		{"i1,jk->ik", []*Tensor{a, b}, "einsum(): invalid subscript given at index 1 in the equation string, subscripts must be in [a-zA-Z]"},
		{"ij->ij", []*Tensor{a, b}, "einsum(): more operands were provided than specified in the equation"},
	} {
		if _, err := rt.Einsum(c.eq, c.ops, nil); err == nil || err.Error() != c.want {
			t.Errorf("%s: %v, want %q", c.eq, err, c.want)
		}
	}
}

// TestEinsumPath checks opt_einsum's optimal order on the measured
// equations (q18: the first contraction's allocation tells it).
func TestEinsumPath(t *testing.T) {
	rt, _ := newRecRuntime()
	mk := func(s ...int64) *Tensor { return must[*Tensor](t)(rt.Factory("empty", s, Float32, CUDA0, false)) }
	for _, c := range []struct {
		eq   string
		ops  []*Tensor
		want string
	}{
		{"bn,anm,bm->ba", []*Tensor{mk(4, 5), mk(3, 5, 6), mk(4, 6)}, "[0 2 0 1]"},
		{"ij,jk,kl->il", []*Tensor{mk(5, 6), mk(6, 7), mk(7, 3)}, "[1 2 0 1]"},
		{"ijk,ikl,ilm->ijm", []*Tensor{mk(2, 3, 4), mk(2, 4, 5), mk(2, 5, 6)}, "[0 1 0 1]"},
		{"ij,jk->ik", []*Tensor{mk(5, 6), mk(6, 7)}, "[]"},
	} {
		if got := fmtInts(EinsumPath(c.eq, c.ops)); got != c.want {
			t.Errorf("%s: path %s, want %s", c.eq, got, c.want)
		}
	}
}

func fmtInts(v []int64) string {
	s := "["
	for i, x := range v {
		if i > 0 {
			s += " "
		}
		s += itoa(x)
	}
	return s + "]"
}
