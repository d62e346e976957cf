#pragma once
/// \file
/// `#include <torch/script.h>` under graphify::torch_compat: the shim's <torch/torch.h>, which
/// ends with TorchScript's values and modules (c10::IValue, torch::jit::Module, torch::jit::load).
/// The runtime has no TorchScript interpreter: loading a model or calling a scripted method throws
/// a c10::Error that says so, and the code around the model (the post-processing that takes its
/// outputs as tensors) compiles and runs (docs/compat.md, "TorchScript").
#include <torch/torch.h>

// LibTorch's <torch/script.h> also brings <fstream> (model loaders read files with it).
#include <fstream>
