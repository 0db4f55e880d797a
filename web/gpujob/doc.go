// Package gpujob runs playground scripts on a server's GPUs for many users:
// a queue with one slot per GPU and the waiting user's position, per-job
// limits, cancellation when the browser goes away, a check after every job
// that the GPU got every byte back, and the websocket protocol that streams
// a job's events to the browser.
//
// It does not depend on CUDA: a Runner executes a job (the real one wraps
// package gpu's Device and the interpreter; tests use ReplayRunner, which
// replays an event stream recorded on an H100, testdata/h100-stream.json).
//
// Protocol (JSON text messages; see protocol.go):
//
//	client → server  {"type":"run","script":...,"profile":...,"alloc_conf":...}
//	                 {"type":"cancel"}
//	server → client  {"type":"queued","position":N}     N = 1 is next; sent again when it changes
//	                 {"type":"started","worker":"GPU 0"}
//	                 {"type":"events","events":[...]}  (or "event" with one "event")
//	                                                   batched: up to MaxBatch events or MaxFrameBytes,
//	                                                   held FlushDelay for more; written by trace.AppendJSON
//	                 {"type":"done","result":{...}}
//	                 {"type":"error","code":...,"message":...}
package gpujob
