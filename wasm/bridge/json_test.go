package bridge

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"testing"

	"github.com/gpumem/playground/sim/trace"
)

// fill sets every field reachable from v to a distinct non-zero value, so that
// a field added to trace.Event or Response without a line in encode.go makes
// the comparison with encoding/json fail.
func fill(v reflect.Value, n *int) {
	*n++
	switch v.Kind() {
	case reflect.String:
		v.SetString("s" + strconv.Itoa(*n) + " <&> \"q\" \\ \n\t\x01 é \u2028 \xff")
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(int64(*n) * -1_000_003)
	case reflect.Uint64, reflect.Uint, reflect.Uint32:
		v.SetUint(uint64(*n) * 1 << 40)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), n)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		fill(v.Index(0), n)
		fill(v.Index(1), n)
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i), n)
		}
	default:
		panic("fill: unhandled kind " + v.Kind().String())
	}
}

func TestEncodeMatchesEncodingJSON(t *testing.T) {
	var full Response
	n := 0
	fill(reflect.ValueOf(&full).Elem(), &n)
	var fullProfiles []ProfileInfo
	fill(reflect.ValueOf(&fullProfiles).Elem(), &n)

	responses := map[string]Response{
		"every field set":                full,
		"zero":                           {},
		"bad request":                    {Version: "v", HostError: "bad request: x"},
		"empty events":                   {Version: "v", Events: []trace.Event{}},
		"zero event":                     {Events: []trace.Event{{}}},
		"event with empty label and gpu": {Events: []trace.Event{{Kind: trace.Alloc, Label: &trace.Label{}, GPU: &trace.GPU{}}}},
	}
	for name, r := range responses {
		want, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if got := encode(r); !bytes.Equal(got, want) {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
	for name, ps := range map[string][]ProfileInfo{"every field set": fullProfiles, "nil": nil, "empty": {}, "real": Profiles()} {
		want, _ := json.Marshal(ps)
		if got := appendProfiles(nil, ps); !bytes.Equal(got, want) {
			t.Errorf("profiles %s:\n got %s\nwant %s", name, got, want)
		}
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", "<script>&</script>", "\x00\x1f\x7f", "\u2028\u2029", "\xff\xfe", "é😀", "\b\f\n\r\t\"\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := appendString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("%q:\n got %s\nwant %s", s, got, want)
		}
	})
}

func TestDecodeRequest(t *testing.T) {
	tests := []struct {
		in   string
		want Request
		ok   bool
	}{
		{`{"script":"print(1)\n","profile":"a100","allocConf":"expandable_segments:True","filename":"x.py"}`, Request{"print(1)\n", "a100", "expandable_segments:True", "x.py"}, true},
		{` { "SCRIPT" : "a" , "extra": [1, {"k": null}, -0.5e+3, true], "script": "b" } `, Request{Script: "b"}, true},
		{`{"script":null}`, Request{}, true},
		{`null`, Request{}, true},
		{`{}`, Request{}, true},
		{`{"script":"\ud83d\ude00 \ud800 \u00e9 \/"}`, Request{Script: "😀 \ufffd é /"}, true},
		{"{\"script\":\"\xff\"}", Request{Script: "\ufffd"}, true},
		{``, Request{}, false},
		{`{`, Request{}, false},
		{`[]`, Request{}, false},
		{`{"script":3}`, Request{}, false},
		{`{"script":"a"} x`, Request{}, false},
		{`{"script":"a",}`, Request{}, false},
		{`{"x":01}`, Request{}, false},
		{`{"x":1.}`, Request{}, false},
		{"{\"script\":\"a\nb\"}", Request{}, false},
		{`{"script":"\x"}`, Request{}, false},
	}
	for _, tt := range tests {
		got, err := decodeRequest([]byte(tt.in))
		if (err == nil) != tt.ok || (tt.ok && got != tt.want) {
			t.Errorf("%s: got %+v, %v; want %+v, ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func FuzzDecodeRequest(f *testing.F) {
	for _, s := range []string{`{"script":"x"}`, `null`, `{"a":[1,{"b":"c"}],"Profile":"p"}`, `{"script":"\ud83d\ude00"}`, `{"x":-1.5e3}`, `{"script":null,"filename":"f"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var want Request
		wantErr := json.Unmarshal(raw, &want)
		got, err := decodeRequest(raw)
		if (err == nil) != (wantErr == nil) {
			t.Fatalf("%q: decodeRequest error %v, encoding/json error %v", raw, err, wantErr)
		}
		if err == nil && got != want {
			t.Fatalf("%q: got %+v, encoding/json %+v", raw, got, want)
		}
	})
}
