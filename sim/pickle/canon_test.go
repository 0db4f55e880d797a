package pickle

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"
)

// canon renders a decoded value in the same text form as canon() in
// testdata/pyhelper.py, so Go and CPython results can be compared exactly
// (floats by bit pattern, strings by UTF-8 bytes, sets sorted).
func canon(v any) string {
	var sb strings.Builder
	canonTo(&sb, v)
	return sb.String()
}

func canonTo(sb *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		sb.WriteString("N")
	case bool:
		if x {
			sb.WriteString("T")
		} else {
			sb.WriteString("F")
		}
	case int64:
		fmt.Fprintf(sb, "i%d", x)
	case int:
		fmt.Fprintf(sb, "i%d", x)
	case *big.Int:
		sb.WriteString("i" + x.String())
	case float64:
		var b [8]byte
		binary.BigEndian.PutUint64(b[:], math.Float64bits(x))
		sb.WriteString("f" + hex.EncodeToString(b[:]))
	case string:
		sb.WriteString("s" + hex.EncodeToString([]byte(x)))
	case []byte:
		sb.WriteString("b" + hex.EncodeToString(x))
	case ByteArray:
		sb.WriteString("a" + hex.EncodeToString(x))
	case []any:
		canonSeq(sb, "[", "]", x)
	case Tuple:
		canonSeq(sb, "(", ")", x)
	case *Dict:
		sb.WriteString("{")
		for i, k := range x.Keys {
			if i > 0 {
				sb.WriteString(",")
			}
			canonTo(sb, k)
			sb.WriteString(":")
			canonTo(sb, x.Values[i])
		}
		sb.WriteString("}")
	case *Set:
		parts := make([]string, len(x.Items))
		for i, it := range x.Items {
			parts[i] = canon(it)
		}
		slices.Sort(parts)
		if x.Frozen {
			sb.WriteString("fset{")
		} else {
			sb.WriteString("set{")
		}
		sb.WriteString(strings.Join(parts, ","))
		sb.WriteString("}")
	default:
		fmt.Fprintf(sb, "?%T", v)
	}
}

func canonSeq(sb *strings.Builder, open, closing string, items []any) {
	sb.WriteString(open)
	for i, it := range items {
		if i > 0 {
			sb.WriteString(",")
		}
		canonTo(sb, it)
	}
	sb.WriteString(closing)
}
