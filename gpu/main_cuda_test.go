//go:build cuda

package gpu

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"testing"

	"github.com/gpumem/playground/gpu/kernels"
)

// testDev is the device every test shares: creating a context takes
// hundreds of milliseconds and about 500 MiB.
var testDev Device

func TestMain(m *testing.M) {
	dev, err := Open(Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "open GPU:", err)
		os.Exit(1)
	}
	testDev = dev
	used, _ := dev.DriverUsed()
	fmt.Printf("device: %s, granularity %d, baseline driver used %d, now %d\n", dev.Name(), dev.Granularity(), dev.Baseline(), used)
	code := m.Run()
	if err := dev.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "close GPU:", err)
		code = 1
	}
	os.Exit(code)
}

// afterTest fails t if the test left memory behind, and frees it so that
// the next test starts clean.
func afterTest(t *testing.T) {
	t.Helper()
	t.Cleanup(func() {
		if err := testDev.ReleaseAll(); err != nil {
			t.Errorf("memory not returned after the test: %v", err)
		}
	})
}

// encode converts f32 values to the bytes of dtype t (rounding to nearest
// even for the half types).
func encode(t DType, xs []float32) []byte {
	out := make([]byte, int64(len(xs))*t.Size())
	for i, x := range xs {
		switch t {
		case F32:
			binary.LittleEndian.PutUint32(out[4*i:], math.Float32bits(x))
		case F16:
			binary.LittleEndian.PutUint16(out[2*i:], kernels.F16Bits(x))
		case BF16:
			binary.LittleEndian.PutUint16(out[2*i:], kernels.BF16Bits(x))
		}
	}
	return out
}

// decode is encode's inverse (exact).
func decode(t DType, b []byte) []float32 {
	n := int64(len(b)) / t.Size()
	out := make([]float32, n)
	for i := range out {
		switch t {
		case F32:
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		case F16:
			out[i] = kernels.F16ToF32(binary.LittleEndian.Uint16(b[2*i:]))
		case BF16:
			out[i] = kernels.BF16ToF32(binary.LittleEndian.Uint16(b[2*i:]))
		}
	}
	return out
}

// round gives x as dtype t would store it.
func round(t DType, x float32) float32 {
	return decode(t, encode(t, []float32{x}))[0]
}

// malloc allocates size bytes, rounded up to 2 MiB as the caching
// allocator's segments always are, and frees them when t ends.
func malloc(t *testing.T, d Device, size int64) uint64 {
	t.Helper()
	const segment = 2 << 20
	size = max((size+segment-1)/segment*segment, segment)
	addr, err := d.Malloc(size)
	if err != nil {
		t.Fatalf("malloc %d: %v", size, err)
	}
	t.Cleanup(func() {
		if err := d.Free(addr, size); err != nil {
			t.Errorf("free: %v", err)
		}
	})
	return addr
}

// upload allocates a buffer for xs in dtype t and copies them in.
func upload(t *testing.T, d Device, dt DType, xs []float32) uint64 {
	t.Helper()
	b := encode(dt, xs)
	addr := malloc(t, d, int64(len(b)))
	if err := d.CopyToDevice(addr, b); err != nil {
		t.Fatal(err)
	}
	return addr
}

// download copies n elements of dtype dt back.
func download(t *testing.T, d Device, dt DType, addr uint64, n int) []float32 {
	t.Helper()
	b := make([]byte, int64(n)*dt.Size())
	if err := d.CopyFromDevice(b, addr); err != nil {
		t.Fatal(err)
	}
	return decode(dt, b)
}

// allocElems allocates n elements of dtype dt.
func allocElems(t *testing.T, d Device, dt DType, n int) uint64 {
	t.Helper()
	return malloc(t, d, int64(n)*dt.Size())
}

// ulp is the spacing of dtype t's values near x: the tolerance unit.
func ulp(t DType, x float32) float64 {
	bits := map[DType]int{F32: 23, F16: 10, BF16: 7}[t]
	ax := math.Abs(float64(x))
	if ax < 1e-30 {
		ax = 1e-30
	}
	_, e := math.Frexp(ax)
	return math.Ldexp(1, e-1-bits)
}
