// selection-to-padded on result vectors that are filled before the selecting loop (an empty
// tensor per image) and assigned by the loop's counter (`output[i] = x;`), the shape of YOLO
// ports of `output = [torch.zeros((0, 6))] * bs`. The epilogue fills the vector as the original
// did, then rebinds each image's element to its sliced survivors under the original header.
#include <torch/torch.h>

#include <vector>

// Filled by a loop, assigned by the counter.
std::vector<torch::Tensor> per_image_slots(torch::Tensor prediction, double conf) {
  std::vector<torch::Tensor> output;
  for (int64_t i = 0; i < prediction.size(0); ++i)
    output.push_back(torch::zeros({0, 6}));
  for (int64_t i = 0; i < prediction.size(0); ++i) {
    torch::Tensor x = prediction[i];
    x = x.index_select(0, torch::nonzero(x.select(1, 4) > conf).select(1, 0));
    if (x.size(0) == 0)
      continue;
    output[i] = x.slice(1, 0, 6).cpu();
  }
  return output;
}

// Sized by its constructor, assigned by the counter.
std::vector<torch::Tensor> per_image_sized(torch::Tensor prediction, double conf) {
  std::vector<torch::Tensor> output(prediction.size(0), torch::empty({0, 5}));
  for (int64_t i = 0; i < prediction.size(0); ++i) {
    auto kept = prediction[i].index({prediction[i].select(1, 4) > conf});
    output[i] = kept * 2;
  }
  return output;
}

// An element other than the counter's: not a slot the epilogue can replay.
std::vector<torch::Tensor> first_slot(torch::Tensor prediction, double conf) {
  std::vector<torch::Tensor> output(1);
  for (int64_t i = 0; i < prediction.size(0); ++i) {
    auto kept = prediction[i].index({prediction[i].select(1, 4) > conf}); // EXPECT-RECIPE: not rewritten automatically: the padded form covers loops whose body is straight-line code .*'output\[0\] = kept' at line 39 is not
    output[0] = kept;
  }
  return output;
}
