// if-assign-to-where: a branch that writes into part of a tensor has no select form, whatever its
// test reads; that write is the refusal's reason, not the test's integer conversion. A write at a
// counter the branch advances packs the rows that pass: a selection, named as one.
#include "mock_torch.h"

torch::Tensor keep_marked(torch::Tensor rows, torch::Tensor marks) {
  const int64_t n = rows.size(0);
  torch::Tensor out = torch::zeros({n, rows.size(1)}, rows.options());
  int64_t kept = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (marks[i].item().toInt()) { // EXPECT-NO-FIX: the branch compacts: 'out\[kept\+\+\]' \(line 12\) is written at 'kept', which the branch advances, so each position counts the earlier iterations
      out[kept++] = rows[i];
    }
  }
  return out;
}

void copy_marked(torch::Tensor dst, torch::Tensor marks, torch::Tensor src) {
  for (int64_t i = 0; i < marks.size(0); ++i) {
    if (marks[i].item().toInt()) { // EXPECT-NO-FIX: the then branch writes into part of 'dst' \(line 21\), which selecting whole values cannot express
      dst[i] = src[i];
    }
  }
}
