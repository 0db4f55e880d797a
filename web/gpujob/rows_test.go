package gpujob

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gpumem/playground/sim/trace"
)

var update = flag.Bool("update", false, "rewrite testdata/rows-golden.json")

// recordedStreams returns the event streams recorded on GPUs and their
// simulations: the H100 fixture and both sides of gpu/compare's pairs.
func recordedStreams(t testing.TB) map[string][]trace.Event {
	t.Helper()
	h100 := loadH100(t).Events
	streams := map[string][]trace.Event{"h100-stream": h100}
	// The benchmarks' stream: the fixture 4546 times, 100 012 events.
	var long []trace.Event
	for i := 0; len(long) < 100_000; i++ {
		for _, ev := range h100 {
			ev.Seq = len(long)
			long = append(long, ev)
		}
	}
	streams["h100-stream×4546"] = long
	files, err := filepath.Glob("../../gpu/compare/testdata/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no recorded pairs (%v)", err)
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var pair struct {
			Sim, GPU struct{ Events []trace.Event }
		}
		if err := json.Unmarshal(data, &pair); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		base := strings.TrimSuffix(filepath.Base(name), ".json")
		streams[base+"/gpu"] = pair.GPU.Events
		streams[base+"/sim"] = pair.Sim.Events
	}
	return streams
}

// encodeFrames writes evs as the connection does, frames of at most
// maxEvents events, and returns the messages.
func encodeFrames(evs []trace.Event, maxEvents, maxBytes int) [][]byte {
	items := make([]outItem, len(evs))
	for i := range evs {
		items[i].ev = evs[i]
	}
	f := &frames{maxEvents: maxEvents, maxBytes: maxBytes}
	var out [][]byte
	for len(items) > 0 {
		b, n := f.appendEvents(items)
		out = append(out, bytes.Clone(b))
		items = items[n:]
	}
	return out
}

// decodeFrames reads messages as a Go client does: encoding/json into
// ServerMessage, then DecodeEvents.
func decodeFrames(t testing.TB, msgs [][]byte) []trace.Event {
	t.Helper()
	var evs []trace.Event
	for _, b := range msgs {
		var m ServerMessage
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("a frame is not JSON: %v\n%.200s", err, b)
		}
		got, err := m.DecodeEvents()
		if err != nil {
			t.Fatalf("%v\n%.300s", err, b)
		}
		evs = append(evs, got...)
	}
	return evs
}

// TestRowsRoundTripRecorded: every recorded stream comes back unchanged
// whatever the frame size, and costs at most 80 bytes per event, but for
// the H100 fixture alone: 22 events, one of them a 600-byte OOM message.
func TestRowsRoundTripRecorded(t *testing.T) {
	for name, evs := range recordedStreams(t) {
		for _, maxEvents := range []int{1, 7, 4096} {
			if len(evs) > 1000 && maxEvents < 4096 {
				continue
			}
			frames := encodeFrames(evs, maxEvents, 1<<20)
			if got := decodeFrames(t, frames); !reflect.DeepEqual(got, evs) {
				t.Errorf("%s, frames of %d: the decoded events differ", name, maxEvents)
				continue
			}
			if maxEvents < 4096 {
				continue
			}
			size := 0
			for _, f := range frames {
				size += len(f)
			}
			perEvent := float64(size) / float64(len(evs))
			js, _ := json.Marshal(evs)
			t.Logf("%-22s %4d events: %5.1f B/event (JSON %5.1f)", name, len(evs), perEvent, float64(len(js))/float64(len(evs)))
			if perEvent > 80 && name != "h100-stream" {
				t.Errorf("%s: %.1f bytes per event, want at most 80", name, perEvent)
			}
		}
	}
}

// TestRowsByteLimit: a frame ends with the event that takes it past
// maxBytes.
func TestRowsByteLimit(t *testing.T) {
	evs := loadH100(t).Events
	all := encodeFrames(evs, 4096, 1<<20)[0]
	for _, limit := range []int{1, 100, 500, 1000} {
		frames := encodeFrames(evs, 4096, limit)
		for i, f := range frames[:len(frames)-1] {
			var m ServerMessage
			if err := json.Unmarshal(f, &m); err != nil {
				t.Fatal(err)
			}
			got, _ := m.DecodeEvents()
			// Without its last row, the frame is below the limit.
			last := bytes.LastIndex(m.Rows, []byte(",["))
			if len(got) > 1 && len(rowsPrefix)+last >= limit {
				t.Errorf("limit %d: frame %d goes on after the limit (%d bytes before its last row)", limit, i, len(rowsPrefix)+last)
			}
		}
		if len(frames) < 2 && len(all) > limit {
			t.Errorf("limit %d: one frame of %d bytes", limit, len(frames[0]))
		}
	}
}

// TestRowsMatchEncodingJSON: a frame is what encoding/json writes for its
// ServerMessage.
func TestRowsMatchEncodingJSON(t *testing.T) {
	frame := encodeFrames(loadH100(t).Events, 4096, 1<<20)[0]
	rows := frame[len(rowsPrefix)-1 : len(frame)-1]
	want, err := json.Marshal(ServerMessage{Type: MsgRows, Version: RowsVersion, Rows: rows})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(frame, want) {
		t.Errorf("frame\n%.200s\nencoding/json\n%.200s", frame, want)
	}
}

// TestDecodeRowsErrors: malformed rows are errors, not panics or wrong
// events.
func TestDecodeRowsErrors(t *testing.T) {
	for _, tt := range []struct{ rows, want string }{
		{``, "want '['"},
		{`[[1,2]`, "want ','"},
		{`[[8192]]`, "unknown bits"},
		{`[[8,512,1]]`, "stats mask"},
		{`[[16,2]]`, "gpu mask"},
		{`[[4,5]]`, "without gpu"},
		{`[[2,3]]`, "string reference 3"},
		{`[[1]]`, "want ','"},
		{`[[1,1,2]]`, "more values"},
		{`[[1,1.5]]`, "fraction"},
		{`[[1,01]]`, "leading zero"},
		{`[[1,99999999999999999999]]`, "overflows"},
		{`[[1,-9223372036854775809]]`, "overflows"},
		{`[[2,"ab]]`, "does not end"},
		{`[[2,"\x01"]]`, "string at byte"},
		{`[[0]] x`, "after the array"},
	} {
		_, err := DecodeRows(nil, []byte(tt.rows))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.rows, err, tt.want)
		}
	}
	m := ServerMessage{Type: MsgRows, Version: RowsVersion + 1, Rows: json.RawMessage(`[]`)}
	if _, err := m.DecodeEvents(); err == nil || !strings.Contains(err.Error(), "version") {
		t.Errorf("another version: %v", err)
	}
	if evs, err := DecodeRows(nil, []byte(" [ [ 3 , 1 , \"line\" ] , [0] ] ")); err != nil || len(evs) != 2 || evs[1].Seq != 1 || evs[1].Kind != trace.Line {
		t.Errorf("white space: %+v, %v", evs, err)
	}
}

// eventsFromBytes makes a stream of events from fuzz input, covering
// every field, extreme values and the nil/non-nil transitions of GPU and
// Label.
func eventsFromBytes(data []byte) []trace.Event {
	r := bytes.NewReader(data)
	u64 := func() uint64 {
		var b [8]byte
		n, _ := r.Read(b[:1])
		if n == 0 {
			return 0
		}
		switch b[0] % 8 { // mostly small numbers and repeats, as in real streams
		case 0:
			return 0
		case 1:
			return uint64(b[0])
		case 2:
			return math.MaxUint64 - uint64(b[0])
		case 3:
			return 1 << 63
		}
		r.Read(b[:])
		return binary.LittleEndian.Uint64(b[:])
	}
	i64 := func() int64 { return int64(u64()) }
	str := func() string {
		n := int(u64() % 8)
		b := make([]byte, n)
		r.Read(b)
		return string(b)
	}
	kinds := []trace.Kind{trace.Line, trace.Alloc, trace.Free, trace.Output, ""}
	var evs []trace.Event
	var prev trace.Event
	for r.Len() > 0 && len(evs) < 200 {
		flags := u64()
		e := prev // running fields often repeat
		e.Seq = prev.Seq + 1
		if flags&1 != 0 {
			e.Seq = int(i64())
		}
		e.Kind = kinds[u64()%uint64(len(kinds))]
		if flags&2 != 0 {
			e.Kind = trace.Kind(str())
		}
		if flags&4 != 0 {
			e.Line = int(i64())
		}
		e.Addr, e.Size, e.Requested, e.Segment, e.Pool, e.Label, e.Text = 0, 0, 0, 0, "", nil, ""
		if flags&8 != 0 {
			e.Addr, e.Size, e.Requested, e.Segment = u64(), i64(), i64(), u64()
		}
		if flags&16 != 0 {
			e.Pool = trace.Pool(str())
		}
		if flags&32 != 0 {
			e.Label = &trace.Label{Kind: trace.LabelKind(str()), Name: str(), Detail: str()}
		}
		if flags&64 != 0 {
			e.Text = str()
		}
		if flags&128 != 0 {
			s := statsArray(&e.Stats)
			*s[u64()%statsFields] = i64()
		}
		switch (flags >> 8) % 4 {
		case 0:
			e.GPU = nil
		case 1:
			if e.GPU != nil {
				g := *e.GPU
				g.ElapsedNanos = i64()
				e.GPU = &g
			}
		case 2:
			e.GPU = &trace.GPU{DriverUsed: i64(), ElapsedNanos: i64(), DeviceAllocs: i64(), DeviceFrees: i64(), DeviceNanos: i64()}
		case 3:
			e.GPU = &trace.GPU{}
		}
		evs = append(evs, e)
		prev = e
	}
	return evs
}

// validUTF8 is what a JSON round trip makes of the strings of evs.
func validUTF8(evs []trace.Event) []trace.Event {
	out := make([]trace.Event, len(evs))
	fix := func(s string) string { return string([]rune(s)) } // U+FFFD for each invalid byte, as encoding/json
	for i, e := range evs {
		e.Kind, e.Pool, e.Text = trace.Kind(fix(string(e.Kind))), trace.Pool(fix(string(e.Pool))), fix(e.Text)
		if e.Label != nil {
			e.Label = &trace.Label{Kind: trace.LabelKind(fix(string(e.Label.Kind))), Name: fix(e.Label.Name), Detail: fix(e.Label.Detail)}
		}
		out[i] = e
	}
	return out
}

// FuzzRowsRoundTrip: decode(encode(events)) == events for any events.
func FuzzRowsRoundTrip(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x05\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f"))
	f.Add(bytes.Repeat([]byte{0xff, 0x2a, 0x81, 0x04, 0x11, 0x07, 0x33}, 20))
	f.Add([]byte("\x7f\xc3\x28ab\xe2\x80\xa8<>&\"\\\n\x00seq"))
	f.Fuzz(func(t *testing.T, data []byte) {
		evs := eventsFromBytes(data)
		want := validUTF8(evs)
		for _, maxEvents := range []int{3, 4096} {
			got := decodeFrames(t, encodeFrames(evs, maxEvents, 1<<20))
			if len(got) != len(want) {
				t.Fatalf("%d events back, want %d", len(got), len(want))
			}
			for i := range want {
				if !reflect.DeepEqual(got[i], want[i]) {
					t.Fatalf("event %d:\n got %+v %+v %+v\nwant %+v %+v %+v", i, got[i], got[i].GPU, got[i].Label, want[i], want[i].GPU, want[i].Label)
				}
			}
		}
	})
}

// FuzzDecodeRows: any input decodes to events or an error, never a
// panic; what decodes re-encodes to the same events.
func FuzzDecodeRows(f *testing.F) {
	for _, frame := range encodeFrames(loadH100(f).Events[:8], 4, 1<<20) {
		f.Add(frame[len(rowsPrefix)-1 : len(frame)-1])
	}
	f.Add([]byte(`[[4127,1,"x",5,-1,1,2,3,"p","k","n","d","t",-7]]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		evs, err := DecodeRows(nil, data)
		if err != nil {
			return
		}
		got := decodeFrames(t, encodeFrames(evs, 4096, 1<<20))
		if len(evs) == 0 && got == nil {
			return
		}
		if !reflect.DeepEqual(got, validUTF8(evs)) {
			t.Fatalf("re-encoded events differ:\n%+v\n%+v", got, evs)
		}
	})
}

// jsSafe keeps the numbers of evs within ±2^50, so that they and their
// differences are exact in JavaScript's doubles (real figures are far
// below: addresses < 2^48).
func jsSafe(evs []trace.Event) []trace.Event {
	const m = 1 << 50
	out := make([]trace.Event, len(evs))
	for i, e := range evs {
		e.Seq, e.Line = e.Seq%m, e.Line%m
		e.Addr, e.Segment = e.Addr%m, e.Segment%m
		e.Size, e.Requested = e.Size%m, e.Requested%m
		for _, p := range statsArray(&e.Stats) {
			*p %= m
		}
		if e.GPU != nil {
			g := *e.GPU
			for _, p := range gpuArray(&g) {
				*p %= m
			}
			g.ElapsedNanos %= m
			e.GPU = &g
		}
		out[i] = e
	}
	return out
}

// TestRowsGolden writes testdata/rows-golden.json (-update), the fixture of
// web/js/gpustream.test.js: frames of the H100 fixture and of fuzz-made
// events, and the events as encoding/json writes them, which the page's
// decoder must reproduce.
func TestRowsGolden(t *testing.T) {
	streams := [][]trace.Event{
		loadH100(t).Events,
		jsSafe(eventsFromBytes(bytes.Repeat([]byte{0xfd, 0x2a, 0x81, 0x04, 0x11, 0x07, 0x33, 0x45, 0x9e}, 12))),
		{
			{Seq: 7, Kind: trace.Output, Line: 3, Text: "héllo <wörld> \u2028 \"q\"\n"},
			{Seq: 9, Kind: trace.Alloc, Line: 2, Addr: 1<<47 + 512, Segment: 1 << 47, Size: 512, Requested: 400, Pool: trace.Small,
				Label: &trace.Label{Kind: trace.LabelUser}, Stats: trace.Stats{Allocated: 512, OOMs: 1}, GPU: &trace.GPU{}},
			{Seq: 10, Kind: trace.Free, Line: 1, Addr: 1 << 47, Segment: 1<<47 + 4096, Size: 256, Requested: 256,
				Label: &trace.Label{Kind: trace.LabelUser, Name: "x", Detail: "y"}, Stats: trace.Stats{Allocated: -5}},
			{Seq: 11, Kind: trace.Line, Line: -1, GPU: &trace.GPU{ElapsedNanos: 5, DeviceNanos: -3}},
		},
	}
	type stream struct {
		Frames []string      `json:"frames"` // the websocket messages
		Events []trace.Event `json:"events"`
	}
	var golden []stream
	for _, evs := range streams {
		var s stream
		for _, f := range encodeFrames(evs, 5, 1<<20) {
			s.Frames = append(s.Frames, string(f))
		}
		s.Events = validUTF8(evs)
		golden = append(golden, s)
	}
	got, err := json.MarshalIndent(golden, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	const path = "testdata/rows-golden.json"
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run TestRowsGolden -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is out of date: go test -run TestRowsGolden -update", path)
	}
}
