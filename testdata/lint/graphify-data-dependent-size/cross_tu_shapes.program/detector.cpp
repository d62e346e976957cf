// Whole program: the size of a selection made in boxes.cpp, returned through a helper, passed
// through another that keeps its shape, or stored in a field there, is a value read from the data;
// so is the length of a field container grown there under a data-dependent condition (not of one
// whose elements only were written).
#include "boxes.h"

struct Detector : torch::nn::Module {
  Tracks tracks;
  torch::Tensor forward(torch::Tensor pred) {
    auto det = scaled(confident(pred, 0.25), 2.0);
    auto out = torch::zeros({det.size(0), 4});
    // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: size argument of 'zeros' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-3]]:16: note: returned from 'scaled' here
    // CHECK-NOTES: :[[@LINE-4]]:23: note: returned from 'confident' here
    tracks.update(pred);
    auto kept = torch::ones({tracks.alive.size(0)});
    // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: size argument of 'ones' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    auto grid = torch::zeros({scaled(pred, 2.0).size(0)});
    tracks.admit(pred.select(1, 4));
    tracks.remember(pred.select(1, 4));
    auto slots = torch::zeros({static_cast<int64_t>(tracks.ids.size())});
    // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: size argument of 'zeros' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    if (tracks.last.size() > 2)
      out = out * 2;
    return out.sum() + kept.sum() + grid.sum() + slots.sum();
  }
};
