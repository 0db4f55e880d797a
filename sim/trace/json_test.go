package trace

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"testing"
)

// fill sets every field reachable from v to a distinct non-zero value, so
// that a field added to Event without a line in json.go fails the
// comparison with encoding/json.
func fill(t *testing.T, v reflect.Value, n *int) {
	*n++
	switch v.Kind() {
	case reflect.String:
		v.SetString("s" + strconv.Itoa(*n) + " <&> \"q\" \\ \n\t\x01 é \u2028 \xff")
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(*n) * -1_000_003)
	case reflect.Uint64:
		v.SetUint(uint64(*n) << 40)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(t, v.Elem(), n)
	case reflect.Struct:
		for i := range v.NumField() {
			fill(t, v.Field(i), n)
		}
	default:
		t.Fatalf("fill: field kind %s is not handled by this test (nor perhaps by AppendJSON)", v.Kind())
	}
}

func TestAppendJSONMatchesEncodingJSON(t *testing.T) {
	var full Event
	n := 0
	fill(t, reflect.ValueOf(&full).Elem(), &n)
	tests := map[string]Event{
		"every field set":     full,
		"zero":                {},
		"empty label and gpu": {Kind: Alloc, Label: &Label{}, GPU: &GPU{}},
		"extremes": {Seq: -1 << 63, Line: 1<<63 - 1, Addr: 1<<64 - 1, Size: -1 << 63, Requested: 1, Segment: 1,
			Stats: Stats{Allocated: -1, OOMs: 1<<63 - 1}, GPU: &GPU{DeviceNanos: -1 << 63}},
		"alloc": {Seq: 7, Kind: Alloc, Line: 3, Addr: 0x7f0000200000, Size: 512, Requested: 400, Segment: 0x7f0000200000, Pool: Small,
			Label: &Label{Kind: LabelUser, Name: "x"}, Stats: Stats{Allocated: 512, Reserved: 2 << 20, PeakAllocated: 512, PeakReserved: 2 << 20, Active: 512, Requested: 400, Segments: 1}},
	}
	for name, e := range tests {
		want, err := json.Marshal(&e)
		if err != nil {
			t.Fatal(err)
		}
		if got := AppendJSON(nil, &e); !bytes.Equal(got, want) {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
		// Appending keeps what dst held.
		if got := AppendJSON([]byte("x,"), &e); !bytes.Equal(got, append([]byte("x,"), want...)) {
			t.Errorf("%s: appending to a non-empty slice gave %s", name, got)
		}
	}
	for name, evs := range map[string][]Event{"nil": nil, "empty": {}, "two": {full, {}}} {
		want, _ := json.Marshal(evs)
		if got := AppendJSONArray(nil, evs); !bytes.Equal(got, want) {
			t.Errorf("array %s:\n got %s\nwant %s", name, got, want)
		}
	}
}

func TestAppendJSONAllocatesNothing(t *testing.T) {
	e := Event{Seq: 1, Kind: Free, Label: &Label{Kind: LabelSaved, Name: "relu", Detail: "saved <by> ReLU"}, Text: "é\n", GPU: &GPU{DriverUsed: 1}}
	buf := make([]byte, 0, 4096)
	if n := testing.AllocsPerRun(100, func() { buf = AppendJSON(buf[:0], &e) }); n != 0 {
		t.Errorf("AppendJSON allocated %v times per call into a large enough buffer", n)
	}
}

func FuzzAppendJSON(f *testing.F) {
	f.Add(0, "alloc", 3, uint64(1<<40), int64(512), int64(400), uint64(1<<40), "small", true, "user", "x", "", "", int64(512), int64(-1), true, int64(7))
	f.Add(-5, "output", 0, uint64(0), int64(0), int64(0), uint64(0), "", false, "", "", "", "<b>&\u2028\xff\x00", int64(0), int64(0), false, int64(0))
	f.Fuzz(func(t *testing.T, seq int, kind string, line int, addr uint64, size, requested int64, segment uint64, pool string,
		hasLabel bool, lkind, lname, ldetail, text string, allocated, ooms int64, hasGPU bool, driver int64) {
		e := Event{Seq: seq, Kind: Kind(kind), Line: line, Addr: addr, Size: size, Requested: requested, Segment: segment, Pool: Pool(pool), Text: text,
			Stats: Stats{Allocated: allocated, Reserved: size, PeakAllocated: requested, OOMs: ooms}}
		if hasLabel {
			e.Label = &Label{Kind: LabelKind(lkind), Name: lname, Detail: ldetail}
		}
		if hasGPU {
			e.GPU = &GPU{DriverUsed: driver, ElapsedNanos: allocated, DeviceAllocs: ooms, DeviceFrees: size, DeviceNanos: -driver}
		}
		want, err := json.Marshal(&e)
		if err != nil {
			t.Fatal(err)
		}
		if got := AppendJSON(nil, &e); !bytes.Equal(got, want) {
			t.Errorf("%+v:\n got %s\nwant %s", e, got, want)
		}
	})
}

func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "plain", "<script>&</script>", "\x00\x1f\x7f", "\u2028\u2029", "\xff\xfe", "é😀", "\b\f\n\r\t\"\\", "\xed\xa0\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := AppendJSONString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("%q:\n got %s\nwant %s", s, got, want)
		}
	})
}

// benchEvent is a typical GPU stream event: an alloc with a label and GPU
// figures.
var benchEvent = Event{Seq: 12345, Kind: Alloc, Line: 17, Addr: 0x7f3a5c000000, Size: 4194304, Requested: 4000000, Segment: 0x7f3a5c000000, Pool: Large,
	Label: &Label{Kind: LabelActivation, Name: "fc1", Detail: "output of Linear fc1"},
	Stats: Stats{Allocated: 123456789, Reserved: 134217728, PeakAllocated: 123456789, PeakReserved: 134217728, Active: 123456789, Requested: 120000000, Segments: 12},
	GPU:   &GPU{DriverUsed: 663748608, ElapsedNanos: 12345, DeviceAllocs: 12, DeviceFrees: 3, DeviceNanos: 1234567}}

func BenchmarkAppendJSON(b *testing.B) {
	buf := make([]byte, 0, 1024)
	for b.Loop() {
		buf = AppendJSON(buf[:0], &benchEvent)
	}
	b.SetBytes(int64(len(buf)))
}

func BenchmarkEncodingJSON(b *testing.B) {
	var n int
	for b.Loop() {
		out, _ := json.Marshal(&benchEvent)
		n = len(out)
	}
	b.SetBytes(int64(n))
}
