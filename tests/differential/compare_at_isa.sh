#!/bin/sh
# The differential suite with the graphify side's CPU kernels at one instruction-set level
# (GRAPHIFY_CPU_ISA; runtime/CpuIsaLevels.cmake): the graphify dumper runs at LEVEL and every case
# is compared with LibTorch's dump, as ctest's Differential.* entries do at the default level.
# Exits 77 (ctest: skipped) when this CPU does not run LEVEL (the dumper fails, or records the
# refusal for every case).
# usage: compare_at_isa.sh BIN_DIR LEVEL
set -eu
bin=$1
level=$2
out=$bin/graphify.$level.dump
# Refreshes LibTorch's dump if the dumper is newer (the compare binary does it when listing).
"$bin/graphify_diff_compare" --gtest_list_tests > /dev/null
if ! GRAPHIFY_CPU_ISA=$level "$bin/graphify_diff_dump_graphify" "$out" > "$out.log" 2>&1; then
  if grep -q "this CPU does not run" "$out.log"; then
    cat "$out.log"
    exit 77
  fi
  echo "compare_at_isa: the graphify dumper failed at $level (see $out.log):"
  tail -20 "$out.log"
  exit 1
fi
# The dumper records an error per case rather than failing when the level is refused at the first
# kernel call (a machine without AVX-512 asked for x86-64-v4): that is a skip too.
if grep -q "this CPU does not run" "$out"; then
  grep -m1 "this CPU does not run" "$out"
  exit 77
fi
exec "$bin/graphify_diff_compare" --gtest_brief=1 --libtorch-dump="$bin/libtorch.dump" --graphify-dump="$out"
