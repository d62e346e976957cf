// RUN-ARGS: --graph-region=read_line
#include "recognizer.h"

size_t Recognizer::run(const std::vector<float> &pixels) {
  auto x = this->to_input(pixels, 32, 100);
  return this->to_bytes(x * 255).size();
}

size_t read_line(Recognizer &r, const std::vector<float> &pixels) { return r.run(pixels); }
