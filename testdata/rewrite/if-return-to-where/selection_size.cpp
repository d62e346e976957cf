// if-return-to-where: an emptiness test of a value-dependent selection is not a value read from a
// tensor; the refusal says how it stays on the device (the selection padded, its count tested).
#include <torch/torch.h>

struct Filter {
  torch::Tensor run(torch::Tensor x) {
    auto kept = x.index({x > 0});
    if (kept.size(0) == 0) // EXPECT-NO-FIX: the size of a value-dependent selection: keep the selection padded
      return x;
    return kept * 2;
  }
};
