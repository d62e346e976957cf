#pragma once
/// \file
/// `#include <ATen/ATen.h>` under graphify::torch_compat: the `at::` names of the subset (see
/// <torch/torch.h> in this folder, which defines them all).
#include <torch/torch.h>
