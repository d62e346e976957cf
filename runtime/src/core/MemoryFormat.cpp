// Channels-last layouts: which strides count as channels-last (c10's MemoryFormat rules, LibTorch
// 1.13 c10/core/MemoryFormat.h and TensorImpl's flags) and the copies that produce them.
#include "OpsCommon.h"

#include <ostream>

namespace gfy {
using namespace detail;

namespace {

// The dims from innermost to outermost of a channels-last layout: C, then W (H, W for 3d), then N.
std::vector<int64_t> channels_last_order(int64_t dim) {
  if (dim == 4) return {1, 3, 2, 0};
  if (dim == 5) return {1, 4, 3, 2, 0};
  return {};
}

// Exactly channels-last strides (size-1 dims ignored), as compute_channels_last_contiguous_2d/3d.
bool channels_last_contiguous(const Tensor &t, int64_t dim) {
  if (t.dim() != dim) return false;
  int64_t expected = 1;
  for (int64_t d : channels_last_order(dim)) {
    if (t.size(d) == 1) continue;
    if (t.stride(d) != expected) return false;
    expected *= t.size(d);
  }
  return true;
}

// Strides that order the dims channels-last, as is_channels_last_strides_2d_s4/3d_s5: each dim's
// stride at least the extent of the ones inside it, ambiguous N1.. cases left to NCHW.
bool strides_like_channels_last(const Tensor &t) {
  const std::vector<int64_t> order = channels_last_order(t.dim());
  if (order.empty() || t.stride(1) == 0) return false;
  int64_t min = 0;
  for (int64_t d : order) {
    if (t.size(d) == 0 || t.stride(d) < min) return false;
    if (d == 0 && min == t.stride(1)) return false;
    min = t.stride(d);
    if (t.size(d) > 1) min *= t.size(d);
  }
  return true;
}

} // namespace

std::ostream &operator<<(std::ostream &os, MemoryFormat f) {
  switch (f) {
  case MemoryFormat::Contiguous: return os << "Contiguous";
  case MemoryFormat::Preserve: return os << "Preserve";
  case MemoryFormat::ChannelsLast: return os << "ChannelsLast";
  case MemoryFormat::ChannelsLast3d: return os << "ChannelsLast3d";
  }
  return os << "Unknown memory format";
}

bool Tensor::is_contiguous(MemoryFormat format) const {
  check_defined(*this, "self");
  // Preserve asks for row-major contiguity, as c10's is_contiguous_default.
  if (format == MemoryFormat::ChannelsLast) return channels_last_contiguous(*this, 4);
  if (format == MemoryFormat::ChannelsLast3d) return channels_last_contiguous(*this, 5);
  return is_contiguous();
}

MemoryFormat Tensor::suggest_memory_format(bool channels_last_strides_exact_match) const {
  check_defined(*this, "self");
  if (!strides_like_channels_last(*this)) return MemoryFormat::Contiguous;
  const MemoryFormat format = dim() == 4 ? MemoryFormat::ChannelsLast : MemoryFormat::ChannelsLast3d;
  if (channels_last_strides_exact_match && !is_contiguous(format)) return MemoryFormat::Contiguous;
  return format;
}

Tensor Tensor::contiguous(MemoryFormat format) const {
  check_defined(*this, "self");
  // As LibTorch's TensorBase::contiguous: a tensor already laid out as asked is returned as is
  // (Preserve included); only a copy to Preserve is refused.
  if (is_contiguous(format)) return *this;
  GFY_CHECK(format != MemoryFormat::Preserve, "preserve memory format is unsupported by the contiguous operator");
  if (format == MemoryFormat::Contiguous) return contiguous();
  if (format == MemoryFormat::ChannelsLast) {
    GFY_CHECK(dim() == 4, "required rank 4 tensor to use channels_last format");
    return permute({0, 2, 3, 1}).contiguous().permute({0, 3, 1, 2});
  }
  GFY_CHECK(dim() == 5, "required rank 5 tensor to use channels_last_3d format");
  return permute({0, 2, 3, 4, 1}).contiguous().permute({0, 4, 1, 2, 3});
}

} // namespace gfy
