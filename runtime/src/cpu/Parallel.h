#pragma once
// A small blocking thread pool for the CPU kernels. Blocking (not spinning) matters on small
// machines: OpenBLAS keeps its own threads, and spinning workers would steal their cores.
#include <cstdint>
#include <functional>

namespace gfy::cpu {
/// Calls f(begin, end) on disjoint ranges covering [0, n), in parallel when n >= 2 * grain and
/// more than one thread is configured; runs inline when called from inside a parallel region.
void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)> &f);
} // namespace gfy::cpu
