package torch

import (
	"os"
	"strings"
	"testing"
)

// q22Events returns the measured forward and backward events of the q22
// item label (testdata/questions/q22_modules.out).
func q22Events(t *testing.T, label string) (fwd, bwd string) {
	t.Helper()
	data, err := os.ReadFile("testdata/questions/q22_modules.out")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		parts := strings.Split(line, " | ")
		if len(parts) == 4 && parts[0] == label {
			return strings.TrimPrefix(parts[2], "F: "), strings.TrimPrefix(strings.TrimPrefix(parts[3], "B:"), " ")
		}
	}
	t.Fatalf("no q22 item %q", label)
	return "", ""
}

// TestModulesMeasured replays session 14's module ops against PyTorch
// 2.11's allocator events (testdata/questions/q22_modules.out; inputs and
// parameters require grad, the backward gets a contiguous ones_like).
func TestModulesMeasured(t *testing.T) {
	lstm := func(bias bool) func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
		return func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
			x, h, c := in(32, 64), in(32, 128), in(32, 128)
			wih, whh := in(512, 64), in(512, 128)
			var bih, bhh *Tensor
			if bias {
				bih, bhh = in(512), in(512)
			}
			// cy stays alive, as in q22 (the output tuple holds it)
			hy, _, err := rt.LstmCell(x, h, c, wih, whh, bih, bhh)
			return hy, err
		}
	}
	fold := func(ch, k, s, p int64) UnfoldArgs {
		return UnfoldArgs{Kernel: [2]int64{k, k}, Dilation: [2]int64{1, 1}, Padding: [2]int64{p, p}, Stride: [2]int64{s, s}}
	}
	runTraceCases(t, []traceCase{
		{"LSTMCell", lstm(true), "+1:65536 +2:65536 +3:65536 +4:16384 +5:16384",
			"+1:65536 +2:16384 +3:2048 -? -? -? +4:2048 +5:262144 +6:16384 +7:131072 +8:8192 -1", "ThnnFusedLstmCellBackward0"},
		{"LSTMCell no bias", lstm(false), "+1:65536 +2:65536 +3:65536 +4:16384 +5:16384",
			"+1:65536 +2:16384 -? -? -? +3:262144 +4:16384 +5:131072 +6:8192 -1", "ThnnFusedLstmCellBackward0"},
		{"GRUCell", func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
			return rt.GruCell(in(32, 64), in(32, 128), in(384, 64), in(384, 128), in(384), in(384))
		}, "+1:49152 +2:49152 +3:81920 +4:16384",
			"+1:49152 +2:49152 +3:16384 +4:1536 +5:1536 -? -? -? +6:196608 +7:16384 -2 -7 +8:98304 +9:8192 -1", "ThnnFusedGruCellBackward0"},
		{"unfold k3 p1", func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
			return rt.Im2col(in(8, 3, 32, 32), fold(3, 3, 1, 1))
		}, "+1:98304 +2:884736 -1", "+1:884736", "Im2ColBackward0"},
		{"unfold k2 s2", func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
			return rt.Im2col(in(8, 16, 32, 32), fold(16, 2, 2, 0))
		}, "+1:524288", "+1:524288", "Im2ColBackward0"},
		{"fold k3 p1", func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
			return rt.Col2im(in(8, 27, 1024), [2]int64{32, 32}, fold(3, 3, 1, 1))
		}, "+1:884736", "+1:98304 +2:884736 -1", "Col2ImBackward0"},
		{"PReLU shared", func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
			return rt.Prelu(in(32, 64, 16, 16), in(1))
		}, "+1:2097152", "+1:2097152 +2:2097152 +3:4 +4:256 +5:4 -5 -4 -2", "PreluKernelBackward0"},
		{"PReLU channels", func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
			return rt.Prelu(in(32, 64), in(64))
		}, "+1:8192", "+1:8192 +2:8192 +3:256 -2", "PreluKernelBackward0"},
		{"channel_shuffle", func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
			return rt.ChannelShuffle(in(8, 64, 16, 16), 4)
		}, "+1:524288", "+1:524288", "ChannelShuffleBackward0"},
		{"native_channel_shuffle", func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
			return rt.NativeChannelShuffle(in(8, 64, 16, 16), 4)
		}, "+1:524288", "+1:524288", "ViewBackward0"},
		{"adaptive_max_pool2d", func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
			o, i, err := rt.AdaptiveMaxPool2d(in(8, 64, 32, 32), [2]int64{7, 7})
			i.Release()
			return o, err
		}, "+1:100352 +2:200704", "+1:2097152 -?", "AdaptiveMaxPool2DBackward0"},
		{"adaptive_max_pool1d", func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
			o, i, err := rt.AdaptiveMaxPool1d(in(8, 64, 100), 10)
			i.Release()
			return o, err
		}, "+1:20480 +2:40960", "+1:204800 -?", "SqueezeBackward1"},
		{"pairwise_distance", func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
			return rt.PairwiseDistance(in(128, 256), in(128, 256), 2, 1e-6, false)
		}, "+1:131072 +2:131072 +3:512 -1", "+1:131072 +2:128 +3:131072 -2 -1 -? +4:131072", "NormBackward1"},
	})
	// Bilinear's per-feature loops, straight from the measured file
	bil := func(bias bool) func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
		return func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error) {
			w := in(40, 20, 30)
			var b *Tensor
			if bias {
				b = in(40)
			}
			return rt.Bilinear(in(128, 20), in(128, 30), w, b)
		}
	}
	var cases []traceCase
	for _, c := range []struct {
		label, gradFn string
		build         func(rt *Runtime, in func(...int64) *Tensor) (*Tensor, error)
	}{
		{"Bilinear [128,20]x[128,30]->40", "AddBackward0", bil(true)},
		{"Bilinear no bias", "ViewBackward0", bil(false)},
	} {
		fwd, bwd := q22Events(t, c.label)
		cases = append(cases, traceCase{c.label, c.build, fwd, bwd, c.gradFn})
	}
	runTraceCases(t, cases)
}

// TestEmbeddingBagMeasured replays torch.embedding_bag (q22): the forward's
// four results and the backward's sort and segment buffers.
func TestEmbeddingBagMeasured(t *testing.T) {
	for _, c := range []struct {
		name      string
		mode      int64
		bags, per int64
		psw       bool
		fwd, bwd  string
	}{
		{"sum", BagSum, 32, 10, false, "+1:256 +2:2560 +3:8192",
			"+1:2560 +2:2560 +3:2560 +4:1 -4 -3 +5:256000 +6:2560 +7:8 +8:2560 +9:1279 -9 -8 +10:2560 +11:2560 +12:1279 -12 +13:8 +14:2816 +15:90112 -15 -14 -13 -11 -10 -7 -6 -2 -1"},
		{"mean many", BagMean, 64, 100, false, "+1:512 +2:51200 +3:16384",
			"+1:51200 +2:51200 +3:51200 +4:121343 -4 -3 +5:256000 +6:51200 +7:8 +8:51200 +9:1279 -9 -8 +10:8000 +11:8000 +12:1279 -12 +13:8 +14:13120 +15:419840 -15 -14 -13 -11 -10 -7 -6 -2 -1"},
		{"max", BagMax, 32, 10, false, "+1:256 +2:2560 +3:8192 +4:16384", "+1:256000"},
		{"sum per_sample_weights", BagSum, 32, 10, true, "+1:256 +2:2560 +3:8192",
			"+1:1280 +2:2560 +3:2560 +4:2560 +5:1 -5 -4 +6:256000 +7:2560 +8:8 +9:2560 +10:1279 -10 -9 +11:2560 +12:2560 +13:1279 -13 +14:8 +15:2816 +16:90112 -16 -15 -14 -12 -11 -8 -7 -3 -2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rt, m := newRecRuntime()
			w := must[*Tensor](t)(rt.Factory("randn", []int64{1000, 64}, Float32, CUDA0, true))
			idx := must[*Tensor](t)(rt.Factory("empty", []int64{c.bags * c.per}, Int64, CUDA0, false))
			offs := must[*Tensor](t)(rt.Factory("empty", []int64{c.bags}, Int64, CUDA0, false))
			var psw *Tensor
			if c.psw {
				psw = must[*Tensor](t)(rt.Factory("randn", []int64{c.bags * c.per}, Float32, CUDA0, true))
			}
			m.log = nil
			out, o2b, bs, mi, err := rt.EmbeddingBag(w, idx, offs, psw, c.mode, false, false)
			if err != nil {
				t.Fatal(err)
			}
			compareTrace(t, "forward", m.log, parseTrace(t, c.fwd))
			if got := shapeList(mi.shape); (c.mode == BagMax) != (got != "[0]") {
				t.Errorf("max_indices %s", got)
			}
			if out.gradFn == nil || out.gradFn.name != "EmbeddingBagBackward0" {
				t.Errorf("grad_fn %v", out.gradFn)
			}
			g := must[*Tensor](t)(rt.FactoryLike("ones_like", out, out.dtype, out.device, false))
			m.log = nil
			if err := rt.Backward([]*Tensor{out}, []*Tensor{g}, BackwardOptions{}); err != nil {
				t.Fatal(err)
			}
			compareTrace(t, "backward", m.log, parseTrace(t, c.bwd))
			releaseAll([]*Tensor{o2b, bs, mi})
		})
	}
}

// TestModulesErrors checks PyTorch's messages for bad arguments (q22).
func TestModulesErrors(t *testing.T) {
	rt, _ := newRecRuntime()
	mk := func(dt DType, s ...int64) *Tensor { return must[*Tensor](t)(rt.Factory("empty", s, dt, CUDA0, false)) }
	x4 := mk(Float32, 8, 64, 16, 16)
	w := func(s ...int64) *Tensor { return mk(Float32, s...) }
	win := UnfoldArgs{Kernel: [2]int64{3, 3}, Dilation: [2]int64{1, 1}, Padding: [2]int64{1, 1}, Stride: [2]int64{1, 1}}
	for _, c := range []struct {
		name string
		run  func() error
		want string
	}{
		{"lstm input size", func() error {
			_, _, err := rt.LstmCell(w(32, 65), w(32, 128), w(32, 128), w(512, 64), w(512, 128), nil, nil)
			return err
		}, "input has inconsistent input_size: got 65 expected 64"},
		{"gru hidden size", func() error {
			_, err := rt.GruCell(w(32, 64), w(32, 129), w(384, 64), w(384, 128), nil, nil)
			return err
		}, "hidden0 has inconsistent hidden_size: got 129, expected 128"},
		{"lstm bf16", func() error {
			b := func(s ...int64) *Tensor { return mk(BFloat16, s...) }
			_, _, err := rt.LstmCell(b(2, 4), b(2, 8), b(2, 8), b(32, 4), b(32, 8), nil, nil)
			return err
		}, "\"_thnn_fused_lstm_cell_cuda\" not implemented for 'BFloat16'"},
		{"bilinear input2", func() error { _, err := rt.Bilinear(w(128, 20), w(128, 31), w(40, 20, 30), nil); return err },
			"bilinear(): input2 size does not match weight size: got 31 but expected 30"},
		{"unfold 5-d", func() error { _, err := rt.Im2col(w(2, 3, 4, 8, 8), win); return err },
			"Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, but got: [2, 3, 4, 8, 8]"},
		{"unfold big kernel", func() error {
			k := win
			k.Kernel, k.Padding = [2]int64{5, 5}, [2]int64{}
			_, err := rt.Im2col(w(2, 3, 4, 4), k)
			return err
		}, "Given input with spatial size (4, 4), kernel_size=(5, 5), dilation=(1, 1), padding=(0, 0), calculated shape of the array of sliding blocks as (0, 0), but its components must be at least one."},
		{"fold blocks", func() error { _, err := rt.Col2im(w(8, 27, 1000), [2]int64{32, 32}, win); return err },
			"Given output_size=(32, 32), kernel_size=(3, 3), dilation=(1, 1), padding=(1, 1), stride=(1, 1), expected size of input's dimension 2 to match the calculated number of sliding blocks 32 * 32 = 1024, but got input.size(2)=1000."},
		{"fold channels", func() error { _, err := rt.Col2im(w(8, 28, 1024), [2]int64{32, 32}, win); return err },
			"Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got input.size(1)=28 and kernel_size=(3, 3)."},
		{"prelu weight", func() error { _, err := rt.Prelu(w(32, 64), w(3)); return err },
			"Mismatch of parameter numbers and input channel size. Found parameter numbers = 3 and channel size = 64."},
		{"shuffle groups", func() error { _, err := rt.ChannelShuffle(x4, 5); return err },
			"Number of channels must be divisible by groups. Got 64 channels and 5 groups."},
		{"shuffle 2-d", func() error { _, err := rt.ChannelShuffle(w(8, 64), 4); return err },
			"channel_shuffle expects input with > 2 dims, but got input with sizes [8, 64]"},
		{"adaptive 5-d", func() error { _, _, err := rt.AdaptiveMaxPool2d(w(2, 8, 4, 32, 32), [2]int64{7, 7}); return err },
			"adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: [2, 8, 4, 32, 32]"},
		{"adaptive1d 4-d", func() error { _, _, err := rt.AdaptiveMaxPool1d(w(2, 8, 4, 32), 7); return err },
			"Expected 2 to 3 dimensions, but got 4-dimensional tensor for argument #1 'self' (while checking arguments for adaptive_max_pool1d)"},
		{"embedding_bag float indices", func() error {
			_, _, _, _, err := rt.EmbeddingBag(w(10, 3), w(5), mk(Int64, 2), nil, BagSum, false, false)
			return err
		}, "Expected tensor for argument #2 'indices' to have one of the following scalar types: Long, Int; but got Float instead (while checking arguments for embedding_bag)"},
	} {
		if err := c.run(); err == nil || err.Error() != c.want {
			t.Errorf("%s: %v\nwant %q", c.name, err, c.want)
		}
	}
}

// TestModulesShapes checks output shapes and layouts.
func TestModulesShapes(t *testing.T) {
	rt, _ := newRecRuntime()
	mk := func(s ...int64) *Tensor { return must[*Tensor](t)(rt.Factory("empty", s, Float32, CUDA0, false)) }
	cl := must[*Tensor](t)(rt.ContiguousFormat(mk(8, 64, 16, 16), ChannelsLast))
	win := UnfoldArgs{Kernel: [2]int64{3, 2}, Dilation: [2]int64{2, 2}, Padding: [2]int64{1, 0}, Stride: [2]int64{1, 2}}
	for _, c := range []struct {
		name    string
		run     func() (*Tensor, error)
		shape   string
		strides string
	}{
		{"unfold dilation", func() (*Tensor, error) { return rt.Im2col(mk(4, 8, 20, 20), win) }, "[4, 48, 162]", "[7776, 162, 1]"},
		{"unfold 3-d", func() (*Tensor, error) {
			return rt.Im2col(mk(3, 32, 32), UnfoldArgs{Kernel: [2]int64{3, 3}, Dilation: [2]int64{1, 1}, Stride: [2]int64{1, 1}})
		}, "[27, 900]", "[900, 1]"},
		{"prelu channels_last", func() (*Tensor, error) { return rt.Prelu(cl, mk(64)) }, "[8, 64, 16, 16]", "[16384, 1, 1024, 64]"},
		{"channel_shuffle channels_last", func() (*Tensor, error) { return rt.ChannelShuffle(cl, 4) }, "[8, 64, 16, 16]", "[16384, 256, 16, 1]"},
		{"adaptive channels_last", func() (*Tensor, error) {
			o, i, err := rt.AdaptiveMaxPool2d(cl, [2]int64{7, 7})
			i.Release()
			return o, err
		}, "[8, 64, 7, 7]", "[3136, 1, 448, 64]"},
		{"bilinear 3-d", func() (*Tensor, error) { return rt.Bilinear(mk(4, 32, 20), mk(4, 32, 30), mk(40, 20, 30), mk(40)) }, "[4, 32, 40]", "[1280, 40, 1]"},
		{"pairwise 1-d", func() (*Tensor, error) { return rt.PairwiseDistance(mk(256), mk(256), 2, 1e-6, false) }, "[]", "[]"},
		{"pairwise keepdim", func() (*Tensor, error) { return rt.PairwiseDistance(mk(128, 256), mk(256), 1, 1e-6, true) }, "[128, 1]", "[1, 1]"},
	} {
		out, err := c.run()
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if s, st := shapeList(out.shape), shapeList(out.strides); s != c.shape || st != c.strides {
			t.Errorf("%s: %s %s, want %s %s", c.name, s, st, c.shape, c.strides)
		}
	}
}
