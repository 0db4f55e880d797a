package torch

import "math"

// cuDNN workspaces of transposed convolutions. cudnn_convolution_transpose
// runs cuDNN's backward-data operation for the forward, a forward
// convolution for grad_input and backward-filter for grad_weight; with
// cudnn.benchmark False each picks one engine by heuristics and allocates
// its workspace right after the result (as for convolutions, see
// cudnn_workspace.go). The sizes are measured:
// testdata/questions/q13_conv_transpose_rnn.out (its "ct" rows: DCGAN
// generators at batch 16/64/128 in fp32/fp16/bf16, U-Net and vocoder
// upsampling, output_padding, groups, dilation; H200, PyTorch 2.11, cuDNN
// 9.19) is compiled into convTWSTable (conv_transpose_workspace_table.go,
// `go test -run TestConvTransposeWorkspaceTable -update`). Cold and warm
// calls allocate the same; the backward-filter workspace is the same when
// grad_input is not needed.
//
// The model: an exact configuration takes the measured workspaces; else,
// for groups 1 and dilation 1, the nearest entry of the same class (dims,
// kernel, stride, fp32 versus 16-bit) in log-space of (batch, in channels,
// out channels, input size), scaled by the ratio of output elements (an
// approximation: see TestConvTransposeWorkspaceLeaveOneOut); anything else
// (3-d, float64, grouped or dilated shapes not measured) gets none.

// convTWSEntry is one measured transposed convolution (square kernel,
// stride, padding, output_padding, dilation and input; cin is the input's
// channels = weight.shape[0]) with its workspaces in allocation order.
type convTWSEntry struct {
	dims                                       int
	dtype                                      DType
	n, cin, cout, spatial, kernel, stride, pad int64
	outPad, groups, dil, outSpatial            int64
	fwd, data, filter                          []int64
}

// convTGeom is what the workspace model looks at in a transposed
// convolution.
type convTGeom struct {
	dims                                  int
	dtype                                 DType
	n, cin, cout                          int64
	side                                  int64 // the input's spatial size when all are equal, else 0
	spatial                               float64
	outElems                              float64 // batch times output channels times output spatial elements
	kernel, stride, pad, outPad, dil, grp int64
	square                                bool // kernel/stride/padding/output_padding/dilation equal over dims
}

// newConvTGeom describes a transposed convolution of a batched input of
// shape xs with weight shape ws and output shape out ([N, C_out, ...]).
func newConvTGeom(dt DType, xs, ws, out, stride, pad, outPad, dil []int64, groups int64) convTGeom {
	k := len(ws) - 2
	g := convTGeom{dims: k, dtype: dt, n: xs[0], cin: xs[1], cout: out[1], side: xs[2], kernel: ws[2], stride: stride[0],
		pad: pad[0], outPad: outPad[0], dil: dil[0], grp: groups, square: true}
	logSp := 0.0
	g.outElems = float64(out[0] * out[1])
	for i := 0; i < k; i++ {
		if ws[2+i] != g.kernel || stride[i] != g.stride || pad[i] != g.pad || outPad[i] != g.outPad || dil[i] != g.dil {
			g.square = false
		}
		if xs[2+i] != xs[2] {
			g.side = 0
		}
		logSp += math.Log(float64(xs[2+i]))
		g.outElems *= float64(out[2+i])
	}
	g.spatial = math.Exp(logSp / float64(k))
	return g
}

// matches reports whether e is exactly the configuration g.
func (g convTGeom) matches(e *convTWSEntry) bool {
	return g.square && g.side > 0 && e.dims == g.dims && e.dtype == g.dtype && e.n == g.n && e.cin == g.cin &&
		e.cout == g.cout && e.spatial == g.side && e.kernel == g.kernel && e.stride == g.stride && e.pad == g.pad &&
		e.outPad == g.outPad && e.groups == g.grp && e.dil == g.dil
}

// estimable reports whether the nearest-entry fallback applies to g.
func (g convTGeom) estimable() bool {
	return g.square && g.grp == 1 && g.dil == 1 && (g.dims == 1 || g.dims == 2) &&
		(g.dtype == Float32 || halfClass(g.dtype))
}

// convTransposeWorkspaces returns the forward (backward-data),
// backward-data (forward convolution) and backward-filter workspaces of g
// from table; skip, when not nil, is left out (the leave-one-out test).
func convTransposeWorkspaces(g convTGeom, table []convTWSEntry, skip *convTWSEntry) (fwd, data, filter []int64) {
	var best *convTWSEntry
	bestD := math.Inf(1)
	for i := range table {
		e := &table[i]
		if e == skip {
			continue
		}
		if g.matches(e) {
			return e.fwd, e.data, e.filter
		}
		if !g.estimable() || e.dims != g.dims || e.kernel != g.kernel || e.stride != g.stride || e.groups != 1 || e.dil != 1 ||
			halfClass(e.dtype) != halfClass(g.dtype) {
			continue
		}
		d := 0.0
		for _, p := range [][2]float64{{float64(g.n), float64(e.n)}, {float64(g.cin), float64(e.cin)},
			{float64(g.cout), float64(e.cout)}, {g.spatial, float64(e.spatial)}} {
			x := math.Log(p[0]) - math.Log(p[1])
			d += x * x
		}
		if e.dtype != g.dtype {
			d += 1e-6
		}
		if d < bestD {
			best, bestD = e, d
		}
	}
	if best == nil {
		return nil, nil, nil
	}
	scale := g.outElems / (float64(best.n*best.cout) * math.Pow(float64(best.outSpatial), float64(best.dims)))
	sc := func(ws []int64) []int64 {
		var out []int64
		for _, w := range ws {
			out = append(out, int64(math.Round(float64(w)*scale)))
		}
		return out
	}
	return sc(best.fwd), sc(best.data), sc(best.filter)
}
