package bridge

import (
	"strconv"

	"github.com/gpumem/playground/sim/trace"
)

// object appends the members of one JSON object; first tells whether a comma
// is due. Its methods mirror encoding/json's rules for the field kinds used
// here, omitempty included.
type object struct {
	b     []byte
	first bool
}

func newObject(dst []byte) *object { return &object{b: append(dst, '{'), first: true} }

func (o *object) key(k string) {
	if !o.first {
		o.b = append(o.b, ',')
	}
	o.first = false
	o.b = appendString(o.b, k)
	o.b = append(o.b, ':')
}

func (o *object) str(k, v string, omitEmpty bool) {
	if omitEmpty && v == "" {
		return
	}
	o.key(k)
	o.b = appendString(o.b, v)
}

func (o *object) int(k string, v int64, omitEmpty bool) {
	if omitEmpty && v == 0 {
		return
	}
	o.key(k)
	o.b = strconv.AppendInt(o.b, v, 10)
}

func (o *object) uint(k string, v uint64, omitEmpty bool) {
	if omitEmpty && v == 0 {
		return
	}
	o.key(k)
	o.b = strconv.AppendUint(o.b, v, 10)
}

func (o *object) bool(k string, v bool, omitEmpty bool) {
	if omitEmpty && !v {
		return
	}
	o.key(k)
	o.b = strconv.AppendBool(o.b, v)
}

func (o *object) end() []byte { return append(o.b, '}') }

// appendResponse appends r as JSON.
func appendResponse(dst []byte, r Response) []byte {
	o := newObject(dst)
	o.str("version", r.Version, false)
	o.str("stdout", r.Stdout, false)
	if r.Error != nil {
		o.key("error")
		o.b = appendScriptError(o.b, r.Error)
	}
	o.str("hostError", r.HostError, true)
	o.key("events")
	o.b = trace.AppendJSONArray(o.b, r.Events) // the stream's one encoder, shared with the GPU websocket
	return o.end()
}

func appendScriptError(dst []byte, e *ScriptError) []byte {
	o := newObject(dst)
	o.str("type", e.Type, false)
	o.str("message", e.Message, false)
	o.str("traceback", e.Traceback, false)
	o.int("line", int64(e.Line), false)
	o.int("col", int64(e.Col), true)
	return o.end()
}

// appendProfiles appends the profile list as a JSON array.
func appendProfiles(dst []byte, ps []ProfileInfo) []byte {
	if ps == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '[')
	for i, p := range ps {
		if i > 0 {
			dst = append(dst, ',')
		}
		o := newObject(dst)
		o.str("name", p.Name, false)
		o.str("title", p.Title, false)
		o.str("gpu", p.GPU, false)
		o.int("totalMemory", p.TotalMemory, false)
		o.str("torchVersion", p.TorchVersion, false)
		o.bool("default", p.Default, true)
		dst = o.end()
	}
	return append(dst, ']')
}
