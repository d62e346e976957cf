// A function template and a member of a class template declared in a header and defined in the
// checked file, where they are explicitly instantiated: the traversal reaches instantiations
// from the template's first declaration, which is in the header, so their bodies were checked
// nowhere (a generic speculative-decoding loop had no finding at all). They are checked where
// they are defined, once per line however many instantiations there are; a member of a class
// template instantiated only by its use here (Scorer<TinyLm>::best) is checked too.
// RUN-ARGS: --graph-region=spec::generate --graph-region=spec::Drafter::accept --graph-region=spec::rank
#include "templated_decoders.h" // in testdata/rewrite/include: outside the checked file's project folder
#include <torch/torch.h>

namespace spec {

template <typename Model>
std::vector<int64_t> generate(Model &model, torch::Tensor prompt, int64_t max_new, int64_t eos) {
  std::vector<int64_t> out;
  torch::Tensor ids = prompt;
  for (int64_t step = 0; step < max_new; ++step) {
    torch::Tensor logits = model.forward(ids).select(1, -1);
    int64_t next = logits.argmax(-1).item<int64_t>();
    // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    out.push_back(next);
    if (next == eos)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      break;
    ids = torch::cat({ids, torch::tensor({{next}}).to(ids.device())}, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:52: warning: 'to' copies a tensor built in host memory ('tensor', line 25) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
  }
  return out;
}

template <typename Model> int64_t Drafter<Model>::accept(const torch::Tensor &draft, const torch::Tensor &target) {
  torch::Tensor same = draft.eq(target);
  int64_t n = 0;
  while (n < same.size(0) && same[n].item<bool>())
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: loop condition depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
  // CHECK-MESSAGES: :[[@LINE-2]]:38: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    ++n;
  return n;
}

template <typename Model> float Scorer<Model>::best(const torch::Tensor &logits) { return logits.max().item<float>(); }
// CHECK-MESSAGES: :[[@LINE-1]]:104: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]

float rank(const torch::Tensor &logits) {
  Scorer<TinyLm> scorer;
  return scorer.best(logits);
}

template std::vector<int64_t> generate<TinyLm>(TinyLm &, torch::Tensor, int64_t, int64_t);
template std::vector<int64_t> generate<WideLm>(WideLm &, torch::Tensor, int64_t, int64_t);
template class Drafter<TinyLm>;
template class Drafter<WideLm>;

} // namespace spec
