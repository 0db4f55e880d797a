package gpuexec

import (
	"fmt"
	"testing"
)

// TestTriMask checks the keep masks of tril/triu against their definition
// (torch.tril keeps j − i ≤ k, torch.triu keeps j − i ≥ k).
func TestTriMask(t *testing.T) {
	for _, c := range []struct {
		rows, cols, k int64
		upper         bool
		want          string
	}{
		{3, 3, 0, false, "[1 0 0 1 1 0 1 1 1]"},
		{3, 3, 0, true, "[1 1 1 0 1 1 0 0 1]"},
		{2, 4, 1, false, "[1 1 0 0 1 1 1 0]"},
		{2, 4, -1, true, "[1 1 1 1 1 1 1 1]"},
		{3, 2, -1, false, "[0 0 1 0 1 1]"},
		{2, 3, 5, true, "[0 0 0 0 0 0]"},
	} {
		if got := fmt.Sprint(triMask(c.rows, c.cols, c.k, c.upper)); got != c.want {
			t.Errorf("triMask(%d, %d, %d, upper=%v) = %s, want %s", c.rows, c.cols, c.k, c.upper, got, c.want)
		}
	}
}
