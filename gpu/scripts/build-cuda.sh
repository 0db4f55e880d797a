#!/usr/bin/env bash
# Vet and build the GPU backend (-tags cuda) on a machine without a GPU or
# CUDA toolkit: only NVIDIA's cuda.h (CUDA 11.8) and the libcuda.so link stub
# are needed, fetched into .cache/cuda by fetch-cuda-headers.sh.
#
#   gpu/scripts/build-cuda.sh                 vet ./gpu/... and build ./cmd/playground with -tags cuda
#   gpu/scripts/build-cuda.sh test-binary     also write, for the GPU machine (no Go there), .carry/gpu.test
#                                             (./.carry/gpu.test -test.v -test.bench .), .carry/compare.test
#                                             (cd gpu/compare && ../../.carry/compare.test -test.v: the oracle
#                                             cases on the GPU against the simulation), .carry/gpuexec.test
#                                             (the value executor's tests and launch benchmark on the GPU)
#                                             and .carry/playground
#
# The stubs folder is for linking only: never put it on LD_LIBRARY_PATH at
# run time (the real libcuda.so.1 comes with the driver).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
"$root/gpu/scripts/fetch-cuda-headers.sh"
export CGO_ENABLED=1
export CGO_CFLAGS="-I$root/.cache/cuda/usr/include"
export CGO_LDFLAGS="-L$root/.cache/cuda/usr/lib/x86_64-linux-gnu/stubs"
go vet -tags cuda ./gpu/... ./cmd/playground
go build -tags cuda ./gpu/... ./cmd/playground
if [ "${1:-}" = test-binary ]; then
  mkdir -p .carry
  # stripped: the four must fit the device tool's 64 MiB carry limit
  go test -c -tags cuda -ldflags="-s -w" -o .carry/gpu.test ./gpu
  go test -c -tags cuda -ldflags="-s -w" -o .carry/compare.test ./gpu/compare
  go test -c -tags cuda -ldflags="-s -w" -o .carry/gpuexec.test ./gpu/gpuexec
  go build -tags cuda -ldflags="-s -w" -o .carry/playground ./cmd/playground
  echo "wrote .carry/gpu.test .carry/compare.test .carry/gpuexec.test .carry/playground"
fi
