package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/gpumem/playground/sim"
	"github.com/gpumem/playground/sim/profile"
	"github.com/gpumem/playground/static"
	"github.com/gpumem/playground/web/examples"
	"github.com/gpumem/playground/web/views"
)

// Options configure a Server. The zero value serves the embedded assets.
type Options struct {
	// Assets replaces the embedded static files (tests use it); nil means static.FS.
	Assets fs.FS
	// Log receives one line per failed request and the server's start; nil discards.
	Log *log.Logger
	// GPU, if not nil, offers "Run on GPU" (/gpu/ws, /gpu/info; see gpu.go).
	GPU *GPU
}

// Server is the playground's HTTP handler.
type Server struct {
	assets map[string]*asset
	page   []byte // the rendered page: it depends only on the build
	log    *log.Logger
	mux    *http.ServeMux
	gpu    *GPU // nil: no GPU
}

// NewServer loads the assets and renders the page once. It fails when an
// embedded asset other than the wasm module is missing or the page cannot be
// rendered.
func NewServer(opts Options) (*Server, error) {
	fsys := opts.Assets
	if fsys == nil {
		fsys = static.FS
	}
	assets, err := loadAssets(fsys)
	if err != nil {
		return nil, err
	}
	s := &Server{assets: assets, log: opts.Log, mux: http.NewServeMux()}
	if s.log == nil {
		s.log = log.New(discard{}, "", 0)
	}
	data, err := s.pageData()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := views.Page(data).Render(context.Background(), &buf); err != nil {
		return nil, fmt.Errorf("web: rendering the page: %w", err)
	}
	s.page = buf.Bytes()
	s.mux.HandleFunc("GET /{$}", s.servePage)
	s.mux.HandleFunc("GET /static/v/{hash}/{name}", s.serveAsset)
	s.mux.HandleFunc("GET /healthz", s.serveHealth)
	s.registerGPU(opts.GPU)
	return s, nil
}

// HasWasm reports whether the simulator module was embedded.
func (s *Server) HasWasm() bool { return s.assets[wasmFile] != nil }

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	s.mux.ServeHTTP(w, r)
}

// ListenAndServe serves on addr until ctx ends, then shuts down gracefully.
func (s *Server) ListenAndServe(ctx context.Context, addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("web: listening on %s: %w", addr, err)
	}
	return s.Serve(ctx, ln)
}

// Serve serves on ln until ctx ends.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          s.log,
	}
	s.log.Printf("playground %s serving on http://%s/", sim.Version, ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("web: %w", err)
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("web: shutting down: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("web: %w", err)
	}
	return nil
}

// pageData collects what the page shows.
func (s *Server) pageData() (views.PageData, error) {
	d := views.PageData{Version: sim.Version, DefaultProfile: profile.DefaultName, DefaultExample: examples.DefaultID}
	d.Assets = views.Assets{CSS: s.assets[cssFile].url, AppJS: s.assets[appFile].url, WasmExecJS: s.assets[wasmExecFile].url}
	if a := s.assets[wasmFile]; a != nil {
		d.Assets.Wasm = a.url
	}
	for _, p := range profile.All() {
		d.Profiles = append(d.Profiles, views.Profile{Name: p.Name, Title: p.Title})
	}
	ex, err := examples.All()
	if err != nil {
		return d, fmt.Errorf("web: %w", err)
	}
	for _, e := range ex {
		d.Examples = append(d.Examples, views.Example{ID: e.ID, Group: e.Group, Title: e.Title, Source: e.Source})
	}
	return d, nil
}

// csp allows only the page's own assets; CodeMirror injects style elements,
// and the wasm module needs wasm-unsafe-eval to be compiled.
const csp = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"

func (s *Server) servePage(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("Content-Security-Policy", csp)
	h.Set("Referrer-Policy", "no-referrer")
	w.Write(s.page)
}

func (s *Server) serveHealth(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	fmt.Fprintf(w, "ok %s wasm=%t\n", sim.Version, s.HasWasm())
}

// serveAsset sends an asset in the best encoding the client accepts. A
// request naming the current hash is immutable; an old hash still gets the
// current file, but not cached, so a stale page keeps working.
func (s *Server) serveAsset(w http.ResponseWriter, r *http.Request) {
	name, hash := r.PathValue("name"), r.PathValue("hash")
	var a *asset
	for _, c := range s.assets {
		if strings.HasSuffix(c.url, "/"+name) {
			a = c
		}
	}
	if a == nil {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", a.contentType)
	h.Set("Vary", "Accept-Encoding")
	h.Set("ETag", `"`+a.hash+`"`)
	if hash == a.hash {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	if inm := r.Header.Get("If-None-Match"); inm != "" && strings.Contains(inm, `"`+a.hash+`"`) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := a.raw
	ae := r.Header.Get("Accept-Encoding")
	switch {
	case a.br != nil && acceptsEncoding(ae, "br"):
		h.Set("Content-Encoding", "br")
		body = a.br
	case a.gz != nil && acceptsEncoding(ae, "gzip"):
		h.Set("Content-Encoding", "gzip")
		body = a.gz
	}
	h.Set("Content-Length", fmt.Sprint(len(body)))
	if r.Method == http.MethodHead {
		return
	}
	w.Write(body)
}

// discard is an io.Writer that drops everything.
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
