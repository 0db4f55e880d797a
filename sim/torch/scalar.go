package torch

import "strconv"

// Scalar is a Python number taking part in a tensor operation.
type Scalar struct {
	Kind ScalarKind
	F    float64 // value for float (and complex real part)
	I    int64   // value for int and bool
}

// Float makes a float Scalar.
func Float(f float64) Scalar { return Scalar{Kind: ScalarFloat, F: f} }

// Int makes an int Scalar.
func Int(i int64) Scalar { return Scalar{Kind: ScalarInt, I: i, F: float64(i)} }

// BoolScalar makes a bool Scalar.
func BoolScalar(b bool) Scalar {
	if b {
		return Scalar{Kind: ScalarBool, I: 1, F: 1}
	}
	return Scalar{Kind: ScalarBool}
}

// Value is the scalar as a float64.
func (s Scalar) Value() float64 {
	if s.Kind == ScalarFloat || s.Kind == ScalarComplex {
		return s.F
	}
	return float64(s.I)
}

// IsOne reports the scalar 1 (alpha/beta defaults).
func (s Scalar) IsOne() bool { return s.Value() == 1 }

func (s Scalar) String() string {
	if s.Kind == ScalarFloat {
		return strconv.FormatFloat(s.F, 'g', -1, 64)
	}
	return strconv.FormatInt(s.I, 10)
}
