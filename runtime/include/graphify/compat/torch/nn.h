#pragma once
/// \file
/// `#include <torch/nn.h>` under graphify::torch_compat: `torch::nn` (see <torch/torch.h>).
#include <torch/torch.h>
