#pragma once
// A run of elementwise ops over one iteration shape, executed as one loop: each chunk of up to
// kFusedChunk elements of the innermost dimension goes through every step while it sits in L1,
// so values that nobody outside the run reads never reach memory. Built by the graph's
// FuseElementwise pass; the per-element math is the CPU kernels' (Loops.h), so a fused run gives
// the bits the separate kernels give.
#include "IsaRegion.h"

#include <graphify/core/Backend.h>

#include <vector>

namespace gfy::cpu {

constexpr int64_t kFusedChunk = 256;

struct FusedElementwise {
  /// One op, fusable in ops.def: slots[out] = op(slots[in0], slots[in1]) (in1 unused by unary ops).
  struct Step {
    OpId op;
    int out, in0, in1;
    double alpha; ///< add/sub: out = in0 ± alpha * in1
  };
  ScalarType dtype = kFloat;
  std::vector<int64_t> shape; ///< the iteration shape every operand has
  int num_slots = 0;
  std::vector<std::pair<int, Tensor>> loads;  ///< slot <- tensor, at the start of each chunk
  std::vector<Step> steps;
  std::vector<std::pair<int, Tensor>> stores; ///< tensor <- slot, at the end of each chunk
};

GFY_CPU_ISA_BEGIN
/// Runs the program; rows (all dims but the last) are split over the intra-op pool. Called
/// through the kernel table (KernelTable.h), so that fused runs use the level the kernels use.
void run_fused_elementwise(const FusedElementwise &program);
GFY_CPU_ISA_END

} // namespace gfy::cpu
