package gpuexec

import (
	"encoding/binary"

	"github.com/gpumem/playground/gpu/kernels"
)

// Integer matrix products of CPU tensors (mm, bmm, matmul, dot, mv of
// int64/int32/int16/int8/uint8): PyTorch multiplies them on the CPU
// (cpublas gemm in the type's own arithmetic); CUDA raises
// NotImplementedError before any kernel (sim/torch/ops_blas_int.go). The
// host computes them here in int64, whose products and sums wrap mod 2^64
// and so agree with the type's wrap-around once narrowed to its low bits.

// hostInt loads the integer element of o at element offset off (host
// memory only).
func (e *Executor) hostInt(o operand, off int64) (int64, error) {
	size := o.kt.Size()
	b, err := e.host.Bytes(o.addr+uint64(off*size), size)
	if err != nil {
		return 0, err
	}
	switch o.kt {
	case kernels.I64:
		return int64(binary.LittleEndian.Uint64(b)), nil
	case kernels.I32:
		return int64(int32(binary.LittleEndian.Uint32(b))), nil
	case kernels.U8, kernels.I8, kernels.I16:
		return smallValue(o.kt, b), nil
	}
	return 0, errUnsupported("integer matmul of %s", o.kt)
}

// asMatrix views a 1-d operand as a row (first) or a column (second
// operand) of a matrix product.
func asMatrix(x operand, row bool) operand {
	if len(x.shape) != 1 {
		return x
	}
	if row {
		x.shape, x.strides = []int64{1, x.shape[0]}, []int64{0, x.strides[0]}
	} else {
		x.shape, x.strides = []int64{x.shape[0], 1}, []int64{x.strides[0], 0}
	}
	return x
}

// matmulIntHost is out = a · b over the broadcast batch dims for integer
// CPU operands, computed on the host in int64 and stored in out's type.
func (e *Executor) matmulIntHost(out, a, b operand) error {
	if a.cuda() || b.cuda() || out.cuda() || a.kt != out.kt || b.kt != out.kt {
		return errUnsupported("integer matmul of %s and %s into %s", a.kt, b.kt, out.kt)
	}
	a, b = asMatrix(a, true), asMatrix(b, false)
	o := out
	switch {
	case len(out.shape) == 0:
		o.shape, o.strides = []int64{1, 1}, []int64{0, 0}
	case len(out.shape) == 1 && len(a.shape) == 2 && a.shape[0] != 1:
		o.shape, o.strides = []int64{out.shape[0], 1}, []int64{out.strides[0], 0}
	case len(out.shape) == 1:
		o.shape, o.strides = []int64{1, out.shape[0]}, []int64{0, out.strides[0]}
	}
	r := len(o.shape)
	if len(a.shape) < 2 || len(b.shape) < 2 {
		return errUnsupported("integer matmul shapes %v · %v", a.shape, b.shape)
	}
	m, n, kk := o.shape[r-2], o.shape[r-1], a.shape[len(a.shape)-1]
	if a.shape[len(a.shape)-2] != m || b.shape[len(b.shape)-1] != n || b.shape[len(b.shape)-2] != kk {
		return errUnsupported("integer matmul shapes %v · %v → %v", a.shape, b.shape, out.shape)
	}
	batch := o.shape[:r-2]
	as, ok1 := broadcastStrides(batch, a.shape[:len(a.shape)-2], a.strides[:len(a.strides)-2])
	bs, ok2 := broadcastStrides(batch, b.shape[:len(b.shape)-2], b.strides[:len(b.strides)-2])
	if !ok1 || !ok2 {
		return errUnsupported("integer matmul batch shapes %v, %v → %v", a.shape, b.shape, out.shape)
	}
	sa, sb := a.strides[len(a.strides)-2:], b.strides[len(b.strides)-2:]
	vals := make([]int64, 0, numel(o.shape))
	c := make([]int64, len(batch))
	for z := int64(0); z < numel(batch); z++ {
		ao, bo := int64(0), int64(0)
		for d := range c {
			ao += c[d] * as[d]
			bo += c[d] * bs[d]
		}
		for i := int64(0); i < m; i++ {
			for j := int64(0); j < n; j++ {
				sum := int64(0)
				for p := int64(0); p < kk; p++ {
					x, err := e.hostInt(a, ao+i*sa[0]+p*sa[1])
					if err != nil {
						return err
					}
					y, err := e.hostInt(b, bo+p*sb[0]+j*sb[1])
					if err != nil {
						return err
					}
					sum += x * y
				}
				vals = append(vals, sum)
			}
		}
		for d := len(c) - 1; d >= 0; d-- {
			c[d]++
			if c[d] < batch[d] {
				break
			}
			c[d] = 0
		}
	}
	return e.intValues(out, vals)
}
