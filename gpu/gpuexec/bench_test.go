package gpuexec

import (
	"testing"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/sim/torch"
)

// BenchmarkExecLaunch is the host cost of one op through the executor:
// operand resolution, broadcasting and dimension merging, and the kernel
// launch (on the GPU: cuLaunchKernel, asynchronous; the kernels are waited
// for once at the end). The target is under 20 µs per op.
func BenchmarkExecLaunch(b *testing.B) {
	cases := []struct {
		name  string
		kind  torch.ExecKind
		shape []int64
		two   bool
		sc    []float64
	}{
		{"add_1k", torch.ExecAdd, []int64{1024}, true, []float64{1}},
		{"mul_bcast_64x256", torch.ExecMul, []int64{64, 256}, true, nil},
		{"gelu_64x256", torch.ExecGelu, []int64{64, 256}, false, nil},
		{"matmul_64x64", torch.ExecMatmul, []int64{64, 64}, true, nil},
		{"softmax_64x64", torch.ExecSoftmax, []int64{64, 64}, false, nil},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			f := newFixture(b)
			x := f.tensor(true, torch.Float32, c.shape, make([]float64, numel(c.shape)))
			ins := []torch.ExecTensor{x}
			if c.two {
				ys := c.shape
				if c.kind == torch.ExecMul {
					ys = c.shape[1:] // broadcast along the rows
				}
				ins = append(ins, f.tensor(true, torch.Float32, ys, make([]float64, numel(ys))))
			}
			out := f.tensor(true, torch.Float32, c.shape, nil)
			var ints []int64
			if c.kind == torch.ExecSoftmax {
				ints = []int64{-1}
			}
			op := &torch.ExecOp{Kind: c.kind, Out: []torch.ExecTensor{out}, In: ins, Scalars: c.sc, Ints: ints}
			// On the device's worker thread, as a script runs (no channel
			// hop per launch).
			err := f.dev.Do(func(d gpu.Device) error {
				ex := New(d)
				ex.computed = f.ex.computed
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if err := ex.Exec(op); err != nil {
						return err
					}
				}
				return ex.Synchronize()
			})
			if err != nil {
				b.Fatal(err)
			}
		})
	}
}
