package torch

import "testing"

// TestNestedMaskLeftAligned checks the check's allocations, in order, as
// measured for a [32, 40] mask (q19_transformer_losses), here for [4, 6],
// and its argument errors.
func TestNestedMaskLeftAligned(t *testing.T) {
	rt, m := newRecRuntime()
	src := must[*Tensor](t)(rt.Factory("empty", []int64{4, 6, 8}, Float32, CUDA0, false))
	mask := must[*Tensor](t)(rt.Factory("empty", []int64{4, 6}, Bool, CUDA0, false))
	m.log = nil
	ok, err := rt.NestedMaskLeftAligned(src, mask)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	// tmp_pad, cat, int32 copy, argmin (cat and copy die), cumsum + its
	// int64 copy, eq + all, then nums, tmp_pad, sizes
	compareLog(t, "left aligned", m.log, []int64{4, 28, 112, 32, -112, -28, 192, 192, -192, 4, 1, -1, -4, -32, -4, -192})
	for _, c := range []struct {
		name string
		t, m *Tensor
		want string
	}{
		{"float mask", src, src, "Expected mask to be of type Bool, but got Float"},
		{"3-d mask", src, must[*Tensor](t)(rt.Factory("empty", []int64{4, 6, 1}, Bool, CUDA0, false)), "Padding mask should be 2D"},
	} {
		if _, err := rt.NestedMaskLeftAligned(c.t, c.m); err == nil || err.Error() != c.want {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}
