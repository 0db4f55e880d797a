#!/usr/bin/env bash
# Fetch NVIDIA's cuda.h and the libcuda.so link stub from Debian's non-free
# nvidia-cuda-dev package (CUDA 11.8 headers), without installing it and
# without changing the machine's apt sources, into .cache/cuda (ignored by git).
# gorgonia.org/cu v0.9.6 builds against these; see shared docs/stack.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dest=$root/.cache/cuda
if [ -f "$dest/usr/include/cuda.h" ] && [ -f "$dest/usr/lib/x86_64-linux-gnu/stubs/libcuda.so" ]; then
  exit 0
fi
work=$root/.cache/cuda-apt
mkdir -p "$work/lists/partial" "$work/archives/partial" "$dest"
cat > "$work/sources.list" <<LIST
deb http://deb.debian.org/debian bookworm main contrib non-free
LIST
opts=(-o Dir::Etc::SourceList="$work/sources.list" -o Dir::Etc::SourceParts=/dev/null
      -o Dir::State::Lists="$work/lists" -o Dir::Cache::Archives="$work/archives"
      -o APT::Get::List-Cleanup=0 -o Acquire::http::Timeout=20 -o Acquire::Retries=1 -q)
fail() {
  echo "fetch-cuda-headers: $1: cannot get the CUDA 11.8 headers from deb.debian.org (no network?);" >&2
  echo "fetch-cuda-headers: the -tags cuda build needs $dest/usr/include/cuda.h and the libcuda.so stub" >&2
  exit 1
}
# Bounded: a machine without network fails within minutes instead of hanging.
timeout 180 apt-get "${opts[@]}" update >/dev/null || fail "apt-get update failed"
(cd "$work" && timeout 600 apt-get "${opts[@]}" download nvidia-cuda-dev) || fail "downloading nvidia-cuda-dev failed"
deb=$(ls "$work"/nvidia-cuda-dev_*.deb | head -1)
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dest" ./usr/include/cuda.h ./usr/lib/x86_64-linux-gnu/stubs/libcuda.so
rm -f "$deb"
echo "cuda.h and libcuda.so stub in $dest"
