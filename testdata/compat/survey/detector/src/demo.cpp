#include <iostream>

#include "detector.h"

// Defined in a library the survey does not have (an image loader): the probe drops this main.
torch::Tensor load_image(const char *path);

int main(int argc, char **argv) {
  vision::TinyDetector net;
  net->eval();
  auto out = net->forward(load_image(argc > 1 ? argv[1] : "image.jpg"));
  std::cout << out.sizes() << std::endl;
}
