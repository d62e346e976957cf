// Whole program: the module's forward calls helpers defined in helpers.cpp, mid.cpp and deep.cpp.
// Their summaries cross translation units by USR: what they read on the host taints the result here.
#include "helpers.h"

struct Net : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    if (peak(x) > 1.0f)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-2]]:9: note: returned from 'peak' here
      x = x / 2;
    float s = 0;
    readStats(x, s);
    // CHECK-NOTES: :[[@LINE-1]]:5: note: written by 'readStats' here
    while (s > 1)
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: loop condition depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
      s = s / 2;
    if (mid(x) > 0)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-2]]:9: note: returned from 'mid' here
      x = x + 1;
    if (scaled(3) > 4) // a helper of host values only: clean
      x = x * 2;
    return x;
  }
};

void train(Net &net, torch::Tensor x) {
  net.forward(x);
  trainingOnly(x);
}
