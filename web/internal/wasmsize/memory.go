package wasmsize

import (
	"encoding/binary"
	"errors"
	"sort"
)

// Region is a named range of the module's initial memory.
type Region struct {
	Name       string
	Start, End int64
	Data       []byte // the region's initial memory
}

// pcHeaderMagic opens the runtime's pcHeader (abi.Go120PCLnTabMagic) in
// modules of Go 1.20 and later, followed by two pad bytes, the minimum
// instruction size (1 on wasm) and the pointer size (8).
var pcHeaderMagic = []byte{0xf1, 0xff, 0xff, 0xff, 0, 0, 1, 8}

// image is the initial memory from the data segments, from the lowest
// segment's offset on.
type image struct {
	base int64
	mem  []byte
}

func newImage(segs []Segment) image {
	if len(segs) == 0 {
		return image{}
	}
	lo, hi := segs[0].Offset, int64(0)
	for _, s := range segs {
		lo = min(lo, s.Offset)
		hi = max(hi, s.Offset+int64(len(s.Data)))
	}
	im := image{base: lo, mem: make([]byte, hi-lo)}
	for _, s := range segs {
		copy(im.mem[s.Offset-lo:], s.Data)
	}
	return im
}

func (im image) word(addr int64) (int64, bool) {
	i := addr - im.base
	if i < 0 || i+8 > int64(len(im.mem)) {
		return 0, false
	}
	return int64(binary.LittleEndian.Uint64(im.mem[i:])), true
}

// slice returns the bytes of memory in [start, end), clipped to the image.
func (im image) slice(start, end int64) []byte {
	s, e := max(start-im.base, 0), min(end-im.base, int64(len(im.mem)))
	if s >= e {
		return nil
	}
	return im.mem[s:e]
}

// The moduledata fields (8-byte words from its start) whose addresses bound
// the data regions; see runtime.moduledata (Go 1.26).
var moduledataFields = []struct {
	word int
	name string
}{
	{0, "pclntab: header"},
	{1, "pclntab: function names"},
	{4, "pclntab: compilation units"},
	{7, "pclntab: file names"},
	{10, "pclntab: pc tables (sp, stack-map index; file, line, inlining unless stripped)"},
	{13, "pclntab: func records"},
	{16, "pclntab: func table"},
	{19, "findfunctab"},
	{24, "noptrdata (initialised variables without pointers)"},
	{25, "(end of noptrdata)"},
	{26, "data (initialised variables with pointers)"},
	{27, "(end of data)"},
	{37, "types (type descriptors, names, methods)"},
	{38, "(end of types)"},
	{39, "rodata (strings, static tables, constants)"},
	{40, "gofunc (funcdata: stack and register maps, inline trees)"},
	{41, "(end of pclntab)"},
	{45, "typelinks"},
	{48, "itablinks"},
}

// Regions finds the runtime's moduledata in the initial memory and splits
// the memory at the addresses it records. Regions whose name starts with
// "(end" mark where a region stops. It fails on modules whose layout it does
// not recognise (other Go versions).
func (m *Module) Regions() ([]Region, error) {
	im := newImage(m.Segments)
	hdr := indexAll(im.mem, pcHeaderMagic)
	if len(hdr) != 1 {
		return nil, errors.New("no unique pcHeader in the data section")
	}
	hdrAddr := im.base + int64(hdr[0])
	// The moduledata is the aligned pair of words holding the pcHeader's
	// address and that of the function names after it (pcHeader's
	// funcnameOffset, word 4): the address alone also occurs elsewhere.
	names, ok := im.word(hdrAddr + 32)
	if !ok {
		return nil, errors.New("truncated pcHeader")
	}
	var md int64 = -1
	for a := (im.base + 7) &^ 7; a+16 <= im.base+int64(len(im.mem)); a += 8 {
		w, _ := im.word(a)
		if w != hdrAddr {
			continue
		}
		if w2, _ := im.word(a + 8); w2 == hdrAddr+names {
			if md >= 0 {
				return nil, errors.New("several moduledata candidates")
			}
			md = a
		}
	}
	if md < 0 {
		return nil, errors.New("no moduledata pointing at the pcHeader")
	}
	var out []Region
	for _, f := range moduledataFields {
		a, ok := im.word(md + 8*int64(f.word))
		if !ok || a < im.base || a > im.base+int64(len(im.mem)) || a == 0 {
			continue
		}
		out = append(out, Region{Name: f.name, Start: a})
	}
	out = append(out, Region{Name: "from the start: types, rodata (strings, static tables)", Start: im.base}, Region{Name: "(memory end)", Start: im.base + int64(len(im.mem))})
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	for i := range out {
		if i+1 < len(out) {
			out[i].End = out[i+1].Start
		} else {
			out[i].End = out[i].Start
		}
		out[i].Data = im.slice(out[i].Start, out[i].End)
	}
	return out, nil
}

func indexAll(b, sep []byte) []int {
	var out []int
	for i := 0; i+len(sep) <= len(b); i++ {
		if b[i] == sep[0] && string(b[i:i+len(sep)]) == string(sep) {
			out = append(out, i)
		}
	}
	return out
}
