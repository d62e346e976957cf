// if-return-to-where: regions the general if-conversion must refuse, each with the construct
// and line that blocked it.
#include "mock_torch.h"
#include <iostream>

torch::Tensor log_between(torch::Tensor x) {
  if (x.sum().item<float>() > 0) // EXPECT-NO-FIX: ^the branch decides whether host code runs: 'std::cout <<' \(line 9\) prints on the host
    return x;
  std::cout << "negative\n";
  return -x;
}

torch::Tensor some_paths_return(torch::Tensor x, torch::Tensor y) {
  if (x.sum().item<float>() > 0) { // EXPECT-NO-FIX: ^the then branch returns on some paths only \(line 15\)$
    if (y.sum().item<float>() > 0) // EXPECT-NO-FIX: ^the code after the if does not end in a return \(line 15\)$
      return y;
    y = y * 2;
  }
  return x + y;
}

torch::Tensor in_place_local(torch::Tensor x) {
  if (x.sum().item<float>() > 0) { // EXPECT-NO-FIX: ^the then branch calls 'mul_', which changes state \(line 25\)$
    auto h = x * 2;
    h.mul_(3);
    return h;
  }
  return x;
}
