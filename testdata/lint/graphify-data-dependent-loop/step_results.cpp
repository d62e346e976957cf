// A decoding step returns a struct whose fields it filled from values read on the host (the
// accepted draft tokens, how many were accepted); the caller's loop consumes them. The fields of
// a local struct returned whole reach the caller's copy (`r.tokens`, `r.accepted`), and a
// counter that steps the outer loop but moves once per accepted token (`generated++` in the loop
// over them) makes the outer loop's trip count follow the data. A counter that moves once per
// outer iteration stays a counter.
#include <graphify/annotations.h>
#include <torch/torch.h>

#include <cstdint>
#include <vector>

struct StepResult {
  std::vector<int64_t> tokens;
  int64_t accepted = 0;
};

static StepResult verify_drafts(const torch::Tensor &draft, const torch::Tensor &target) {
  StepResult r;
  torch::Tensor same = draft.eq(target.argmax(-1));
  for (int64_t i = 0; i < same.size(0); ++i) {
    if (!same[i].item<bool>())
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-MESSAGES: :[[@LINE-2]]:18: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
      break;
    r.tokens.push_back(draft[i].item<int64_t>());
    // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    r.accepted++;
  }
  return r;
}

GRAPHIFY_GRAPH_REGION std::vector<int64_t> speculate(const torch::Tensor &draft, const torch::Tensor &target,
                                                     int64_t max_new, int64_t eos) {
  std::vector<int64_t> out;
  int64_t generated = 0;
  int64_t rounds = 0;
  while (generated < max_new) {
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: loop condition depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    StepResult step = verify_drafts(draft, target);
    for (int64_t tok : step.tokens) {
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: loop range depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
      out.push_back(tok);
      generated++;
      if (tok == eos)
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
        return out;
    }
    if (step.accepted == 0)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      break;
  }
  for (int64_t r = 0; r < max_new; ++r)
    rounds++;
  out.push_back(rounds);
  return out;
}
