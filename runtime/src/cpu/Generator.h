#pragma once
// The CPU's global random generator, shared by the random kernels of every instruction-set level
// (one generator whichever level runs, so manual_seed gives the same numbers on every CPU).
#include <random>

namespace gfy::detail {
std::mt19937_64 &generator();
} // namespace gfy::detail
