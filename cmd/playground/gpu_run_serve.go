package main

import (
	"errors"
	"log"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/web"
	"github.com/gpumem/playground/web/gpujob"
)

// gpuServe opens the GPU for `playground serve`: with the backend (a binary
// built with -tags cuda) it returns the "Run on GPU" service for
// web.Options.GPU and a function that stops the queue and closes the
// device; without it, nil and a no-op. Each job may hold at most
// gpujob.DefaultLimits().MaxGPUMemory on the device (gpu.Options.MemoryLimit).
func gpuServe(logger *log.Logger) (*web.GPU, func()) {
	limits := gpujob.DefaultLimits()
	dev, err := openGPU(gpu.Options{MemoryLimit: limits.MaxGPUMemory})
	if errors.Is(err, gpu.ErrNotBuilt) {
		return nil, func() {}
	}
	if err != nil {
		logger.Printf("warning: no \"Run on GPU\": %v", err)
		return nil, func() {}
	}
	g, q, err := web.NewGPU(dev, limits, gpujob.Options{Log: logger})
	if err != nil {
		logger.Printf("warning: no \"Run on GPU\": %v", err)
		dev.Close()
		return nil, func() {}
	}
	logger.Printf("Run on GPU: %s, at most %d B of GPU memory per job", dev.Name(), limits.MaxGPUMemory)
	return g, func() {
		q.Close()
		if err := dev.Close(); err != nil {
			logger.Printf("closing the GPU: %v", err)
		}
	}
}
