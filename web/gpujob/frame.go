package gpujob

import (
	"encoding/json"
	"fmt"

	"github.com/gpumem/playground/sim/trace"
)

// frames builds the connection's outgoing text messages in one reused
// buffer. Events are written by trace.AppendJSON, the stream's one encoder
// (byte for byte what encoding/json writes for ServerMessage, without its
// reflection per event): a steady stream allocates nothing per event.
// The rare other messages go through encoding/json.
type frames struct {
	buf       []byte
	single    []byte // the one-event form of a frame that got only one
	maxEvents int    // events per frame
	maxBytes  int    // a frame is closed once it is this long
}

const eventsPrefix = `{"type":"events","events":[`

// appendEvents encodes events from the start of evs into one frame until
// the frame holds maxEvents events or maxBytes bytes; it returns the frame
// (valid until the next call) and how many events it took. A frame of one
// event is a MsgEvent message, of more a MsgEvents message.
func (f *frames) appendEvents(evs []outItem) ([]byte, int) {
	b := append(f.buf[:0], eventsPrefix...)
	n := 0
	for n < len(evs) && evs[n].msg == nil && n < f.maxEvents && len(b) < f.maxBytes {
		if n > 0 {
			b = append(b, ',')
		}
		b = trace.AppendJSON(b, &evs[n].ev)
		n++
	}
	b = append(b, ']', '}')
	f.buf = b
	if n == 1 {
		s := append(f.single[:0], `{"type":"event","event":`...)
		s = append(s, b[len(eventsPrefix):len(b)-2]...)
		f.single = append(s, '}')
		return f.single, 1
	}
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
