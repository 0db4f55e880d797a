//go:build !cuda

package gpu

import (
	"errors"
	"strings"
	"testing"
)

func TestOpenWithoutCUDA(t *testing.T) {
	dev, err := Open(Options{})
	if dev != nil || !errors.Is(err, ErrNotBuilt) {
		t.Fatalf("Open = %v, %v; want nil, ErrNotBuilt", dev, err)
	}
	if !strings.Contains(err.Error(), "-tags cuda") {
		t.Errorf("error %q does not say how to build with the backend", err)
	}
}

func TestLeakErrorMessage(t *testing.T) {
	e := &LeakError{Ranges: 2, Bytes: 4 << 20, Reservations: 1, UsedBefore: 100, UsedAfter: 2097252}
	for _, want := range []string{"2 ranges (4194304 bytes)", "1 reservations", "+2097152"} {
		if !strings.Contains(e.Error(), want) {
			t.Errorf("%q lacks %q", e.Error(), want)
		}
	}
}

func TestDeviceNanos(t *testing.T) {
	s := CallStats{AllocNanos: 3, FreeNanos: 4, LaunchNanos: 100}
	if s.DeviceNanos() != 7 {
		t.Errorf("DeviceNanos = %d, want 7", s.DeviceNanos())
	}
}
