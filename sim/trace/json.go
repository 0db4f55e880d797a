package trace

import (
	"strconv"
	"unicode/utf8"
)

// The one JSON encoder of Event, shared by the wasm bridge (which keeps
// encoding/json's reflection out of the module) and the GPU websocket
// (which streams 100 000s of events and cannot afford reflection per
// event). Its output is byte for byte what encoding/json writes for the
// same value (json_test.go fuzzes the two against each other), so a
// consumer cannot tell which one wrote a stream.

// AppendJSON appends the JSON object of e to dst, exactly as
// encoding/json.Marshal(e) writes it (field names and omissions of the
// struct tags), and returns the extended slice. It does not allocate
// beyond growing dst.
func AppendJSON(dst []byte, e *Event) []byte {
	dst = append(dst, `{"seq":`...)
	dst = strconv.AppendInt(dst, int64(e.Seq), 10)
	dst = append(dst, `,"kind":`...)
	dst = AppendJSONString(dst, string(e.Kind))
	dst = append(dst, `,"line":`...)
	dst = strconv.AppendInt(dst, int64(e.Line), 10)
	if e.Addr != 0 {
		dst = append(dst, `,"addr":`...)
		dst = strconv.AppendUint(dst, e.Addr, 10)
	}
	if e.Size != 0 {
		dst = append(dst, `,"size":`...)
		dst = strconv.AppendInt(dst, e.Size, 10)
	}
	if e.Requested != 0 {
		dst = append(dst, `,"requested":`...)
		dst = strconv.AppendInt(dst, e.Requested, 10)
	}
	if e.Segment != 0 {
		dst = append(dst, `,"segment":`...)
		dst = strconv.AppendUint(dst, e.Segment, 10)
	}
	if e.Pool != "" {
		dst = append(dst, `,"pool":`...)
		dst = AppendJSONString(dst, string(e.Pool))
	}
	if l := e.Label; l != nil {
		dst = append(dst, `,"label":{"kind":`...)
		dst = AppendJSONString(dst, string(l.Kind))
		if l.Name != "" {
			dst = append(dst, `,"name":`...)
			dst = AppendJSONString(dst, l.Name)
		}
		if l.Detail != "" {
			dst = append(dst, `,"detail":`...)
			dst = AppendJSONString(dst, l.Detail)
		}
		dst = append(dst, '}')
	}
	if e.Text != "" {
		dst = append(dst, `,"text":`...)
		dst = AppendJSONString(dst, e.Text)
	}
	s := &e.Stats
	dst = append(dst, `,"stats":{"allocated":`...)
	dst = strconv.AppendInt(dst, s.Allocated, 10)
	dst = append(dst, `,"reserved":`...)
	dst = strconv.AppendInt(dst, s.Reserved, 10)
	dst = append(dst, `,"peak_allocated":`...)
	dst = strconv.AppendInt(dst, s.PeakAllocated, 10)
	dst = append(dst, `,"peak_reserved":`...)
	dst = strconv.AppendInt(dst, s.PeakReserved, 10)
	dst = append(dst, `,"active":`...)
	dst = strconv.AppendInt(dst, s.Active, 10)
	dst = append(dst, `,"requested":`...)
	dst = strconv.AppendInt(dst, s.Requested, 10)
	dst = append(dst, `,"segments":`...)
	dst = strconv.AppendInt(dst, s.Segments, 10)
	dst = append(dst, `,"alloc_retries":`...)
	dst = strconv.AppendInt(dst, s.AllocRetries, 10)
	dst = append(dst, `,"ooms":`...)
	dst = strconv.AppendInt(dst, s.OOMs, 10)
	dst = append(dst, '}')
	if g := e.GPU; g != nil {
		dst = append(dst, `,"gpu":{"driver_used":`...)
		dst = strconv.AppendInt(dst, g.DriverUsed, 10)
		dst = append(dst, `,"elapsed_ns":`...)
		dst = strconv.AppendInt(dst, g.ElapsedNanos, 10)
		dst = append(dst, `,"device_allocs":`...)
		dst = strconv.AppendInt(dst, g.DeviceAllocs, 10)
		dst = append(dst, `,"device_frees":`...)
		dst = strconv.AppendInt(dst, g.DeviceFrees, 10)
		dst = append(dst, `,"device_ns":`...)
		dst = strconv.AppendInt(dst, g.DeviceNanos, 10)
		dst = append(dst, '}')
	}
	return append(dst, '}')
}

// AppendJSONArray appends events as a JSON array, as encoding/json writes
// a slice of Event ("null" for a nil slice).
func AppendJSONArray(dst []byte, events []Event) []byte {
	if events == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '[')
	for i := range events {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendJSON(dst, &events[i])
	}
	return append(dst, ']')
}

const hexDigits = "0123456789abcdef"

// AppendJSONString appends s as a JSON string exactly as encoding/json
// writes it: HTML-sensitive characters (<, >, &) and U+2028/U+2029
// escaped, invalid UTF-8 replaced by U+FFFD.
func AppendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
