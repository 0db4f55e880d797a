package pyfmt

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// tv is a typed Python value in the oracle's JSON encoding.
type tv struct {
	T     string   `json:"t"`
	V     string   `json:"v,omitempty"`
	Items []tv     `json:"items,omitempty"`
	Keys  []string `json:"keys,omitempty"`
}

func tInt(s string) tv      { return tv{T: "int", V: s} }
func tInt64(i int64) tv     { return tv{T: "int", V: strconv.FormatInt(i, 10)} }
func tStr(s string) tv      { return tv{T: "str", V: s} }
func tBool(b bool) tv       { return tv{T: "bool", V: map[bool]string{true: "1", false: "0"}[b]} }
func tTuple(items ...tv) tv { return tv{T: "tuple", Items: items} }
func tList(items ...tv) tv  { return tv{T: "list", Items: items} }
func tNone() tv             { return tv{T: "none"} }
func tFloat(f float64) tv   { return tv{T: "float", V: floatHex(f)} }
func tDict(kv ...any) tv {
	d := tv{T: "dict"}
	for i := 0; i+1 < len(kv); i += 2 {
		d.Keys = append(d.Keys, kv[i].(string))
		d.Items = append(d.Items, kv[i+1].(tv))
	}
	return d
}

// floatHex encodes f exactly for float.fromhex (or float("inf") etc.).
func floatHex(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	return strconv.FormatFloat(f, 'x', -1, 64)
}

func (v tv) float() float64 {
	switch v.V {
	case "nan":
		return math.NaN()
	case "inf":
		return math.Inf(1)
	case "-inf":
		return math.Inf(-1)
	}
	f, _ := strconv.ParseFloat(v.V, 64)
	return f
}

func (v tv) bigInt() *big.Int {
	if v.T == "bool" {
		if v.V == "1" {
			return big.NewInt(1)
		}
		return big.NewInt(0)
	}
	i, _ := new(big.Int).SetString(v.V, 0)
	return i
}

// testArg adapts a tv to the Arg interface with Python's semantics for the
// handful of types the tests use.
type testArg struct{ v tv }

func (a testArg) TypeName() string {
	if a.v.T == "none" {
		return "NoneType"
	}
	return a.v.T
}

func (a testArg) Str() (string, error) {
	if a.v.T == "str" {
		return a.v.V, nil
	}
	return a.Repr()
}

func (a testArg) Repr() (string, error) {
	v := a.v
	switch v.T {
	case "int":
		return IntStr(v.bigInt())
	case "float":
		return FloatRepr(v.float()), nil
	case "str":
		return StrRepr(v.V), nil
	case "bool":
		if v.V == "1" {
			return "True", nil
		}
		return "False", nil
	case "none":
		return "None", nil
	}
	var parts []string
	for i, it := range v.Items {
		r, err := testArg{it}.Repr()
		if err != nil {
			return "", err
		}
		if v.T == "dict" {
			r = StrRepr(v.Keys[i]) + ": " + r
		}
		parts = append(parts, r)
	}
	body := strings.Join(parts, ", ")
	switch v.T {
	case "tuple":
		if len(parts) == 1 {
			body += ","
		}
		return "(" + body + ")", nil
	case "list":
		return "[" + body + "]", nil
	}
	return "{" + body + "}", nil
}

func (a testArg) StrValue() (string, bool) { return a.v.V, a.v.T == "str" }

func (a testArg) IntValue() (*big.Int, bool) {
	if a.v.T == "int" || a.v.T == "bool" {
		return a.v.bigInt(), true
	}
	return nil, false
}

func (a testArg) AsInt() (*big.Int, bool, error) {
	switch a.v.T {
	case "int", "bool":
		return a.v.bigInt(), true, nil
	case "float":
		f := a.v.float()
		if math.IsNaN(f) {
			return nil, false, &Error{"ValueError", "cannot convert float NaN to integer"}
		}
		if math.IsInf(f, 0) {
			return nil, false, &Error{"OverflowError", "cannot convert float infinity to integer"}
		}
		i, _ := new(big.Float).SetFloat64(math.Trunc(f)).Int(nil)
		return i, true, nil
	}
	return nil, false, nil
}

func (a testArg) AsIndex() (*big.Int, bool, error) {
	if a.v.T == "int" || a.v.T == "bool" {
		return a.v.bigInt(), true, nil
	}
	return nil, false, nil
}

func (a testArg) AsFloat() (float64, bool, error) {
	switch a.v.T {
	case "float":
		return a.v.float(), true, nil
	case "int", "bool":
		f, _ := new(big.Float).SetInt(a.v.bigInt()).Float64()
		if math.IsInf(f, 0) {
			return 0, false, &Error{"OverflowError", "int too large to convert to float"}
		}
		return f, true, nil
	}
	return 0, false, nil
}

// testMapping is a dict operand for %(key)s.
type testMapping struct{ v tv }

func (m testMapping) GetItem(key string) (Arg, error) {
	for i, k := range m.v.Keys {
		if k == key {
			return testArg{m.v.Items[i]}, nil
		}
	}
	return nil, &Error{"KeyError", StrRepr(key)}
}
