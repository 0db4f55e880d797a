//go:build cuda

package gpu

/*
#cgo LDFLAGS: -lcuda
#include <cuda.h>
#include <string.h>

static CUmemAllocationProp gpuPinnedProp(int dev) {
	CUmemAllocationProp prop;
	memset(&prop, 0, sizeof prop);
	prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
	prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	prop.location.id = dev;
	return prop;
}

static CUresult gpuGranularity(size_t *g, int dev) {
	CUmemAllocationProp prop = gpuPinnedProp(dev);
	return cuMemGetAllocationGranularity(g, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
}

static CUresult gpuReserve(CUdeviceptr *ptr, size_t size, size_t align) {
	return cuMemAddressReserve(ptr, size, align, 0, 0);
}

static CUresult gpuAddressFree(CUdeviceptr ptr, size_t size) {
	return cuMemAddressFree(ptr, size);
}

// gpuMapNew creates size bytes of physical memory, maps them at ptr and
// makes them readable and writable by the device; on failure it undoes
// what it did.
static CUresult gpuMapNew(CUmemGenericAllocationHandle *h, CUdeviceptr ptr, size_t size, int dev) {
	CUmemAllocationProp prop = gpuPinnedProp(dev);
	CUresult r = cuMemCreate(h, size, &prop, 0);
	if (r != CUDA_SUCCESS) return r;
	r = cuMemMap(ptr, size, 0, *h, 0);
	if (r != CUDA_SUCCESS) { cuMemRelease(*h); return r; }
	CUmemAccessDesc d;
	memset(&d, 0, sizeof d);
	d.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	d.location.id = dev;
	d.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
	r = cuMemSetAccess(ptr, size, &d, 1);
	if (r != CUDA_SUCCESS) { cuMemUnmap(ptr, size); cuMemRelease(*h); return r; }
	return CUDA_SUCCESS;
}

// gpuUnmapRelease unmaps [ptr, ptr+size) and releases its handle.
static CUresult gpuUnmapRelease(CUmemGenericAllocationHandle h, CUdeviceptr ptr, size_t size) {
	CUresult r = cuMemUnmap(ptr, size);
	if (r != CUDA_SUCCESS) return r;
	return cuMemRelease(h);
}

static const char *gpuErrorName(CUresult r) {
	const char *s = 0;
	if (cuGetErrorName(r, &s) != CUDA_SUCCESS || s == 0) return "CUDA_ERROR_UNKNOWN";
	return s;
}
*/
import "C"

import "fmt"

// driverError is a CUresult from a call this package makes through cgo.
type driverError struct {
	call string
	code C.CUresult
}

func (e *driverError) Error() string {
	return fmt.Sprintf("%s: %s (%d)", e.call, C.GoString(C.gpuErrorName(e.code)), int(e.code))
}

// outOfMemory reports whether the driver said CUDA_ERROR_OUT_OF_MEMORY.
func (e *driverError) outOfMemory() bool { return e.code == C.CUDA_ERROR_OUT_OF_MEMORY }

func check(call string, r C.CUresult) error {
	if r == C.CUDA_SUCCESS {
		return nil
	}
	return &driverError{call, r}
}

// vmmGranularity is cuMemGetAllocationGranularity (minimum) for device
// memory on GPU ordinal.
func vmmGranularity(ordinal int) (int64, error) {
	var g C.size_t
	if err := check("cuMemGetAllocationGranularity", C.gpuGranularity(&g, C.int(ordinal))); err != nil {
		return 0, err
	}
	return int64(g), nil
}

// vmmReserve is cuMemAddressReserve of size bytes aligned to align.
func vmmReserve(size, align int64) (uint64, error) {
	var p C.CUdeviceptr
	if err := check("cuMemAddressReserve", C.gpuReserve(&p, C.size_t(size), C.size_t(align))); err != nil {
		return 0, err
	}
	return uint64(p), nil
}

// vmmAddressFree is cuMemAddressFree.
func vmmAddressFree(addr uint64, size int64) error {
	return check("cuMemAddressFree", C.gpuAddressFree(C.CUdeviceptr(addr), C.size_t(size)))
}

// vmmMap creates, maps and enables size bytes at addr; it returns the
// allocation handle that vmmUnmap needs.
func vmmMap(addr uint64, size int64, ordinal int) (uint64, error) {
	var h C.CUmemGenericAllocationHandle
	if err := check("cuMemCreate/cuMemMap/cuMemSetAccess", C.gpuMapNew(&h, C.CUdeviceptr(addr), C.size_t(size), C.int(ordinal))); err != nil {
		return 0, err
	}
	return uint64(h), nil
}

// vmmUnmap unmaps a range mapped by vmmMap and releases its handle.
func vmmUnmap(handle, addr uint64, size int64) error {
	return check("cuMemUnmap/cuMemRelease", C.gpuUnmapRelease(C.CUmemGenericAllocationHandle(handle), C.CUdeviceptr(addr), C.size_t(size)))
}
