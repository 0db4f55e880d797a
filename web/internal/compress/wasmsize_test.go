package main

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"
)

// The size breakdown below reads a module built without -s (so that it keeps
// its "name" section) and attributes each function body to its Go package.
// The data section (read-only data, type descriptors and the pc-line tables
// of every function) is reported as one part.

// partSize is what one part of the module costs.
type partSize struct {
	Name      string
	Raw, Gzip int
	body      []byte
}

// wasmReader walks the binary format's LEB128 integers.
type wasmReader struct {
	b   []byte
	pos int
	err error
}

func (r *wasmReader) uleb() int {
	var x uint64
	for shift := uint(0); ; shift += 7 {
		if r.pos >= len(r.b) || shift > 63 {
			r.err = errors.New("truncated LEB128")
			return 0
		}
		c := r.b[r.pos]
		r.pos++
		x |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return int(x)
		}
	}
}

func (r *wasmReader) bytes(n int) []byte {
	if n < 0 || r.pos+n > len(r.b) {
		r.err = errors.New("truncated section")
		r.pos = len(r.b)
		return nil
	}
	p := r.b[r.pos : r.pos+n]
	r.pos += n
	return p
}

// packageOf maps a wasm function name ("github.com_x_y.(*T).m", "runtime.f")
// to its package ("github.com_x_y", "runtime").
func packageOf(name string) string {
	off := 0
	if strings.HasPrefix(name, "github.com") {
		off = len("github.com")
	}
	if i := strings.IndexByte(name[off:], '.'); i >= 0 {
		return name[:off+i]
	}
	return name
}

// moduleParts splits a module into code per package, the data section and the
// rest, largest first, each with its raw and gzip size.
func moduleParts(mod []byte) ([]partSize, error) {
	if len(mod) < 8 || !bytes.Equal(mod[:4], []byte("\x00asm")) {
		return nil, errors.New("not a wasm module")
	}
	r := &wasmReader{b: mod, pos: 8}
	imports := 0
	var bodies [][]byte
	names := map[int]string{}
	parts := map[string]*partSize{}
	add := func(name string, body []byte) {
		p := parts[name]
		if p == nil {
			p = &partSize{Name: name}
			parts[name] = p
		}
		p.body = append(p.body, body...)
	}
	for r.pos < len(mod) && r.err == nil {
		id := r.bytes(1)
		size := r.uleb()
		sec := &wasmReader{b: r.bytes(size)}
		if r.err != nil {
			break
		}
		switch id[0] {
		case 2: // imports: they take the first function indices
			add("(other sections)", sec.b)
			for n := sec.uleb(); n > 0 && sec.err == nil; n-- {
				sec.bytes(sec.uleb())
				sec.bytes(sec.uleb())
				if kind := sec.bytes(1); len(kind) == 1 && kind[0] == 0 {
					imports++
				} else if len(kind) == 1 {
					return nil, fmt.Errorf("import kind %d not handled", kind[0])
				}
				sec.uleb()
			}
		case 10: // code
			for n := sec.uleb(); n > 0 && sec.err == nil; n-- {
				bodies = append(bodies, sec.bytes(sec.uleb()))
			}
		case 11:
			add("(data section: rodata, types, pc tables)", sec.b)
		case 0:
			if string(sec.bytes(sec.uleb())) != "name" {
				add("(other sections)", sec.b)
				continue
			}
			for sec.pos < len(sec.b) && sec.err == nil {
				sub := sec.bytes(1)
				ss := &wasmReader{b: sec.bytes(sec.uleb())}
				if len(sub) == 1 && sub[0] == 1 { // function names
					for n := ss.uleb(); n > 0 && ss.err == nil; n-- {
						idx := ss.uleb()
						names[idx] = string(ss.bytes(ss.uleb()))
					}
				}
				if ss.err != nil {
					return nil, ss.err
				}
			}
		default:
			add("(other sections)", sec.b)
		}
		if sec.err != nil {
			return nil, fmt.Errorf("section %d: %w", id[0], sec.err)
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	if len(names) == 0 {
		return nil, errors.New("module has no name section (built with -s?)")
	}
	for i, b := range bodies {
		add(packageOf(names[imports+i]), b)
	}
	out := make([]partSize, 0, len(parts))
	for _, p := range parts {
		var g bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&g, gzip.BestCompression)
		zw.Write(p.body)
		zw.Close()
		out = append(out, partSize{Name: p.Name, Raw: len(p.body), Gzip: g.Len()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Gzip > out[j].Gzip })
	return out, nil
}

// uleb128 encodes n for the hand-made module below.
func uleb128(n int) []byte {
	var out []byte
	for {
		c := byte(n & 0x7f)
		n >>= 7
		if n == 0 {
			return append(out, c)
		}
		out = append(out, c|0x80)
	}
}

func section(id byte, body ...[]byte) []byte {
	b := bytes.Join(body, nil)
	return append(append([]byte{id}, uleb128(len(b))...), b...)
}

func vec(n int, items ...[]byte) []byte { return append(uleb128(n), bytes.Join(items, nil)...) }

func name(s string) []byte { return append(uleb128(len(s)), s...) }

func TestModuleParts(t *testing.T) {
	// One imported function (index 0), then three bodies: indices 1..3.
	imp := section(2, vec(1, name("go"), name("debug"), []byte{0}, uleb128(0)))
	bodies := section(10, vec(3,
		append(uleb128(4), 0, 1, 1, 11),
		append(uleb128(2), 0, 11),
		append(uleb128(300), make([]byte, 300)...)))
	data := section(11, bytes.Repeat([]byte{7}, 50))
	names := section(0, name("name"), []byte{1}, func() []byte {
		m := vec(3,
			append(uleb128(1), name("runtime.mallocgc")...),
			append(uleb128(2), name("runtime.gc")...),
			append(uleb128(3), name("github.com_gpumem_playground_sim_py.(*Interp).Run")...))
		return append(uleb128(len(m)), m...)
	}())
	mod := bytes.Join([][]byte{[]byte("\x00asm\x01\x00\x00\x00"), imp, bodies, data, names}, nil)
	parts, err := moduleParts(mod)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, p := range parts {
		got[p.Name] = p.Raw
	}
	want := map[string]int{
		"runtime":                                  6,
		"github.com_gpumem_playground_sim_py":      300,
		"(data section: rodata, types, pc tables)": 50,
		"(other sections)":                         len(imp) - 2,
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("part %q: %d B, want %d (all: %v)", k, got[k], v, got)
		}
	}
	if _, err := moduleParts(mod[:len(mod)-3]); err == nil {
		t.Errorf("truncated module accepted")
	}
	if _, err := moduleParts([]byte("\x00asm\x01\x00\x00\x00")); err == nil {
		t.Errorf("module without names accepted")
	}
}
