package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"

	"github.com/andybalholm/brotli"
)

// Sizes are the byte counts of one file and its compressed copies.
type Sizes struct {
	Raw, Gzip, Brotli int
}

// Encode returns the gzip (best compression) and brotli (quality 11) forms of
// data. Both are deterministic: no file name or time in the gzip header.
func Encode(data []byte) (gz, br []byte, err error) {
	var g bytes.Buffer
	zw, err := gzip.NewWriterLevel(&g, gzip.BestCompression)
	if err != nil {
		return nil, nil, fmt.Errorf("gzip: %w", err)
	}
	if _, err := zw.Write(data); err != nil {
		return nil, nil, fmt.Errorf("gzip: %w", err)
	}
	if err := zw.Close(); err != nil {
		return nil, nil, fmt.Errorf("gzip: %w", err)
	}
	var b bytes.Buffer
	bw := brotli.NewWriterLevel(&b, brotli.BestCompression)
	if _, err := bw.Write(data); err != nil {
		return nil, nil, fmt.Errorf("brotli: %w", err)
	}
	if err := bw.Close(); err != nil {
		return nil, nil, fmt.Errorf("brotli: %w", err)
	}
	return g.Bytes(), b.Bytes(), nil
}

// compressFile writes path.gz and path.br next to path.
func compressFile(path string) (Sizes, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Sizes{}, fmt.Errorf("reading module: %w", err)
	}
	gz, br, err := Encode(data)
	if err != nil {
		return Sizes{}, fmt.Errorf("%s: %w", path, err)
	}
	if err := os.WriteFile(path+".gz", gz, 0o644); err != nil {
		return Sizes{}, fmt.Errorf("writing gzip copy: %w", err)
	}
	if err := os.WriteFile(path+".br", br, 0o644); err != nil {
		return Sizes{}, fmt.Errorf("writing brotli copy: %w", err)
	}
	return Sizes{Raw: len(data), Gzip: len(gz), Brotli: len(br)}, nil
}
