// split-at-host-boundary refused where the device work is inside the loop that reads on the host:
// a greedy decoder builds its input ids from host tokens and then runs the model once per step.
// Splitting at the loop would leave the core only the input staging; the advice is to capture
// one step of the loop.
#include <torch/script.h>
#include <torch/torch.h>

#include <vector>

std::vector<int64_t> greedy_decode(torch::jit::script::Module &model, const std::vector<int64_t> &prompt, int max_len) {
  auto ids = torch::tensor(prompt, torch::kLong).unsqueeze(0);
  std::vector<int64_t> out = prompt;
  for (int i = 0; i < max_len; ++i) {
    auto logits = model.forward({ids}).toTensor();
    int64_t next = logits.argmax(-1)[0][-1].item<int64_t>(); // EXPECT-RECIPE: \(not split automatically: the device work is inside the loop at line 13 that reads tensor data on the host
    out.push_back(next);
    ids = torch::cat({ids, torch::tensor({next}, torch::kLong).unsqueeze(0)}, 1);
  }
  return out;
}
