package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"syscall"

	"github.com/gpumem/playground/web"
)

// serveCmd implements `playground serve`: serve the browser playground until
// interrupted.
func serveCmd(args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", ":8080", "listen `address` (host:port)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil // the usage was printed
		}
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("serve: unexpected arguments %q", fs.Args())
	}
	logger := log.New(os.Stderr, "playground: ", log.LstdFlags)
	gpuService, closeGPU := gpuServe(logger) // nil without the GPU backend
	defer closeGPU()
	srv, err := web.NewServer(web.Options{Log: logger, GPU: gpuService})
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	if !srv.HasWasm() {
		logger.Printf("warning: built without static/wasm/playground.wasm; run `make build` to include the simulator")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return srv.ListenAndServe(ctx, *addr)
}
