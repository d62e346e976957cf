// if-return-to-where: an emptiness test of a value-dependent selection is not a value read from a
// tensor; the refusal says what the padded form of the tested statement is: an early return goes
// to the host code after the region, with the selection padded and its count returned. (A method
// whose body names a static member of its class, which selection-to-padded's core cannot.)
#include <torch/torch.h>

struct Filter {
  static constexpr double kFloor = 0.0;
  torch::Tensor run(torch::Tensor x) {
    auto kept = x.index({x > kFloor});
    if (kept.size(0) == 0) // EXPECT-NO-FIX: the size of a value-dependent selection: the early return leaves the function.*return it with its count
      return x;
    return kept * 2;
  }
};
