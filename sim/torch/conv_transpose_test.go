package torch

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"testing"
)

// q13CTSeqRow is a "ct" row's measured allocation sequences.
type q13CTSeqRow struct {
	q13CTRow
	Bias   bool     `json:"bias"`
	FwdSeq []string `json:"fwd_seq"`
	BwdSeq []string `json:"bwd_seq"`
}

// ctSigned turns q13's "R<size>"/"W<size>"/"a<size>" (allocations) and
// "f<size>" (frees) into +size / -size.
func ctSigned(t *testing.T, seq []string) []int64 {
	t.Helper()
	var out []int64
	for _, s := range seq {
		n, err := strconv.ParseInt(s[1:], 10, 64)
		if err != nil {
			t.Fatalf("bad event %q", s)
		}
		if s[0] == 'f' {
			n = -n
		}
		out = append(out, n)
	}
	return out
}

// TestConvTransposeReplaysMeasurement runs every measured transposed
// convolution (F.conv_transpose1d/2d with bias, output_padding, groups,
// dilation; fp32/fp16/bf16) and its backward for input and weight, and
// compares each allocation and free with PyTorch's.
func TestConvTransposeReplaysMeasurement(t *testing.T) {
	src, err := os.ReadFile(q13Src)
	if err != nil {
		t.Fatal(err)
	}
	dts := map[string]DType{"fp32": Float32, "fp16": Float16, "bf16": BFloat16}
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(nil, 1<<22)
	n := 0
	for sc.Scan() {
		var r q13CTSeqRow
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil || r.Kind != "ct" || r.Error != "" {
			continue
		}
		n++
		name := fmt.Sprintf("%dd_%s_n%d_%d_%d_k%d_s%d_p%d_op%d_g%d_d%d_%d", r.Dims, r.DType, r.Batch, r.Cin, r.Cout, r.Kernel, r.Stride,
			r.Padding, r.OutPad, r.Groups, r.Dilation, r.Spatial)
		t.Run(name, func(t *testing.T) {
			rt, m := newRecRuntime()
			dt := dts[r.DType]
			rep := func(v int64) []int64 {
				out := make([]int64, r.Dims)
				for i := range out {
					out[i] = v
				}
				return out
			}
			x := must[*Tensor](t)(rt.Factory("empty", append([]int64{r.Batch, r.Cin}, rep(r.Spatial)...), dt, CUDA0, true))
			w := must[*Tensor](t)(rt.Factory("empty", append([]int64{r.Cin, r.Cout / r.Groups}, rep(r.Kernel)...), dt, CUDA0, true))
			var b *Tensor
			if r.Bias {
				b = must[*Tensor](t)(rt.Factory("empty", []int64{r.Cout}, dt, CUDA0, false))
			}
			m.log = nil
			y := must[*Tensor](t)(rt.ConvTranspose(x, w, b, rep(r.Stride), rep(r.Padding), rep(r.OutPad), rep(r.Dilation), r.Groups))
			compareLog(t, "forward", m.log, ctSigned(t, r.FwdSeq))
			gy := must[*Tensor](t)(rt.empty("randn_like", y.shape, y.strides, y.dtype, y.device))
			m.log = nil
			if err := rt.Backward([]*Tensor{y}, []*Tensor{gy}, BackwardOptions{}); err != nil {
				t.Fatal(err)
			}
			compareLog(t, "backward", m.log, ctSigned(t, r.BwdSeq))
		})
	}
	if n < 30 {
		t.Fatalf("only %d transposed convolutions", n)
	}
}

// TestConvTransposeShapes checks output shapes, unbatched inputs and
// PyTorch's errors.
func TestConvTransposeShapes(t *testing.T) {
	rt, _ := newRecRuntime()
	x := must[*Tensor](t)(rt.Factory("empty", []int64{8, 5, 5}, Float32, CUDA0, false))
	w := must[*Tensor](t)(rt.Factory("empty", []int64{8, 4, 3, 3}, Float32, CUDA0, false))
	y := must[*Tensor](t)(rt.ConvTranspose(x, w, nil, []int64{2, 2}, []int64{1, 1}, []int64{1, 1}, []int64{1, 1}, 1))
	if fmt.Sprint(y.Shape()) != "[4 10 10]" {
		t.Errorf("unbatched output shape %v", y.Shape())
	}
	if _, err := rt.ConvTranspose(x, w, nil, []int64{1, 1}, []int64{0, 0}, []int64{1, 1}, []int64{1, 1}, 1); err == nil {
		t.Error("output_padding >= stride and dilation: no error")
	}
	w2 := must[*Tensor](t)(rt.Factory("empty", []int64{6, 4, 3, 3}, Float32, CUDA0, false))
	_, err := rt.ConvTranspose(x, w2, nil, []int64{1, 1}, []int64{0, 0}, []int64{0, 0}, []int64{1, 1}, 1)
	if err == nil || err.Error() != "Given transposed=1, weight of size [6, 4, 3, 3], expected input[1, 8, 5, 5] to have 6 channels, but got 8 channels instead" {
		t.Errorf("channel mismatch: %v", err)
	}
}
