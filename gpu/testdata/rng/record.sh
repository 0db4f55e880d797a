set -e
mkdir -p $OUT/r
python3 gpu/testdata/rng/probe.py > $OUT/r/probe-out.jsonl 2> $OUT/r/probe-err.txt || echo "probe failed $?" >> $OUT/r/probe-err.txt
TI=$(python3 -c "import torch,os;print(os.path.join(os.path.dirname(torch.__file__),'include'))")
mkdir -p $OUT/r/hdr
cd $TI && tar czf $OUT/r/hdr/aten-rng.tgz $(ls -d ATen/core/DistributionsHelper.h ATen/core/TransformationHelper.h ATen/core/PhiloxRNGEngine.h ATen/core/MT19937RNGEngine.h ATen/CPUGeneratorImpl.h ATen/cuda/CUDAGeneratorImpl.h ATen/cuda/detail/UnpackRaw.cuh ATen/cuda/PhiloxUtils.cuh ATen/native/cpu/DistributionTemplates.h ATen/native/cpu/DistributionKernels.h ATen/native/cuda/DistributionTemplates.h ATen/native/DistributionTemplates.h ATen/native/cuda/*Dropout* ATen/native/cuda/Randperm.cuh ATen/native/cuda/MemoryAccess.cuh ATen/native/cpu/avx_mathfun.h 2>/dev/null) || true
(cd $TI && ls ATen/native/cuda ATen/native/cpu ATen/core ATen/cuda > $OUT/r/aten-ls.txt 2>&1) || true
CI=$(dirname $(dirname $(which nvcc)))/include
ls $CI/curand* > $OUT/r/curand-list.txt 2>&1 || true
cd $CI && tar czf $OUT/r/hdr/curand.tgz curand_kernel.h curand_philox4x32_x.h curand_normal.h curand_uniform.h curand_normal_static.h 2>/dev/null || true
cd $OUT && tar czf rng-probe.tgz r && rm -rf r
