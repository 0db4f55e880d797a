package gpujob

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// frames builds the connection's outgoing text messages in one reused
// buffer. Events go out as MsgRows messages (rows.go's compact format),
// written by hand: a steady stream allocates nothing per event. The rare
// other messages go through encoding/json.
type frames struct {
	buf       []byte
	rows      rowEncoder
	maxEvents int // events per frame
	maxBytes  int // a frame is closed once it is this long
}

// rowsPrefix starts a MsgRows message, as encoding/json writes
// ServerMessage{Type: MsgRows, Version: RowsVersion, Rows: ...}.
var rowsPrefix = `{"type":"` + MsgRows + `","v":` + strconv.Itoa(RowsVersion) + `,"rows":[`

// appendEvents encodes events from the start of evs into one MsgRows
// message until it holds maxEvents events or maxBytes bytes (at least one
// event, whatever the limits); it returns the message (valid until the
// next call) and how many events it took.
func (f *frames) appendEvents(evs []outItem) ([]byte, int) {
	b := append(f.buf[:0], rowsPrefix...)
	f.rows.start()
	n := 0
	for n < len(evs) && evs[n].msg == nil && (n == 0 || n < f.maxEvents && len(b) < f.maxBytes) {
		if n > 0 {
			b = append(b, ',')
		}
		b = f.rows.appendRow(b, &evs[n].ev)
		n++
	}
	b = append(b, ']', '}')
	f.buf = b
	return b, n
}

// message encodes one message that is not a batch of events.
func (f *frames) message(m *ServerMessage) ([]byte, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("gpujob: encoding a %q message: %w", m.Type, err)
	}
	return b, nil
}
