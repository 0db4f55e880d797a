package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/andybalholm/brotli"
)

// testAssets is a small asset tree; withWasm adds a module and its copies.
func testAssets(t *testing.T, withWasm bool) fstest.MapFS {
	t.Helper()
	fs := fstest.MapFS{
		"app.css":        {Data: []byte("body{color:red}")},
		"app.js":         {Data: []byte(strings.Repeat("console.log(1);", 100))},
		"wasm_exec.js":   {Data: []byte("// go")},
		"wasm/README.md": {Data: []byte("placeholder")},
	}
	if withWasm {
		mod := []byte("\x00asm\x01\x00\x00\x00" + strings.Repeat("x", 1000))
		var gz, br bytes.Buffer
		zw := gzip.NewWriter(&gz)
		zw.Write(mod)
		zw.Close()
		bw := brotli.NewWriter(&br)
		bw.Write(mod)
		bw.Close()
		fs["wasm/playground.wasm"] = &fstest.MapFile{Data: mod}
		fs["wasm/playground.wasm.gz"] = &fstest.MapFile{Data: gz.Bytes()}
		fs["wasm/playground.wasm.br"] = &fstest.MapFile{Data: br.Bytes()}
	}
	return fs
}

func newTestServer(t *testing.T, withWasm bool) *Server {
	t.Helper()
	s, err := NewServer(Options{Assets: testAssets(t, withWasm)})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func get(s http.Handler, path, acceptEncoding string) *http.Response {
	req := httptest.NewRequest("GET", path, nil)
	if acceptEncoding != "" {
		req.Header.Set("Accept-Encoding", acceptEncoding)
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	return rec.Result()
}

func TestWasmEncodings(t *testing.T) {
	s := newTestServer(t, true)
	url := s.assets[wasmFile].url
	if !strings.HasPrefix(url, "/static/v/") || !strings.HasSuffix(url, "/playground.wasm") {
		t.Fatalf("wasm url %q", url)
	}
	tests := []struct {
		accept, wantEncoding string
	}{
		{"gzip, deflate, br, zstd", "br"},
		{"gzip", "gzip"},
		{"br;q=0, gzip", "gzip"},
		{"", ""},
		{"identity", ""},
		{"*", "br"},
	}
	for _, tt := range tests {
		res := get(s, url, tt.accept)
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != 200 {
			t.Fatalf("%q: status %d", tt.accept, res.StatusCode)
		}
		if got := res.Header.Get("Content-Encoding"); got != tt.wantEncoding {
			t.Errorf("%q: Content-Encoding %q, want %q", tt.accept, got, tt.wantEncoding)
		}
		if got := res.Header.Get("Content-Type"); got != "application/wasm" {
			t.Errorf("%q: Content-Type %q", tt.accept, got)
		}
		if got := res.Header.Get("Cache-Control"); !strings.Contains(got, "immutable") {
			t.Errorf("%q: Cache-Control %q, want immutable", tt.accept, got)
		}
		if !strings.Contains(res.Header.Get("Vary"), "Accept-Encoding") {
			t.Errorf("%q: no Vary: Accept-Encoding", tt.accept)
		}
		var plain []byte
		switch tt.wantEncoding {
		case "br":
			plain, _ = io.ReadAll(brotli.NewReader(bytes.NewReader(body)))
		case "gzip":
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			plain, _ = io.ReadAll(zr)
		default:
			plain = body
		}
		if !bytes.Equal(plain, s.assets[wasmFile].raw) {
			t.Errorf("%q: body does not decode to the module", tt.accept)
		}
	}
}

func TestAssetCaching(t *testing.T) {
	s := newTestServer(t, false)
	a := s.assets[appFile]
	res := get(s, a.url, "gzip")
	if res.Header.Get("Content-Encoding") != "gzip" || res.Header.Get("Content-Type") != "text/javascript; charset=utf-8" {
		t.Errorf("app.js headers: %v", res.Header)
	}
	// An old hash still gets the file, but not cached forever.
	res = get(s, "/static/v/0000000000000000/app.js", "")
	if res.StatusCode != 200 || strings.Contains(res.Header.Get("Cache-Control"), "immutable") {
		t.Errorf("stale hash: status %d, Cache-Control %q", res.StatusCode, res.Header.Get("Cache-Control"))
	}
	req := httptest.NewRequest("GET", a.url, nil)
	req.Header.Set("If-None-Match", `"`+a.hash+`"`)
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	if rec.Code != http.StatusNotModified {
		t.Errorf("If-None-Match: status %d, want 304", rec.Code)
	}
	for _, p := range []string{"/static/v/x/nope.js", "/static/app.js", "/nope"} {
		if res := get(s, p, ""); res.StatusCode != 404 {
			t.Errorf("%s: status %d, want 404", p, res.StatusCode)
		}
	}
}

func TestPageServed(t *testing.T) {
	for _, withWasm := range []bool{true, false} {
		s := newTestServer(t, withWasm)
		res := get(s, "/", "")
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
			t.Fatalf("page: status %d type %q", res.StatusCode, res.Header.Get("Content-Type"))
		}
		if !strings.Contains(res.Header.Get("Content-Security-Policy"), "wasm-unsafe-eval") {
			t.Errorf("page CSP does not allow compiling the module")
		}
		for _, name := range []string{cssFile, appFile, wasmExecFile} {
			if !bytes.Contains(body, []byte(s.assets[name].url)) {
				t.Errorf("page does not reference %s at %s", name, s.assets[name].url)
			}
		}
		if got := bytes.Contains(body, []byte(`id="wasm-missing"`)); got == withWasm {
			t.Errorf("withWasm=%v: missing-module notice shown=%v", withWasm, got)
		}
		if s.HasWasm() != withWasm {
			t.Errorf("HasWasm() = %v, want %v", s.HasWasm(), withWasm)
		}
		health := get(s, "/healthz", "")
		hb, _ := io.ReadAll(health.Body)
		if !strings.HasPrefix(string(hb), "ok ") {
			t.Errorf("healthz: %q", hb)
		}
	}
}

func TestNewServerNeedsAssets(t *testing.T) {
	fs := testAssets(t, false)
	delete(fs, "app.js")
	if _, err := NewServer(Options{Assets: fs}); err == nil || !strings.Contains(err.Error(), "app.js") {
		t.Errorf("missing app.js: err = %v", err)
	}
}

func TestAcceptsEncoding(t *testing.T) {
	tests := []struct {
		header, coding string
		want           bool
	}{
		{"gzip, br", "br", true},
		{"gzip, br", "gzip", true},
		{"gzip", "br", false},
		{"GZIP;q=0.5", "gzip", true},
		{"gzip;q=0", "gzip", false},
		{"*;q=0.1", "br", true},
		{"*, br;q=0", "br", false},
		{"", "gzip", false},
		{"deflate;q=bad, gzip", "gzip", true},
	}
	for _, tt := range tests {
		if got := acceptsEncoding(tt.header, tt.coding); got != tt.want {
			t.Errorf("acceptsEncoding(%q, %q) = %v, want %v", tt.header, tt.coding, got, tt.want)
		}
	}
}
