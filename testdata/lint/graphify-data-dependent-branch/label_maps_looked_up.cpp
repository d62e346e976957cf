// Detections labelled from a class-name map loaded at start-up. Looking a class id up reads the
// map and adds nothing (find on a non-const map, which has a const twin; a subscript under a test
// that found the key), even in a loop whose trip count follows the data: the map's size stays
// what the constructor loaded, and testing it is no branch on the data.
// RUN-ARGS: --graph-region=Labeller::label
#include <torch/torch.h>

#include <map>
#include <string>
#include <vector>

struct Labeller {
  std::map<int, std::string> names;
  std::vector<std::string> label(const torch::Tensor &classes);
};

std::vector<std::string> Labeller::label(const torch::Tensor &classes) {
  auto ids = classes.cpu();
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 'cpu' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  auto kept = ids.index({ids >= 0});
  std::vector<std::string> out;
  for (int64_t i = 0; i < kept.size(0); ++i) {
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: loop condition depends on the size of a value-dependent selection; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    int id = kept[i].item<int>();
    if (names.size()) {
      if (names.find(id) != names.end())
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
        out.push_back(names[id]);
      else
        out.push_back("unknown");
    }
  }
  return out;
}
