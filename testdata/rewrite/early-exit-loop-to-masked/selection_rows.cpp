// early-exit-loop-to-masked: a loop over the rows of a value-dependent selection has a static
// bound after all (the rows they were selected from); the refusal gives that form instead of
// "no static bound".
#include <torch/torch.h>

struct RowSums {
  torch::Tensor run(torch::Tensor x) {
    auto kept = x.index({x.select(1, 0) > 0});
    auto total = torch::zeros({x.size(1)});
    for (int64_t i = 0; i < kept.size(0); ++i) // EXPECT-NO-FIX: the loop runs over the rows of a value-dependent selection: loop over the static number of rows
      total = total + kept[i];
    return total;
  }
};
