//go:build !cuda

package gpu

// Open fails: this binary has no GPU backend. Build with -tags cuda (see
// gpu/scripts/build-cuda.sh) to get one.
func Open(opts Options) (Device, error) { return nil, ErrNotBuilt }
