// Unchanged LibTorch-style code, built against the bundled runtime through the compat headers.
#include <torch/torch.h>
#include <iostream>

int main() {
  torch::Tensor x = torch::arange(1, 4, torch::kFloat);  // 1 2 3
  torch::Tensor y = torch::where(x > 1.5, x * 2, x + 2);  // 3 4 6
  y = torch::where(x > 2.5, x + 2, y);                    // 3 4 5
  y = y.clone();
  y.index_put_({0}, 2.0);                                 // 2 4 5
  std::cout << "where=[" << y[0].item<float>() << ", " << y[1].item<float>() << ", "
            << y[2].item<float>() << "]\n";
}
