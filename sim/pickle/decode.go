package pickle

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
)

// plist is a list under construction: lists are memoized before their items
// are appended, so the decoder needs a pointer that APPENDS can extend.
type plist struct {
	items  []any
	shared bool // fetched from the memo at least once
}

// ptuple is a tuple during decoding; the pointer lets a tuple referenced many
// times through the memo be converted once.
type ptuple struct {
	items  []any
	shared bool
}

// Unmarshal decodes one pickle (protocol 2 to 5) of plain data using the
// default Limits. The whole input must be a single pickle: bytes after STOP
// are an error. See the package documentation for the accepted opcodes.
func Unmarshal(data []byte) (any, error) { return UnmarshalLimits(data, Limits{}) }

// UnmarshalLimits is Unmarshal with explicit resource limits.
func UnmarshalLimits(data []byte, lim Limits) (any, error) {
	lim = lim.withDefaults()
	d := &decoder{data: data, lim: lim, budget: budget{left: lim.MaxBytes}}
	v, err := d.run()
	if err != nil {
		return nil, err
	}
	return d.finish(v)
}

// Decoder reads a pickle from a stream.
type Decoder struct {
	r io.Reader
	// Limits bounds the decode; the input itself may be at most
	// Limits.MaxBytes long.
	Limits Limits
}

// NewDecoder returns a decoder reading from r with default Limits.
func NewDecoder(r io.Reader) *Decoder { return &Decoder{r: r} }

// Decode reads r to its end and decodes it as one pickle.
func (dec *Decoder) Decode() (any, error) {
	if dec.r == nil {
		return nil, errors.New("pickle: Decoder has no reader (use NewDecoder)")
	}
	lim := dec.Limits.withDefaults()
	data, err := io.ReadAll(io.LimitReader(dec.r, lim.MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("pickle: read input: %w", err)
	}
	if int64(len(data)) > lim.MaxBytes {
		return nil, &DecodeError{Offset: -1, Kind: ErrLimit, Msg: fmt.Sprintf("input longer than MaxBytes (%d)", lim.MaxBytes)}
	}
	return UnmarshalLimits(data, lim)
}

// decoder is the state of one Unmarshal call.
type decoder struct {
	data    []byte
	pos     int // next byte to read
	op      byte
	opPos   int // offset of the opcode being executed
	stack   []any
	marks   []int
	memo    memo
	lim     Limits
	budget  budget
	shared  map[any]bool // dicts and sets fetched from the memo
	strings map[string]string
}

// fail builds a DecodeError for the current opcode.
func (d *decoder) fail(kind error, format string, args ...any) error {
	return &DecodeError{Offset: d.opPos, Op: opName(d.op), Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// wrap turns an error from a helper (a kindError) into a DecodeError.
func (d *decoder) wrap(err error) error {
	var ke *kindError
	if errors.As(err, &ke) {
		return d.fail(ke.kind, "%s", ke.msg)
	}
	return d.fail(ErrMalformed, "%v", err)
}

// charge takes n bytes of MaxBytes or fails with ErrLimit.
func (d *decoder) charge(n int64) error {
	if !d.budget.take(n) {
		return d.fail(ErrLimit, "decoded value exceeds MaxBytes (%d)", d.lim.MaxBytes)
	}
	return nil
}

// read returns the next n bytes of input (n already validated as int).
func (d *decoder) read(n int) ([]byte, error) {
	if n < 0 || n > len(d.data)-d.pos {
		return nil, d.fail(ErrTruncated, "needs %d bytes, %d left", n, len(d.data)-d.pos)
	}
	b := d.data[d.pos : d.pos+n]
	d.pos += n
	return b, nil
}

// readLen reads a little-endian length field of size bytes and checks the
// payload it announces fits in the remaining input before anything is
// allocated for it.
func (d *decoder) readLen(size int) (int, error) {
	b, err := d.read(size)
	if err != nil {
		return 0, err
	}
	var n uint64
	switch size {
	case 1:
		n = uint64(b[0])
	case 4:
		n = uint64(binary.LittleEndian.Uint32(b))
	case 8:
		n = binary.LittleEndian.Uint64(b)
	}
	if left := uint64(len(d.data) - d.pos); n > left {
		return 0, d.fail(ErrTruncated, "length %d exceeds the %d bytes left", n, left)
	}
	return int(n), nil
}

// fence is the stack height below which pops must not reach (the last MARK).
func (d *decoder) fence() int {
	if len(d.marks) == 0 {
		return 0
	}
	return d.marks[len(d.marks)-1]
}

// push puts v on the stack.
func (d *decoder) push(v any) error {
	if err := d.charge(costSlot); err != nil {
		return err
	}
	d.stack = append(d.stack, v)
	return nil
}

// pop removes the top of the stack, never crossing the last MARK.
func (d *decoder) pop() (any, error) {
	if len(d.stack) <= d.fence() {
		return nil, d.fail(ErrMalformed, "stack underflow")
	}
	v := d.stack[len(d.stack)-1]
	d.stack = d.stack[:len(d.stack)-1]
	return v, nil
}

// top returns the top of the stack without removing it.
func (d *decoder) top() (any, error) {
	if len(d.stack) <= d.fence() {
		return nil, d.fail(ErrMalformed, "stack underflow")
	}
	return d.stack[len(d.stack)-1], nil
}

// popMark removes the last MARK and returns a copy of the items above it.
func (d *decoder) popMark() ([]any, error) {
	view, err := d.popMarkView()
	if err != nil {
		return nil, err
	}
	items := make([]any, len(view))
	copy(items, view)
	clear(view)
	return items, nil
}

// popMarkView removes the last MARK and the items above it, returning them
// as a view of the stack's spare capacity: valid only until the next push.
// The caller clears the view when done so the stack does not pin values.
func (d *decoder) popMarkView() ([]any, error) {
	if len(d.marks) == 0 {
		return nil, d.fail(ErrMalformed, "no MARK on the stack")
	}
	m := d.marks[len(d.marks)-1]
	d.marks = d.marks[:len(d.marks)-1]
	view := d.stack[m:]
	d.stack = d.stack[:m]
	return view, nil
}

// run executes opcodes until STOP and returns the raw result.
func (d *decoder) run() (any, error) {
	if len(d.data) == 0 {
		d.opPos = 0
		return nil, d.fail(ErrTruncated, "empty input")
	}
	if d.data[0] != opProto {
		d.op, d.opPos = d.data[0], 0
		return nil, d.fail(ErrUnsupported, "no PROTO opcode: protocol 0 and 1 pickles are not supported (need protocol 2 to 5)")
	}
	for {
		if d.pos >= len(d.data) {
			d.opPos, d.op = d.pos, opStop
			return nil, d.fail(ErrTruncated, "input ended before STOP")
		}
		d.opPos = d.pos
		d.op = d.data[d.pos]
		d.pos++
		if d.op == opStop {
			return d.stop()
		}
		if err := d.step(); err != nil {
			return nil, err
		}
	}
}

// stop checks the state at STOP and returns the single result.
func (d *decoder) stop() (any, error) {
	if len(d.marks) != 0 {
		return nil, d.fail(ErrMalformed, "%d unclosed MARK(s) at STOP", len(d.marks))
	}
	if len(d.stack) != 1 {
		return nil, d.fail(ErrMalformed, "%d values on the stack at STOP, want 1", len(d.stack))
	}
	if rest := len(d.data) - d.pos; rest > 0 {
		return nil, d.fail(ErrMalformed, "%d bytes of trailing data after STOP", rest)
	}
	return d.stack[0], nil
}

// step executes the opcode d.op.
func (d *decoder) step() error {
	switch d.op {
	case opProto:
		b, err := d.read(1)
		if err != nil {
			return err
		}
		if b[0] < 2 || b[0] > 5 {
			return d.fail(ErrUnsupported, "protocol %d (need 2 to 5)", b[0])
		}
		return nil
	case opFrame:
		_, err := d.readLen(8) // frames only group opcodes; check the length is sane
		return err
	case opMark:
		if err := d.charge(costSlot); err != nil {
			return err
		}
		d.marks = append(d.marks, len(d.stack))
		return nil
	case opPop:
		if len(d.stack) > d.fence() {
			_, err := d.pop()
			return err
		}
		_, err := d.popMark() // CPython: POP with nothing above a MARK discards the MARK
		return err
	case opPopMark:
		_, err := d.popMark()
		return err
	case opNone:
		return d.push(nil)
	case opNewTrue:
		return d.push(true)
	case opNewFalse:
		return d.push(false)
	case opBinInt, opBinInt1, opBinInt2, opLong1, opLong4:
		return d.loadInt()
	case opBinFloat:
		b, err := d.read(8)
		if err != nil {
			return err
		}
		return d.pushScalar(math.Float64frombits(binary.BigEndian.Uint64(b)))
	case opShortBinUnicode, opBinUnicode, opBinUnicode8:
		return d.loadString()
	case opShortBinBytes, opBinBytes, opBinBytes8, opByteArray8:
		return d.loadBytes()
	case opEmptyList, opEmptyTuple, opEmptyDict, opEmptySet:
		return d.loadEmpty()
	case opList, opTuple, opDict, opFrozenSet:
		return d.loadFromMark()
	case opTuple1, opTuple2, opTuple3:
		return d.loadSmallTuple()
	case opAppend, opAppends:
		return d.loadAppend()
	case opSetItem, opSetItems:
		return d.loadSetItems()
	case opAddItems:
		return d.loadAddItems()
	case opBinPut, opLongBinPut, opMemoize:
		return d.loadPut()
	case opBinGet, opLongBinGet:
		return d.loadGet()
	case opGlobal, opStackGlobal:
		return d.loadGlobal()
	case opReduce:
		return d.loadReduce()
	}
	return d.rejectOpcode()
}

// rejectOpcode explains why an opcode outside the accepted set is refused.
func (d *decoder) rejectOpcode() error {
	switch d.op {
	case opInt, opLong, opFloat, opString, opUnicode, opPut, opGet, opDup:
		return d.fail(ErrUnsupported, "protocol 0 text opcode (need protocol 2 to 5)")
	case opBinString, opShortBinString:
		return d.fail(ErrUnsupported, "Python 2 byte string (need a Python 3 pickle, protocol 2 to 5)")
	case opBuild, opInst, opObj, opNewObj, opNewObjEx, opExt1, opExt2, opExt4:
		return d.fail(ErrNotPlainData, "snapshot pickles contain only plain data; found a class instance")
	case opPersID, opBinPersID:
		return d.fail(ErrNotPlainData, "snapshot pickles contain only plain data; found a persistent id")
	case opNextBuffer, opReadOnlyBuffer:
		return d.fail(ErrUnsupported, "out-of-band buffers are not supported")
	}
	return d.fail(ErrMalformed, "invalid opcode byte 0x%s", hexByte(d.op))
}

// pushScalar pushes a number or other fixed-size value.
func (d *decoder) pushScalar(v any) error {
	if err := d.charge(costScalar); err != nil {
		return err
	}
	return d.push(v)
}

// loadInt handles BININT, BININT1, BININT2, LONG1 and LONG4.
func (d *decoder) loadInt() error {
	switch d.op {
	case opBinInt1:
		b, err := d.read(1)
		if err != nil {
			return err
		}
		return d.pushScalar(int64(b[0]))
	case opBinInt2:
		b, err := d.read(2)
		if err != nil {
			return err
		}
		return d.pushScalar(int64(binary.LittleEndian.Uint16(b)))
	case opBinInt:
		b, err := d.read(4)
		if err != nil {
			return err
		}
		return d.pushScalar(int64(int32(binary.LittleEndian.Uint32(b))))
	}
	var n int
	if d.op == opLong1 {
		b, err := d.read(1)
		if err != nil {
			return err
		}
		n = int(b[0])
	} else {
		b, err := d.read(4)
		if err != nil {
			return err
		}
		s := int32(binary.LittleEndian.Uint32(b))
		if s < 0 {
			return d.fail(ErrMalformed, "LONG4 with negative byte count %d", s)
		}
		n = int(s)
	}
	b, err := d.read(n)
	if err != nil {
		return err
	}
	if n <= 8 {
		return d.pushScalar(decodeSmallLong(b))
	}
	if err := d.charge(costBigInt + int64(n)); err != nil {
		return err
	}
	return d.push(normalizeInt(decodeLong(b)))
}

// decodeSmallLong decodes up to 8 bytes of little-endian two's complement.
func decodeSmallLong(b []byte) int64 {
	if len(b) == 0 {
		return 0
	}
	var u uint64
	for i := len(b) - 1; i >= 0; i-- {
		u = u<<8 | uint64(b[i])
	}
	shift := uint(64 - 8*len(b))
	return int64(u<<shift) >> shift // sign-extend
}

// decodeLong decodes little-endian two's complement of any length.
func decodeLong(b []byte) *big.Int {
	be := make([]byte, len(b))
	for i, c := range b {
		be[len(b)-1-i] = c
	}
	x := new(big.Int).SetBytes(be)
	if len(b) > 0 && b[len(b)-1]&0x80 != 0 {
		x.Sub(x, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
	}
	return x
}

// normalizeInt returns x as int64 when it fits, so callers see one type for
// every int that fits in 64 bits.
func normalizeInt(x *big.Int) any {
	if x.IsInt64() {
		return x.Int64()
	}
	return x
}

// loadString handles SHORT_BINUNICODE, BINUNICODE and BINUNICODE8.
func (d *decoder) loadString() error {
	n, err := d.readLen(lengthFieldSize(d.op))
	if err != nil {
		return err
	}
	if err := d.charge(costString + int64(n)); err != nil {
		return err
	}
	b, _ := d.read(n)
	if !validPyUTF8(b) {
		return d.fail(ErrMalformed, "string is not valid UTF-8")
	}
	return d.push(d.intern(b))
}

// lengthFieldSize is the size of the length field of a string or bytes opcode.
func lengthFieldSize(op byte) int {
	switch op {
	case opShortBinUnicode, opShortBinBytes:
		return 1
	case opBinUnicode, opBinBytes:
		return 4
	}
	return 8
}

// maxIntern is the longest string the decoder interns: dict keys and enum
// values like "action" or "active_allocated" repeat thousands of times in a
// snapshot written without memo sharing.
const maxIntern = 64

// intern returns b as a string, reusing an earlier copy for short strings.
func (d *decoder) intern(b []byte) string {
	if len(b) > maxIntern {
		return string(b)
	}
	if s, ok := d.strings[string(b)]; ok {
		return s
	}
	if d.strings == nil {
		d.strings = make(map[string]string)
	}
	s := string(b)
	d.strings[s] = s
	return s
}

// loadBytes handles SHORT_BINBYTES, BINBYTES, BINBYTES8 and BYTEARRAY8.
func (d *decoder) loadBytes() error {
	n, err := d.readLen(lengthFieldSize(d.op))
	if err != nil {
		return err
	}
	if err := d.charge(costBytes + int64(n)); err != nil {
		return err
	}
	b, _ := d.read(n)
	c := make([]byte, n)
	copy(c, b)
	if d.op == opByteArray8 {
		return d.push(ByteArray(c))
	}
	return d.push(c)
}

// loadEmpty handles EMPTY_LIST, EMPTY_TUPLE, EMPTY_DICT and EMPTY_SET.
func (d *decoder) loadEmpty() error {
	if err := d.charge(costContainer); err != nil {
		return err
	}
	switch d.op {
	case opEmptyList:
		return d.push(&plist{})
	case opEmptyTuple:
		return d.push(&ptuple{})
	case opEmptyDict:
		return d.push(NewDict())
	}
	return d.push(NewSet(false))
}

// loadFromMark handles LIST, TUPLE, DICT and FROZENSET.
func (d *decoder) loadFromMark() error {
	items, err := d.popMark()
	if err != nil {
		return err
	}
	if err := d.charge(costContainer); err != nil {
		return err
	}
	switch d.op {
	case opList:
		return d.push(&plist{items: items})
	case opTuple:
		return d.push(&ptuple{items: items})
	case opDict:
		dict := NewDict()
		if err := d.setItems(dict, items); err != nil {
			return err
		}
		return d.push(dict)
	}
	s := NewSet(true)
	if err := d.addItems(s, items); err != nil {
		return err
	}
	return d.push(s)
}

// loadSmallTuple handles TUPLE1, TUPLE2 and TUPLE3.
func (d *decoder) loadSmallTuple() error {
	n := int(d.op-opTuple1) + 1
	if len(d.stack)-d.fence() < n {
		return d.fail(ErrMalformed, "stack underflow")
	}
	if err := d.charge(costContainer); err != nil {
		return err
	}
	items := make([]any, n)
	copy(items, d.stack[len(d.stack)-n:])
	clear(d.stack[len(d.stack)-n:])
	d.stack = d.stack[:len(d.stack)-n]
	return d.push(&ptuple{items: items})
}

// containerBelowMark pops the last MARK's items and returns them (as a
// popMarkView) with the object just below the MARK (the target of APPENDS,
// SETITEMS, ADDITEMS).
func (d *decoder) containerBelowMark() (any, []any, error) {
	items, err := d.popMarkView()
	if err != nil {
		return nil, nil, err
	}
	t, err := d.top()
	if err != nil {
		return nil, nil, err
	}
	return t, items, nil
}

// loadAppend handles APPEND and APPENDS.
func (d *decoder) loadAppend() error {
	var target any
	var items []any
	var err error
	if d.op == opAppend {
		v, err := d.pop()
		if err != nil {
			return err
		}
		items = []any{v}
		target, err = d.top()
		if err != nil {
			return err
		}
	} else if target, items, err = d.containerBelowMark(); err != nil {
		return err
	}
	l, ok := target.(*plist)
	if !ok {
		return d.fail(ErrNotPlainData, "append to a %s, not a list", pyTypeName(target))
	}
	if err := d.charge(costSlot * int64(len(items))); err != nil {
		return err
	}
	if l.items == nil {
		l.items = make([]any, 0, len(items))
	}
	l.items = append(l.items, items...)
	clear(items)
	return nil
}

// loadSetItems handles SETITEM and SETITEMS.
func (d *decoder) loadSetItems() error {
	var target any
	var items []any
	if d.op == opSetItem {
		v, err := d.pop()
		if err != nil {
			return err
		}
		k, err := d.pop()
		if err != nil {
			return err
		}
		items = []any{k, v}
		if target, err = d.top(); err != nil {
			return err
		}
	} else {
		var err error
		if target, items, err = d.containerBelowMark(); err != nil {
			return err
		}
	}
	dict, ok := target.(*Dict)
	if !ok {
		return d.fail(ErrNotPlainData, "set items on a %s, not a dict", pyTypeName(target))
	}
	err := d.setItems(dict, items)
	clear(items)
	return err
}

// setItems adds key/value pairs to dict, checking keys are hashable.
func (d *decoder) setItems(dict *Dict, kv []any) error {
	if len(kv)%2 != 0 {
		return d.fail(ErrMalformed, "odd number of items (%d) for a dict", len(kv))
	}
	n := len(kv) / 2
	if err := d.charge(costMapEntry * int64(n)); err != nil {
		return err
	}
	if len(dict.Keys) == 0 && n > 1 {
		dict.index = make(map[any]int, n)
		dict.Keys = make([]any, 0, n)
		dict.Values = make([]any, 0, n)
	}
	for i := 0; i < len(kv); i += 2 {
		h, err := hashKey(kv[i], &d.budget, d.lim.MaxDepth)
		if err != nil {
			return d.wrap(err)
		}
		dict.setHashed(h, kv[i], kv[i+1])
	}
	return nil
}

// loadAddItems handles ADDITEMS.
func (d *decoder) loadAddItems() error {
	target, items, err := d.containerBelowMark()
	if err != nil {
		return err
	}
	s, ok := target.(*Set)
	if !ok || s.Frozen {
		return d.fail(ErrNotPlainData, "add items to a %s, not a set", pyTypeName(target))
	}
	err = d.addItems(s, items)
	clear(items)
	return err
}

// addItems adds items to s, checking they are hashable.
func (d *decoder) addItems(s *Set, items []any) error {
	if err := d.charge(costMapEntry * int64(len(items))); err != nil {
		return err
	}
	for _, it := range items {
		h, err := hashKey(it, &d.budget, d.lim.MaxDepth)
		if err != nil {
			return d.wrap(err)
		}
		s.addHashed(h, it)
	}
	return nil
}

// loadPut handles BINPUT, LONG_BINPUT and MEMOIZE.
func (d *decoder) loadPut() error {
	var idx uint64
	switch d.op {
	case opBinPut:
		b, err := d.read(1)
		if err != nil {
			return err
		}
		idx = uint64(b[0])
	case opLongBinPut:
		b, err := d.read(4)
		if err != nil {
			return err
		}
		idx = uint64(binary.LittleEndian.Uint32(b))
	default:
		idx = d.memo.size()
	}
	v, err := d.top()
	if err != nil {
		return err
	}
	if err := d.charge(costMapEntry); err != nil {
		return err
	}
	d.memo.put(idx, v)
	return nil
}

// loadGet handles BINGET and LONG_BINGET.
func (d *decoder) loadGet() error {
	var idx uint64
	if d.op == opBinGet {
		b, err := d.read(1)
		if err != nil {
			return err
		}
		idx = uint64(b[0])
	} else {
		b, err := d.read(4)
		if err != nil {
			return err
		}
		idx = uint64(binary.LittleEndian.Uint32(b))
	}
	v, ok := d.memo.get(idx)
	if !ok {
		return d.fail(ErrMalformed, "memo key %d not found", idx)
	}
	d.markShared(v)
	return d.push(v)
}

// markShared records that container v is referenced more than once, so the
// final conversion handles it once and detects cycles through it.
func (d *decoder) markShared(v any) {
	switch x := v.(type) {
	case *plist:
		x.shared = true
	case *ptuple:
		x.shared = true
	case *Dict, *Set:
		if d.shared == nil {
			d.shared = make(map[any]bool)
		}
		d.shared[x] = true
	}
}
