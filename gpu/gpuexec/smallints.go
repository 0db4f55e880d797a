package gpuexec

import (
	"encoding/binary"

	"github.com/gpumem/playground/gpu/kernels"
)

// torch.uint8, torch.int8 and torch.int16 (kernels.U8, I8, I16) have the
// map kernels of modules map_small_cast and map_small: fill, the copies to
// and from every type (PyTorch's casts: see kernels.SmallInts), and the
// integer operators in 64-bit integers, stored as the low 8 or 16 bits.
// Type promotion is the model's (the output's dtype); mapPromoted converts
// the inputs into it. Sums accumulate in int64 (a copy into an int64
// scratch, then reduce_rows_s64), as PyTorch's sum of integers.

// smallValue reads one small integer element (sign- or zero-extended).
func smallValue(t kernels.DType, b []byte) int64 {
	switch t {
	case kernels.U8:
		return int64(b[0])
	case kernels.I8:
		return int64(int8(b[0]))
	}
	return int64(int16(binary.LittleEndian.Uint16(b)))
}

// putSmallValue writes the low 8 or 16 bits of v (two's complement
// wrapping, as PyTorch's integer conversions).
func putSmallValue(t kernels.DType, b []byte, v int64) {
	if t == kernels.I16 {
		binary.LittleEndian.PutUint16(b, uint16(v))
		return
	}
	b[0] = byte(v)
}
