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
	if r.Events == nil {
		o.b = append(o.b, "null"...)
	} else {
		o.b = append(o.b, '[')
		for i := range r.Events {
			if i > 0 {
				o.b = append(o.b, ',')
			}
			o.b = appendEvent(o.b, &r.Events[i])
		}
		o.b = append(o.b, ']')
	}
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

// appendEvent appends one trace.Event with the field names and omissions of
// its json tags.
func appendEvent(dst []byte, e *trace.Event) []byte {
	o := newObject(dst)
	o.int("seq", int64(e.Seq), false)
	o.str("kind", string(e.Kind), false)
	o.int("line", int64(e.Line), false)
	o.uint("addr", e.Addr, true)
	o.int("size", e.Size, true)
	o.int("requested", e.Requested, true)
	o.uint("segment", e.Segment, true)
	o.str("pool", string(e.Pool), true)
	if e.Label != nil {
		o.key("label")
		l := newObject(o.b)
		l.str("kind", string(e.Label.Kind), false)
		l.str("name", e.Label.Name, true)
		l.str("detail", e.Label.Detail, true)
		o.b = l.end()
	}
	o.str("text", e.Text, true)
	o.key("stats")
	s := newObject(o.b)
	s.int("allocated", e.Stats.Allocated, false)
	s.int("reserved", e.Stats.Reserved, false)
	s.int("peak_allocated", e.Stats.PeakAllocated, false)
	s.int("peak_reserved", e.Stats.PeakReserved, false)
	s.int("active", e.Stats.Active, false)
	s.int("requested", e.Stats.Requested, false)
	s.int("segments", e.Stats.Segments, false)
	s.int("alloc_retries", e.Stats.AllocRetries, false)
	s.int("ooms", e.Stats.OOMs, false)
	o.b = s.end()
	if e.GPU != nil {
		o.key("gpu")
		g := newObject(o.b)
		g.int("driver_used", e.GPU.DriverUsed, false)
		g.int("elapsed_ns", e.GPU.ElapsedNanos, false)
		g.int("device_allocs", e.GPU.DeviceAllocs, false)
		g.int("device_frees", e.GPU.DeviceFrees, false)
		g.int("device_ns", e.GPU.DeviceNanos, false)
		o.b = g.end()
	}
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
