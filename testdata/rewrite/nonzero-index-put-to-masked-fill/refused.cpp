// nonzero-index-put-to-masked-fill: refused shapes.
#include "mock_torch.h"

torch::Tensor index_reused(torch::Tensor x) {
  auto idx = (x == 0).nonzero(); // EXPECT-NO-FIX: 'idx' is used elsewhere
  x.index_put_({idx}, 1);
  return idx;
}

torch::Tensor foreign_mask(torch::Tensor x, torch::Tensor y) {
  auto m = y > 0;
  x.index_put_({m}, 0); // EXPECT-NO-FIX: ^the mask 'm' is not known to have the shape of 'x'; if it covers its leading dimensions
  return x;
}

torch::Tensor changed_between(torch::Tensor x, torch::Tensor y) {
  auto idx = (x == 0).nonzero(); // EXPECT-NO-FIX: a statement between the nonzero\(\) and its use calls 'add_'
  x.add_(y);
  x.index_put_({idx}, 1);
  return x;
}

// A mask over the rows of a matrix (`done` of [B] indexing logits of [B, V]) fills whole rows,
// as a fill through the mask given a trailing dimension of size 1 does; the sizes are not known
// here, so the rewrite is left to the user with that recipe.
torch::Tensor ended_rows(torch::Tensor logits, torch::Tensor lengths) {
  auto done = lengths >= 10;
  logits.index_put_({~done}, -1e9f); // EXPECT-NO-FIX: ^the mask '~done' is not known to have the shape of 'logits'; if it covers its leading dimensions, fill through it broadcast, which reads nothing back: logits.masked_fill_\(\(~done\).view\(
  return logits;
}

// Values given for the selected rows only (a rejection sampler redrawing the rejected proposals):
// masked_fill_ takes one value, so the recipe computes the value on every row and selects.
torch::Tensor redraw(torch::Tensor v, torch::Tensor x, torch::Tensor c, torch::Tensor rejected_rows) {
  auto rejected = rejected_rows > 0;
  v.index_put_({rejected}, c.index({rejected}) * x.index({rejected}) + 1); // EXPECT-NO-FIX: ^the mask 'rejected' is not known to have the shape of 'v'; if it covers its leading dimensions, select through it broadcast, which reads nothing back: v = torch::where\(\(rejected\).view\(<its sizes, then 1 per further dimension of v>\), c \* x \+ 1, v\)
  return v;
}
