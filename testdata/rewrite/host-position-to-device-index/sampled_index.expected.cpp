// host-position-to-device-index around a call whose pack entry has its own recipe: a policy
// samples one action and looks up its embedding. The read of the sampled index is fixed (the
// position stays a one-element tensor on the device); multinomial still reads its probabilities'
// check back, so its finding keeps the pack's advice (the exponential race), not the read's fix.
#include <torch/torch.h>

torch::Tensor embed_sampled_action(const torch::Tensor &logits, const torch::Tensor &table) {
  auto probs = torch::softmax(logits, -1);
  auto action = torch::multinomial(probs, 1).reshape(
      {1}); // EXPECT-RECIPE: ^draw with the same exponential race on the device
  return table.index({action}).squeeze(0);
}
