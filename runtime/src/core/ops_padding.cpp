// Padding: constant_pad_nd and the reflect / replicate / circular modes of at::pad and F::pad.
// Constant padding is a fill plus one copy of the kept region (negative amounts crop); while
// gradients are recorded it is built by concatenation instead. The other
// modes are gathers: for every padded dim the source position of each output position is a pure
// function of the sizes, computed once on the host into a long index tensor, and index_select
// reads through it. The index tensors are constants of the call, so a captured graph replays the
// padding on new data without any host work.
#include "OpsCommon.h"

#include <string>

namespace gfy {
using namespace detail;

namespace {

enum class PadMode { reflect, replicate, circular };

const char *mode_name(PadMode m) {
  return m == PadMode::reflect ? "reflect" : m == PadMode::replicate ? "replicate" : "circular";
}

/// The source position along a dim of size n for output position i - before (i in [0, out)).
int64_t source_position(PadMode mode, int64_t p, int64_t n) {
  switch (mode) {
  case PadMode::reflect:
    // Mirror without repeating the edge: -1 -> 1, n -> n - 2.
    if (p < 0) return -p;
    if (p >= n) return 2 * (n - 1) - p;
    return p;
  case PadMode::replicate:
    return p < 0 ? 0 : p >= n ? n - 1 : p;
  case PadMode::circular:
    return ((p % n) + n) % n;
  }
  return p;
}

/// Pads `x` along `dim` by (before, after) in `mode` (negative amounts crop).
Tensor pad_dim(const Tensor &x, int64_t dim, int64_t before, int64_t after, PadMode mode) {
  const int64_t n = x.size(dim);
  const int64_t out = n + before + after;
  GFY_CHECK(out >= 0, "input tensor is too small for the negative padding (", before, ", ", after, ") at dimension ", dim);
  std::vector<int64_t> index(static_cast<size_t>(out));
  for (int64_t i = 0; i < out; ++i) index[static_cast<size_t>(i)] = source_position(mode, i - before, n);
  return x.index_select(dim, tensor(index).to(x.device()));
}

/// The shared checks and loop of the gathering modes over the last pad.size() / 2 dims.
Tensor pad_gather(const Tensor &self, IntArrayRef pad, PadMode mode, int64_t max_dims) {
  check_defined(self, "self");
  GFY_CHECK(pad.size() % 2 == 0, "Padding length must be divisible by 2");
  const int64_t nd = static_cast<int64_t>(pad.size()) / 2;
  GFY_CHECK(nd <= max_dims, "Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now");
  GFY_CHECK(self.dim() == nd + 1 || self.dim() == nd + 2, "Expected ", nd + 1, "D or ", nd + 2,
            "D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, but got: ",
            self.sizes());
  Tensor x = self;
  for (int64_t i = 0; i < nd; ++i) {
    const int64_t dim = self.dim() - 1 - i;
    const int64_t before = pad[static_cast<size_t>(2 * i)], after = pad[static_cast<size_t>(2 * i + 1)];
    const int64_t n = self.size(dim);
    GFY_CHECK(n > 0, "input tensor must have a non-zero size at dimension ", dim, " for ", mode_name(mode), " padding");
    if (mode == PadMode::reflect)
      GFY_CHECK(before < n && after < n, "Argument #4: Padding size should be less than the corresponding input dimension, but got: padding (",
                before, ", ", after, ") at dimension ", dim, " of input ", self.sizes());
    if (mode == PadMode::circular)
      GFY_CHECK(before <= n && after <= n, "Padding value causes wrapping around more than once.");
    x = pad_dim(x, dim, before, after, mode);
  }
  return x;
}

/// Constant padding of the already cropped `src` as concatenations with filled blocks: slower
/// than one copy into a filled tensor, but made of ops that record gradients (an in-place copy
/// into a view of another tensor does not).
Tensor pad_by_concatenation(Tensor src, IntArrayRef pad, const Scalar &value) {
  const int64_t nd = static_cast<int64_t>(pad.size()) / 2;
  for (int64_t i = 0; i < nd; ++i) {
    const int64_t dim = src.dim() - 1 - i;
    auto block = [&](int64_t amount) {
      std::vector<int64_t> shape = src.sizes().vec();
      shape[static_cast<size_t>(dim)] = amount;
      return full(shape, value, src.options());
    };
    const int64_t before = pad[static_cast<size_t>(2 * i)], after = pad[static_cast<size_t>(2 * i + 1)];
    std::vector<Tensor> parts;
    if (before > 0) parts.push_back(block(before));
    parts.push_back(src);
    if (after > 0) parts.push_back(block(after));
    src = cat(parts, dim);
  }
  return src;
}

} // namespace

Tensor constant_pad_nd(const Tensor &self, IntArrayRef pad, const Scalar &value) {
  check_defined(self, "self");
  GFY_CHECK(pad.size() % 2 == 0, "Length of pad must be even but instead it equals ", pad.size());
  const int64_t nd = static_cast<int64_t>(pad.size()) / 2;
  GFY_CHECK(nd <= self.dim(), "Length of pad should be no more than twice the number of dimensions of the input. Pad length is ",
            pad.size(), " while the input has ", self.dim(), " dimensions.");
  std::vector<int64_t> shape = self.sizes().vec();
  Tensor src = self; // the part of self that survives cropping
  for (int64_t i = 0; i < nd; ++i) {
    const int64_t dim = self.dim() - 1 - i;
    const int64_t before = pad[static_cast<size_t>(2 * i)], after = pad[static_cast<size_t>(2 * i + 1)];
    const int64_t n = self.size(dim);
    shape[static_cast<size_t>(dim)] = n + before + after;
    GFY_CHECK(n + before + after > 0, "The input size ", n, ", plus negative padding ", before, " and ", after,
              " resulted in a negative output size, which is invalid. Check dimension ", dim, " of your input.");
    const int64_t lo = std::max<int64_t>(0, -before), hi = std::min<int64_t>(n, n + after);
    src = src.slice(dim, lo, std::max(lo, hi));
  }
  if (GradMode::is_enabled() && self.requires_grad()) return pad_by_concatenation(src, pad, value);
  Tensor out = full(shape, value, self.options());
  Tensor dst = out;
  for (int64_t i = 0; i < nd; ++i) {
    const int64_t dim = self.dim() - 1 - i;
    const int64_t before = std::max<int64_t>(0, pad[static_cast<size_t>(2 * i)]);
    dst = dst.slice(dim, before, before + src.size(dim));
  }
  if (src.numel() > 0) dst.copy_(src);
  return out;
}

Tensor reflection_pad1d(const Tensor &self, IntArrayRef padding) {
  GFY_CHECK(padding.size() == 2, "reflection_pad1d: padding must have 2 elements");
  return pad_gather(self, padding, PadMode::reflect, 1);
}
Tensor reflection_pad2d(const Tensor &self, IntArrayRef padding) {
  GFY_CHECK(padding.size() == 4, "reflection_pad2d: padding must have 4 elements");
  return pad_gather(self, padding, PadMode::reflect, 2);
}
Tensor replication_pad1d(const Tensor &self, IntArrayRef padding) {
  GFY_CHECK(padding.size() == 2, "replication_pad1d: padding must have 2 elements");
  return pad_gather(self, padding, PadMode::replicate, 1);
}
Tensor replication_pad2d(const Tensor &self, IntArrayRef padding) {
  GFY_CHECK(padding.size() == 4, "replication_pad2d: padding must have 4 elements");
  return pad_gather(self, padding, PadMode::replicate, 2);
}

Tensor pad(const Tensor &self, IntArrayRef pad, std::string_view mode, std::optional<double> value) {
  if (mode == "constant") return constant_pad_nd(self, pad, value.value_or(0.0));
  GFY_CHECK(!value || *value == 0, "Padding mode \"", std::string(mode),
            "\" doesn't take in value argument");
  GFY_CHECK(mode == "reflect" || mode == "replicate" || mode == "circular", "Unrecognised padding mode ",
            std::string(mode));
  const PadMode m = mode == "reflect" ? PadMode::reflect : mode == "replicate" ? PadMode::replicate : PadMode::circular;
  return pad_gather(self, pad, m, 3);
}

} // namespace gfy
