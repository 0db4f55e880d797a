package torch

import "math"

// cuDNN RNN workspace and reserve sizes (cudnnGetRNNTempSpaceSizes), as
// PyTorch 2.11 with cuDNN 9.19 allocates them on sm90, measured in
// testdata/questions/q13_conv_transpose_rnn.out (H200; "rnn" rows: LSTM,
// GRU and RNN_TANH over hidden 64/256/1024, (seq, batch) (1, 1), (35, 20),
// (100, 64), 1-2 layers, uni- and bidirectional, plus q045's shapes).
//
// Reserve (training only), fitted exactly to every measured row:
// elem·S·B·H·D·(L·f + L−1) + 256 bytes, f = 5 (LSTM), 6 (GRU), 1 (RNN),
// with S·B the packed tokens T for a PackedSequence (q26, every row),
// plus one bit per element of every inter-layer output when dropout is
// on: (L−1)·D·S·B·H/8 bytes (measured unidirectional only).
//
// Workspace: the forward's in training (the same size serves both backward
// passes, measured on every row) and in eval differ and follow no simple
// law, so measured shapes take the table (rnn_workspace_table.go, `go test
// -run TestRNNWorkspaceTable -update`); others take the nearest entry of
// the same mode and precision class in log-space of (input size, hidden,
// S·B, layers, directions), as 8 MiB + the weights' bytes + the entry's
// remainder scaled by S·B·H·L·D (every measured workspace is at least
// 8 MiB plus the weights; TestRNNWorkspaceLeaveOneOut reports the error).

// cudnnDropoutStateBytes is the cuDNN dropout state's size
// (cudnnDropoutGetStatesSize) measured on an H200 (132 SMs, as the H100
// SXM): 6 488 064 bytes.
const cudnnDropoutStateBytes = 6488064

// rnnWSBase is the constant part of every measured RNN workspace (8 MiB).
const rnnWSBase = 8 << 20

// rnnWSEntry is one measured RNN configuration's workspaces.
type rnnWSEntry struct {
	mode                string // "LSTM", "GRU", "RNN_TANH"
	dtype               DType
	inp, hidden, layers int64
	dirs, seq, batch    int64
	dropout             bool  // trained with dropout > 0
	weightBytes         int64 // the flattened weights
	train, eval         int64 // forward workspace in training / eval
}

// rnnReserveBytes is the training reserve space of g.
func rnnReserveBytes(g rnnGeom) int64 {
	f := map[string]int64{"LSTM": 5, "GRU": 6}[g.mode]
	if f == 0 {
		f = 1
	}
	sbh := rnnTokens(g) * g.hidden * g.dirs
	r := g.dtype.Size()*sbh*(g.layers*f+g.layers-1) + 256
	if g.dropout {
		r += (g.layers - 1) * sbh / 8
	}
	return r
}

// rnnTableMode is the table's name for a mode (RNN_RELU takes RNN_TANH's
// figures: unmeasured).
func rnnTableMode(mode string) string {
	if mode == "RNN_RELU" {
		return "RNN_TANH"
	}
	return mode
}

// rnnWorkspace is the forward workspace of g (training or eval).
func rnnWorkspace(g rnnGeom, table []rnnWSEntry) int64 {
	if g.packed {
		ws, _ := rnnPackedWorkspace(g, rnnPackedWSTable, nil) // rnn_packed.go
		return ws
	}
	ws, _ := rnnWorkspaceSkip(g, table, nil)
	return ws
}

// rnnWorkspaceSkip is rnnWorkspace leaving skip out of the table; exact
// reports a measured hit.
func rnnWorkspaceSkip(g rnnGeom, table []rnnWSEntry, skip *rnnWSEntry) (ws int64, exact bool) {
	mode := rnnTableMode(g.mode)
	pick := func(e *rnnWSEntry) int64 {
		if g.train {
			return e.train
		}
		return e.eval
	}
	var best *rnnWSEntry
	bestD := math.Inf(1)
	for i := range table {
		e := &table[i]
		if e == skip || e.mode != mode || halfClass(e.dtype) != halfClass(g.dtype) {
			continue
		}
		same := e.dtype == g.dtype && e.inp == g.inp && e.hidden == g.hidden && e.layers == g.layers && e.dirs == g.dirs &&
			e.seq == g.seq && e.batch == g.batch
		if same && (e.dropout == g.dropout || !g.train) {
			return pick(e), true
		}
		d := 0.0
		for _, p := range [][2]float64{{float64(g.inp), float64(e.inp)}, {float64(g.hidden), float64(e.hidden)},
			{float64(g.seq * g.batch), float64(e.seq * e.batch)}, {float64(g.layers), float64(e.layers)}, {float64(g.dirs), float64(e.dirs)}} {
			x := math.Log(p[0]) - math.Log(p[1])
			d += x * x
		}
		if e.dropout != (g.dropout && g.train) {
			d += 1e-6
		}
		if d < bestD {
			best, bestD = e, d
		}
	}
	floor := int64(rnnWSBase) + g.weightBytes
	if best == nil {
		return floor, false
	}
	rest := float64(pick(best) - rnnWSBase - best.weightBytes)
	scale := float64(g.seq*g.batch*g.hidden*g.layers*g.dirs) / float64(best.seq*best.batch*best.hidden*best.layers*best.dirs)
	ws = floor + int64(math.Round(math.Max(rest, 0)*scale))
	return ws, false
}
