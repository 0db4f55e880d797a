package refkern

import (
	"encoding/binary"
	"math"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
)

// The small integer types (kernels.U8, I8, I16) as the map_small kernels
// load and store them: loads extend exactly; stores from an integer keep
// the low 8 or 16 bits; stores from a float convert as nvcc compiles
// PyTorch's casts: uint8 through int64 (cvt.rzi.s64), int8 and int16
// through int32 (cvt.rzi.s32: toward zero, saturating, NaN to 0), then the
// low 8 or 16 bits.

// smallBits is the element at b as an int64 (sign- or zero-extended).
func smallBits(t gpu.DType, b []byte) int64 {
	switch t {
	case kernels.U8:
		return int64(b[0])
	case kernels.I8:
		return int64(int8(b[0]))
	}
	return int64(int16(binary.LittleEndian.Uint16(b)))
}

// putSmall stores the low 8 or 16 bits of v at b.
func putSmall(t gpu.DType, b []byte, v int64) {
	if t == kernels.I16 {
		binary.LittleEndian.PutUint16(b, uint16(v))
		return
	}
	b[0] = byte(v)
}

// smallFromFloat is the integer a float64 value converts to for a small
// type, before keeping the low bits: cvt.rzi.s64 for uint8, cvt.rzi.s32
// for int8 and int16.
func smallFromFloat(t gpu.DType, v float64) int64 {
	if t == kernels.U8 {
		return trunc64(v, math.MinInt64, math.MaxInt64)
	}
	return trunc64(v, math.MinInt32, math.MaxInt32)
}

// storeSmall64 stores the float v (a float32 widened, or a float64) into a
// small integer element.
func (k *Kernels) storeSmall64(t gpu.DType, a uint64, v float64) error {
	b, err := k.Mem.Bytes(a, t.Size())
	if err != nil {
		return err
	}
	putSmall(t, b, smallFromFloat(t, v))
	return nil
}
