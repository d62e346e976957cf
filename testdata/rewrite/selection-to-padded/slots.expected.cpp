// selection-to-padded on result vectors that are filled before the selecting loop (an empty
// tensor per image) and assigned by the loop's counter (`output[i] = x;`), the shape of YOLO
// ports of `output = [torch.zeros((0, 6))] * bs`. The epilogue fills the vector as the original
// did, then rebinds each image's element to its sliced survivors under the original header.
#include <torch/torch.h>

#include <vector>

// Filled by a loop, assigned by the counter.
static std::tuple<std::vector<torch::Tensor>, std::vector<torch::Tensor>,
                  std::vector<torch::Tensor>>
per_image_slots_padded(torch::Tensor prediction, double conf) {
  std::vector<torch::Tensor> positions_count_each;
  std::vector<torch::Tensor> x_at_17;
  std::vector<torch::Tensor> x_each;
  for (int64_t i = 0; i < prediction.size(0); ++i) {
    torch::Tensor x = prediction[i];
    auto positions_of = x.select(1, 4) > conf;
    if (positions_of.dim() != 1)
      throw std::invalid_argument(
          "graphify: the padded form of line 16 assumes a one-dimensional "
          "'x.select(1, 4) > conf'");
    auto positions_valid = positions_of;
    auto positions_order =
        torch::argsort(torch::logical_not(positions_valid).to(torch::kInt),
                       /*stable=*/true, 0);
    auto positions_count = positions_valid.sum();
    if (x.dim() == 0 || x.size(0) < positions_of.size(0))
      throw std::invalid_argument(
          "graphify: the padded form of line 16 assumes that 'x' has a row for "
          "every position it is gathered at");
    x = x.index_select(0, positions_order);
    x_at_17.push_back(x);
    x_each.push_back(x);
    positions_count_each.push_back(positions_count);
  }
  return std::make_tuple(x_at_17, x_each, positions_count_each);
}

/// graphify: host epilogue of 'per_image_slots_padded' (reads the counts and
/// slices the padded outputs of each iteration of the loop at line 14, then
/// runs the original's host code (from line 19 in the loop, from line 21 after
/// it) on them; not a graph region)
std::vector<torch::Tensor> per_image_slots(torch::Tensor prediction,
                                           double conf) {
  std::vector<torch::Tensor> output;
  for (int64_t i = 0; i < prediction.size(0); ++i)
    output.push_back(torch::zeros({0, 6}));
  auto padded = per_image_slots_padded(prediction, conf);
  size_t iteration = 0;
  for (int64_t i = 0; i < prediction.size(0); ++i, ++iteration) {
    const int64_t rows = std::get<2>(padded)[iteration].item<int64_t>();
    if (std::get<0>(padded)[iteration].narrow(0, 0, rows).size(0) == 0)
      continue;
    auto x = std::get<1>(padded)[iteration].narrow(0, 0, rows);
    output[i] = x.slice(1, 0, 6).cpu();
  }
  return output;
}

// Sized by its constructor, assigned by the counter.
static std::tuple<std::vector<torch::Tensor>, std::vector<torch::Tensor>>
per_image_sized_padded(torch::Tensor prediction, double conf) {
  std::vector<torch::Tensor> kept_count_each;
  std::vector<torch::Tensor> output_each;
  for (int64_t i = 0; i < prediction.size(0); ++i) {
    auto kept_source = prediction[i];
    auto kept_valid = prediction[i].select(1, 4) > conf;
    if (kept_valid.dim() != 1 || kept_valid.size(0) != kept_source.size(0))
      throw std::invalid_argument(
          "graphify: the padded form of line 28 assumes a one-dimensional mask "
          "with one element per row");
    auto kept_order = torch::argsort(
        torch::logical_not(kept_valid).to(torch::kInt), /*stable=*/true, 0);
    auto kept_count = kept_valid.sum();
    auto kept = kept_source.index_select(0, kept_order);
    output_each.push_back(kept * 2);
    kept_count_each.push_back(kept_count);
  }
  return std::make_tuple(output_each, kept_count_each);
}

/// graphify: host epilogue of 'per_image_sized_padded' (reads the counts and
/// slices the padded outputs of each iteration of the loop at line 27, then
/// runs the original's host code (from line 31 after it) on them; not a graph
/// region)
std::vector<torch::Tensor> per_image_sized(torch::Tensor prediction,
                                           double conf) {
  std::vector<torch::Tensor> output(prediction.size(0), torch::empty({0, 5}));
  auto padded = per_image_sized_padded(prediction, conf);
  size_t iteration = 0;
  for (int64_t i = 0; i < prediction.size(0); ++i, ++iteration) {
    const int64_t rows = std::get<1>(padded)[iteration].item<int64_t>();
    output[i] = std::get<0>(padded)[iteration].narrow(0, 0, rows);
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
