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
//	                 {"type":"rows","v":1,"rows":[[...],...]}
//	                                                   events in the compact row format, version 1
//	                                                   (RowsVersion; rows.go): ~50 bytes an event;
//	                                                   batched: up to MaxBatch events or MaxFrameBytes,
//	                                                   held FlushDelay for more; every message decodes
//	                                                   alone (DecodeRows; web/js/gpustream.js)
//	                 {"type":"done","result":{...}}
//	                 {"type":"error","code":...,"message":...}
//
// A change of the row format bumps RowsVersion; the decoders refuse a
// version they do not know (the page asks the user to reload).
//
// A connection holds at most HandlerOptions.MaxQueuedBytes of events not
// yet sent (32 MiB): a client that reads slower than its job produces them
// gets the job cancelled (error code "slow_client", a *SlowClientError),
// so that one stalled browser holds neither the GPU nor the server's
// memory.
package gpujob
