#pragma once
/// \file
/// Grad mode: whether ops record autograd history. Thread-local and on by default, as in
/// LibTorch; the guards below switch it for a scope and restore it on exit.
///
/// \code
///   gfy::Tensor w = gfy::ones({3}).requires_grad_();
///   {
///     gfy::NoGradGuard no_grad;      // the update is not part of any graph
///     w.sub_(w.grad() * 0.1);
///   }
/// \endcode

namespace gfy {

/// LibTorch's `torch::GradMode` (`at::GradMode`). The flag is a thread-local of
/// src/autograd/Variable.cpp, read through these out-of-line functions: an `extern
/// thread_local` read inline from other translation units goes through a TLS wrapper that
/// UndefinedBehaviorSanitizer reports as a null store (and a call per launch costs nothing).
struct GradMode {
  static bool is_enabled();
  static void set_enabled(bool enabled);
};

/// Sets grad mode to `enabled` for the guard's lifetime.
struct AutoGradMode {
  explicit AutoGradMode(bool enabled) : prev_(GradMode::is_enabled()) { GradMode::set_enabled(enabled); }
  ~AutoGradMode() { GradMode::set_enabled(prev_); }
  AutoGradMode(const AutoGradMode &) = delete;
  AutoGradMode &operator=(const AutoGradMode &) = delete;

private:
  bool prev_;
};

/// Turns grad mode off for its lifetime: ops record no history, in-place updates of leaves
/// that require grad are allowed (an optimizer's step).
struct NoGradGuard : AutoGradMode {
  NoGradGuard() : AutoGradMode(false) {}
};

/// `c10::InferenceMode`: here the same as NoGradGuard while enabled (there are no inference
/// tensors; tensors made inside may be used in autograd later).
struct InferenceMode : AutoGradMode {
  explicit InferenceMode(bool enabled = true) : AutoGradMode(enabled ? false : GradMode::is_enabled()) {}
};

namespace autograd {
// LibTorch spells these torch::autograd::GradMode / AutoGradMode too; the compat shim reaches
// them through gfy:: (it declares no namespace of its own that gfy:: has).
using ::gfy::AutoGradMode;
using ::gfy::GradMode;
} // namespace autograd
} // namespace gfy
