package alloc

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/gpumem/playground/sim/pickle"
)

// TestWriteJSONStringsAsEncodingJSON: writeJSON quotes strings (dict keys
// and values) byte for byte as encoding/json, which the package no longer
// links (it would be in the wasm module).
func TestWriteJSONStringsAsEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", `q"b\s`, "<a&b>", "tab\tnl\ncr\r\x00\x1f\x7f",
		"\u2028\u2029", "é漢😀", "bad\xffutf8\xc3", "\xed\xa0\x80"} {
		d := pickle.NewDict()
		d.Set(s, s)
		var got bytes.Buffer
		if err := writeJSON(&got, d); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		q, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if want := "{" + string(q) + ":" + string(q) + "}"; got.String() != want {
			t.Errorf("%q: got %s, want %s", s, got.String(), want)
		}
	}
}
