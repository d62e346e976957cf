// RUN-ARGS: --graph-region=caption
// A decoding loop that appends one token per step and stops at the end token: inside the loop the
// list holds one token per step taken so far, whatever ends the loop, so the sequence built from it
// has the step's length (a shape a capture of one step cannot replay for the next, but not one the
// data chooses); after the loop its length is the trip count, which the data decides.
#include <torch/torch.h>

#include <string>
#include <vector>

std::string caption(torch::Tensor logits_table, int64_t eos, int max_len) {
  std::vector<int64_t> tokens = {0};
  for (int step = 0; step < max_len; ++step) {
    auto seq = torch::tensor(tokens, torch::kLong).unsqueeze(0);
    auto logits = logits_table.index_select(0, seq.to(logits_table.device()).squeeze(0)).sum(0);
    // CHECK-MESSAGES: :[[@LINE-1]]:52: warning: 'to' copies a tensor built in host memory ('tensor', line 14) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
    auto next = logits.argmax(-1).item<int64_t>();
    // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    tokens.push_back(next);
    if (next == eos)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      break;
  }
  std::string text;
  for (size_t i = 0; i < tokens.size(); ++i)
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: loop condition depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    text += std::to_string(tokens[i]) + " ";
  return text;
}
