// Two variables assigned in both arms of a value-dependent if/else; the fix is one torch::where
// per assigned variable, sharing the lifted condition.
#include <torch/torch.h>

// graphify-entry: x: f32[4], y: f32[4]
struct IfElseAssign : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor y) {
    torch::Tensor a;
    torch::Tensor b;
    if (x.mean().item<float>() > 0) {
      a = x * 2;
      b = y + 1;
    } else {
      a = x - 1;
      b = y * 3;
    }
    return a + b;
  }
};

// The condition read through the Scalar that item() returns.
// graphify-entry: x: f32[4], y: f32[4]
struct ConvertedCondition : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor y) {
    float peak = x.abs().max().item().toFloat();
    if (peak > 1.0f)
      y = y / 2;
    return y;
  }
};
// graphify-expect-fix: fixed

// A decoder suppressing text tokens: two reductions along the last dimension, compared. With one
// element each (rows of one), nothing proves a single element, so the reads become
// 'ts.reshape({})' and 'txt.reshape({})', which throw where item() would; a condition of shape
// [1] would broadcast the 0-d 'gate' into shape [1].
// graphify-entry: gate: f32[], logits: f32[1,1], text: f32[1,3]
struct UnprovenReadsSelect : torch::nn::Module {
  torch::Tensor forward(torch::Tensor gate, torch::Tensor logits, torch::Tensor text) {
    auto ts = logits.sum(-1);
    auto txt = text.amax(-1);
    torch::Tensor out = gate;
    if (ts.item<float>() > txt.item<float>())
      out = gate * 0;
    return out;
  }
};
// graphify-expect-fix: fixed
