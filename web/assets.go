package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"path"
)

// asset is one embedded file, ready to serve in each encoding we have.
type asset struct {
	name        string // file name inside static.FS
	url         string // /static/v/<hash>/<base name>
	hash        string
	contentType string
	raw, gz, br []byte // gz and br are nil when that encoding is not available
}

// assetFiles are the files the page uses, by role. The wasm module is optional.
const (
	cssFile      = "app.css"
	appFile      = "app.js"
	wasmExecFile = "wasm_exec.js"
	wasmFile     = "wasm/playground.wasm"
)

// loadAssets reads the page's assets from fsys. The wasm module's
// precompressed copies (.gz, .br) are used when present; text assets are
// gzipped here once. A missing wasm module is not an error (the page says
// so); any other missing file is.
func loadAssets(fsys fs.FS) (map[string]*asset, error) {
	out := map[string]*asset{}
	for _, name := range []string{cssFile, appFile, wasmExecFile, wasmFile} {
		raw, err := fs.ReadFile(fsys, name)
		if err != nil {
			if name == wasmFile {
				continue
			}
			return nil, fmt.Errorf("web: reading embedded asset %s: %w", name, err)
		}
		a := &asset{name: name, raw: raw, contentType: contentType(name)}
		sum := sha256.Sum256(raw)
		a.hash = hex.EncodeToString(sum[:8])
		a.url = "/static/v/" + a.hash + "/" + path.Base(name)
		if name == wasmFile {
			a.gz = readOptional(fsys, name+".gz")
			a.br = readOptional(fsys, name+".br")
		} else if a.gz, err = gzipBytes(raw); err != nil {
			return nil, fmt.Errorf("web: compressing %s: %w", name, err)
		}
		out[name] = a
	}
	return out, nil
}

// readOptional returns the file's content, or nil if it cannot be read.
func readOptional(fsys fs.FS, name string) []byte {
	b, err := fs.ReadFile(fsys, name)
	if err != nil || len(b) == 0 {
		return nil
	}
	return b
}

// contentType is the Content-Type of an asset by its extension.
func contentType(name string) string {
	switch path.Ext(name) {
	case ".wasm":
		return "application/wasm"
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	}
	if t := mime.TypeByExtension(path.Ext(name)); t != "" {
		return t
	}
	return "application/octet-stream"
}

// gzipBytes compresses b with the best gzip level.
func gzipBytes(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(b); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
