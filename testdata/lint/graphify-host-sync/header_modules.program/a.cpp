// RUN-ARGS: --header-filter=model\.h
#include "model.h"

torch::Tensor first(HeaderNet &net, torch::Tensor x) { return net.forward(x); }
