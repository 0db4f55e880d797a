// Package pickle reads and writes Python pickles of plain data. It exports
// allocator snapshots in the format torch.cuda.memory._dump_snapshot()
// writes (a dict with keys segments, device_traces, allocator_settings,
// external_annotations) so pytorch.org/memory_viz can open them, and imports
// users' real snapshot pickles.
//
// # Values
//
// Python values are represented by these Go types: None nil, bool bool, int
// int64 (or *big.Int beyond 64 bits), float float64, str string, bytes
// []byte, list []any, tuple Tuple, dict *Dict (insertion-ordered), set and
// frozenset *Set. Anything else in a pickle (class instances, GLOBAL
// references other than the builtins CPython uses for sets and bytes,
// persistent ids) is rejected: a snapshot is plain data.
//
// # Writing
//
// Marshal and Encoder write protocol 2 by default (3 and 4 on request; never
// 5). Output is deterministic and, for memo-free values, byte-identical to
// pickletools.optimize(pickle.dumps(v, protocol)) of CPython 3.11: same
// opcodes, same batching (1000 items per APPENDS/SETITEMS/ADDITEMS), same
// protocol 4 framing. No memo opcodes are written, so values shared in Go
// are written once per reference (a cyclic value fails with MaxDepth).
//
//	Go value            opcodes written
//	nil                 NONE
//	bool                NEWTRUE, NEWFALSE
//	int (fits 64 bits)  BININT1 (0..255), BININT2 (..65535), BININT (32-bit),
//	                    LONG1 (minimal two's complement, e.g. addresses)
//	*big.Int            LONG1, or LONG4 beyond 255 bytes
//	float               BINFLOAT
//	string              BINUNICODE; SHORT_BINUNICODE (<256 bytes) and
//	                    BINUNICODE8 (>4 GiB) in protocol 4
//	[]any, slices       EMPTY_LIST + APPEND (one item) or MARK..APPENDS
//	Tuple               EMPTY_TUPLE, TUPLE1..TUPLE3, or MARK..TUPLE
//	*Dict, map[string]  EMPTY_DICT + SETITEM (one pair) or MARK..SETITEMS
//	[]byte              protocol 2: GLOBAL _codecs.encode + REDUCE (bytes()
//	                    when empty); 3+: SHORT_BINBYTES, BINBYTES, BINBYTES8
//	ByteArray           GLOBAL/STACK_GLOBAL builtins.bytearray + REDUCE
//	*Set                protocol 2/3: GLOBAL builtins.set/frozenset + list +
//	                    TUPLE1 + REDUCE; 4: EMPTY_SET + MARK..ADDITEMS,
//	                    MARK..FROZENSET
//	(framing)           PROTO first; FRAME in protocol 4; STOP last
//
// memory_viz compatibility: the unpickler in PyTorch's
// torch/utils/viz/MemoryViz.js accepts PROTO 2 to 4 and implements exactly
// PROTO, FRAME, STOP, MARK, NONE, NEWTRUE, NEWFALSE, BININT, BININT1,
// BININT2, LONG1, BINFLOAT, BINUNICODE, SHORT_BINUNICODE, EMPTY_LIST,
// EMPTY_DICT, EMPTY_TUPLE, LIST, DICT, APPEND, APPENDS, SETITEM, SETITEMS,
// TUPLE, TUPLE1, TUPLE2, TUPLE3, BINPUT, LONG_BINPUT, MEMOIZE, BINGET and
// LONG_BINGET. Every opcode this package writes for None, bool, int (up to
// 255 bytes), float, str, list, tuple and dict is in that set, in protocols
// 2, 3 and 4 (TestMemoryVizOpcodes checks it). bytes, bytearray and sets have
// no opcode there at any protocol: snapshots never contain them. LONG1 of up
// to 8 bytes becomes a JS Number (exact below 2^53: every real address).
//
// # Reading
//
// Unmarshal, UnmarshalLimits and Decoder read protocols 2 to 5: everything
// CPython's pickle.dumps emits for plain data. The input must start with
// PROTO and be exactly one pickle (bytes after STOP are an error).
//
//	accepted   PROTO, FRAME, STOP, MARK, POP, POP_MARK, NONE, NEWTRUE,
//	           NEWFALSE, BININT, BININT1, BININT2, LONG1, LONG4, BINFLOAT,
//	           SHORT_BINUNICODE, BINUNICODE, BINUNICODE8, SHORT_BINBYTES,
//	           BINBYTES, BINBYTES8, BYTEARRAY8, EMPTY_LIST, EMPTY_TUPLE,
//	           EMPTY_DICT, EMPTY_SET, LIST, TUPLE, TUPLE1..3, DICT, APPEND,
//	           APPENDS, SETITEM, SETITEMS, ADDITEMS, FROZENSET, BINPUT,
//	           LONG_BINPUT, MEMOIZE, BINGET, LONG_BINGET
//	restricted GLOBAL, STACK_GLOBAL, REDUCE: only builtins.set, frozenset,
//	           bytes, bytearray (also as __builtin__.*) and _codecs.encode
//	           with "latin1", called by REDUCE with the arguments CPython
//	           writes for sets and bytes in protocols 2 and 3
//	rejected   other globals, BUILD, INST, OBJ, NEWOBJ, NEWOBJ_EX, EXT1/2/4,
//	           PERSID, BINPERSID (ErrNotPlainData: "snapshot pickles contain
//	           only plain data; found a reference to module.name");
//	           protocol 0/1 text opcodes INT, LONG, FLOAT, STRING, UNICODE,
//	           PUT, GET, DUP and Python 2 BINSTRING/SHORT_BINSTRING, pickles
//	           without PROTO, NEXT_BUFFER/READONLY_BUFFER (ErrUnsupported)
//
// Decoded values use the types in the table below (from value.go), plus *Set
// for set and frozenset and ByteArray for bytearray. Memo-shared containers decode to
// one shared Go value (one *Dict, or []any slices sharing a backing array);
// self-containing values are rejected. Every error is a *DecodeError naming
// the opcode and byte offset and wrapping one of ErrTruncated, ErrMalformed,
// ErrUnsupported, ErrNotPlainData, ErrUnhashable or ErrLimit.
//
// Safety: no input panics or hangs (FuzzUnmarshal). Length fields are checked
// against the remaining input before anything is allocated, memo indexes
// never size an allocation, Limits.MaxDepth bounds nesting, Limits.MaxBytes
// bounds the estimated memory of the result, and memo sharing costs no
// expansion (a 60-level doubling DAG decodes in microseconds); hashing a
// shared tuple used as a dict key is bounded by 1 MiB per key.
//
// What a real snapshot contains: torch builds the _snapshot() dict from
// Python dicts, lists, str, int, bool, float and the segment_pool_id tuple
// (frames are dicts of name/filename/line, shared between entries), and
// _dump_snapshot() writes it with pickle.dump at the default protocol (4 up
// to Python 3.13, 5 from 3.14). So every real snapshot decodes here; only the
// memo opcodes exercise sharing.
//
// Equality of keys follows Go for scalars: Python treats 1, 1.0 and True as
// one dict key, this package keeps them apart (CPython never writes such
// duplicates, so only hand-made pickles differ).
package pickle
