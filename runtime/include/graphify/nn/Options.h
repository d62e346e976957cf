#pragma once
/// \file
/// GFY_ARG: the builder-style option member of LibTorch's TORCH_ARG, shared by every `*Options`
/// struct of gfy::nn. `GFY_ARG(double, eps) = 1e-5;` declares the field `eps_` with its default,
/// the setter `eps(v)` (returns the options, so calls chain) and the getter `eps()`.
///
/// \code
///   struct LayerNormOptions {
///     GFY_ARG(double, eps) = 1e-5;
///   };
///   auto o = LayerNormOptions().eps(1e-6);
/// \endcode

#define GFY_ARG(T, name)                                                                           \
public:                                                                                            \
  auto name(const T &v)->decltype(*this) {                                                         \
    name##_ = v;                                                                                   \
    return *this;                                                                                  \
  }                                                                                                \
  const T &name() const { return name##_; }                                                        \
                                                                                                   \
private:                                                                                           \
  T name##_
