package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

func TestResegment(t *testing.T) {
	for _, c := range []struct {
		mem  string
		want []segment
	}{
		{"", nil},
		{"\x00\x00\x00", nil},
		{"ab", []segment{{10, []byte("ab")}}},
		{"\x00\x00ab\x00\x00cd\x00", []segment{{12, []byte("ab\x00\x00cd")}}},
		{"ab\x00\x00\x00cd", []segment{{10, []byte("ab")}, {15, []byte("cd")}}},
		{"a\x00\x00\x00\x00\x00\x00b\x00\x00\x00", []segment{{10, []byte("a")}, {17, []byte("b")}}},
	} {
		got := resegment([]byte(c.mem), 10, 3)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("resegment(%q) = %v, want %v", c.mem, got, c.want)
		}
	}
}

func TestTablesWalk(t *testing.T) {
	// At offset 1 (offset 0 means "no table"): value -1+2=1 for 3 pcs,
	// then -1+... zig-zag 4 → +2 (value 3) for 130 pcs (two-byte varint),
	// zig-zag 3 → -2 (value 1), then the terminator.
	pctab := []byte{0xff, 4, 3, 4, 0x82, 0x01, 3, 1, 0, 0xee}
	tabs := &tables{im: memImage{mem: pctab}, start: 0, end: int64(len(pctab)), keep: map[int64]bool{}, drop: map[int64]bool{}}
	n, maxVal, err := tabs.walk(1)
	if err != nil || n != 8 || maxVal != 3 {
		t.Errorf("walk = %d, %d, %v; want 8, 3, nil", n, maxVal, err)
	}
	for _, off := range []uint32{7, 9, 100} { // runs past the end
		if _, _, err := tabs.walk(off); err == nil && off != 7 {
			t.Errorf("walk(%d) past the region accepted", off)
		}
	}
	if err := tabs.mark(1, false); err != nil || len(tabs.drop) != 8 {
		t.Errorf("mark: %v, %d bytes dropped", err, len(tabs.drop))
	}
}

func TestStripLinesLeavesOtherModulesAlone(t *testing.T) {
	for name, mod := range map[string][]byte{
		"no pc table": module(true, active(0, "ab"), active(100, "cd")),
		"no data":     module(false),
		"pcHeader, no moduledata": module(false, active(16, string(pcHeaderMagic)+
			"\x01\x00\x00\x00\x00\x00\x00\x00"+strings.Repeat("\x00", 40)+"\x40\x00\x00\x00\x00\x00\x00\x00\x50\x00\x00\x00\x00\x00\x00\x00")),
	} {
		out, st, err := StripLines(mod)
		if err != nil || !bytes.Equal(out, mod) || st != (LineStats{}) {
			t.Errorf("%s: changed (%v, %+v)", name, err, st)
		}
	}
	if _, _, err := StripLines([]byte("\x7fELF\x02\x01\x01\x00")); err == nil {
		t.Errorf("not a module: accepted")
	}
}

// TestStripLinesRuns builds testdata/stripprog for GOOS=js, strips and packs
// it, and runs both under node (Go's go_js_wasm_exec): the same output, and
// no file or line left for runtime.Caller.
func TestStripLinesRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a wasm program")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node not found")
	}
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	plain := filepath.Join(t.TempDir(), "prog.wasm")
	build := exec.Command(goBin, "build", "-trimpath", "-ldflags=-s -w", "-o", plain, "./testdata/stripprog")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if msg, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building: %v\n%s", err, msg)
	}
	mod, err := os.ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	stripped, st, err := StripLines(mod)
	if err != nil {
		t.Fatal(err)
	}
	if st.Funcs == 0 || st.TableBytes == 0 {
		t.Fatalf("nothing stripped: %+v", st)
	}
	packed, _, err := Pack(stripped, DefaultMaxGap)
	if err != nil {
		t.Fatal(err)
	}
	if packedOnly, _, err := Pack(mod, DefaultMaxGap); err != nil || len(packed) >= len(packedOnly) {
		t.Errorf("stripped and packed module %d B, not smaller than packed %d B (%v)", len(packed), len(packedOnly), err)
	}
	small := filepath.Join(t.TempDir(), "prog.wasm")
	if err := os.WriteFile(small, packed, 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(path string) (string, string) {
		var stdout, stderr bytes.Buffer
		cmd := exec.Command(filepath.Join(runtime.GOROOT(), "lib", "wasm", "go_js_wasm_exec"), path)
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("running %s: %v\n%s%s", path, err, &stdout, &stderr)
		}
		return stdout.String(), stderr.String()
	}
	wantOut, wantErr := run(plain)
	gotOut, gotErr := run(small)
	if gotOut != wantOut {
		t.Errorf("stdout after StripLines:\n%s\nbefore:\n%s", gotOut, wantOut)
	}
	if !strings.Contains(wantOut, "caller main.main true") || !strings.Contains(wantOut, "stack names main.main: true") {
		t.Errorf("unexpected output of the program:\n%s", wantOut)
	}
	if strings.Contains(wantErr, " line 0") || !strings.Contains(gotErr, " line 0") {
		t.Errorf("runtime.Caller before: %q, after: %q; want a line, then none", wantErr, gotErr)
	}
}
