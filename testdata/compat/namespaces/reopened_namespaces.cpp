// Extension code reopens ATen's namespaces for its helpers (a kernel copied from ATen keeps its
// at::native home, a device helper goes to at::cuda): the shim must leave them open to it.
#include <torch/torch.h>

#include <cstdint>

namespace at {
namespace cuda {
inline int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
} // namespace cuda
namespace native {
inline at::Tensor box_area(const at::Tensor &boxes) {
  return (boxes.select(1, 2) - boxes.select(1, 0)) * (boxes.select(1, 3) - boxes.select(1, 1));
}
} // namespace native
} // namespace at

int64_t blocks_for(const at::Tensor &boxes) { return at::cuda::ceil_div(at::native::box_area(boxes).numel(), 256); }
