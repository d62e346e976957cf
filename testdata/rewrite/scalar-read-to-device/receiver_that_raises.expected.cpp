// scalar-read-to-device: the receiver of the host read ran on every call in the original too, so
// an op that raises on values there (gather on ids) is no reason to refuse (Evaluation::AsBefore).
#include "mock_torch.h"

torch::Tensor scale_by_picked(torch::Tensor x, torch::Tensor w, torch::Tensor ids) {
  return x * w.gather(0, ids).max().to(torch::kFloat);
}
