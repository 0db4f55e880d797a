package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// The pc tables of Go's runtime (pclntab) are most of the module's data
// section. Besides what the runtime needs to run — the stack-pointer deltas
// (pcsp) for unwinding and growing stacks, the stack maps and their pcdata
// indices for the collector — they hold what only tracebacks and
// runtime.Caller read: for every function a pc→file and a pc→line table, a
// pc→inlined-call index and the tree of inlined calls. StripLines removes
// those four: a traceback then prints "?:0" for file and line and omits the
// frames of inlined calls, but names every function that was called.
//
// The layout is Go 1.20–1.26's (runtime.pcHeader, runtime._func,
// runtime.moduledata); a module in which it is not found exactly is left
// unchanged.

// pcHeaderMagic opens runtime.pcHeader: abi.Go120PCLnTabMagic, two pad
// bytes, the instruction size quantum (1 on wasm) and the pointer size.
var pcHeaderMagic = []byte{0xf1, 0xff, 0xff, 0xff, 0, 0, 1, 8}

// Offsets in runtime._func and indices of its pcdata and funcdata tables.
const (
	funcPcfile    = 20
	funcPcln      = 24
	funcNpcdata   = 28
	funcStartLine = 36
	funcNfuncdata = 43
	funcSize      = 44

	pcdataInlTreeIndex = 2
	funcdataInlTree    = 3
	inlinedCallSize    = 16 // runtime.inlinedCall
	moduledataGofunc   = 40 // word index of moduledata.gofunc
)

// LineStats says what StripLines removed.
type LineStats struct {
	Funcs        int // functions in the pc table
	TableBytes   int // bytes of file, line and inline-index tables zeroed
	InlTreeBytes int // bytes of inline trees zeroed
}

// StripLines returns mod with the file, line and inlining tables of its Go
// pc table zeroed and unreferenced (see above), its data segments rewritten
// as Go's linker writes them (a new segment after every run of ≥ 8 zeros)
// so that Pack joins them as usual. A module without a Go pc table in the
// expected form is returned unchanged with zero stats.
func StripLines(mod []byte) ([]byte, LineStats, error) {
	if len(mod) < 8 || !bytes.Equal(mod[:4], []byte("\x00asm")) {
		return nil, LineStats{}, errors.New("not a WebAssembly module")
	}
	secs, err := sections(mod)
	if err != nil {
		return nil, LineStats{}, err
	}
	var segs []segment
	found := false
	for _, s := range secs {
		if s.id == sectionData {
			if segs, err = parseData(s.body); errors.Is(err, errUnusual) {
				return mod, LineStats{}, nil
			} else if err != nil {
				return nil, LineStats{}, fmt.Errorf("data section: %w", err)
			}
			found = true
		}
	}
	if !found || len(segs) == 0 {
		return mod, LineStats{}, nil
	}
	base := segs[0].offset
	last := segs[len(segs)-1]
	mem := make([]byte, last.offset+int64(len(last.data))-base)
	for _, s := range segs {
		copy(mem[s.offset-base:], s.data)
	}
	st, err := stripImage(mem, base)
	if errors.Is(err, errUnusual) {
		return mod, LineStats{}, nil
	}
	if err != nil {
		return nil, LineStats{}, err
	}
	segs = resegment(mem, base, 8)
	var out bytes.Buffer
	out.Write(mod[:8])
	for _, s := range secs {
		switch s.id {
		case sectionData:
			writeSection(&out, sectionData, dataBody(segs))
		case sectionDataCount:
			writeSection(&out, sectionDataCount, appendULEB(nil, uint64(len(segs))))
		default:
			out.Write(s.raw)
		}
	}
	return out.Bytes(), st, nil
}

// resegment splits the memory image mem (at address base) into segments
// separated by runs of at least gap zero bytes, leaving the zeros out.
func resegment(mem []byte, base int64, gap int) []segment {
	var out []segment
	start, zeros := -1, 0
	for i, c := range mem {
		if c != 0 {
			if start < 0 {
				start = i
			} else if zeros >= gap {
				out = append(out, segment{offset: base + int64(start), data: mem[start : i-zeros]})
				start = i
			}
			zeros = 0
			continue
		}
		zeros++
	}
	if start >= 0 {
		out = append(out, segment{offset: base + int64(start), data: mem[start : len(mem)-zeros]})
	}
	return out
}

// memImage is the initial memory at address base, read with bounds checks that
// report errUnusual.
type memImage struct {
	mem  []byte
	base int64
}

func (im memImage) u32(i int64) (uint32, error) {
	if i < 0 || i+4 > int64(len(im.mem)) {
		return 0, errUnusual
	}
	return binary.LittleEndian.Uint32(im.mem[i:]), nil
}

func (im memImage) u64(i int64) (int64, error) {
	if i < 0 || i+8 > int64(len(im.mem)) {
		return 0, errUnusual
	}
	v := binary.LittleEndian.Uint64(im.mem[i:])
	if v > 1<<40 {
		return 0, errUnusual
	}
	return int64(v), nil
}

func (im memImage) put32(i int64, v uint32) { binary.LittleEndian.PutUint32(im.mem[i:], v) }

// stripImage does StripLines's work on the memory image.
func stripImage(mem []byte, base int64) (LineStats, error) {
	im := memImage{mem: mem, base: base}
	hdr := bytes.Index(mem, pcHeaderMagic)
	if hdr < 0 || bytes.Contains(mem[hdr+1:], pcHeaderMagic) {
		return LineStats{}, errUnusual
	}
	h := int64(hdr)
	nfunc, err := im.u64(h + 8)
	if err != nil {
		return LineStats{}, err
	}
	pctabOff, err := im.u64(h + 56)
	if err != nil {
		return LineStats{}, err
	}
	pclnOff, err := im.u64(h + 64)
	if err != nil {
		return LineStats{}, err
	}
	pctab, pcln := h+pctabOff, h+pclnOff
	if pctabOff <= 0 || pclnOff <= pctabOff || pcln+8*(nfunc+1) > int64(len(mem)) {
		return LineStats{}, errUnusual
	}
	gofunc, err := gofuncOf(im, base+h)
	if err != nil {
		return LineStats{}, err
	}
	tabs := &tables{im: im, start: pctab, end: pcln, keep: map[int64]bool{}, drop: map[int64]bool{}}
	type inlTree struct{ at, size int64 }
	var trees []inlTree
	var fixes []int64 // offsets of uint32 fields to zero
	for i := int64(0); i < nfunc; i++ {
		fo, err := im.u32(pcln + 8*i + 4)
		if err != nil {
			return LineStats{}, err
		}
		f := pcln + int64(fo)
		npcdata, err := im.u32(f + funcNpcdata)
		if err != nil || f+funcSize > int64(len(mem)) || npcdata > 16 {
			return LineStats{}, errUnusual
		}
		nfuncdata := int64(mem[f+funcNfuncdata])
		if f+funcSize+4*(int64(npcdata)+nfuncdata) > int64(len(mem)) {
			return LineStats{}, errUnusual
		}
		for _, field := range []int64{16, funcPcfile, funcPcln} { // pcsp, pcfile, pcln
			off, _ := im.u32(f + field)
			if err := tabs.mark(off, field == 16); err != nil {
				return LineStats{}, err
			}
		}
		fixes = append(fixes, f+funcPcfile, f+funcPcln, f+funcStartLine)
		inlIndex := int64(-1)
		for j := int64(0); j < int64(npcdata); j++ {
			off, _ := im.u32(f + funcSize + 4*j)
			if err := tabs.mark(off, j != pcdataInlTreeIndex); err != nil {
				return LineStats{}, err
			}
			if j == pcdataInlTreeIndex && off != 0 {
				fixes = append(fixes, f+funcSize+4*j)
				if inlIndex, err = tabs.max(off); err != nil {
					return LineStats{}, err
				}
			}
		}
		if nfuncdata > funcdataInlTree {
			at := f + funcSize + 4*(int64(npcdata)+funcdataInlTree)
			off, _ := im.u32(at)
			if off != ^uint32(0) {
				im.put32(at, ^uint32(0))
				if inlIndex >= 0 {
					trees = append(trees, inlTree{at: gofunc + int64(off), size: (inlIndex + 1) * inlinedCallSize})
				}
			}
		}
	}
	st := LineStats{Funcs: int(nfunc)}
	for _, at := range fixes {
		im.put32(at, 0)
	}
	for at := range tabs.drop {
		if !tabs.keep[at] {
			mem[at] = 0
			st.TableBytes++
		}
	}
	for _, t := range trees {
		if t.at < 0 || t.at+t.size > int64(len(mem)) {
			return LineStats{}, errUnusual
		}
		clear(mem[t.at : t.at+t.size])
		st.InlTreeBytes += int(t.size)
	}
	return st, nil
}

// gofuncOf finds runtime.firstmoduledata (the only aligned pair of words
// holding the pcHeader's address and that of the function names after it)
// and returns the image offset of its gofunc region.
func gofuncOf(im memImage, hdrAddr int64) (int64, error) {
	names, err := im.u64(hdrAddr - im.base + 32) // pcHeader.funcnameOffset
	if err != nil {
		return 0, err
	}
	md := int64(-1)
	for a := (im.base + 7) &^ 7; a+16 <= im.base+int64(len(im.mem)); a += 8 {
		i := a - im.base
		if binary.LittleEndian.Uint64(im.mem[i:]) == uint64(hdrAddr) && binary.LittleEndian.Uint64(im.mem[i+8:]) == uint64(hdrAddr+names) {
			if md >= 0 {
				return 0, errUnusual
			}
			md = i
		}
	}
	if md < 0 {
		return 0, errUnusual
	}
	g, err := im.u64(md + 8*moduledataGofunc)
	if err != nil || g < im.base || g >= im.base+int64(len(im.mem)) {
		return 0, errUnusual
	}
	return g - im.base, nil
}
