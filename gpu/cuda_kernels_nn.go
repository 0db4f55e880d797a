//go:build cuda

package gpu

import (
	"fmt"

	"github.com/gpumem/playground/gpu/kernels"
)

// The launcher of the index kernels (embedding, indexing, their backwards).

func (l launcher) Index(mode kernels.IndexMode, t DType, shape Shape, dst, src, idx Strided, dimStride, dimSize, skip int64) error {
	if mode == kernels.IndexScatterAdd && !kernels.ScatterAdds(t) {
		return fmt.Errorf("gpu: index %s of %s: no kernel accumulates it", mode, t)
	}
	if err := checkCount("index "+string(mode), shape[:]...); err != nil {
		return err
	}
	n := int64(1)
	for _, d := range shape {
		n *= d
	}
	if n == 0 {
		return nil
	}
	args := make([]uint64, 0, 4+kernels.MaxRank*4+3)
	args = append(args, dst.Addr, src.Addr, idx.Addr, uint64(n))
	for _, d := range shape {
		args = append(args, uint64(d))
	}
	for _, s := range []Strided{dst, src, idx} {
		for _, st := range s.Strides {
			args = append(args, uint64(st))
		}
	}
	args = append(args, uint64(dimStride), uint64(dimSize), uint64(skip))
	grid := min((n+elemBlock-1)/elemBlock, elemMaxGrid)
	return l.w.launch(kernels.IndexKernelName(mode, t), [3]int{int(grid), 1, 1}, [3]int{elemBlock, 1, 1}, args...)
}

func (r remoteKernels) Index(mode kernels.IndexMode, t DType, shape Shape, dst, src, idx Strided, dimStride, dimSize, skip int64) error {
	return r.do(func(k Kernels) error { return k.Index(mode, t, shape, dst, src, idx, dimStride, dimSize, skip) })
}
