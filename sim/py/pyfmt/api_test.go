package pyfmt

import (
	"errors"
	"math"
	"math/big"
	"reflect"
	"testing"
)

func TestParseFStringParts(t *testing.T) {
	tests := []struct {
		body string
		raw  bool
		want []FStringPart
	}{
		{"a{{b}}c", false, []FStringPart{{Literal: "a{b}c"}}},
		{`\N{DIGIT ONE}{x}`, false, []FStringPart{{Literal: `\N{DIGIT ONE}`}, {Expr: "x", Offset: 14}}},
		{`\N{x}`, true, []FStringPart{{Literal: `\N`}, {Expr: "x", Offset: 3}}},
		{"{x", false, nil},
		{"{x = }", false, []FStringPart{{Literal: "x = "}, {Expr: "x ", Offset: 1, Debug: "x = ", Conversion: 'r'}}},
		{"{a!s:>{w}}", false, []FStringPart{{Expr: "a", Offset: 1, Conversion: 's', HasSpec: true,
			Spec: []FStringPart{{Literal: ">"}, {Expr: "w", Offset: 7}}}}},
		{"{x:}", false, []FStringPart{{Expr: "x", Offset: 1, HasSpec: true}}},
		{"{d['}']}", false, []FStringPart{{Expr: "d['}']", Offset: 1}}},
	}
	for _, tt := range tests {
		got, err := ParseFString(tt.body, tt.raw)
		if tt.want == nil {
			if err == nil {
				t.Errorf("ParseFString(%q, raw) = %+v, want an error", tt.body, got)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseFString(%q) = %+v, %v\nwant %+v", tt.body, got, err, tt.want)
		}
	}
}

func TestStrReprInvalidUTF8(t *testing.T) {
	if got, want := StrRepr("a\xffb"), `'a\udcffb'`; got != want {
		t.Errorf("StrRepr = %s, want %s", got, want)
	}
	if got, want := ASCII("'é\xff'"), `'\xe9\udcff'`; got != want {
		t.Errorf("ASCII = %s, want %s", got, want)
	}
}

func TestSplitFieldName(t *testing.T) {
	got, err := SplitFieldName("obj.attr[2][key]")
	want := FieldName{First: FieldKey{Name: "obj"}, Parts: []FieldPart{
		{IsAttr: true, Key: FieldKey{Name: "attr"}},
		{Key: FieldKey{IsIndex: true, Index: 2}},
		{Key: FieldKey{Name: "key"}},
	}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("SplitFieldName = %+v, %v", got, err)
	}
	if got, err := SplitFieldName(""); err != nil || !got.Auto {
		t.Errorf("SplitFieldName(\"\") = %+v, %v; want Auto", got, err)
	}
	for _, bad := range []string{"a[", "a[]", "a.", "a[0]x"} {
		if _, err := SplitFieldName(bad); err == nil {
			t.Errorf("SplitFieldName(%q) succeeded", bad)
		}
	}
}

func TestErrorsAreTyped(t *testing.T) {
	_, err := FormatFloat(1.5, "d")
	var pe *Error
	if !errors.As(err, &pe) || pe.Type != "ValueError" || pe.Msg != "Unknown format code 'd' for object of type 'float'" {
		t.Fatalf("FormatFloat(1.5, \"d\") error = %#v", err)
	}
	if pe.Error() != "ValueError: Unknown format code 'd' for object of type 'float'" {
		t.Errorf("Error() = %q", pe.Error())
	}
}

func TestMaxStrDigitsDisabled(t *testing.T) {
	defer func(old int) { MaxStrDigits = old }(MaxStrDigits)
	MaxStrDigits = 0
	big10 := new(big.Int).Exp(big.NewInt(10), big.NewInt(5000), nil)
	s, err := IntStr(big10)
	if err != nil || len(s) != 5001 {
		t.Fatalf("IntStr with no limit: len %d, %v", len(s), err)
	}
}

func TestHugeWidthIsMemoryError(t *testing.T) {
	for _, f := range []func() (string, error){
		func() (string, error) { return FormatInt64(1, "999999999999") },
		func() (string, error) { return FormatFloat(1, ".999999999f") },
		func() (string, error) { return FormatString("x", "999999999999") },
		func() (string, error) { return Percent("%999999999999d", []Arg{testArg{tInt64(1)}}, false, nil) },
	} {
		_, err := f()
		var pe *Error
		if !errors.As(err, &pe) || pe.Type != "MemoryError" {
			t.Errorf("got %v, want MemoryError", err)
		}
	}
}

func TestFormatInt64MatchesBig(t *testing.T) {
	for _, v := range []int64{0, -1, math.MaxInt64, math.MinInt64} {
		for _, spec := range []string{"", "x", "+,", "#b"} {
			a, errA := FormatInt64(v, spec)
			b, errB := FormatInt(big.NewInt(v), spec)
			if a != b || (errA == nil) != (errB == nil) {
				t.Errorf("FormatInt64(%d, %q) = %q, FormatInt = %q", v, spec, a, b)
			}
		}
	}
}

func TestIntBase(t *testing.T) {
	for _, tt := range []struct {
		v    int64
		base int
		want string
	}{{-31, 16, "-0x1f"}, {5, 2, "0b101"}, {8, 8, "0o10"}, {0, 16, "0x0"}, {3, 10, ""}} {
		if got := IntBase(big.NewInt(tt.v), tt.base); got != tt.want {
			t.Errorf("IntBase(%d, %d) = %q, want %q", tt.v, tt.base, got, tt.want)
		}
	}
}
