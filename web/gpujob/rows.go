package gpujob

import (
	"strconv"

	"github.com/gpumem/playground/sim/trace"
)

// The compact row format of MsgRows, version RowsVersion. A GPU job can
// stream 100 000s of events and the page must take them in at once:
// trace.Event as JSON is ~440 bytes (every event repeats its stats and GPU
// objects with their field names), its row 40–60 on the recorded streams
// (rows_test.go checks ≤ 80). Each event is a JSON
// array of integers and strings, a mask first, then the values of its
// set bits in bit order. A field absent from the mask keeps the previous
// event's value (the running fields) or is zero (the event's own fields).
// Numbers are deltas from a register of the decoder: the previous
// event's value, or a nearer one (an address from its segment).
//
// Every frame starts from fresh registers (seq −1, everything else zero or
// empty, GPU nil), so that a frame can be decoded alone. Strings (kinds,
// pools, labels, texts) are references: a JSON string is a new entry of
// the frame's string table, an integer i the table's entry i.
//
// The decoders (rows_decode.go, web/js/gpustream.js) follow this table;
// change all three together and bump RowsVersion.
const (
	RowsVersion = 1 // the "v" of MsgRows

	rowLine      = 1 << 0  // line − previous line
	rowKind      = 1 << 1  // string ref; absent: the previous event's kind
	rowElapsed   = 1 << 2  // gpu.elapsed_ns, the value itself; absent: the previous event's
	rowStats     = 1 << 3  // a stats mask (statsFields), then a delta per set bit
	rowGPU       = 1 << 4  // a gpu mask (gpuPresent|gpuFields), then a delta per field bit; 0: gpu is nil
	rowSegment   = 1 << 5  // segment − the last nonzero segment; absent: 0
	rowAddr      = 1 << 6  // addr − this event's segment; absent: 0
	rowSize      = 1 << 7  // size − the last nonzero size; absent: 0
	rowRequested = 1 << 8  // size − requested; absent: 0
	rowPool      = 1 << 9  // string ref; absent: ""
	rowLabel     = 1 << 10 // three string refs: kind, name, detail; absent: no label
	rowText      = 1 << 11 // string ref; absent: ""
	rowSeq       = 1 << 12 // seq − (previous seq + 1); absent: previous seq + 1
	rowBits      = 13

	// The stats mask: bit i is the i-th field of trace.Stats in order
	// (allocated, reserved, peak_allocated, peak_reserved, active,
	// requested, segments, alloc_retries, ooms).
	statsFields = 9

	// The gpu mask: gpuPresent, then bit i+1 for the i-th of driver_used,
	// device_allocs, device_frees, device_ns (elapsed_ns is rowElapsed).
	gpuPresent = 1 << 0
	gpuFields  = 4
)

// rowState is the registers shared by the encoder and the decoder.
type rowState struct {
	seq     int
	kind    trace.Kind
	line    int
	segment uint64 // the last nonzero segment
	size    int64  // the last nonzero size
	stats   trace.Stats
	hasGPU  bool
	gpu     trace.GPU // zero while !hasGPU
}

func (s *rowState) reset() { *s = rowState{seq: -1} }

// statsArray and gpuArray give the fields in mask order.
func statsArray(s *trace.Stats) [statsFields]*int64 {
	return [statsFields]*int64{&s.Allocated, &s.Reserved, &s.PeakAllocated, &s.PeakReserved, &s.Active,
		&s.Requested, &s.Segments, &s.AllocRetries, &s.OOMs}
}

func gpuArray(g *trace.GPU) [gpuFields]*int64 {
	return [gpuFields]*int64{&g.DriverUsed, &g.DeviceAllocs, &g.DeviceFrees, &g.DeviceNanos}
}

// rowEncoder writes the rows of one frame at a time. It allocates nothing
// per event once its string table has grown.
type rowEncoder struct {
	st      rowState
	strings map[string]int
}

// start begins a frame: fresh registers and an empty string table.
func (r *rowEncoder) start() {
	r.st.reset()
	if r.strings == nil {
		r.strings = make(map[string]int)
	}
	clear(r.strings)
}

// ref appends a string reference: the table index of s, or s itself the
// first time.
func (r *rowEncoder) ref(dst []byte, s string) []byte {
	if i, ok := r.strings[s]; ok {
		return strconv.AppendInt(dst, int64(i), 10)
	}
	r.strings[s] = len(r.strings)
	return trace.AppendJSONString(dst, s)
}

func appendInt(dst []byte, v int64) []byte {
	dst = append(dst, ',')
	return strconv.AppendInt(dst, v, 10)
}

// appendRow appends e's row to dst and advances the registers.
func (r *rowEncoder) appendRow(dst []byte, e *trace.Event) []byte {
	st := &r.st
	var mask int
	if e.Line != st.line {
		mask |= rowLine
	}
	if e.Kind != st.kind {
		mask |= rowKind
	}
	var statsMask int
	if e.Stats != st.stats {
		mask |= rowStats
		cur, prev := statsArray(&e.Stats), statsArray(&st.stats)
		for i := range cur {
			if *cur[i] != *prev[i] {
				statsMask |= 1 << i
			}
		}
	}
	var gpuMask int
	switch g := e.GPU; {
	case g == nil:
		if st.hasGPU {
			mask |= rowGPU
		}
	default:
		if !st.hasGPU {
			mask |= rowGPU
			gpuMask = gpuPresent
		}
		cur, prev := gpuArray(g), gpuArray(&st.gpu)
		for i := range cur {
			if *cur[i] != *prev[i] {
				mask |= rowGPU
				gpuMask |= gpuPresent | 1<<(i+1)
			}
		}
		if g.ElapsedNanos != st.gpu.ElapsedNanos {
			mask |= rowElapsed
		}
	}
	if e.Segment != 0 {
		mask |= rowSegment
	}
	if e.Addr != 0 {
		mask |= rowAddr
	}
	if e.Size != 0 {
		mask |= rowSize
	}
	if e.Requested != 0 {
		mask |= rowRequested
	}
	if e.Pool != "" {
		mask |= rowPool
	}
	if e.Label != nil {
		mask |= rowLabel
	}
	if e.Text != "" {
		mask |= rowText
	}
	if e.Seq != st.seq+1 {
		mask |= rowSeq
	}

	dst = append(dst, '[')
	dst = strconv.AppendInt(dst, int64(mask), 10)
	if mask&rowLine != 0 {
		dst = appendInt(dst, int64(e.Line-st.line))
	}
	if mask&rowKind != 0 {
		dst = r.ref(append(dst, ','), string(e.Kind))
	}
	if mask&rowElapsed != 0 {
		dst = appendInt(dst, e.GPU.ElapsedNanos)
	}
	if mask&rowStats != 0 {
		dst = appendInt(dst, int64(statsMask))
		cur, prev := statsArray(&e.Stats), statsArray(&st.stats)
		for i := range cur {
			if statsMask&(1<<i) != 0 {
				dst = appendInt(dst, *cur[i]-*prev[i])
			}
		}
	}
	if mask&rowGPU != 0 {
		dst = appendInt(dst, int64(gpuMask))
		if e.GPU != nil {
			cur, prev := gpuArray(e.GPU), gpuArray(&st.gpu)
			for i := range cur {
				if gpuMask&(1<<(i+1)) != 0 {
					dst = appendInt(dst, *cur[i]-*prev[i])
				}
			}
		}
	}
	if mask&rowSegment != 0 {
		dst = appendInt(dst, int64(e.Segment-st.segment))
	}
	if mask&rowAddr != 0 {
		dst = appendInt(dst, int64(e.Addr-e.Segment))
	}
	if mask&rowSize != 0 {
		dst = appendInt(dst, e.Size-st.size)
	}
	if mask&rowRequested != 0 {
		dst = appendInt(dst, e.Size-e.Requested)
	}
	if mask&rowPool != 0 {
		dst = r.ref(append(dst, ','), string(e.Pool))
	}
	if l := e.Label; l != nil {
		dst = r.ref(append(dst, ','), string(l.Kind))
		dst = r.ref(append(dst, ','), l.Name)
		dst = r.ref(append(dst, ','), l.Detail)
	}
	if mask&rowText != 0 {
		dst = r.ref(append(dst, ','), e.Text)
	}
	if mask&rowSeq != 0 {
		dst = appendInt(dst, int64(e.Seq-(st.seq+1)))
	}
	dst = append(dst, ']')

	st.seq, st.kind, st.line = e.Seq, e.Kind, e.Line
	if e.Segment != 0 {
		st.segment = e.Segment
	}
	if e.Size != 0 {
		st.size = e.Size
	}
	st.stats = e.Stats
	if e.GPU != nil {
		st.hasGPU, st.gpu = true, *e.GPU
	} else {
		st.hasGPU, st.gpu = false, trace.GPU{}
	}
	return dst
}
