#!/bin/sh
# Runs the aliasing fuzzer (fuzz_aliasing.cpp) on both sides and compares the dumps case by case
# with compare_dumps.cpp. CI runs a fixed seed and count (ctest differential.fuzz_aliasing);
# long runs are by hand:
#   tests/differential/fuzz_aliasing.sh build/release/tests/differential 1000 20000
# usage: fuzz_aliasing.sh BIN_DIR [SEED] [COUNT]
set -eu
bin=$1
seed=${2:-1}
count=${3:-300}
out=$bin/fuzz_aliasing.$seed.$count
"$bin/graphify_fuzz_aliasing_libtorch" "$out.libtorch.dump" --seed "$seed" --count "$count"
"$bin/graphify_fuzz_aliasing_graphify" "$out.graphify.dump" --seed "$seed" --count "$count"
exec "$bin/graphify_diff_compare" --gtest_brief=1 \
  --libtorch-dump="$out.libtorch.dump" --graphify-dump="$out.graphify.dump"
