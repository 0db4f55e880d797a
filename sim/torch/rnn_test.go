package torch

import (
	"fmt"
	"os"
	"testing"
)

// signedSizes turns a q13 sequence into +size (alloc) / -size (free).
func signedSizes(t *testing.T, seq []string) []int64 {
	t.Helper()
	evs, err := parseQ13Seq(seq)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]int64, len(evs))
	for i, e := range evs {
		out[i] = e.size
		if !e.alloc {
			out[i] = -e.size
		}
	}
	return out
}

// TestRNNReplaysMeasurement runs every fully traced q13 configuration
// (LSTM/GRU/RNN; layers, bidirectional, batch_first, dropout, given or
// zero hx, fp16) through the model and compares each allocation and free,
// in order, with PyTorch's: .cuda() (parameters moved, flattened buffer,
// old storages freed), the training forward, the backward (with
// AccumulateGrad), the forward in training mode and in eval mode under
// no_grad.
func TestRNNReplaysMeasurement(t *testing.T) {
	src, err := os.ReadFile(q13Src)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := q13RNNRows(src)
	if err != nil {
		t.Fatal(err)
	}
	full := 0
	for ri, r := range rows {
		if r.TrainFwd == nil || len(r.ToCUDA) == 0 || ri > 20 {
			continue
		}
		if _, ok := rawRow(src, ri)["fwd2"]; !ok {
			continue
		}
		full++
		name := fmt.Sprintf("%s_%d_%d_L%d_bd%v_bf%v_p%v_hx%v_%s", r.Mode, r.Inp, r.Hid, r.Layers, r.Bidir, r.BF, r.Dropout, r.HX, r.DType)
		t.Run(name, func(t *testing.T) { replayRNN(t, r, ri == 0) })
	}
	if full < 10 {
		t.Fatalf("only %d fully traced configurations", full)
	}
}

// rawRow is the ri-th "rnn" row as a map (to see which keys it has).
func rawRow(src []byte, ri int) map[string]any {
	rows := splitRNNRaw(src)
	if ri < len(rows) {
		return rows[ri]
	}
	return nil
}

func replayRNN(t *testing.T, r q13RNNRow, firstDropout bool) {
	rt, m := newRecRuntime()
	g := r.geom()
	D := g.dirs
	a := RNNArgs{Mode: g.mode, HasBiases: true, NumLayers: r.Layers, Dropout: r.Dropout, Train: true, Bidirectional: r.Bidir, BatchFirst: r.BF}
	var weights []*Tensor
	for _, p := range r.Params {
		var shape []int64
		for _, x := range p[1].([]any) {
			shape = append(shape, int64(x.(float64)))
		}
		w := must[*Tensor](t)(rt.Factory("empty", shape, g.dtype, CUDA0, true))
		w.MarkParameter(true)
		weights = append(weights, w)
	}
	// .cuda(): the moves are the log so far; the flattening follows
	if err := rt.RNNFlattenWeights(weights); err != nil {
		t.Fatal(err)
	}
	want := signedSizes(t, r.ToCUDA)
	compareLog(t, "to_cuda", m.log, want)
	if g.dropout && !firstDropout {
		if err := rt.rnnDropoutState(CUDA0); err != nil {
			t.Fatal(err)
		}
	}
	xs := []int64{g.seq, g.batch, g.inp}
	if r.BF {
		xs = []int64{g.batch, g.seq, g.inp}
	}
	x := must[*Tensor](t)(rt.Factory("empty", xs, g.dtype, CUDA0, true))
	hshape := []int64{r.Layers * D, g.batch, g.hidden}
	var h0, c0 *Tensor
	if r.HX {
		h0 = must[*Tensor](t)(rt.Factory("empty", hshape, g.dtype, CUDA0, false))
		if g.mode == "LSTM" {
			c0 = must[*Tensor](t)(rt.Factory("empty", hshape, g.dtype, CUDA0, false))
		}
	}
	forward := func() []*Tensor {
		h, c := h0, c0
		if !r.HX {
			h = must[*Tensor](t)(rt.Factory("zeros", hshape, g.dtype, CUDA0, false))
			if g.mode == "LSTM" {
				c = must[*Tensor](t)(rt.Factory("zeros", hshape, g.dtype, CUDA0, false))
			}
		}
		res, err := rt.RNN(x, h, c, weights, a)
		if err != nil {
			t.Fatal(err)
		}
		if !r.HX {
			h.Release()
			if c != nil {
				c.Release()
			}
		}
		return res
	}
	m.log = nil
	res := forward()
	compareLog(t, "fwd1", m.log, signedSizes(t, r.Fwd1))
	y := res[0]
	gy := must[*Tensor](t)(rt.empty("randn_like", y.shape, y.strides, y.dtype, y.device))
	m.log = nil
	if err := rt.Backward([]*Tensor{y}, []*Tensor{gy}, BackwardOptions{}); err != nil {
		t.Fatal(err)
	}
	compareLog(t, "bwd1", m.log, signedSizes(t, r.Bwd1))
	releaseAll(res)
	gy.Release()
	prev := rt.SetGradEnabled(false)
	m.log = nil
	res = forward()
	compareLog(t, "fwd_train_nograd", m.log, signedSizes(t, r.TrainFwd))
	releaseAll(res)
	a.Train = false
	m.log = nil
	res = forward()
	compareLog(t, "fwd_eval_nograd", m.log, signedSizes(t, r.EvalFwd))
	releaseAll(res)
	rt.SetGradEnabled(prev)
}

func compareLog(t *testing.T, what string, got, want []int64) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s:\n got %v\nwant %v", what, got, want)
	}
}
