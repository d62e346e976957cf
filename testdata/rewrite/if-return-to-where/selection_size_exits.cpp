// if-return-to-where: tests on the size of a value-dependent selection, as per-image detection
// loops write them. What the branch does decides the padded form, and the refusal names it: a
// 'continue' is dropped (the rest of the body runs on zero valid rows), a 'break' becomes a done
// flag on the device, and host work in the branch moves out with the test. A second condition
// beside the size (a host flag, '&') does not hide that the size is what blocks. (Caps on the rows
// are fixed by selection-to-padded: testdata/rewrite/selection-to-padded/tuple_cap.cpp.)
#include <torch/torch.h>

#include <string>
#include <vector>

void log_empty(int image);

std::vector<torch::Tensor> per_image(torch::Tensor pred, float conf) {
  std::vector<torch::Tensor> output;
  for (int64_t i = 0; i < pred.size(0); ++i) {
    torch::Tensor x = pred[i];
    x = x.index({x.select(1, 4) > conf});
    if (x.size(0) == 0) // EXPECT-NO-FIX: 'x.size\(0\)', the size of a value-dependent selection: the 'continue' skips the rest of the iteration.*drop the 'continue'
      continue;
    int64_t n = x.size(0);
    if (n == 0) { // EXPECT-NO-FIX: 'n', the size .*'continue'.*'output.push_back' \(line 23\) fills a host container, which moves out of the region with the test
      output.push_back(torch::zeros({0, 6}));
      continue;
    }
    output.push_back(x * 2);
  }
  return output;
}

torch::Tensor first_empty(torch::Tensor batch, float conf) {
  torch::Tensor last = batch[0];
  for (int64_t i = 0; i < batch.size(0); ++i) {
    torch::Tensor kept = batch[i].index({batch[i] > conf});
    if (kept.numel() == 0) { // EXPECT-NO-FIX: the 'break' ends the loop.*done flag.*'log_empty' \(line 36\) is host code
      log_empty(static_cast<int>(i));
      break;
    }
    last = kept.sum();
  }
  return last;
}

torch::Tensor flagged(torch::Tensor x, torch::Tensor labels, bool use_labels) {
  auto kept = x.index({x > 0});
  if (use_labels && labels.size(0) == kept.size(0)) // EXPECT-NO-FIX: 'kept.size\(0\)', the size of a value-dependent selection
    kept = kept + labels;
  return kept;
}
