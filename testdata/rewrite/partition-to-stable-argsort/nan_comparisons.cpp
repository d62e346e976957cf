// partition-to-stable-argsort: complementary comparisons are complements only without NaN. A NaN
// element satisfies neither 'x > 0' nor 'x <= 0', so the original drops it (its result is
// shorter than x), which no fixed-size permutation can do: refused with the exact form to use.
#include <torch/torch.h>

torch::Tensor positive_first(torch::Tensor w, torch::Tensor x) {
  x = torch::cat({x.index({x > 0}), x.index({x <= 0})}); // EXPECT-NO-FIX: NaN elements satisfy neither 'x > 0' nor 'x <= 0'
  return torch::matmul(w, x);
}
