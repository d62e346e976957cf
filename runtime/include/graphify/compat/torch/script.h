#pragma once
/// \file
/// `#include <torch/script.h>` under graphify::torch_compat. TorchScript itself is not part of
/// the subset (graphify's `gfy::capture` / `gfy::trace` replace it); this header only lets code
/// that includes it for tensors and modules compile.
#include <torch/torch.h>
