package pyfmt

import "testing"

var benchSink string

func BenchmarkFloatRepr(b *testing.B) {
	vals := []float64{0.1, 123.456, 1e-7, 2.5e300, 1.0 / 3}
	for i := 0; b.Loop(); i++ {
		benchSink = FloatRepr(vals[i%len(vals)])
	}
}

func BenchmarkFormatFloat2f(b *testing.B) {
	vals := []float64{0.1, 123.456, 1e-7, 2.5e10, 1.0 / 3}
	for i := 0; b.Loop(); i++ {
		s, err := FormatFloat(vals[i%len(vals)], ".2f")
		if err != nil {
			b.Fatal(err)
		}
		benchSink = s
	}
}

func BenchmarkPercent(b *testing.B) {
	args := []Arg{testArg{tStr("loss")}, testArg{tFloat(0.123456)}, testArg{tInt64(42)}}
	for b.Loop() {
		s, err := Percent("%s=%.4f step %5d", args, true, nil)
		if err != nil {
			b.Fatal(err)
		}
		benchSink = s
	}
}
