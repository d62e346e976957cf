// Index tensors built on the host and used to index a device tensor: the copy is implicit (no
// to(device) to give the factory's placement to), so the rule does not match; the advice says
// where to build them.
#include "mock_torch.h"

torch::Tensor first_per_image(torch::Tensor boxes, torch::Tensor top) {
  auto batch = torch::arange(boxes.size(0));
  return boxes.index({batch, top}); // EXPECT-RECIPE: ^the indices are built in pageable host memory and copied to the device as the tensor is indexed
}
