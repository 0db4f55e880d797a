package pickle

import (
	"bytes"
	"errors"
	"math"
	"math/big"
	"strings"
	"testing"
)

// memoryVizOps is the set of opcodes the unpickler in PyTorch's
// torch/utils/viz/MemoryViz.js (pytorch.org/memory_viz) implements.
var memoryVizOps = map[byte]bool{
	opProto: true, opFrame: true, opStop: true, opMark: true, opNone: true,
	opNewTrue: true, opNewFalse: true, opBinInt: true, opBinInt1: true, opBinInt2: true,
	opLong1: true, opBinFloat: true, opBinUnicode: true, opShortBinUnicode: true,
	opEmptyList: true, opEmptyDict: true, opEmptyTuple: true, opList: true, opDict: true,
	opAppend: true, opAppends: true, opSetItem: true, opSetItems: true,
	opTuple: true, opTuple1: true, opTuple2: true, opTuple3: true,
	opBinPut: true, opLongBinPut: true, opMemoize: true, opBinGet: true, opLongBinGet: true,
}

// TestMemoryVizOpcodes checks that exporting a snapshot-shaped value in
// protocols 2, 3 and 4 uses only opcodes memory_viz's unpickler handles.
func TestMemoryVizOpcodes(t *testing.T) {
	v, err := Unmarshal(readGolden(t, "snapshot_p4.pickle"))
	if err != nil {
		t.Fatal(err)
	}
	// Add the extremes of the value types a snapshot uses.
	v.(*Dict).Set("extremes", []any{int64(math.MinInt64), int64(math.MaxInt64), -1.5, "", strings.Repeat("é", 70000), Tuple{}, Tuple{1, 2, 3, 4}})
	for p := 2; p <= 4; p++ {
		out, err := (&Encoder{Protocol: p}).marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		ops, err := walkOps(out)
		if err != nil {
			t.Fatalf("protocol %d: %v", p, err)
		}
		seen := map[byte]bool{}
		for _, op := range ops {
			if !memoryVizOps[op] && !seen[op] {
				t.Errorf("protocol %d emits %s, which memory_viz cannot read", p, opName(op))
			}
			seen[op] = true
		}
	}
}

func TestRoundTripInts(t *testing.T) {
	huge, _ := new(big.Int).SetString("-123456789012345678901234567890123456789", 10)
	long4 := new(big.Int).Lsh(big.NewInt(1), 4000)
	values := []any{int64(0), int64(255), int64(256), int64(65535), int64(65536), int64(-1),
		int64(math.MinInt32), int64(math.MaxInt32), int64(math.MinInt32) - 1, int64(math.MaxInt32) + 1,
		int64(-128), int64(-129), int64(1) << 55, int64(math.MinInt64), int64(math.MaxInt64), huge, long4}
	for p := 2; p <= 4; p++ {
		for _, v := range values {
			out, err := (&Encoder{Protocol: p}).marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			back, err := Unmarshal(out)
			if err != nil {
				t.Fatalf("%v: %v", v, err)
			}
			if canon(back) != canon(v) {
				t.Errorf("protocol %d: %v came back as %v", p, v, back)
			}
		}
	}
	// uint64 beyond int64 comes back as *big.Int.
	out, _ := Marshal(uint64(math.MaxUint64))
	back, _ := Unmarshal(out)
	if b, ok := back.(*big.Int); !ok || b.String() != "18446744073709551615" {
		t.Errorf("uint64 max came back as %#v", back)
	}
}

func TestEncodeGoTypes(t *testing.T) {
	type myString string
	type myInt uint16
	tests := []struct {
		in   any
		want string
	}{
		{map[string]any{"b": 1, "a": []string{"x"}}, "{s61:[s78],s62:i1}"},
		{[]int{1, 2}, "[i1,i2]"},
		{[2]float32{0.5, 1}, "[f3fe0000000000000,f3ff0000000000000]"},
		{myString("s"), "s73"},
		{myInt(7), "i7"},
		{int8(-3), "i-3"},
		{ByteArray("hi"), "a6869"},
		{[]byte(nil), "b"},
		{[]any(nil), "[]"},
		{Tuple(nil), "()"},
	}
	for _, tt := range tests {
		out, err := Marshal(tt.in)
		if err != nil {
			t.Errorf("%#v: %v", tt.in, err)
			continue
		}
		back, err := Unmarshal(out)
		if err != nil {
			t.Fatalf("%#v: %v", tt.in, err)
		}
		if got := canon(back); got != tt.want {
			t.Errorf("%#v: got %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestEncodeErrors(t *testing.T) {
	cyclic := []any{nil}
	cyclic[0] = cyclic
	inner := NewDict()
	inner.Set("bad", "\xff")
	root := NewDict()
	root.Set("segments", []any{inner})
	tests := []struct {
		name string
		in   any
		msg  string
	}{
		{"invalid utf8", root, `encode ["segments"][0]["bad"]: string "\xff" is not valid UTF-8`},
		{"channel", make(chan int), "cannot pickle Go type chan int"},
		{"cyclic", cyclic, "MaxDepth"},
		{"int-keyed map", map[int]any{1: 2}, "map with int keys"},
		{"nil dict", (*Dict)(nil), "nil *Dict"},
		{"mismatched dict", &Dict{Keys: []any{"a"}}, "1 keys but 0 values"},
		{"func in list", []any{1, func() {}}, "[1]: cannot pickle"},
	}
	for _, tt := range tests {
		_, err := Marshal(tt.in)
		var ee *EncodeError
		if !errors.As(err, &ee) || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%s: err = %v, want EncodeError mentioning %q", tt.name, err, tt.msg)
		}
	}
	if _, err := (&Encoder{Protocol: 5}).marshal(nil); err == nil {
		t.Error("protocol 5 accepted")
	}
}

func TestEncoderWrites(t *testing.T) {
	var buf bytes.Buffer
	if err := NewEncoder(&buf).Encode(Tuple{int64(1), "a"}); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); got != "\x80\x02K\x01X\x01\x00\x00\x00a\x86." {
		t.Errorf("wrote %q", got)
	}
	buf.Reset()
	if err := NewEncoder(&buf).Encode(make(chan int)); err == nil || buf.Len() != 0 {
		t.Errorf("failed encode wrote %d bytes (err %v)", buf.Len(), err)
	}
	v, err := NewDecoder(strings.NewReader("\x80\x02K\x01.")).Decode()
	if err != nil || v != int64(1) {
		t.Errorf("Decoder: %v, %v", v, err)
	}
}

func TestDictAndSetHelpers(t *testing.T) {
	d := NewDict()
	if err := d.SetItem(Tuple{int64(1), "x"}, "t"); err != nil {
		t.Fatal(err)
	}
	if err := d.SetItem([]any{}, 1); !errors.Is(err, ErrUnhashable) {
		t.Errorf("list key: err = %v", err)
	}
	d.Set("s", 1)
	if v, ok := d.Lookup(Tuple{int64(1), "x"}); !ok || v != "t" {
		t.Errorf("Lookup tuple = %v, %v", v, ok)
	}
	if v, ok := d.Lookup("s"); !ok || v != 1 {
		t.Errorf("Lookup string = %v, %v", v, ok)
	}
	if _, ok := d.Lookup([]any{}); ok {
		t.Error("Lookup of a list found something")
	}
	s := NewSet(false)
	for _, v := range []any{int64(1), int64(1), Tuple{"a"}, []byte("b"), []byte("b")} {
		if err := s.Add(v); err != nil {
			t.Fatal(err)
		}
	}
	if s.Len() != 3 || !s.Has([]byte("b")) || s.Has("b") {
		t.Errorf("set = %#v", s.Items)
	}
	if err := s.Add(NewSet(false)); !errors.Is(err, ErrUnhashable) {
		t.Errorf("set in set: err = %v", err)
	}
}
