// One level's kernel table (KernelTable.h): compiled once per level like the kernels it points
// to, so each copy names its own level's functions.
#include "KernelTable.h"

#include "Kernels.h"

namespace gfy::cpu {
GFY_CPU_ISA_BEGIN
namespace {
const KernelTable &level_kernel_table() {
  static constexpr KernelTable table{
      GFY_CPU_ISA_NAME,
      {
#define GFY_OP(name, kind, dtypes, traits) &name##_kernel,
#include <graphify/ops.def>
#undef GFY_OP
      },
      &run_fused_elementwise,
      &conv2d_reference,
      &conv2d_im2col,
      &conv2d_tiled,
      &conv2d_tiled_suits,
      &conv2d_batch_norm,
  };
  return table;
}
} // namespace
GFY_CPU_ISA_END

// The name KernelDispatch.cpp finds this level's table by, outside the level's namespace.
#if !defined(GFY_CPU_ISA_LEVEL)
const KernelTable &kernel_table_single() { return level_kernel_table(); }
#elif GFY_CPU_ISA_LEVEL == 1
const KernelTable &kernel_table_x86_64_v1() { return level_kernel_table(); }
#elif GFY_CPU_ISA_LEVEL == 3
const KernelTable &kernel_table_x86_64_v3() { return level_kernel_table(); }
#elif GFY_CPU_ISA_LEVEL == 4
const KernelTable &kernel_table_x86_64_v4() { return level_kernel_table(); }
#endif

} // namespace gfy::cpu
