// early-exit-loop-to-masked: decoders it does not rewrite, with the advice that fits them. Tokens
// collected into a host list are what must become a tensor (a static buffer written at the step's
// index); an end test through a vocabulary that gives strings is decided by the token's id.
#include <torch/torch.h>

#include <map>
#include <string>
#include <vector>

class Vocabulary {
public:
  std::string token_of(int64_t id) const {
    auto it = tokens_.find(id);
    return it == tokens_.end() ? std::string("<unk>") : it->second;
  }

private:
  std::map<int64_t, std::string> tokens_;
};

std::vector<int64_t> collect(torch::Tensor h, torch::Tensor w, int64_t max_len, int64_t eos) {
  std::vector<int64_t> tokens;
  for (int64_t t = 0; t < max_len; ++t) {
    auto logits = torch::matmul(h, w);
    int64_t next = logits.argmax(-1).item<int64_t>(); // EXPECT-NO-FIX: 'next' is also stored into the host list 'tokens' at line 26: keep what the list collects in a preallocated device tensor written at the step's index
    tokens.push_back(next);
    h = torch::tanh(h + logits);
    if (next == eos) // EXPECT-NO-FIX: 'next' is also stored into the host list 'tokens' at line 26
      break;
  }
  return tokens;
}

int64_t spell(const Vocabulary &vocab, torch::Tensor h, torch::Tensor w, int64_t max_len) {
  int64_t steps = 0;
  for (int64_t t = 0; t < max_len; ++t) {
    auto logits = torch::matmul(h, w);
    h = torch::tanh(h + logits);
    ++steps;
    if (vocab.token_of(logits.argmax(-1).item<int64_t>()) == "<eos>") // EXPECT-NO-FIX: the condition reads the host object 'vocab' .*, which has no tensor form and gives no number: find on the host, before the graph region, the values read from the tensor that pass the test
      break;
  }
  return steps;
}
