package bridge

import "github.com/gpumem/playground/sim/trace"

// The bridge writes and reads its JSON by hand instead of with encoding/json:
// that package's reflection and its dependencies (time's parser among them)
// cost about 6% of the gzipped wasm module. The output is byte for byte what
// encoding/json would write (tests compare the two natively). Events and
// strings are written by package trace's encoder, the one the GPU websocket
// uses too.

// appendString appends s as a JSON string exactly as encoding/json writes it:
// HTML-sensitive characters and U+2028/U+2029 escaped, invalid UTF-8 replaced
// by U+FFFD.
func appendString(dst []byte, s string) []byte { return trace.AppendJSONString(dst, s) }
