// nonzero-index-put-to-masked-fill is exact only for one-dimensional tensors: nonzero() of a
// rank-r mask lists [k, r] coordinates, and index_put_ reads every one of them as a position in
// dimension 0. The rank is proven from the code: a check that exits otherwise and dominates the
// use, a one-dimensional producer, element-wise calls on one-dimensional operands.
#include "mock_torch.h"

#include <cassert>
#include <stdexcept>

void checked_by_throw(torch::Tensor x) {
  if (x.dim() != 1)
    throw std::invalid_argument("x must be one-dimensional");
  x.masked_fill_(x == 0, 1);
}

void checked_by_assert(torch::Tensor x) {
  assert(x.ndimension() == 1 && "one-dimensional scores");
  x.masked_fill_(x < 0, 0);
}

torch::Tensor checked_by_early_return(torch::Tensor x) {
  if (!(x.dim() == 1)) {
    return x;
  }
  x.masked_fill_(x > 5, 5);
  return x;
}

torch::Tensor range_local(int64_t n) {
  auto r = torch::arange(n);
  auto steps = (r * 2 - 1).abs();
  steps.masked_fill_(steps > 3, 3);
  return steps;
}

torch::Tensor flattened_first(torch::Tensor x) {
  auto f = x.flatten();
  f.masked_fill_(f == 0, 1);
  return f;
}

// A check macro wrapped in `do { ... } while (0)`, as the bundled runtime's TORCH_CHECK is.
#define CHECK_VECTOR(t)                                                                            \
  do {                                                                                             \
    if ((t).dim() != 1)                                                                            \
      throw std::invalid_argument("expected a vector");                                            \
  } while (0)

void checked_by_macro(torch::Tensor x) {
  CHECK_VECTOR(x);
  x.masked_fill_(x == 0, 1);
}

// Not proven: the rank of a parameter, a check after the use, a check in another branch, a
// check that does not leave, a flatten() that keeps dimensions, a reassigned variable.
void unknown_rank(torch::Tensor x) {
  x.index_put_({(x == 0).nonzero()}, 1); // EXPECT-NO-FIX: 'x' is not known to be one-dimensional
}

void checked_after(torch::Tensor x) {
  x.index_put_({(x == 0).nonzero()}, 1); // EXPECT-NO-FIX: 'x' is not known to be one-dimensional
  if (x.dim() != 1)
    throw std::invalid_argument("too late");
}

void checked_in_a_branch(torch::Tensor x, bool strict) {
  if (strict) {
    if (x.dim() != 1)
      throw std::invalid_argument("x must be one-dimensional");
  }
  x.index_put_({(x == 0).nonzero()}, 1); // EXPECT-NO-FIX: 'x' is not known to be one-dimensional
}

void checked_without_leaving(torch::Tensor x, int &errors) {
  if (x.dim() != 1)
    ++errors;
  x.index_put_({(x == 0).nonzero()}, 1); // EXPECT-NO-FIX: 'x' is not known to be one-dimensional
}

torch::Tensor partly_flattened(torch::Tensor x) {
  auto f = x.flatten(1);
  f.index_put_({(f == 0).nonzero()}, 1); // EXPECT-NO-FIX: 'f' is not known to be one-dimensional
  return f;
}

torch::Tensor reassigned(torch::Tensor x, torch::Tensor y) {
  if (x.dim() != 1)
    throw std::invalid_argument("x must be one-dimensional");
  x = y;
  x.index_put_({(x == 0).nonzero()}, 1); // EXPECT-NO-FIX: 'x' is not known to be one-dimensional
  return x;
}

// A boolean mask is exact at every rank: no rank needed.
torch::Tensor mask_of_any_rank(torch::Tensor x) {
  x.masked_fill_(x < 0, 0);
  return x;
}
