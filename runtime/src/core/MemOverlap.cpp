// The memory-overlap check every kernel launch passes (detail::run). It keeps the rule of
// MemOverlap.h: a write that would read elements it has already overwritten — `a[1:6] = a[0:5]`,
// `b *= b.t()` — raises LibTorch's error instead of producing values that depend on the kernel's
// loop order (and differ between the CPU reference, its fast paths and the CUDA backend).
#include "MemOverlap.h"

#include <algorithm>
#include <numeric>

namespace gfy::detail {
namespace {

/// ATen's MemOverlapStatus.
enum class MemOverlapStatus { full, partial, too_hard, none };

/// A layout reduced to what the rule reads.
struct Extent {
  std::vector<int64_t> sizes, strides;
  const char *begin = nullptr;
  int64_t numel = 0;
};

Extent extent_of(const TensorImpl &t, bool drop_broadcast_dims) {
  Extent e;
  e.begin = t.data();
  for (size_t d = 0; d < t.sizes.size(); ++d) {
    // A dim of stride 0 repeats one element: the input before its front-end broadcast it did not
    // have it (or had it with size 1, which the rule ignores).
    if (drop_broadcast_dims && t.strides[d] == 0) continue;
    e.sizes.push_back(t.sizes[d]);
    e.strides.push_back(t.strides[d]);
  }
  e.numel = std::accumulate(e.sizes.begin(), e.sizes.end(), int64_t(1), std::multiplies<>());
  return e;
}

/// c10's compute_non_overlapping_and_dense: some permutation of the dims of size > 1 is
/// row-major contiguous.
bool non_overlapping_and_dense(const Extent &e) {
  std::vector<size_t> perm;
  for (size_t d = 0; d < e.sizes.size(); ++d)
    if (e.sizes[d] >= 2) perm.push_back(d);
  for (size_t d = 0; d < e.sizes.size(); ++d)
    if (e.sizes[d] == 0) return true;
  std::sort(perm.begin(), perm.end(), [&](size_t a, size_t b) { return e.strides[a] < e.strides[b]; });
  int64_t require = 1;
  for (size_t d : perm) {
    if (e.strides[d] != require) return false;
    require *= e.sizes[d];
  }
  return true;
}

/// ATen's get_overlap_status over the reduced layouts.
MemOverlapStatus overlap(const TensorImpl &a, const Extent &ea, const TensorImpl &b, const Extent &eb) {
  if (&a == &b) return MemOverlapStatus::full;
  if (ea.numel == 0 || eb.numel == 0) return MemOverlapStatus::none;
  if (!non_overlapping_and_dense(ea) || !non_overlapping_and_dense(eb)) return MemOverlapStatus::too_hard;
  if (a.storage != b.storage) return MemOverlapStatus::none;
  const char *a_end = ea.begin + ea.numel * int64_t(element_size(a.dtype));
  const char *b_end = eb.begin + eb.numel * int64_t(element_size(b.dtype));
  if (ea.begin == eb.begin && a_end == b_end)
    return ea.strides == eb.strides ? MemOverlapStatus::full : MemOverlapStatus::partial;
  if (ea.begin < b_end && eb.begin < a_end) return MemOverlapStatus::partial;
  return MemOverlapStatus::none;
}

/// ATen's has_internal_overlap == Yes: a broadcast dim, unless the tensor is empty (an empty
/// tensor is dense, and writing it writes nothing).
bool has_internal_overlap(const TensorImpl &t) {
  if (t.numel == 0) return false;
  for (size_t d = 0; d < t.sizes.size(); ++d)
    if (t.strides[d] == 0 && t.sizes[d] > 1) return true;
  return false;
}

} // namespace

void check_write_overlap(const OpCall &call) {
  const bool broadcast_out = op_writes_through_broadcast(call.op);
  for (const Tensor &o : call.out) {
    const TensorImpl &oi = *o.unsafeGetTensorImpl();
    GFY_CHECK(broadcast_out || !has_internal_overlap(oi),
              "unsupported operation: more than one element of the written-to tensor refers to a single memory "
              "location. Please clone() the tensor before performing the operation.");
    const Extent eo = extent_of(oi, false);
    for (const Tensor &in : call.in) {
      if (!in.defined() || in.is_same(o)) continue;
      const TensorImpl &ii = *in.unsafeGetTensorImpl();
      if (ii.storage != oi.storage) continue; // the common case, decided without building extents
      GFY_CHECK(overlap(oi, eo, ii, extent_of(ii, true)) != MemOverlapStatus::partial,
                "unsupported operation: some elements of the input tensor and the written-to tensor refer to a "
                "single memory location. Please clone() the tensor before performing the operation.");
    }
  }
}

} // namespace gfy::detail
