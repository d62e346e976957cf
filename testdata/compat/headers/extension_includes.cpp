// A CPU NMS-style kernel written the way LibTorch extension code is: ATen's and c10's headers
// included directly, AT_DISPATCH with scalar_t, at::parallel_for, c10::irange, TORCH_CHECK.
#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>
#include <c10/util/Exception.h>
#include <c10/util/Optional.h>
#include <c10/util/irange.h>

#include <cstdint>
#include <vector>

namespace ext {

template <class scalar_t> void areas_kernel(const at::Tensor &boxes, at::Tensor &areas) {
  const scalar_t *b = boxes.data_ptr<scalar_t>();
  scalar_t *a = areas.data_ptr<scalar_t>();
  at::parallel_for(0, boxes.size(0), /*grain_size=*/16, [&](int64_t begin, int64_t end) {
    for (const auto i : c10::irange(begin, end)) a[i] = (b[4 * i + 2] - b[4 * i]) * (b[4 * i + 3] - b[4 * i + 1]);
  });
}

at::Tensor box_areas(const at::Tensor &boxes, c10::optional<int64_t> limit) {
  TORCH_CHECK(boxes.dim() == 2 && boxes.size(1) == 4, "boxes must be (N, 4), got ", boxes.sizes());
  at::Tensor b = boxes.contiguous();
  at::Tensor areas = at::empty({b.size(0)}, b.options());
  AT_DISPATCH_FLOATING_TYPES(b.scalar_type(), "box_areas", [&] { areas_kernel<scalar_t>(b, areas); });
  return limit ? areas.slice(0, 0, *limit) : areas;
}

} // namespace ext
