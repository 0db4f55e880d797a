//go:build cuda

package gpu

import (
	"fmt"
	"math"

	"gorgonia.org/cu"

	"github.com/gpumem/playground/gpu/kernels"
)

// The launcher of the philox kernels (PyTorch's CUDA generator) and the
// device attributes that size PyTorch's launches of random ops.

func (l launcher) Philox(kind kernels.PhiloxKind, t DType, dst uint64, n int64, a kernels.PhiloxArgs) error {
	if err := checkCount("philox", n); err != nil || n == 0 {
		return err
	}
	if a.Threads <= 0 || a.Offset%4 != 0 || (a.Vec != 0 && a.Vec != 2 && a.Vec != 4 && a.Vec != 8) {
		return fmt.Errorf("gpu: bad philox launch %+v", a)
	}
	if (kind == kernels.PhiloxRandInt32 || kind == kernels.PhiloxRandInt64) && a.IB == 0 {
		return fmt.Errorf("gpu: randint over an empty range")
	}
	pa, pb, pc := math.Float64bits(a.A), math.Float64bits(a.B), math.Float64bits(a.C)
	if kind == kernels.PhiloxRandInt32 || kind == kernels.PhiloxRandInt64 {
		pa, pb = uint64(a.IA), a.IB
	}
	grid := min((n+elemBlock-1)/elemBlock, elemMaxGrid)
	return l.w.launch(kernels.PhiloxKernelName(kind, t), [3]int{int(grid), 1, 1}, [3]int{elemBlock, 1, 1},
		dst, uint64(n), a.Seed, a.Offset/4, uint64(a.Threads), uint64(a.Vec), pa, pb, pc)
}

func (l launcher) SMGeometry() (sms, threadsPerSM int64, err error) {
	dev, err := cu.GetDevice(l.w.opts.Ordinal)
	if err != nil {
		return 0, 0, fmt.Errorf("gpu: device %d: %w", l.w.opts.Ordinal, err)
	}
	s, err := dev.Attribute(cu.MultiprocessorCount)
	if err != nil {
		return 0, 0, fmt.Errorf("gpu: device %d multiprocessor count: %w", l.w.opts.Ordinal, err)
	}
	t, err := dev.Attribute(cu.MaxThreadsPerMultiprocessor)
	if err != nil {
		return 0, 0, fmt.Errorf("gpu: device %d threads per multiprocessor: %w", l.w.opts.Ordinal, err)
	}
	return int64(s), int64(t), nil
}

func (r remoteKernels) Philox(kind kernels.PhiloxKind, t DType, dst uint64, n int64, a kernels.PhiloxArgs) error {
	return r.do(func(k Kernels) error { return k.Philox(kind, t, dst, n, a) })
}

func (r remoteKernels) SMGeometry() (sms, threadsPerSM int64, err error) {
	err = r.do(func(k Kernels) error {
		var e error
		sms, threadsPerSM, e = k.SMGeometry()
		return e
	})
	return sms, threadsPerSM, err
}
