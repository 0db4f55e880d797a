#!/usr/bin/env bash
# The end-of-session record on the GPU machine (no Go there), with the
# binaries of `gpu/scripts/build-cuda.sh test-binary` in .carry/:
#   1. gpu-bench.sh (PTX assembly, executor and kernel tests, launch
#      overhead, values.py, GPT-style step against PyTorch eager);
#   2. every oracle case on the GPU backend against the simulation
#      (compare.test: allocated/reserved line by line);
#   3. every value script of gpu/script/testdata/torch on the GPU backend
#      (NAME.gpu.out, checked here by
#      `go test ./gpu/script -run TestValuesAgainstPyTorch -gpu-out DIR`);
#   4. PyTorch's own output of every value script (NAME.torch.out, to record
#      new scripts and re-check the committed ones);
#   5. start-up of a 2-line script with a cold driver JIT cache and warm.
# Everything lands in $OUT/final.tgz.
set -u
export PATH=$PATH:/usr/local/cuda/bin
o=${OUT:-/tmp}/final
mkdir -p "$o/vals"
bash gpu/scripts/gpu-bench.sh > "$o/bench.txt" 2>&1
cp "${OUT:-/tmp}/gpu-bench.txt" "$o/" 2>/dev/null
rm -f "${OUT:-/tmp}/gpu-bench.txt" "${OUT:-/tmp}"/values.txt "${OUT:-/tmp}"/gpt_*.txt
(cd gpu/compare && timeout 300 ../../.carry/compare.test -test.v > "$o/compare.txt" 2>&1; echo "compare.test rc=$?" >> "$o/compare.txt")
for f in gpu/script/testdata/torch/*.py; do
  n=$(basename "$f" .py)
  timeout 120 ./.carry/playground run --backend gpu "$f" > "$o/vals/$n.gpu.out" 2>&1
  timeout 120 python3 "$f" > "$o/vals/$n.torch.out" 2>&1
done
printf 'import torch\nx = torch.ones(4, device="cuda")\nprint((x * 2).sum().item())\n' > /tmp/two.py
for i in 1 2; do
  t0=$(date +%s.%N); CUDA_CACHE_DISABLE=1 ./.carry/playground run --backend gpu /tmp/two.py > /tmp/two.out 2>&1; t1=$(date +%s.%N)
  echo "cold $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s: $(tr '\n' ' ' < /tmp/two.out | cut -c1-200)" >> "$o/startup.txt"
done
for i in 1 2; do
  t0=$(date +%s.%N); ./.carry/playground run --backend gpu /tmp/two.py > /tmp/two.out 2>&1; t1=$(date +%s.%N)
  echo "warm $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s" >> "$o/startup.txt"
done
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$o/machine.txt"
python3 -c "import torch; print(torch.__version__)" >> "$o/machine.txt" 2>&1
cd "${OUT:-/tmp}" && tar czf final.tgz final && rm -rf final
