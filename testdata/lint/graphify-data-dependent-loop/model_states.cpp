// RUN-ARGS: --graph-region=GreedyTransducer::step
// A TorchScript transducer decoded greedily: the predictor runs again only when a token is
// emitted (a branch on a value read from the joint's output), and its state comes back as a list,
// one entry per layer. The list's length is the model's, not the data's: looping over it is not
// a data-dependent loop, however data-dependent the decision to run the predictor was.
#include <torch/torch.h>

#include <tuple>
#include <vector>

using LayerStates = std::vector<std::tuple<torch::Tensor, torch::Tensor>>;

static LayerStates toLayerStates(const c10::IValue &raw) {
  LayerStates states;
  std::vector<c10::IValue> layers = raw.toTupleRef().elements().vec();
  for (auto it = layers.begin(); it != layers.end(); ++it) {
    auto h = it->toTuple()->elements()[0].toTensor();
    auto c = it->toTuple()->elements()[1].toTensor();
    states.push_back(std::make_tuple(h, c));
  }
  return states;
}

static std::tuple<torch::Tensor, LayerStates> runPredictor(torch::jit::Module &predictor, torch::Tensor token,
                                                          const c10::optional<LayerStates> &states) {
  std::vector<c10::IValue> inputs;
  inputs.push_back(token);
  inputs.push_back(states);
  auto out = predictor.forward(inputs).toTuple();
  return {out->elements()[0].toTensor(), toLayerStates(out->elements()[1])};
}

struct GreedyTransducer {
  torch::jit::Module joint;
  torch::jit::Module predictor;

  std::vector<int64_t> step(torch::Tensor encoded, torch::Tensor token, c10::optional<LayerStates> states,
                            torch::Tensor predicted) {
    std::vector<int64_t> emitted;
    for (int j = 0; j < 8; ++j) {
      auto logits = joint.forward({predicted, encoded}).toTensor();
      int cls = logits.argmax(-1).item<int>();
      // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: 'item' copies one element to the host{{.*}} [graphify-host-sync]
      if (cls == 0) {
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: branch condition depends on a tensor value read on the host{{.*}} [graphify-data-dependent-branch]
        break;
      } else {
        emitted.push_back(cls);
        auto next = runPredictor(predictor, token, states);
        predicted = std::get<0>(next);
        states = std::get<1>(next);
      }
    }
    return emitted;
  }
};
