#pragma once
// The time loop the recurrent layers share (LSTM in nn.cpp, GRU and RNN in rnn.cpp): one direction
// of one layer, walked forwards or backwards, and the joining of the two directions of a
// bidirectional layer, as LibTorch 1.13 lays them out (outputs concatenated on the feature
// dimension, forward first; the final states of layer l at l * 2 and l * 2 + 1).
#include <graphify/core/Functions.h>

#include <vector>

namespace gfy::nn::detail {

/// Runs `step(t)` for t = 0 .. T-1, or T-1 .. 0 when `reverse`; `step` advances the state it holds
/// and returns the output of step t, (B, H). Returns the outputs in time order, (T, B, H): a
/// reverse direction's output at t is the one computed from steps t .. T-1, as LibTorch's.
/// The outputs are stacked, not written into slices of a buffer, so the result differentiates.
template <class Step> Tensor run_direction(int64_t T, bool reverse, Step &&step) {
  std::vector<Tensor> outputs(static_cast<size_t>(T));
  for (int64_t k = 0; k < T; ++k) {
    const int64_t t = reverse ? T - 1 - k : k;
    outputs[static_cast<size_t>(t)] = step(t);
  }
  return stack(outputs, 0);
}

/// The output of one layer from its directions' outputs: the one itself, or both concatenated on
/// the feature dimension, forward first.
inline Tensor join_directions(const std::vector<Tensor> &outputs) {
  return outputs.size() == 1 ? outputs[0] : cat(outputs, 2);
}

} // namespace gfy::nn::detail
