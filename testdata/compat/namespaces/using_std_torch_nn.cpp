// `using namespace std;` together with `torch`, `torch::nn` and `torch::indexing`: standard names
// (vector, min, max, abs, sqrt, tuple, get) must stay usable beside the tensor library's.
#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

using namespace std;
using namespace torch;
using namespace torch::nn;
using namespace torch::indexing;

struct TowerImpl : Module {
  TowerImpl(int64_t channels, int64_t depth) {
    for (int64_t i = 0; i < depth; ++i) {
      layers->push_back(Conv2d(Conv2dOptions(channels, channels, 3).padding(1).bias(false)));
      layers->push_back(BatchNorm2d(channels));
      layers->push_back(ReLU(ReLUOptions(true)));
    }
    register_module("layers", layers);
    head = register_module("head", Linear(channels, 10));
  }

  Tensor forward(Tensor x) {
    x = layers->forward(x);
    x = functional::adaptive_avg_pool2d(x, functional::AdaptiveAvgPool2dFuncOptions(1));
    return head(x.flatten(1));
  }

  Sequential layers;
  Linear head{nullptr};
};
TORCH_MODULE(Tower);

tuple<Tensor, int64_t> largest(const Tensor& x) {
  auto [values, indices] = torch::max(x, 1);
  const int64_t n = max<int64_t>(values.size(0), 1);
  const double scale = sqrt(abs(-4.0));
  vector<Tensor> parts{values * scale, indices.to(kFloat)};
  string name = "largest";
  return make_tuple(torch::cat(parts, 0).index({Slice(None, min<int64_t>(n, 3))}),
                    static_cast<int64_t>(name.size()));
}

int64_t count(const vector<int64_t>& v) { return get<0>(make_tuple(static_cast<int64_t>(v.size()))); }
