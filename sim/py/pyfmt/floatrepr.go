package pyfmt

// floatRepr is repr(float): shortest digits, '.0' added to integral
// values, exponent from 1e16 up and below 1e-4.
func floatRepr(f float64) string { return floatToString(f, 'r', 0, dtsfAddDot0) }
