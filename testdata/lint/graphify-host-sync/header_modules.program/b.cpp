// RUN-ARGS: --header-filter=model\.h
#include "model.h"

torch::Tensor second(HeaderNet &net, torch::Tensor x) { return net.forward(x + 1); }
