package gpujob

import (
	"context"
	"encoding/json"
	"errors"
)

// Message types of the websocket protocol.
const (
	MsgRun    = "run"    // client: run a script
	MsgCancel = "cancel" // client: cancel the job (waiting or running)

	MsgQueued  = "queued"  // server: position in the queue
	MsgStarted = "started" // server: the job got a GPU
	MsgRows    = "rows"    // server: events, in order, in the compact row format (rows.go)
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
	CodeSlow       = "slow_client" // the client did not read the event stream fast enough
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
	Type     string `json:"type"`
	Position int    `json:"position,omitempty"` // queued
	Worker   string `json:"worker,omitempty"`   // started
	Version  int    `json:"v,omitempty"`        // rows: the format's version, RowsVersion
	// Rows are the events of a rows message (JSON array, rows.go);
	// DecodeEvents turns them into trace.Events.
	Rows    json.RawMessage `json:"rows,omitempty"`
	Result  *Result         `json:"result,omitempty"`  // done
	Code    string          `json:"code,omitempty"`    // error
	Message string          `json:"message,omitempty"` // error
}

// errorMessage turns a Submit error into the message the client gets.
func errorMessage(err error) ServerMessage {
	code := CodeInternal
	var (
		limit *LimitError
		leak  *LeakError
		slow  *SlowClientError
	)
	switch {
	case errors.As(err, &leak): // first: a leak is the server's problem even if a limit also hit
		code = CodeLeak
	case errors.As(err, &slow): // before cancelled: it cancelled the job
		code = CodeSlow
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
