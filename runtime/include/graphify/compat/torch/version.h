#pragma once
/// \file
/// `#include <torch/version.h>` under graphify::torch_compat: the LibTorch release whose API the
/// runtime mirrors (1.13, whose names, defaults and messages the differential suite checks), so
/// that `#if TORCH_VERSION_MAJOR >= 2` in user code takes the branch it takes against LibTorch 1.13.

/// Indicates the major version of LibTorch.
#define TORCH_VERSION_MAJOR 1
/// Indicates the minor version of LibTorch.
#define TORCH_VERSION_MINOR 13
/// Indicates the patch version of LibTorch.
#define TORCH_VERSION_PATCH 0
/// Indicates the version of LibTorch.
#define TORCH_VERSION "1.13.0"
