package bridge

import (
	"context"
	"fmt"

	"github.com/gpumem/playground/sim"
	"github.com/gpumem/playground/sim/trace"
)

// Run decodes a Request from raw, runs it, and returns the encoded Response.
// It never fails: every problem becomes Response.HostError, so the page has
// exactly one shape to handle.
func Run(ctx context.Context, raw []byte) []byte {
	req, err := decodeRequest(raw)
	if err != nil {
		return encode(Response{Version: sim.Version, HostError: fmt.Sprintf("bad request: %v", err)})
	}
	return encode(RunRequest(ctx, req))
}

// RunRequest runs one decoded request; Run is this plus JSON.
func RunRequest(ctx context.Context, req Request) (resp Response) {
	resp = Response{Version: sim.Version, Events: []trace.Event{}}
	defer func() {
		// The simulator must not panic; if it does, the page shows it as a
		// host error instead of the wasm module dying with it.
		if p := recover(); p != nil {
			resp = Response{Version: sim.Version, Events: []trace.Event{}, HostError: fmt.Sprintf("simulator crashed: %v", p)}
		}
	}()
	res, err := sim.Run(ctx, req.simRequest(), nil)
	if err != nil {
		resp.HostError = err.Error()
		return resp
	}
	if res == nil {
		resp.HostError = "simulator returned no result"
		return resp
	}
	resp.Stdout = res.Stdout
	resp.Error = fromScriptError(res.Error)
	if res.Events != nil {
		resp.Events = res.Events
	}
	return resp
}

// encode returns r as JSON.
func encode(r Response) []byte { return appendResponse(nil, r) }
