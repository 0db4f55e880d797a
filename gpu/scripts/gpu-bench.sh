#!/usr/bin/env bash
# Run on the GPU machine (no Go there) with the binaries of
# `gpu/scripts/build-cuda.sh test-binary` in .carry/: PTX assembly check,
# the value executor's tests and launch benchmark on the GPU, the kernel
# tests, printed values on the GPU backend, and the GPT-style step on the
# GPU backend against PyTorch eager on the same GPU. Everything goes to
# $OUT/gpu-bench.txt (and a tgz of it).
set -u
export PATH=$PATH:/usr/local/cuda/bin
out=${OUT:-/tmp}/gpu-bench.txt
exec > >(tee "$out") 2>&1
echo "== machine"; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; date -u
echo "== ptxas (sm_90) on every module"
for f in gpu/kernels/*.ptx; do
  if ptxas -arch=sm_90 "$f" -o /tmp/k.cubin 2>/tmp/ptxas.err; then echo "ok $f"; else echo "FAIL $f"; head -20 /tmp/ptxas.err; fi
done
echo "== value executor on the GPU (tests + launch benchmark)"
(cd gpu/gpuexec && timeout 180 ../../.carry/gpuexec.test -test.v -test.bench . -test.benchtime 2000x 2>&1 | grep -v '^=== RUN')
echo "== kernel tests and launch benchmarks (package gpu)"
timeout 60 ./.carry/gpu.test -test.run 'Kernel|EveryByte' -test.bench 'Launch' -test.benchtime 2000x 2>&1 | tail -25
echo "== values.py on the GPU backend (want gpu/script/testdata/values.out)"
timeout 60 ./.carry/playground run --backend gpu gpu/script/testdata/values.py > /tmp/values.txt 2>&1
head -n "$(wc -l < gpu/script/testdata/values.out)" /tmp/values.txt > /tmp/values.head
cat /tmp/values.head
diff /tmp/values.head gpu/script/testdata/values.out && echo "values: identical to the CPU reference" || echo "values: differ from the CPU reference (above)"
echo "== GPT-style step: GPU backend (playground run --backend gpu), 2 vs 22 steps"
# One discarded warm-up run first (a new build's PTX is JIT-compiled by the
# driver on its first run and cached), then three alternating pairs; the
# fastest run of each length is used, so that start-up noise cancels.
rm -f /tmp/walls_2 /tmp/walls_22
for s in 2 22; do sed "s/^STEPS = 2/STEPS = $s/" gpu/testdata/gpt_step.py > /tmp/gpt_$s.py; done
timeout 90 ./.carry/playground run --backend gpu /tmp/gpt_2.py > /dev/null 2>&1
for r in 1 2 3; do
  for s in 2 22; do
    t0=$(date +%s.%N)
    timeout 90 ./.carry/playground run --backend gpu /tmp/gpt_$s.py > /tmp/gpt_$s.txt 2>&1
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }' >> /tmp/walls_$s
    echo "round $r steps=$s wall=$(tail -1 /tmp/walls_$s) s; output: $(head -2 /tmp/gpt_$s.txt | tr '\n' ' ')"
  done
done
grep -E "device calls|kernels:|held at the end" /tmp/gpt_2.txt /tmp/gpt_22.txt
awk -v a="$(sort -n /tmp/walls_2 | head -1)" -v b="$(sort -n /tmp/walls_22 | head -1)" 'BEGIN { printf "GPU backend: %.3f ms/step (difference of the fastest 22- and 2-step runs / 20)\n", (b - a) * 1000 / 20 }'
rm -f /tmp/walls_2 /tmp/walls_22
echo "== PyTorch eager, same script, same GPU"
python3 gpu/scripts/torch_step_bench.py gpu/testdata/gpt_step.py 20
echo "PyTorch's losses of the 2-step script (the backend draws PyTorch's random numbers: same losses within float rounding):"
timeout 60 python3 gpu/testdata/gpt_step.py
echo "== done"; date -u
cp /tmp/values.txt /tmp/gpt_2.txt /tmp/gpt_22.txt "${OUT:-/tmp}/" 2>/dev/null
