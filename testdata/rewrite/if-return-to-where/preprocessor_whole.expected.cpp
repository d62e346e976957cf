// if-return-to-where: a macro spelled whole by one expression that reads no tensor value is
// copied verbatim, so the rewrite goes ahead.
#include "mock_torch.h"

#define LIMIT 0.5f
#define SCALE(t) (t * 2)

torch::Tensor whole_macros(torch::Tensor x) {
  return torch::where(x.sum() > LIMIT, SCALE(x), -x);
}
