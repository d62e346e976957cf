#pragma once
/// \file
/// LibTorch's intra-op parallel loop (`at::parallel_for`) on the runtime's CPU thread pool, the one
/// its own kernels use (`set_num_threads` sizes it), for user kernels such as a CPU NMS.
///
/// \code
///   gfy::parallel_for(0, boxes.size(0), /*grain_size=*/64, [&](int64_t begin, int64_t end) {
///     for (int64_t i = begin; i < end; ++i) areas[i] = (x2[i] - x1[i]) * (y2[i] - y1[i]);
///   });
/// \endcode

#include <cstdint>
#include <functional>

namespace gfy {

/// Calls f(b, e) on disjoint ranges covering [begin, end): in parallel when the range holds at
/// least two grains and more than one thread is configured, inline (one call with the whole
/// range) otherwise and inside another parallel region. The first exception a range throws is
/// rethrown here after every range has finished, as LibTorch's.
void parallel_for(int64_t begin, int64_t end, int64_t grain_size, const std::function<void(int64_t, int64_t)> &f);
/// Whether the calling thread runs a range of a parallel_for.
bool in_parallel_region();

} // namespace gfy
