package gpujob

import (
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/gpumem/playground/sim/trace"
)

// DecodeRows appends the events of a MsgRows message's rows (the JSON
// array, version RowsVersion; rows.go describes it) to dst. It is the Go
// client's decoder: test clients, and any program that watches a job.
func DecodeRows(dst []trace.Event, rows []byte) ([]trace.Event, error) {
	d := rowDecoder{sc: scanner{b: rows}}
	d.st.reset()
	if err := d.sc.open('['); err != nil {
		return dst, fmt.Errorf("gpujob: decoding rows: %w", err)
	}
	first := true
	for {
		if d.sc.close(']') {
			break
		}
		if !first {
			if err := d.sc.open(','); err != nil {
				return dst, fmt.Errorf("gpujob: decoding rows: %w", err)
			}
		}
		first = false
		var e trace.Event
		if err := d.row(&e); err != nil {
			return dst, fmt.Errorf("gpujob: decoding row %d: %w", d.n, err)
		}
		dst = append(dst, e)
		d.n++
	}
	if !d.sc.end() {
		return dst, errors.New("gpujob: decoding rows: data after the array")
	}
	return dst, nil
}

// DecodeEvents returns the events of a MsgRows message; it fails for a
// message of another type or another format version.
func (m *ServerMessage) DecodeEvents() ([]trace.Event, error) {
	if m.Type != MsgRows {
		return nil, fmt.Errorf("gpujob: a %q message has no events", m.Type)
	}
	if m.Version != RowsVersion {
		return nil, fmt.Errorf("gpujob: rows of format version %d; this client reads version %d", m.Version, RowsVersion)
	}
	return DecodeRows(nil, m.Rows)
}

// rowDecoder reads the rows of one frame.
type rowDecoder struct {
	sc      scanner
	st      rowState
	strings []string
	n       int // rows read
}

// row reads one row into e and advances the registers.
func (d *rowDecoder) row(e *trace.Event) error {
	sc, st := &d.sc, &d.st
	if err := sc.open('['); err != nil {
		return err
	}
	m, err := sc.int()
	if err != nil {
		return err
	}
	if m < 0 || m >= 1<<rowBits {
		return fmt.Errorf("mask %d has unknown bits (a newer format?)", m)
	}
	mask := int(m)
	// next reads the next value of the row as an integer.
	next := func() int64 {
		if err != nil {
			return 0
		}
		if err = sc.open(','); err != nil {
			return 0
		}
		var v int64
		v, err = sc.int()
		return v
	}
	ref := func() string {
		if err != nil {
			return ""
		}
		if err = sc.open(','); err != nil {
			return ""
		}
		var s string
		s, err = d.ref()
		return s
	}

	e.Line = st.line
	if mask&rowLine != 0 {
		e.Line = st.line + int(next())
	}
	e.Kind = st.kind
	if mask&rowKind != 0 {
		e.Kind = trace.Kind(ref())
	}
	hasGPU, g := st.hasGPU, st.gpu
	if mask&rowElapsed != 0 {
		g.ElapsedNanos = next()
	}
	e.Stats = st.stats
	if mask&rowStats != 0 {
		sm := next()
		if sm < 0 || sm >= 1<<statsFields {
			return fmt.Errorf("stats mask %d has unknown bits", sm)
		}
		cur := statsArray(&e.Stats)
		for i := range cur {
			if sm&(1<<i) != 0 {
				*cur[i] += next()
			}
		}
	}
	if mask&rowGPU != 0 {
		gm := next()
		switch {
		case gm == 0:
			hasGPU, g = false, trace.GPU{}
		case gm&gpuPresent == 0 || gm >= 1<<(gpuFields+1):
			return fmt.Errorf("gpu mask %d is malformed", gm)
		default:
			hasGPU = true
			cur := gpuArray(&g)
			for i := range cur {
				if gm&(1<<(i+1)) != 0 {
					*cur[i] += next()
				}
			}
		}
	}
	if mask&rowElapsed != 0 {
		if !hasGPU && err == nil {
			return errors.New("gpu.elapsed_ns of an event without gpu figures")
		}
		hasGPU = true
	}
	if mask&rowSegment != 0 {
		e.Segment = st.segment + uint64(next())
	}
	if mask&rowAddr != 0 {
		e.Addr = e.Segment + uint64(next())
	}
	if mask&rowSize != 0 {
		e.Size = st.size + next()
	}
	if mask&rowRequested != 0 {
		e.Requested = e.Size - next()
	}
	if mask&rowPool != 0 {
		e.Pool = trace.Pool(ref())
	}
	if mask&rowLabel != 0 {
		e.Label = &trace.Label{Kind: trace.LabelKind(ref()), Name: ref(), Detail: ref()}
	}
	if mask&rowText != 0 {
		e.Text = ref()
	}
	e.Seq = st.seq + 1
	if mask&rowSeq != 0 {
		e.Seq += int(next())
	}
	if err != nil {
		return err
	}
	if !sc.close(']') {
		return errors.New("more values than its mask says")
	}
	if hasGPU {
		gc := g
		e.GPU = &gc
	}

	st.seq, st.kind, st.line = e.Seq, e.Kind, e.Line
	if e.Segment != 0 {
		st.segment = e.Segment
	}
	if e.Size != 0 {
		st.size = e.Size
	}
	st.stats = e.Stats
	st.hasGPU, st.gpu = hasGPU, g
	return nil
}

// ref reads a string reference: a string (a new table entry) or an index.
func (d *rowDecoder) ref() (string, error) {
	if d.sc.peek() == '"' {
		s, err := d.sc.str()
		if err != nil {
			return "", err
		}
		d.strings = append(d.strings, s)
		return s, nil
	}
	i, err := d.sc.int()
	if err != nil {
		return "", err
	}
	if i < 0 || i >= int64(len(d.strings)) {
		return "", fmt.Errorf("string reference %d, the table has %d", i, len(d.strings))
	}
	return d.strings[i], nil
}

// scanner reads the JSON tokens of rows: punctuation, integers, strings.
type scanner struct {
	b []byte
	i int
}

func (s *scanner) skip() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *scanner) peek() byte {
	s.skip()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// open consumes c or fails.
func (s *scanner) open(c byte) error {
	if s.peek() != c {
		if s.i >= len(s.b) {
			return fmt.Errorf("want %q, the data ends", c)
		}
		return fmt.Errorf("want %q at byte %d, got %q", c, s.i, s.b[s.i])
	}
	s.i++
	return nil
}

// close consumes c if it comes next.
func (s *scanner) close(c byte) bool {
	if s.peek() == c {
		s.i++
		return true
	}
	return false
}

// end reports whether only white space is left.
func (s *scanner) end() bool {
	s.skip()
	return s.i == len(s.b)
}

// int reads an integer (JSON syntax, no fraction or exponent) that fits in
// 64 bits.
func (s *scanner) int() (int64, error) {
	s.skip()
	start := s.i
	neg := false
	if s.i < len(s.b) && s.b[s.i] == '-' {
		neg = true
		s.i++
	}
	digits := s.i
	var u uint64
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		if u > (1<<63)/10 { // u*10+9 cannot wrap; > 1<<63 is caught below
			return 0, fmt.Errorf("integer at byte %d overflows", start)
		}
		u = u*10 + uint64(s.b[s.i]-'0')
		s.i++
	}
	switch {
	case s.i == digits:
		return 0, fmt.Errorf("want an integer at byte %d", start)
	case s.b[digits] == '0' && s.i-digits > 1:
		return 0, fmt.Errorf("integer with a leading zero at byte %d", start)
	case s.i < len(s.b) && (s.b[s.i] == '.' || s.b[s.i] == 'e' || s.b[s.i] == 'E'):
		return 0, fmt.Errorf("want an integer at byte %d, got a fraction or exponent", start)
	case neg && u > 1<<63, !neg && u > 1<<63-1:
		return 0, fmt.Errorf("integer at byte %d overflows", start)
	}
	if neg {
		return int64(-u), nil
	}
	return int64(u), nil
}

// str reads a JSON string.
func (s *scanner) str() (string, error) {
	start := s.i
	plain := true
	for s.i++; s.i < len(s.b); s.i++ {
		switch c := s.b[s.i]; {
		case c == '"':
			s.i++
			raw := s.b[start:s.i]
			if plain && utf8.Valid(raw) {
				return string(raw[1 : len(raw)-1]), nil
			}
			var v string
			if err := json.Unmarshal(raw, &v); err != nil {
				return "", fmt.Errorf("string at byte %d: %w", start, err)
			}
			return v, nil
		case c == '\\':
			plain = false
			s.i++ // the escaped character cannot end the string
		case c < 0x20:
			plain = false // json.Unmarshal rejects it
		}
	}
	return "", fmt.Errorf("string at byte %d does not end", start)
}
