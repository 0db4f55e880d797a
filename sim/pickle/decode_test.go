package pickle

import (
	"bytes"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"
)

// p2 builds a protocol 2 pickle from opcode bytes (without the header).
func p2(body string) []byte { return append([]byte{opProto, 2}, body...) }

func TestUnmarshalErrors(t *testing.T) {
	deep := strings.Repeat("]", 1001) + strings.Repeat("a", 1000)
	tests := []struct {
		name string
		data []byte
		kind error
		msg  string
	}{
		{"empty", nil, ErrTruncated, "empty input"},
		{"protocol 0", []byte("I1\n."), ErrUnsupported, "protocol 0 and 1"},
		{"protocol 1 binary", []byte("K\x01."), ErrUnsupported, "no PROTO"},
		{"protocol 1 header", []byte("\x80\x01K\x01."), ErrUnsupported, "protocol 1"},
		{"protocol 6", []byte("\x80\x06K\x01."), ErrUnsupported, "protocol 6"},
		{"no STOP", p2("K\x01"), ErrTruncated, "before STOP"},
		{"trailing data", p2("K\x01.junk"), ErrMalformed, "4 bytes of trailing data"},
		{"two values at STOP", p2("K\x01K\x02."), ErrMalformed, "2 values"},
		{"nothing at STOP", p2("."), ErrMalformed, "0 values"},
		{"open mark at STOP", p2("(K\x01."), ErrMalformed, "unclosed MARK"},
		{"text INT", p2("I1\n."), ErrUnsupported, "text opcode"},
		{"text PUT", p2("Np0\n."), ErrUnsupported, "text opcode"},
		{"py2 string", p2("U\x01a."), ErrUnsupported, "Python 2"},
		{"global os.system", p2("cos\nsystem\nX\x02\x00\x00\x00ls\x85R."), ErrNotPlainData, "reference to os.system"},
		{"stack global tensor", append([]byte("\x80\x04\x8c\x0ctorch._utils\x8c\x12_rebuild_tensor_v2"), opStackGlobal, '.'),
			ErrNotPlainData, "reference to torch._utils._rebuild_tensor_v2"},
		{"bare builtin", p2("c__builtin__\nset\n."), ErrNotPlainData, "__builtin__.set"},
		{"set with bad args", p2("c__builtin__\nset\nK\x01\x85R."), ErrNotPlainData, "unexpected arguments"},
		{"codecs non-latin1", p2("c_codecs\nencode\nX\x02\x00\x00\x00abX\x05\x00\x00\x00utf-8\x86R."), ErrNotPlainData, "unexpected arguments"},
		{"reduce non-global", p2("K\x01)R."), ErrNotPlainData, "REDUCE calls a int"},
		{"build", p2("}}b."), ErrNotPlainData, "class instance"},
		{"newobj", p2("N)\x81."), ErrNotPlainData, "class instance"},
		{"persid", p2("K\x01Q."), ErrNotPlainData, "persistent id"},
		{"next buffer", []byte("\x80\x05\x97."), ErrUnsupported, "out-of-band"},
		{"invalid opcode", p2("\xff."), ErrMalformed, "invalid opcode byte 0xff"},
		{"stack underflow", p2("a."), ErrMalformed, "stack underflow"},
		{"pop across mark", p2("K\x01(\x85."), ErrMalformed, "stack underflow"},
		{"appends without mark", p2("]e."), ErrMalformed, "no MARK"},
		{"append to dict", p2("}K\x01a."), ErrNotPlainData, "not a list"},
		{"setitem on list", p2("]K\x01K\x02s."), ErrNotPlainData, "not a dict"},
		{"odd setitems", p2("}(K\x01u."), ErrMalformed, "odd number"},
		{"list key", p2("}]K\x01s."), ErrUnhashable, "'list'"},
		{"tuple with list key", p2("}]\x85K\x01s."), ErrUnhashable, "'list'"},
		{"set in set", []byte("\x80\x04\x8f(\x8f\x90."), ErrUnhashable, "'set'"},
		{"dict key", p2("}}K\x01s."), ErrUnhashable, "'dict'"},
		{"missing memo", p2("h\x05."), ErrMalformed, "memo key 5"},
		{"put on empty stack", p2("q\x00."), ErrMalformed, "stack underflow"},
		{"truncated BININT", p2("J\x01\x02"), ErrTruncated, "needs 4 bytes"},
		{"huge BINUNICODE", p2("X\xff\xff\xff\xffabc."), ErrTruncated, "exceeds"},
		{"huge BINBYTES8", []byte("\x80\x04\x8e\xff\xff\xff\xff\xff\xff\xff\xff."), ErrTruncated, "exceeds"},
		{"huge FRAME", []byte("\x80\x04\x95\xff\xff\xff\xff\xff\xff\xff\x7fN."), ErrTruncated, "exceeds"},
		{"negative LONG4", p2("\x8b\xff\xff\xff\xff."), ErrMalformed, "negative"},
		{"bad utf8", p2("X\x02\x00\x00\x00\xc3\x28."), ErrMalformed, "UTF-8"},
		{"GLOBAL without newline", p2("cos"), ErrTruncated, "newline"},
		{"too deep", p2(deep + "."), ErrLimit, "MaxDepth"},
		{"recursive list", p2("]q\x00h\x00a."), ErrMalformed, "recursive"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := Unmarshal(tt.data)
			if err == nil {
				t.Fatalf("decoded %#v, want error", v)
			}
			if !errors.Is(err, tt.kind) {
				t.Errorf("err = %v, want kind %v", err, tt.kind)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("err = %q, want it to mention %q", err, tt.msg)
			}
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Errorf("err is %T, want *DecodeError", err)
			}
		})
	}
}

// TestErrorNamesOpcodeAndOffset checks the message format on one case.
func TestErrorNamesOpcodeAndOffset(t *testing.T) {
	_, err := Unmarshal(p2("]K\x01K\x02s."))
	want := "pickle: offset 7 (SETITEM): not plain data: set items on a list, not a dict"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}

// TestTruncatedPrefixes checks every proper prefix of valid pickles fails
// with ErrTruncated, never a panic or a different error.
func TestTruncatedPrefixes(t *testing.T) {
	for _, name := range []string{"kitchen_p2.pickle", "kitchen_p4.pickle", "kitchen_p5.pickle"} {
		data := readGolden(t, name)
		for n := 0; n < len(data); n++ {
			if _, err := Unmarshal(data[:n]); !errors.Is(err, ErrTruncated) {
				t.Fatalf("%s[:%d]: err = %v, want ErrTruncated", name, n, err)
			}
		}
	}
}

func TestMaxBytes(t *testing.T) {
	data := readGolden(t, "snapshot_p4.pickle")
	if _, err := UnmarshalLimits(data, Limits{MaxBytes: 100 << 10}); !errors.Is(err, ErrLimit) {
		t.Errorf("100 KiB limit: err = %v, want ErrLimit", err)
	}
	if _, err := UnmarshalLimits(data, Limits{MaxBytes: 64 << 20}); err != nil {
		t.Errorf("64 MiB limit: %v", err)
	}
	if _, err := (&Decoder{r: bytes.NewReader(data), Limits: Limits{MaxBytes: 1000}}).Decode(); !errors.Is(err, ErrLimit) {
		t.Errorf("Decoder with 1000-byte limit: err = %v, want ErrLimit", err)
	}
}

// memoDoubling builds a pickle where value k+1 is a pair of value k fetched
// twice from the memo: 2^levels leaves from O(levels) bytes. level is the
// opcodes for one level (it starts with POP, ends with BINPUT 0).
func memoDoubling(levels int, level string) []byte {
	b := p2("X\x01\x00\x00\x00aq\x00")
	for k := 0; k < levels; k++ {
		b = append(b, level...)
	}
	return append(b, '.')
}

const (
	tupleLevel = "0h\x00h\x00\x86q\x00"
	listLevel  = "0(h\x00h\x00lq\x00"
)

// TestMemoAmplification checks shared structure is decoded in linear time
// and memory, and that hashing a huge shared tuple key hits ErrLimit fast.
func TestMemoAmplification(t *testing.T) {
	start := time.Now()
	for _, level := range []string{tupleLevel, listLevel} {
		v, err := Unmarshal(memoDoubling(60, level))
		if err != nil {
			t.Fatalf("doubling %q: %v", level, err)
		}
		depth := 0
		for {
			var items []any
			switch x := v.(type) {
			case Tuple:
				items = x
			case []any:
				items = x
			}
			if len(items) != 2 {
				break
			}
			v, depth = items[0], depth+1
		}
		if depth != 60 {
			t.Errorf("doubling %q: depth %d, want 60", level, depth)
		}
	}
	key := memoDoubling(40, tupleLevel)
	data := append(p2("}"), key[2:len(key)-1]...)
	data = append(data, "Ns."...)
	if _, err := Unmarshal(data); !errors.Is(err, ErrLimit) {
		t.Errorf("doubling tuple key: err = %v, want ErrLimit", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}

func TestUnmarshalValues(t *testing.T) {
	big70, _ := new(big.Int).SetString("1180591620717411303424", 10)
	tests := []struct {
		name string
		data []byte
		want string // canon form
	}{
		{"LONG1 2^40", p2("\x8a\x06\x00\x00\x00\x00\x00\x01."), "i1099511627776"},
		{"LONG1 empty is 0", p2("\x8a\x00."), "i0"},
		{"LONG1 -1", p2("\x8a\x01\xff."), "i-1"},
		{"LONG1 2^70", p2("\x8a\x0a\x00\x00\x00\x00\x00\x00\x00\x00\x40\x00."), "i" + big70.String()},
		{"LONG4 small", p2("\x8b\x01\x00\x00\x00\x05."), "i5"},
		{"sparse LONG_BINPUT", p2("K\x07r\xff\xff\xff\xff0j\xff\xff\xff\xff."), "i7"},
		{"POP_MARK", p2("K\x01(K\x02K\x031."), "i1"},
		{"POP discards empty MARK", p2("K\x01(0."), "i1"},
		{"LIST and DICT", p2("(K\x01l(X\x01\x00\x00\x00aK\x02d\x86."), "([i1],{s61:i2})"},
		{"FROZENSET", []byte("\x80\x04(K\x01K\x01\x91."), "fset{i1}"},
		{"surrogate", p2("X\x03\x00\x00\x00\xed\xa0\x80."), "seda080"},
		{"duplicate keys keep first position", p2("}(K\x01K\x01K\x02K\x02K\x01K\x03u."), "{i1:i3,i2:i2}"},
		{"codecs latin1", p2("c_codecs\nencode\nX\x02\x00\x00\x00\xc3\xa9X\x06\x00\x00\x00latin1\x86R."), "be9"},
		{"empty dict/list", p2("}]\x86."), "({},[])"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := Unmarshal(tt.data)
			if err != nil {
				t.Fatal(err)
			}
			if got := canon(v); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

// TestSharedValuesAlias checks a memo-shared dict decodes to one *Dict.
func TestSharedValuesAlias(t *testing.T) {
	v, err := Unmarshal(p2("}q\x00h\x00\x86."))
	if err != nil {
		t.Fatal(err)
	}
	tu := v.(Tuple)
	if tu[0].(*Dict) != tu[1].(*Dict) {
		t.Error("shared dict decoded as two objects")
	}
}
