// selection-to-padded: shapes it does not rewrite. The finding keeps its by-hand recipe, which
// ends with the construct that blocks the automatic padded form when the function has the shape
// the split covers.
#include <torch/torch.h>

torch::Tensor total_of_kept(torch::Tensor x) {
  auto kept = x.index({x > 0}); // EXPECT-RECIPE: not rewritten automatically: .*'kept.sum\(0\)' \(line 8\) works along dimension 0
  return kept.sum(0);
}

torch::Tensor count_into_host(torch::Tensor x) {
  auto kept = x.index({x > 0}); // EXPECT-RECIPE: not rewritten automatically: .*'n' \(line 13\) is a host value computed from a value-dependent selection
  int64_t n = kept.size(0);
  return torch::ones({n});
}

torch::Tensor two_filters(torch::Tensor x, torch::Tensor y) {
  auto a = x.index({x > 0}); // EXPECT-RECIPE: not rewritten automatically: .*combines the rows of two different selections
  auto b = y.index({y > 0}); // EXPECT-RECIPE: not rewritten automatically: .*combines the rows of two different selections
  return a + b;
}

// A loop is outside the shapes the split covers: the recipe stays the by-hand one, without a
// reason that would name the loop rather than what blocks the selection.
torch::Tensor in_a_loop(torch::Tensor x) {
  auto kept = x.index({x > 0}); // EXPECT-RECIPE: ^keep fixed shapes[^()]*(\([^()]*\)[^()]*)*$
  for (int i = 0; i < 3; ++i)
    kept = kept * 2;
  return kept;
}
