package bridge

import (
	"github.com/gpumem/playground/sim"
	"github.com/gpumem/playground/sim/trace"
)

// Request is the JSON the page sends to playgroundRun: the whole state that a
// share link also carries.
type Request struct {
	Script    string `json:"script"`
	Profile   string `json:"profile,omitempty"`   // "" means the default profile
	AllocConf string `json:"allocConf,omitempty"` // PYTORCH_CUDA_ALLOC_CONF value
	Filename  string `json:"filename,omitempty"`  // "" means "<script>"
}

// ScriptError is sim.ScriptError with JSON names, for the page's error view.
type ScriptError struct {
	Type      string `json:"type"`
	Message   string `json:"message"`
	Traceback string `json:"traceback"`
	Line      int    `json:"line"`
	Col       int    `json:"col,omitempty"`
}

// Response is what playgroundRun resolves to. HostError is set when the run
// could not start (bad profile, bad allocator setting, malformed request,
// simulator not ready); Error when the script raised.
type Response struct {
	Version   string        `json:"version"`
	Stdout    string        `json:"stdout"`
	Error     *ScriptError  `json:"error,omitempty"`
	HostError string        `json:"hostError,omitempty"`
	Events    []trace.Event `json:"events"`
}

// simRequest turns the page's request into the simulator's.
func (r Request) simRequest() sim.Request {
	return sim.Request{
		Script:    r.Script,
		Filename:  r.Filename,
		Profile:   r.Profile,
		AllocConf: r.AllocConf,
		Env:       map[string]string{},
		NoGolden:  true, // the page does not read the harness's record
	}
}

// fromScriptError converts the simulator's error, keeping nil as nil.
func fromScriptError(e *sim.ScriptError) *ScriptError {
	if e == nil {
		return nil
	}
	return &ScriptError{Type: e.Type, Message: e.Message, Traceback: e.Traceback, Line: e.Line, Col: e.Col}
}
