// split-at-host-boundary: functions it does not split. Where the split was tried on the code and
// refused, each host read's recipe ends with why; where the function is outside the shapes it
// covers (the first obstacle has a device form of its own, nothing runs on the device first), the
// findings keep their own advice.
#include "mock_torch.h"

#include <iostream>
#include <vector>

class Scaler {
public:
  std::vector<float> run(torch::Tensor x);

private:
  torch::Tensor scale(torch::Tensor x);
  float factor_ = 2.0f;
};

// The device work calls a method of the class, which a function outside the class cannot.
std::vector<float> Scaler::run(torch::Tensor x) {
  auto y = scale(x.relu());
  auto host = y.cpu(); // EXPECT-RECIPE: \(not split automatically: the statements before the host part call the method 'scale' of the class \(line 21\), which a function outside the class cannot\)
  std::vector<float> out;
  for (int64_t i = 0; i < host.size(0); ++i)
    out.push_back(host[i].item<float>());
  return out;
}

// A parameter assigned before the host part and read after it: the core would assign its copy.
std::vector<float> reassigned(torch::Tensor x) {
  x = x.relu() * 2;
  auto host = x.cpu(); // EXPECT-RECIPE: \(not split automatically: the statements before the host part assign the parameter 'x', which the host part reads after them\)
  std::vector<float> out;
  for (int64_t i = 0; i < host.size(0); ++i)
    out.push_back(host[i].item<float>());
  return out;
}

// An early return before the host part: the wrapper would have to return too.
std::vector<float> returns_early(torch::Tensor x, bool skip) {
  auto y = x.exp();
  if (skip)
    return {};
  auto host = y.cpu(); // EXPECT-RECIPE: \(not split automatically: the statements before the host part return \(line 43\)
  std::vector<float> out;
  for (int64_t i = 0; i < host.size(0); ++i)
    out.push_back(host[i].item<float>());
  return out;
}

// Outside what the split covers: the first obstacle is a selection, which has a padded form; the
// findings keep their own advice, without a word about the split.
std::vector<float> selects_first(torch::Tensor x) {
  auto kept = x.masked_select(x > 0); // EXPECT-RECIPE: ^keep fixed shapes: .* nonzero indices$
  auto host = kept.cpu(); // EXPECT-NO-FIX: the loop's body does host work
  std::vector<float> out;
  for (int64_t i = 0; i < host.size(0); ++i) // EXPECT-NO-FIX: the loop's body does host work
    out.push_back(host[i].item<float>());
  return out;
}

// Outside: the copy to the host is the first statement, nothing runs on the device before it.
std::vector<float> copies_first(torch::Tensor x) {
  auto host = x.cpu(); // EXPECT-RECIPE: ^the tensor is copied to host memory: move the copy, and the host code that uses it, out of the graph region$
  std::vector<float> out;
  for (int64_t i = 0; i < host.size(0); ++i)
    out.push_back(host[i].item<float>());
  return out;
}

// Outside: the host part would start with a scalar read used as tensor math, which has a device
// form of its own (scalar-read-to-device; it refuses the integer read here). The number reaches
// the division through the library's Scalar: the value is not stored in a host object.
torch::Tensor scalar_first(torch::Tensor x) {
  auto y = x.exp();
  int peak = y.item<int>(); // EXPECT-NO-FIX: ^'y.item<int>\(\)' converts to an integer on the host
  auto host = (y / peak).cpu(); // EXPECT-RECIPE: ^the host copy is what the function returns: return the tensor on the device; a caller that hands it to device code
  return host;
}

// Outside: a print in the middle of device work is host work with advice of its own, not the
// start of a host part (the device work after it stays in the graph).
torch::Tensor prints(torch::Tensor x) {
  auto y = x.exp();
  std::cout << y << std::endl; // EXPECT-RECIPE: print
  return y * 2;
}

// Host work between device statements: a replay of the core would not repeat it.
std::vector<float> logs_between(torch::Tensor x, std::vector<int> &steps) {
  auto y = x.exp();
  steps.push_back(1);
  auto z = y * 2;
  auto host = z.cpu(); // EXPECT-RECIPE: \(not split automatically: the device work before the host part is mixed with host work \('steps.push_back' \(line 92\) fills a host container\), which a replay of the core would not repeat\)
  std::vector<float> out;
  for (int64_t i = 0; i < host.size(0); ++i)
    out.push_back(host[i].item<float>());
  return out;
}

// A static member of the class: a function outside the class cannot name it.
class Scaled {
public:
  std::vector<float> run(torch::Tensor x);

private:
  static float scale_;
};

std::vector<float> Scaled::run(torch::Tensor x) {
  auto y = x.exp() * scale_;
  auto host = y.cpu(); // EXPECT-RECIPE: \(not split automatically: the statements before the host part name 'scale_' \(line 111\), a member of the class, which a function outside the class cannot\)
  std::vector<float> out;
  for (int64_t i = 0; i < host.size(0); ++i)
    out.push_back(host[i].item<float>());
  return out;
}

// Values bound together and read after the host part starts: the core cannot return a binding.
std::vector<float> bound_pair(torch::Tensor x) {
  auto [a, b] = std::make_pair(x.exp(), x.relu());
  auto host = (a + b).cpu(); // EXPECT-RECIPE: \(not split automatically: the structured binding 'a' \(line 121\) is read after the statements before the host part
  std::vector<float> out;
  for (int64_t i = 0; i < host.size(0); ++i)
    out.push_back(host[i].item<float>());
  return out;
}
