package kernels

import (
	"math"
	"testing"
)

func TestF16Bits(t *testing.T) {
	inf := float32(math.Inf(1))
	tests := []struct {
		in   float32
		want uint16
	}{
		{0, 0x0000},
		{float32(math.Copysign(0, -1)), 0x8000},
		{1, 0x3c00},
		{-2, 0xc000},
		{0.5, 0x3800},
		{65504, 0x7bff},                // largest finite
		{65519, 0x7bff},                // rounds down to 65504
		{65520, 0x7c00},                // ties to even: Inf
		{1e6, 0x7c00},                  // overflow
		{inf, 0x7c00},                  // +Inf
		{-inf, 0xfc00},                 // -Inf
		{1.0 + 1.0/2048, 0x3c00},       // tie, even is 1.0
		{1.0 + 3.0/2048, 0x3c02},       // tie, even is up
		{1.0 + 1.0/1024, 0x3c01},       // exact
		{6.103515625e-05, 0x0400},      // smallest normal
		{5.9604645e-08, 0x0001},        // smallest subnormal
		{2.9802322e-08, 0x0000},        // half of it: tie to even 0
		{4.4703484e-08, 0x0001},        // 0.75 of it: rounds up
		{6.0975552e-05, 0x03ff},        // largest subnormal
		{float32(0.1), 0x2e66},         // 0.0999755859375
		{float32(-3.14159265), 0xc248}, // -3.140625
	}
	for _, tt := range tests {
		if got := F16Bits(tt.in); got != tt.want {
			t.Errorf("F16Bits(%g) = %#04x, want %#04x", tt.in, got, tt.want)
		}
	}
	if got := F16Bits(float32(math.NaN())); got&0x7c00 != 0x7c00 || got&0x3ff == 0 {
		t.Errorf("F16Bits(NaN) = %#04x, not a NaN", got)
	}
}

// TestF16RoundTrip checks every f16 value survives f16 → f32 → f16.
func TestF16RoundTrip(t *testing.T) {
	for h := 0; h < 1<<16; h++ {
		f := F16ToF32(uint16(h))
		if f != f {
			continue
		}
		if got := F16Bits(f); got != uint16(h) {
			t.Fatalf("F16Bits(F16ToF32(%#04x) = %g) = %#04x", h, f, got)
		}
	}
}

func TestBF16Bits(t *testing.T) {
	tests := []struct {
		in   float32
		want uint16
	}{
		{1, 0x3f80},
		{-2, 0xc000},
		{math.Float32frombits(0x3f808000), 0x3f80}, // tie, even down
		{math.Float32frombits(0x3f818000), 0x3f82}, // tie, even up
		{math.Float32frombits(0x3f808001), 0x3f81}, // above the tie
		{float32(math.Inf(-1)), 0xff80},
		{3.0e38, 0x7f62},
	}
	for _, tt := range tests {
		if got := BF16Bits(tt.in); got != tt.want {
			t.Errorf("BF16Bits(%g) = %#04x, want %#04x", tt.in, got, tt.want)
		}
	}
	if got := BF16Bits(float32(math.NaN())); BF16ToF32(got) == BF16ToF32(got) {
		t.Errorf("BF16Bits(NaN) = %#04x, not a NaN", got)
	}
	for h := 0; h < 1<<16; h++ {
		f := BF16ToF32(uint16(h))
		if f == f && BF16Bits(f) != uint16(h) {
			t.Fatalf("bf16 %#04x does not round-trip", h)
		}
	}
}
