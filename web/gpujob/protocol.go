package gpujob

import (
	"context"
	"errors"

	"github.com/gpumem/playground/sim/trace"
)

// Message types of the websocket protocol.
const (
	MsgRun    = "run"    // client: run a script
	MsgCancel = "cancel" // client: cancel the job (waiting or running)

	MsgQueued  = "queued"  // server: position in the queue
	MsgStarted = "started" // server: the job got a GPU
	MsgEvent   = "event"   // server: one event
	MsgEvents  = "events"  // server: several events, in order
	MsgDone    = "done"    // server: the job ended; result follows
	MsgError   = "error"   // server: the request or the job failed
)

// Error codes of MsgError, for the page to choose what to show.
const (
	CodeBadRequest = "bad_request" // malformed message, or a second job on one connection
	CodeBusy       = "busy"        // the queue is full
	CodeClosed     = "closed"      // the server is shutting down
	CodeLimit      = "limit"       // a job limit stopped the job
	CodeLeak       = "leak"        // the job did not give the GPU's memory back
	CodeCancelled  = "cancelled"   // the client cancelled the job
	CodeInternal   = "internal"    // the runner failed
)

// ClientMessage is what the browser sends.
type ClientMessage struct {
	Type      string `json:"type"`
	Script    string `json:"script,omitempty"`
	Profile   string `json:"profile,omitempty"`
	AllocConf string `json:"alloc_conf,omitempty"`
}

// ServerMessage is what the server sends; fields not used by Type are empty.
type ServerMessage struct {
	Type     string        `json:"type"`
	Position int           `json:"position,omitempty"` // queued
	Worker   string        `json:"worker,omitempty"`   // started
	Event    *trace.Event  `json:"event,omitempty"`    // event
	Events   []trace.Event `json:"events,omitempty"`   // events
	Result   *Result       `json:"result,omitempty"`   // done
	Code     string        `json:"code,omitempty"`     // error
	Message  string        `json:"message,omitempty"`  // error
}

// errorMessage turns a Submit error into the message the client gets.
func errorMessage(err error) ServerMessage {
	code := CodeInternal
	var (
		limit *LimitError
		leak  *LeakError
	)
	switch {
	case errors.As(err, &leak): // first: a leak is the server's problem even if a limit also hit
		code = CodeLeak
	case errors.As(err, &limit):
		code = CodeLimit
	case errors.Is(err, ErrBusy):
		code = CodeBusy
	case errors.Is(err, ErrClosed):
		code = CodeClosed
	case errors.Is(err, context.Canceled):
		code = CodeCancelled
	}
	return ServerMessage{Type: MsgError, Code: code, Message: err.Error()}
}
