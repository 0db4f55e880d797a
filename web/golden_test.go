package web

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/a-h/templ"
	"github.com/gpumem/playground/web/views"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading golden file (run go test ./web -update): %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the rendered output (run go test ./web -update and review the diff)\n got: %s", path, got)
	}
}

// fixture is page data that does not depend on the build.
func fixture(wasm string) views.PageData {
	return views.PageData{
		Version:        "9.9.9",
		Assets:         views.Assets{CSS: "/static/v/c55/app.css", AppJS: "/static/v/a99/app.js", WasmExecJS: "/static/v/e11/wasm_exec.js", Wasm: wasm},
		Profiles:       []views.Profile{{Name: "h100", Title: "H100 80GB <HBM3>"}, {Name: "t4", Title: "Tesla T4"}},
		DefaultProfile: "h100",
		Examples: []views.Example{
			{ID: "s1", Group: "From the articles", Title: "Release & reuse", Source: "import torch\nprint('</script>')\n"},
			{ID: "s2", Group: "From the articles", Title: "Cache", Source: "x = 1\n"},
			{ID: "p1", Group: "PyTorch behaviour", Title: "Views", Source: "y = 2\n"},
		},
		DefaultExample: "s1",
	}
}

func render(t *testing.T, c templ.Component) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := c.Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestViewsGolden(t *testing.T) {
	tests := []struct {
		file string
		c    templ.Component
	}{
		{"page.html", views.Page(fixture("/static/v/w77/playground.wasm"))},
		{"page_nowasm.html", views.Page(fixture(""))},
		{"toolbar.html", views.Toolbar(fixture(""))},
		{"summary.html", views.Summary()},
		{"map.html", views.MapPane()},
		{"lines.html", views.LinesPane()},
		{"output.html", views.OutputPane()},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			golden(t, tt.file, render(t, tt.c))
		})
	}
}

// TestPageContract checks the parts of the page that the views module and
// the end-to-end test rely on, independently of the golden files.
func TestPageContract(t *testing.T) {
	page := string(render(t, views.Page(fixture("/static/v/w77/playground.wasm"))))
	for _, want := range []string{
		`id="editor"`, `id="run-button"`, `id="share-button"`, `id="theme-button"`, `id="example-select"`,
		`id="profile-select"`, `id="alloc-conf"`, `id="alloc-conf-error"`, `id="stdout"`, `id="traceback"`,
		`id="timeline"`, `id="segmap"`, `id="scrubber"`, `id="line-table"`, `id="oom-banner"`,
		`id="final-allocated"`, `id="final-reserved"`, `id="stat-allocated"`, `id="examples-data"`,
		`data-wasm="/static/v/w77/playground.wasm"`, `data-version="9.9.9"`, `data-default-example="s1"`,
		`<option value="h100" selected>`, `<optgroup label="PyTorch behaviour">`,
	} {
		if !bytes.Contains([]byte(page), []byte(want)) {
			t.Errorf("page lacks %s", want)
		}
	}
	// The examples' JSON must not be able to close its script element.
	if bytes.Contains([]byte(page), []byte("print('</script>')")) {
		t.Errorf("example source was not escaped inside the JSON script")
	}
	if bytes.Contains([]byte(page), []byte(`id="wasm-missing"`)) {
		t.Errorf("page with a module shows the missing-module notice")
	}
	nowasm := render(t, views.Page(fixture("")))
	if !bytes.Contains(nowasm, []byte(`id="wasm-missing"`)) {
		t.Errorf("page without a module lacks the missing-module notice")
	}
}
