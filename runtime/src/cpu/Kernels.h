#pragma once
// The CPU reference kernels, one per ops.def row. Declared from the table so that a missing
// kernel is a link error, not a silent gap.
#include <graphify/core/Backend.h>

namespace gfy::cpu {
#define GFY_OP(name, kind, dtypes, traits) void name##_kernel(OpCall &call);
#include <graphify/ops.def>
#undef GFY_OP
} // namespace gfy::cpu
