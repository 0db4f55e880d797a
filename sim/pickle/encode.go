package pickle

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strconv"
)

// DefaultProtocol is the protocol Marshal writes: the oldest one with binary
// opcodes, and the one whose opcodes pytorch.org/memory_viz reads for every
// snapshot value (see the package documentation).
const DefaultProtocol = 2

// Marshal pickles v with protocol 2. See Encoder for the accepted Go types.
func Marshal(v any) ([]byte, error) {
	e := Encoder{Protocol: DefaultProtocol}
	return e.marshal(v)
}

// Encoder writes pickles of plain Go values to a stream. Accepted values:
// nil; bool; all Go integer kinds and *big.Int; float32/float64; string
// (UTF-8, lone surrogates allowed); []byte (bytes); ByteArray; []any and any
// other slice or array (list); Tuple; *Dict; *Set; maps with string keys
// (dict with keys in sorted order, for deterministic output). Output is
// deterministic: dicts keep their key order.
type Encoder struct {
	w io.Writer
	// Protocol is 2 (default), 3 or 4. Protocol 5 is not written.
	Protocol int
	// MaxDepth bounds container nesting (default DefaultMaxDepth), which also
	// turns a cyclic value into an error instead of endless recursion.
	MaxDepth int
}

// NewEncoder returns an encoder writing protocol 2 pickles to w.
func NewEncoder(w io.Writer) *Encoder { return &Encoder{w: w, Protocol: DefaultProtocol} }

// Encode writes the pickle of v to the stream in one Write call; nothing is
// written if v cannot be encoded.
func (e *Encoder) Encode(v any) error {
	b, err := e.marshal(v)
	if err != nil {
		return err
	}
	if _, err := e.w.Write(b); err != nil {
		return fmt.Errorf("pickle: write: %w", err)
	}
	return nil
}

// marshal encodes v into a new byte slice.
func (e *Encoder) marshal(v any) ([]byte, error) {
	proto := e.Protocol
	if proto == 0 {
		proto = DefaultProtocol
	}
	if proto < 2 || proto > 4 {
		return nil, &EncodeError{Msg: fmt.Sprintf("protocol %d not supported (write 2, 3 or 4)", proto)}
	}
	depth := e.MaxDepth
	if depth <= 0 {
		depth = DefaultMaxDepth
	}
	s := &encState{proto: proto, maxDepth: depth, out: make([]byte, 0, 4096)}
	s.out = append(s.out, opProto, byte(proto))
	if proto >= 4 {
		s.framing = true
	}
	if err := s.save(v, 1); err != nil {
		return nil, err
	}
	s.write(opStop)
	s.commitFrame(true)
	return s.out, nil
}

// Framing parameters, as in CPython's pickle._Framer.
const (
	frameSizeMin    = 4
	frameSizeTarget = 64 * 1024
	batchSize       = 1000 // items per APPENDS/SETITEMS/ADDITEMS, as CPython
)

// encState is one encoding in progress.
type encState struct {
	proto    int
	maxDepth int
	out      []byte
	framing  bool   // protocol 4: output goes through frames
	frame    []byte // current frame (framing only)
}

// write appends opcode bytes to the current frame or the output.
func (s *encState) write(b ...byte) {
	if s.framing {
		s.frame = append(s.frame, b...)
	} else {
		s.out = append(s.out, b...)
	}
}

// writeString appends str bytes like write.
func (s *encState) writeString(str string) {
	if s.framing {
		s.frame = append(s.frame, str...)
	} else {
		s.out = append(s.out, str...)
	}
}

// commitFrame ends the current frame when it reached the target size (or
// when forced), emitting a FRAME header if it is at least frameSizeMin long.
func (s *encState) commitFrame(force bool) {
	if !s.framing || len(s.frame) == 0 || (!force && len(s.frame) < frameSizeTarget) {
		return
	}
	if len(s.frame) >= frameSizeMin {
		s.out = append(s.out, opFrame)
		s.out = binary.LittleEndian.AppendUint64(s.out, uint64(len(s.frame)))
	}
	s.out = append(s.out, s.frame...)
	s.frame = s.frame[:0]
}

// writePayload writes an opcode with a little-endian length field of size
// bytes (1, 4 or 8) and a str/bytes payload; payloads of at least
// frameSizeTarget bytes go outside frames, as CPython does.
func (s *encState) writePayload(op byte, size int, payload string) {
	var h [9]byte
	h[0] = op
	binary.LittleEndian.PutUint64(h[1:], uint64(len(payload)))
	header := h[:1+size]
	if s.framing && len(payload) >= frameSizeTarget {
		s.commitFrame(true)
		s.out = append(s.out, header...)
		s.out = append(s.out, payload...)
		return
	}
	s.write(header...)
	s.writeString(payload)
}

// fail builds an EncodeError.
func fail(format string, args ...any) error {
	return &EncodeError{Msg: fmt.Sprintf(format, args...)}
}

// inPath prefixes an EncodeError's path with one step.
func inPath(err error, step string) error {
	if ee, ok := err.(*EncodeError); ok {
		return &EncodeError{Path: step + ee.Path, Msg: ee.Msg}
	}
	return err
}

// save writes one value at nesting depth depth.
func (s *encState) save(v any, depth int) error {
	s.commitFrame(false)
	switch x := v.(type) {
	case nil:
		s.write(opNone)
	case bool:
		if x {
			s.write(opNewTrue)
		} else {
			s.write(opNewFalse)
		}
	case int64:
		s.saveInt(x)
	case int:
		s.saveInt(int64(x))
	case int32:
		s.saveInt(int64(x))
	case uint64:
		if x > math.MaxInt64 {
			s.saveBig(new(big.Int).SetUint64(x))
		} else {
			s.saveInt(int64(x))
		}
	case *big.Int:
		if x == nil {
			return fail("nil *big.Int")
		}
		if x.IsInt64() {
			s.saveInt(x.Int64())
		} else {
			s.saveBig(x)
		}
	case float64:
		s.saveFloat(x)
	case float32:
		s.saveFloat(float64(x))
	case string:
		return s.saveString(x)
	case []byte:
		return s.saveBytes(x)
	case ByteArray:
		return s.saveByteArray(x)
	case []any:
		return s.saveList(x, depth)
	case Tuple:
		return s.saveTuple(x, depth)
	case *Dict:
		if x == nil {
			return fail("nil *Dict")
		}
		return s.saveDict(x, depth)
	case *Set:
		if x == nil {
			return fail("nil *Set")
		}
		return s.saveSet(x, depth)
	default:
		return s.saveReflect(v, depth)
	}
	return nil
}

// checkDepth fails when a container would be nested deeper than MaxDepth.
func (s *encState) checkDepth(depth int) error {
	if depth > s.maxDepth {
		return fail("containers nested deeper than MaxDepth (%d); is the value cyclic?", s.maxDepth)
	}
	return nil
}

// saveInt writes an int with the smallest opcode CPython would use.
func (s *encState) saveInt(x int64) {
	switch {
	case x >= 0 && x <= 0xff:
		s.write(opBinInt1, byte(x))
	case x >= 0 && x <= 0xffff:
		s.write(opBinInt2, byte(x), byte(x>>8))
	case x >= math.MinInt32 && x <= math.MaxInt32:
		s.write(opBinInt, byte(x), byte(x>>8), byte(x>>16), byte(x>>24))
	default:
		// LONG1 with the minimal little-endian two's complement (<= 8 bytes).
		n := 1
		for n < 8 && (x < -(int64(1)<<(8*n-1)) || x >= int64(1)<<(8*n-1)) {
			n++
		}
		var b [10]byte
		b[0], b[1] = opLong1, byte(n)
		for i := 0; i < n; i++ {
			b[2+i] = byte(x >> (8 * i))
		}
		s.write(b[:2+n]...)
	}
}

// saveBig writes an int beyond 64 bits with LONG1, or LONG4 past 255 bytes.
func (s *encState) saveBig(x *big.Int) {
	enc := encodeLong(x)
	if len(enc) < 256 {
		s.write(opLong1, byte(len(enc)))
	} else {
		s.write(opLong4)
		s.write(binary.LittleEndian.AppendUint32(nil, uint32(len(enc)))...)
	}
	s.write(enc...)
}

// encodeLong returns the minimal little-endian two's complement of x.
func encodeLong(x *big.Int) []byte {
	if x.Sign() == 0 {
		return nil
	}
	n := x.BitLen()/8 + 1
	var be []byte
	if x.Sign() > 0 {
		be = x.FillBytes(make([]byte, n))
	} else {
		// two's complement: 2^(8n) + x
		m := new(big.Int).Lsh(big.NewInt(1), uint(8*n))
		be = m.Add(m, x).FillBytes(make([]byte, n))
		if n > 1 && be[0] == 0xff && be[1]&0x80 != 0 {
			be = be[1:]
		}
	}
	slices.Reverse(be)
	return be
}

// saveFloat writes BINFLOAT (big-endian IEEE 754 double).
func (s *encState) saveFloat(f float64) {
	var b [9]byte
	b[0] = opBinFloat
	binary.BigEndian.PutUint64(b[1:], math.Float64bits(f))
	s.write(b[:]...)
}

// saveString writes a str, choosing the opcode by protocol and length.
func (s *encState) saveString(str string) error {
	if !validPyUTF8String(str) {
		return fail("string %s is not valid UTF-8", strconv.Quote(truncate(str)))
	}
	n := len(str)
	switch {
	case s.proto >= 4 && n <= 0xff:
		s.writePayload(opShortBinUnicode, 1, str)
	case uint64(n) > math.MaxUint32:
		if s.proto < 4 {
			return fail("string of %d bytes needs protocol 4", n)
		}
		s.writePayload(opBinUnicode8, 8, str)
	default:
		s.writePayload(opBinUnicode, 4, str)
	}
	return nil
}

// truncate shortens s for error messages.
func truncate(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// saveBytes writes a bytes value: SHORT_BINBYTES/BINBYTES/BINBYTES8 in
// protocol 3+, and in protocol 2 the form CPython uses there,
// _codecs.encode(latin-1 text, "latin1") (or bytes() when empty).
func (s *encState) saveBytes(b []byte) error {
	n := len(b)
	if s.proto < 3 {
		if n == 0 {
			s.saveGlobal("__builtin__", "bytes")
			s.write(opEmptyTuple, opReduce)
			return nil
		}
		s.saveGlobal("_codecs", "encode")
		runes := make([]rune, n)
		for i, c := range b {
			runes[i] = rune(c)
		}
		if err := s.saveString(string(runes)); err != nil {
			return err
		}
		if err := s.saveString("latin1"); err != nil {
			return err
		}
		s.write(opTuple2, opReduce)
		return nil
	}
	switch {
	case n <= 0xff:
		s.write(opShortBinBytes, byte(n))
		s.write(b...)
	case uint64(n) > math.MaxUint32:
		if s.proto < 4 {
			return fail("bytes of length %d need protocol 4", n)
		}
		s.writePayload(opBinBytes8, 8, string(b))
	default:
		s.writePayload(opBinBytes, 4, string(b))
	}
	return nil
}

// saveByteArray writes bytearray(...) as a REDUCE of the builtin, the way
// CPython does below protocol 5.
func (s *encState) saveByteArray(b ByteArray) error {
	s.saveGlobal(s.builtinsModule(), "bytearray")
	if len(b) == 0 {
		s.write(opEmptyTuple, opReduce)
		return nil
	}
	if err := s.saveBytes([]byte(b)); err != nil {
		return err
	}
	s.write(opTuple1, opReduce)
	return nil
}

// builtinsModule is the module name of builtins as CPython writes it.
func (s *encState) builtinsModule() string {
	if s.proto < 3 {
		return "__builtin__"
	}
	return "builtins"
}

// saveGlobal writes a reference to module.name: GLOBAL below protocol 4,
// STACK_GLOBAL from 4.
func (s *encState) saveGlobal(module, name string) {
	if s.proto >= 4 {
		_ = s.saveString(module)
		_ = s.saveString(name)
		s.write(opStackGlobal)
		return
	}
	s.write(opGlobal)
	s.writeString(module + "\n" + name + "\n")
}

// saveList writes EMPTY_LIST and the items in batches.
func (s *encState) saveList(items []any, depth int) error {
	if err := s.checkDepth(depth); err != nil {
		return err
	}
	s.write(opEmptyList)
	return s.batch(len(items), opAppend, opAppends, func(i int) error {
		if err := s.save(items[i], depth+1); err != nil {
			return inPath(err, "["+strconv.Itoa(i)+"]")
		}
		return nil
	})
}

// batch writes n items with fn the way CPython's C pickler does: a single
// item as "item single", otherwise batches of batchSize as MARK items multi.
func (s *encState) batch(n int, single, multi byte, fn func(i int) error) error {
	if n == 1 {
		if err := fn(0); err != nil {
			return err
		}
		s.write(single)
		return nil
	}
	for start := 0; start < n; start += batchSize {
		s.write(opMark)
		for i := start; i < min(start+batchSize, n); i++ {
			if err := fn(i); err != nil {
				return err
			}
		}
		s.write(multi)
	}
	return nil
}

// saveTuple writes a tuple: EMPTY_TUPLE, TUPLE1..3, or MARK items TUPLE.
func (s *encState) saveTuple(items Tuple, depth int) error {
	if err := s.checkDepth(depth); err != nil {
		return err
	}
	n := len(items)
	if n == 0 {
		s.write(opEmptyTuple)
		return nil
	}
	if n > 3 {
		s.write(opMark)
	}
	for i, it := range items {
		if err := s.save(it, depth+1); err != nil {
			return inPath(err, "["+strconv.Itoa(i)+"]")
		}
	}
	if n > 3 {
		s.write(opTuple)
	} else {
		s.write(opTuple1 + byte(n-1))
	}
	return nil
}

// saveDict writes EMPTY_DICT and the key/value pairs in batches.
func (s *encState) saveDict(d *Dict, depth int) error {
	if err := s.checkDepth(depth); err != nil {
		return err
	}
	if len(d.Keys) != len(d.Values) {
		return fail("Dict has %d keys but %d values", len(d.Keys), len(d.Values))
	}
	s.write(opEmptyDict)
	return s.batch(len(d.Keys), opSetItem, opSetItems, func(i int) error {
		if err := s.save(d.Keys[i], depth+1); err != nil {
			return inPath(err, "["+keyLabel(d.Keys[i])+"](key)")
		}
		if err := s.save(d.Values[i], depth+1); err != nil {
			return inPath(err, "["+keyLabel(d.Keys[i])+"]")
		}
		return nil
	})
}

// keyLabel formats a dict key for an error path.
func keyLabel(k any) string {
	if str, ok := k.(string); ok {
		return strconv.Quote(truncate(str))
	}
	return truncate(fmt.Sprint(k))
}

// saveSet writes a set or frozenset: EMPTY_SET/ADDITEMS and FROZENSET in
// protocol 4, builtins.set(list)/frozenset(list) REDUCE below, as CPython.
func (s *encState) saveSet(set *Set, depth int) error {
	if err := s.checkDepth(depth); err != nil {
		return err
	}
	item := func(i int) error {
		if err := s.save(set.Items[i], depth+1); err != nil {
			return inPath(err, "{"+strconv.Itoa(i)+"}")
		}
		return nil
	}
	if s.proto < 4 {
		name := "set"
		if set.Frozen {
			name = "frozenset"
		}
		s.saveGlobal(s.builtinsModule(), name)
		s.write(opEmptyList)
		if err := s.batch(len(set.Items), opAppend, opAppends, item); err != nil {
			return err
		}
		s.write(opTuple1, opReduce)
		return nil
	}
	if set.Frozen {
		s.write(opMark)
		for i := range set.Items {
			if err := item(i); err != nil {
				return err
			}
		}
		s.write(opFrozenSet)
		return nil
	}
	s.write(opEmptySet)
	for start := 0; start < len(set.Items); start += batchSize {
		s.write(opMark)
		for i := start; i < min(start+batchSize, len(set.Items)); i++ {
			if err := item(i); err != nil {
				return err
			}
		}
		s.write(opAddItems)
	}
	return nil
}

// saveReflect handles named and composite Go types by kind: integer, float,
// bool and string kinds, slices and arrays (lists), and maps with string keys
// (dicts with sorted keys).
func (s *encState) saveReflect(v any, depth int) error {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		s.saveInt(rv.Int())
		return nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		u := rv.Uint()
		if u > math.MaxInt64 {
			s.saveBig(new(big.Int).SetUint64(u))
		} else {
			s.saveInt(int64(u))
		}
		return nil
	case reflect.Float32, reflect.Float64:
		s.saveFloat(rv.Float())
		return nil
	case reflect.Bool:
		return s.save(rv.Bool(), depth)
	case reflect.String:
		return s.saveString(rv.String())
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			return s.saveList(nil, depth)
		}
		items := make([]any, rv.Len())
		for i := range items {
			items[i] = rv.Index(i).Interface()
		}
		return s.saveList(items, depth)
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			return fail("map with %s keys is not supported (use *Dict)", rv.Type().Key())
		}
		d := NewDict()
		keys := rv.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int {
			if a.String() < b.String() {
				return -1
			}
			if a.String() > b.String() {
				return 1
			}
			return 0
		})
		for _, k := range keys {
			d.Set(k.String(), rv.MapIndex(k).Interface())
		}
		return s.saveDict(d, depth)
	}
	return fail("cannot pickle Go type %T", v)
}
