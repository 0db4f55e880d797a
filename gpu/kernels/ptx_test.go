package kernels

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the generated *.ptx files")

// TestPTXUpToDate checks that the embedded PTX is what the generator writes.
func TestPTXUpToDate(t *testing.T) {
	gen := Generate()
	if *update {
		for name, text := range gen {
			if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for name, text := range gen {
		got, err := ptxFiles.ReadFile(name)
		if err != nil {
			t.Fatalf("%s is not embedded (run with -update): %v", name, err)
		}
		if string(got) != text {
			t.Errorf("%s differs from the generator's output; run: go test ./gpu/kernels -run TestPTXUpToDate -update", name)
		}
	}
	files, _ := filepath.Glob("*.ptx")
	if len(files) != len(gen) {
		t.Errorf("%d .ptx files on disk, the generator writes %d: remove stale ones", len(files), len(gen))
	}
}

// TestCatalogMatchesText checks that every catalogued entry is defined in
// its module with the catalogued parameters, each loaded by the body, and
// that the module defines no other entries.
func TestCatalogMatchesText(t *testing.T) {
	mods, err := Modules()
	if err != nil {
		t.Fatal(err)
	}
	entryRE := regexp.MustCompile(`\.visible \.entry (\w+)\(`)
	total := 0
	for _, m := range mods {
		defined := map[string]bool{}
		for _, match := range entryRE.FindAllStringSubmatch(m.PTX, -1) {
			defined[match[1]] = true
		}
		if len(defined) != len(m.Entries) {
			t.Errorf("%s: %d entries in the text, %d in the catalogue", m.Name, len(defined), len(m.Entries))
		}
		for _, e := range m.Entries {
			total++
			if !defined[e.Name] {
				t.Errorf("%s: entry %s not in the text", m.Name, e.Name)
			}
			for _, p := range e.Params {
				if !strings.Contains(m.PTX, "["+e.Name+"_"+p.Name+"]") {
					t.Errorf("%s: %s never loads parameter %s", m.Name, e.Name, p.Name)
				}
			}
		}
		for i, c := range []byte(m.PTX) {
			if c >= 0x80 {
				t.Errorf("%s: byte %d is not ASCII (ptxas rejects it)", m.Name, i)
				break
			}
		}
		if strings.Contains(m.PTX, "unknown") {
			t.Errorf("%s: generator referred to an unknown parameter or register", m.Name)
		}
		if !strings.Contains(m.PTX, ".version "+ptxVersion+"\n.target "+ptxTarget) {
			t.Errorf("%s: header lacks .version %s / .target %s", m.Name, ptxVersion, ptxTarget)
		}
	}
	// 3 dtypes × (fill, 5 unary, 4 binary, relu_backward, scale, axpy) + 6 casts
	// + 3 × 2 sum stages + 3 matmuls + 3 bmms; map: every op but copy × 3
	// types (their Types), fill_i64, fill_b8, copy for 5×5 type pairs; random: 3 kinds × 3 types +
	// arange_i64 + randint_i64; rows: 3 types × (reduce, 4 softmax, 2 nll) + reduce_rows_f64, _s64.
	mapWant := 4 + len(CopyDTypes)*len(CopyDTypes) // fill_i64, _b8, _f64, _i32, the copies
	for _, op := range MapOps {
		if op.Op != "copy" {
			mapWant += len(op.types())
		}
	}
	// The 64-bit copies and fills.
	mapWant += len(CopyDTypes)*len(CopyDTypes) + 4 + len(MapOps[0].types())
	// nn: gather and scatter for every IndexDTypes, scatter_add f32.
	nnWant := 2*len(IndexDTypes) + len(ScatterAddDTypes)
	// pick: max and min for every PickTypes (floats, float64, integers).
	pickWant := 2 * len(PickTypes)
	// philox: every PhiloxKind for its types.
	philoxWant := 0
	for _, kind := range PhiloxKinds {
		philoxWant += len(PhiloxTypes(kind))
	}
	// linalg_f64: bmm, 4 softmax modes, nll_loss and its backward.
	f64Want := 1 + 4 + 2
	// map_small_cast: fill and every copy with a small integer type (32- and
	// 64-bit indices); map_small: the integer operators for the 3 types.
	all := len(CopyDTypes) + len(SmallInts)
	smallWant := 2*(all*all-len(CopyDTypes)*len(CopyDTypes)+len(SmallInts)) + (len(intOpsBody)-2)*len(SmallInts)
	if want := 3*13 + 6 + 6 + 3 + 3 + mapWant + 3*3 + 2 + 3*7 + 2 + nnWant + pickWant + philoxWant + f64Want + smallWant; total != want {
		t.Errorf("%d entries, want %d", total, want)
	}
}

// TestPTXAssembles runs NVIDIA's ptxas on every module when one is
// available (PTXAS names it, or ptxas is on PATH); CI has none and skips.
// Assembling for sm_52 and sm_90 catches every syntax and type error that
// the driver's JIT would report at load time on the GPU.
func TestPTXAssembles(t *testing.T) {
	ptxas := os.Getenv("PTXAS")
	if ptxas == "" {
		var err error
		if ptxas, err = exec.LookPath("ptxas"); err != nil {
			t.Skip("no ptxas (set PTXAS=/path/to/ptxas to assemble the kernels)")
		}
	}
	mods, err := Modules()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, m := range mods {
		src := filepath.Join(dir, m.Name+".ptx")
		if err := os.WriteFile(src, []byte(m.PTX), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, arch := range []string{"sm_52", "sm_90"} {
			out, err := exec.Command(ptxas, "-arch="+arch, "-o", filepath.Join(dir, m.Name+"."+arch+".cubin"), src).CombinedOutput()
			if err != nil {
				t.Errorf("ptxas -arch=%s %s.ptx: %v\n%s", arch, m.Name, err, out)
			}
		}
	}
}
