package wasmsize

import (
	"bytes"
	"errors"
	"fmt"
)

// Func is one function body of the module's code section.
type Func struct {
	Name string // from the name section; "func[N]" when it has none
	Body []byte // the body as encoded (locals and instructions)
}

// Segment is one active data segment: bytes placed at Offset in memory 0.
type Segment struct {
	Offset int64
	Data   []byte
}

// Module is what the size map needs of a module.
type Module struct {
	Funcs    []Func    // defined functions, in the code section's order
	Segments []Segment // data segments, in the data section's order
	DataSize int       // bytes of the data section's body
	Other    []byte    // every other section, whole, concatenated (imports, types, exports, names…)
}

// Parse reads a module. Functions are named only when the module has a
// "name" section; Parse fails on a module without one, since a size map of
// anonymous functions tells nothing.
func Parse(mod []byte) (*Module, error) {
	if len(mod) < 8 || !bytes.Equal(mod[:4], []byte("\x00asm")) {
		return nil, errors.New("not a wasm module")
	}
	m := &Module{}
	r := &reader{b: mod, pos: 8}
	imports := 0
	names := map[int]string{}
	var bodies [][]byte
	for r.more() {
		start := r.pos
		id := r.bytes(1)
		sec := &reader{b: r.bytes(r.uleb())}
		if r.err != nil {
			break
		}
		switch id[0] {
		case 2: // imports: imported functions take the first function indices
			m.Other = append(m.Other, mod[start:r.pos]...)
			for n := sec.uleb(); n > 0 && sec.err == nil; n-- {
				sec.bytes(sec.uleb()) // module
				sec.bytes(sec.uleb()) // name
				kind := sec.bytes(1)
				if len(kind) == 1 && kind[0] != 0 {
					return nil, fmt.Errorf("import kind %d not handled", kind[0])
				}
				imports++
				sec.uleb() // type index
			}
		case 10:
			for n := sec.uleb(); n > 0 && sec.err == nil; n-- {
				bodies = append(bodies, sec.bytes(sec.uleb()))
			}
		case 11:
			m.DataSize = len(sec.b)
			for n := sec.uleb(); n > 0 && sec.err == nil; n-- {
				if flags := sec.uleb(); flags != 0 {
					return nil, fmt.Errorf("data segment with flags %d not handled", flags)
				}
				if op := sec.bytes(1); len(op) == 1 && op[0] != 0x41 {
					return nil, errors.New("data segment offset is not an i32.const")
				}
				off := int64(uint32(sec.sleb()))
				if end := sec.bytes(1); len(end) == 1 && end[0] != 0x0b {
					return nil, errors.New("data segment offset expression not ended")
				}
				m.Segments = append(m.Segments, Segment{Offset: off, Data: sec.bytes(sec.uleb())})
			}
		case 0:
			m.Other = append(m.Other, mod[start:r.pos]...)
			if string(sec.bytes(sec.uleb())) != "name" {
				continue
			}
			for sec.more() {
				sub := sec.bytes(1)
				ss := &reader{b: sec.bytes(sec.uleb())}
				if len(sub) == 1 && sub[0] == 1 { // function names
					for n := ss.uleb(); n > 0 && ss.err == nil; n-- {
						idx := ss.uleb()
						names[idx] = string(ss.bytes(ss.uleb()))
					}
				}
				if ss.err != nil {
					return nil, fmt.Errorf("name section: %w", ss.err)
				}
			}
		default:
			m.Other = append(m.Other, mod[start:r.pos]...)
		}
		if sec.err != nil {
			return nil, fmt.Errorf("section %d: %w", id[0], sec.err)
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	if len(names) == 0 {
		return nil, errors.New("module has no function names (built with -s?)")
	}
	for i, b := range bodies {
		name, ok := names[imports+i]
		if !ok {
			name = fmt.Sprintf("func[%d]", imports+i)
		}
		m.Funcs = append(m.Funcs, Func{Name: name, Body: b})
	}
	return m, nil
}
