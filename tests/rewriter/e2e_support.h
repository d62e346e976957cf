#pragma once
/// \file
/// Support for the generated model equivalence program: deterministic inputs that take both
/// sides of sign- and zero-based decisions, and exact comparison (NaN equals NaN; shapes, dtypes
/// and thrown-or-not must agree; floating results that differ only by summation order are
/// reported separately).

#include <cstring>
#include <type_traits>
#include <torch/torch.h>

#include <tuple>
#include <vector>

#include <functional>
#include <iostream>
#include <string>

namespace e2e {

constexpr int kTrials = 14;

/// Trial 0: all +1.5, 1: all -1.5, 2: zeros, 3: all +0.25, 4: alternating signs, 5: alternating
/// with zeros, then seeded normals (some with exact zeros). Integer inputs with a range draw
/// uniformly from it.
inline torch::Tensor makeInput(torch::ScalarType Dtype, std::vector<int64_t> Sizes, int Trial, double Lo, double Hi,
                               bool HasRange) {
  torch::manual_seed(1000 + Trial);
  auto Opts = torch::TensorOptions().dtype(torch::kDouble);
  if (HasRange)
    return torch::randint(static_cast<int64_t>(Lo), static_cast<int64_t>(Hi) + 1, Sizes,
                          torch::TensorOptions().dtype(Dtype));
  torch::Tensor X;
  int64_t N = 1;
  for (int64_t S : Sizes)
    N *= S;
  auto Alternating = (torch::arange(N, Opts).remainder(2) * 2 - 1).reshape(Sizes);
  switch (Trial) {
  case 0: X = torch::full(Sizes, 1.5, Opts); break;
  case 1: X = torch::full(Sizes, -1.5, Opts); break;
  case 2: X = torch::zeros(Sizes, Opts); break;
  case 3: X = torch::full(Sizes, 0.25, Opts); break;
  case 4: X = Alternating * 0.75; break;
  case 5: X = Alternating * (torch::arange(N, Opts).remainder(3) != 0).reshape(Sizes).to(torch::kDouble); break;
  default:
    X = torch::randn(Sizes, Opts) * 2;
    if (Trial % 2)
      X = X * (torch::rand(Sizes, Opts) > 0.3).to(torch::kDouble);
  }
  if (Dtype == torch::kBool)
    return X > 0;
  return X.to(Dtype);
}

inline bool sameTensor(const std::string &What, int Trial, const torch::Tensor &A, const torch::Tensor &B) {
  bool Same = A.defined() == B.defined();
  if (Same && A.defined())
    Same = A.sizes() == B.sizes() && A.scalar_type() == B.scalar_type() &&
           (A.numel() == 0 || (A.eq(B) | (A.isnan() & B.isnan())).all().item<bool>());
  if (!Same && A.defined() && B.defined() && A.sizes() == B.sizes() && A.scalar_type() == B.scalar_type() &&
      A.is_floating_point() &&
      torch::allclose(A.to(torch::kDouble), B.to(torch::kDouble), 1e-6, 1e-7, /*equal_nan=*/true)) {
    // A reduction over a fixed-size tensor (zeros in place of unselected elements) may group the
    // floating-point additions differently from one over the selection; LibTorch does not specify
    // its summation order, so a last-bit difference is reported but not counted as a mismatch.
    std::cerr << What << ", trial " << Trial << ": equal up to floating-point summation order (max |diff| "
              << (A.to(torch::kDouble) - B.to(torch::kDouble)).abs().max().item<double>() << ")\n";
    return true;
  }
  if (!Same)
    std::cerr << What << ", trial " << Trial << ": original and fixed differ\n  original: " << A
              << "\n  fixed:    " << B << "\n";
  return Same;
}

/// Tuples, pairs and vectors of tensors (what post-processing returns) compare element by element.
inline bool sameValue(const std::string &What, int Trial, const torch::Tensor &A, const torch::Tensor &B) {
  return sameTensor(What, Trial, A, B);
}
inline bool sameValue(const std::string &What, int Trial, const std::vector<torch::Tensor> &A,
                      const std::vector<torch::Tensor> &B) {
  if (A.size() != B.size()) {
    std::cerr << What << ", trial " << Trial << ": " << A.size() << " vs " << B.size() << " tensors\n";
    return false;
  }
  bool Same = true;
  for (size_t I = 0; I < A.size(); ++I)
    Same &= sameTensor(What + " [" + std::to_string(I) + "]", Trial, A[I], B[I]);
  return Same;
}
/// A host number (what an entry split at its host part may return) compares bit for bit.
template <class N, std::enable_if_t<std::is_arithmetic_v<N>, int> = 0>
bool sameValue(const std::string &What, int Trial, N A, N B) {
  if (std::memcmp(&A, &B, sizeof(N)) == 0)
    return true;
  std::cerr << What << ", trial " << Trial << ": " << A << " vs " << B << "\n";
  return false;
}
template <class... T>
bool sameValue(const std::string &What, int Trial, const std::tuple<T...> &A, const std::tuple<T...> &B) {
  return std::apply(
      [&](const auto &...X) {
        return std::apply(
            [&](const auto &...Y) {
              size_t I = 0;
              bool Same = true;
              ((Same &= sameValue(What + " <" + std::to_string(I++) + ">", Trial, X, Y)), ...);
              return Same;
            },
            B);
      },
      A);
}
template <class A1, class B1>
bool sameValue(const std::string &What, int Trial, const std::pair<A1, B1> &A, const std::pair<A1, B1> &B) {
  return sameValue(What + " <0>", Trial, A.first, B.first) & sameValue(What + " <1>", Trial, A.second, B.second);
}

template <class Original, class Fixed>
bool sameOutcome(const std::string &What, int Trial, const Original &RunOriginal, const Fixed &RunFixed) {
  decltype(RunOriginal()) A;
  decltype(RunFixed()) B;
  std::string EA, EB;
  try {
    A = RunOriginal();
  } catch (const std::exception &E) {
    EA = E.what();
  }
  try {
    B = RunFixed();
  } catch (const std::exception &E) {
    EB = E.what();
  }
  if (EA.empty() != EB.empty()) {
    std::cerr << What << ", trial " << Trial << ": only one side threw: '" << EA.substr(0, 200) << "' vs '"
              << EB.substr(0, 200) << "'\n";
    return false;
  }
  return EA.empty() ? sameValue(What, Trial, A, B) : true;
}

} // namespace e2e
