#pragma once
// The CPU reference kernels, one per ops.def row. Declared from the table so that a missing
// kernel is a link error, not a silent gap. KernelTable.cpp puts them in the level's table.
#include "IsaRegion.h"

#include <graphify/core/Backend.h>

namespace gfy::cpu {
GFY_CPU_ISA_BEGIN
#define GFY_OP(name, kind, dtypes, traits) void name##_kernel(OpCall &call);
#include <graphify/ops.def>
#undef GFY_OP
GFY_CPU_ISA_END
} // namespace gfy::cpu
