#pragma once
/// \file
/// `gfy::globalContext()`: LibTorch's `at::globalContext()` switches, which training scripts set
/// once at start-up (`setBenchmarkCuDNN`, `setDeterministicCuDNN`, `setAllowTF32CuBLAS`,
/// `setAllowFP16ReductionCuBLAS`, ...).
/// The runtime records each switch (its getter returns what was set) and none changes a result:
/// its kernels are deterministic, it runs no cuDNN algorithm search, and its cuBLAS calls do not
/// use TF32 (the cuDNN LSTM has its own `allow_tf32` option).
///
/// \code
///   gfy::globalContext().setBenchmarkCuDNN(true);
///   bool b = gfy::globalContext().benchmarkCuDNN();   // true
/// \endcode

#include <graphify/core/Backend.h>

namespace gfy {

class Context {
public:
  bool benchmarkCuDNN() const { return benchmark_cudnn_; }
  void setBenchmarkCuDNN(bool b) { benchmark_cudnn_ = b; }
  bool deterministicCuDNN() const { return deterministic_cudnn_; }
  void setDeterministicCuDNN(bool b) { deterministic_cudnn_ = b; }
  bool userEnabledCuDNN() const { return user_enabled_cudnn_; }
  void setUserEnabledCuDNN(bool b) { user_enabled_cudnn_ = b; }
  bool deterministicAlgorithms() const { return deterministic_algorithms_; }
  bool deterministicAlgorithmsWarnOnly() const { return deterministic_warn_only_; }
  void setDeterministicAlgorithms(bool b, bool warn_only = false) {
    deterministic_algorithms_ = b;
    deterministic_warn_only_ = warn_only;
  }
  bool allowTF32CuBLAS() const { return allow_tf32_cublas_; }
  void setAllowTF32CuBLAS(bool b) { allow_tf32_cublas_ = b; }
  bool allowTF32CuDNN() const { return allow_tf32_cudnn_; }
  void setAllowTF32CuDNN(bool b) { allow_tf32_cudnn_ = b; }
  /// Reduced-precision reductions in half-precision GEMMs: recorded only (half products run in float).
  bool allowFP16ReductionCuBLAS() const { return allow_fp16_reduction_cublas_; }
  void setAllowFP16ReductionCuBLAS(bool b) { allow_fp16_reduction_cublas_ = b; }
  bool hasCUDA() const { return has_backend(kCUDA); }

private:
  // LibTorch 1.13's defaults.
  bool benchmark_cudnn_ = false;
  bool deterministic_cudnn_ = false;
  bool user_enabled_cudnn_ = true;
  bool deterministic_algorithms_ = false;
  bool deterministic_warn_only_ = false;
  bool allow_tf32_cublas_ = false;
  bool allow_tf32_cudnn_ = true;
  bool allow_fp16_reduction_cublas_ = true;
};

/// The process-wide context, as `at::globalContext()`.
inline Context &globalContext() {
  static Context context;
  return context;
}

/// `at::hasCUDA()` (also `torch::hasCUDA()`): whether the CUDA backend can run.
inline bool hasCUDA() { return globalContext().hasCUDA(); }

} // namespace gfy
