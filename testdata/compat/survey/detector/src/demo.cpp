#include <iostream>
#include <string>

#include "detector.h"

// Defined in a library the survey does not have (an image loader): the probe drops this main.
torch::Tensor load_image(const char *path);

int main(int argc, char **argv) {
  vision::TinyDetector net;
  net->eval();
  auto out = net->forward(load_image(argc > 1 ? argv[1] : "image.jpg"));
  // A UTF-8 literal joined to a std::string, as C++17 code writes it (char8_t would refuse it).
  const std::string title = u8"d\u00e9tections: " + std::to_string(out.size(0));
  std::cout << title << ' ' << out.sizes() << std::endl;
}
