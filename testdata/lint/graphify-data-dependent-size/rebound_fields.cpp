// RUN-ARGS: --checks=-*,graphify-data-dependent-size,graphify-data-dependent-branch --graph-region=Detector::infer --graph-region=Detector::stale --graph-region=Detector::after_call --graph-region=Detector::partly
// A tensor field of the object, rebound in the method that reads its size: the size is the one
// of what was just stored (a head's output, static), not of whatever the field holds elsewhere
// (`out = suppress(out)` stores a selection at the end of the same method). The shape is
// tracked from the store to the next call that may rebind the field: a method whose body does,
// a virtual one, one graphify cannot see.
#include <torch/torch.h>

#include <vector>

class Detector {
public:
  std::vector<torch::Tensor> heads(const torch::Tensor &x) { return {x.sigmoid(), x.tanh(), x.relu()}; }
  torch::Tensor suppress(const torch::Tensor &p) { return p.index({p.select(1, 4) > 0.5}); }
  torch::Tensor grid(int64_t ny, int64_t nx) { return torch::zeros({ny, nx, 2}); }
  void refill(const torch::Tensor &p) { out = p.index({p.select(1, 4) > 0.25}); }
  virtual void hook() {}

  torch::Tensor infer(const torch::Tensor &x) {
    std::vector<torch::Tensor> parts;
    for (const torch::Tensor &h : heads(x)) {
      out = h.contiguous();
      int64_t bs = out.size(0), ny = out.size(2), nx = out.size(3);
      torch::Tensor g = grid(ny, nx); // rebinds no field: `out` is still the head
      parts.push_back(out.view({bs, 3, -1, ny, nx}) + g.sum());
      parts.back() = parts.back().view({out.size(0), -1});
    }
    out = torch::cat(parts, 1);
    out = suppress(out.view({-1, out.size(1)}));
    return out;
  }

  // Read before any store in this method: whatever `out` holds from elsewhere.
  int64_t stale(const torch::Tensor &x) {
    torch::Tensor y = x.view({out.size(0), -1});
    // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: size argument of 'view' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    out = x.relu();
    return y.size(1) + out.size(0);
  }

  // After a call that rebinds it, or one that might: the store before no longer says.
  torch::Tensor after_call(const torch::Tensor &x) {
    out = x.relu();
    refill(x);
    torch::Tensor a = x.view({out.size(0), -1});
    // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: size argument of 'view' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    out = x.relu();
    hook();
    torch::Tensor b = x.view({out.size(0), -1});
    // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: size argument of 'view' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    out = x.relu();
    if (x.dim() > 2)
      out = suppress(x);
    if (out.size(0) > 3)
      // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on the size of a value-dependent selection; a traced or captured graph records only one side [graphify-data-dependent-branch]
      return a + b;
    return a;
  }

  // Stored on one path only: after the join the field may hold what it holds elsewhere; and a
  // function graphify has no body for, handed the object, or handed the field to rebind.
  torch::Tensor partly(const torch::Tensor &x, bool fresh) {
    if (fresh)
      out = x.relu();
    torch::Tensor a = x.view({out.size(0), -1});
    // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: size argument of 'view' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    out = x.relu();
    torch::Tensor b = x.view({out.size(0), -1}); // just stored: the relu's rows
    inspect(*this);
    torch::Tensor c = x.view({out.size(0), -1});
    // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: size argument of 'view' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    out = x.relu();
    reload(out);
    torch::Tensor d = x.view({out.size(0), -1});
    // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: size argument of 'view' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    return a + b + c + d;
  }

private:
  static void inspect(Detector &d);
  static void reload(torch::Tensor &t);
  torch::Tensor out;
};
