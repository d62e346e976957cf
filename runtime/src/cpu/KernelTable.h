#pragma once
// What runs the CPU kernels: one table per instruction-set level the runtime was built for
// (IsaRegion.h), one chosen per process (KernelDispatch.cpp). The backend's compute() and the
// graph passes that run a kernel outside an op's dispatch (fused elementwise runs, convolutions
// with a fused batch norm) all go through the chosen table, so a captured graph computes at the
// level eager execution computes at, and gives its bits.
#include "ConvKernels.h"
#include "FusedElementwise.h"

#include <string_view>
#include <vector>

namespace gfy::cpu {

struct KernelTable {
  std::string_view isa; ///< the level's name, as cpu_isa() returns it
  void (*op[kNumOps])(OpCall &call); ///< by OpId: ops.def's kernels (Kernels.h)
  void (*fused_elementwise)(const FusedElementwise &program);
  void (*conv2d_reference)(const OpCall &call);
  void (*conv2d_im2col)(const OpCall &call);
  void (*conv2d_tiled)(const OpCall &call, const ConvEpilogue &epilogue);
  bool (*conv2d_tiled_suits)(const ConvGeometry &g);
  void (*conv2d_batch_norm)(const OpCall &call, double eps, bool relu);
};

/// Each level's table, defined by that level's copy of KernelTable.cpp (only those the build lists
/// exist: GFY_CPU_ISA_LEVELS_BUILT, or kernel_table_single in a build with one copy).
const KernelTable &kernel_table_x86_64_v1();
const KernelTable &kernel_table_x86_64_v3();
const KernelTable &kernel_table_x86_64_v4();
const KernelTable &kernel_table_single();

/// The table of the level in use (gfy::cpu_isa()).
const KernelTable &kernels();
/// The tables of every level this build has and this CPU runs, lowest first.
const std::vector<const KernelTable *> &runnable_kernel_tables();

} // namespace gfy::cpu
