package pickle

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// treeSize counts the nodes of v expanded as a tree, stopping at limit; memo
// sharing can make the expanded tree exponentially larger than the input.
func treeSize(v any, limit int) int {
	n := 1
	var items []any
	switch x := v.(type) {
	case []any:
		items = x
	case Tuple:
		items = x
	case *Set:
		items = x.Items
	case *Dict:
		for i := range x.Keys {
			if n += treeSize(x.Keys[i], limit-n) + treeSize(x.Values[i], limit-n); n > limit {
				return n
			}
		}
	}
	for _, it := range items {
		if n += treeSize(it, limit-n); n > limit {
			return n
		}
	}
	return n
}

// FuzzUnmarshal checks that no input panics or hangs, that every failure is a
// *DecodeError, and that whatever decodes re-encodes (protocol 4) and decodes
// back to the same value.
func FuzzUnmarshal(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.pickle")
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{"]q\x00h\x00a.", "}(K\x01K\x02u.", "c__builtin__\nset\n]\x85R.",
		"c_codecs\nencode\nX\x01\x00\x00\x00aX\x06\x00\x00\x00latin1\x86R.", "(K\x011."} {
		f.Add(p2(s))
	}
	f.Add(memoDoubling(30, listLevel))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := UnmarshalLimits(data, Limits{MaxBytes: 16 << 20})
		if err != nil {
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("error %v is %T, not *DecodeError", err, err)
			}
			return
		}
		if treeSize(v, 1<<16) > 1<<16 {
			return // heavily shared DAG: re-encoding would expand it
		}
		out, err := (&Encoder{Protocol: 4}).marshal(v)
		if err != nil {
			t.Fatalf("decoded value does not re-encode: %v", err)
		}
		back, err := Unmarshal(out)
		if err != nil {
			t.Fatalf("re-encoded value does not decode: %v", err)
		}
		if canon(back) != canon(v) {
			t.Fatalf("round trip changed the value:\n%s\n%s", canon(v), canon(back))
		}
	})
}
