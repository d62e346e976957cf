#pragma once
/// \file
/// The oracle of the rewrite-soundness fuzzer, compiled into each generated driver against
/// LibTorch: every module runs, original and rewritten, on the same inputs over kTrials trials,
/// and the two outcomes must agree — the result (shape, dtype, values up to floating-point
/// reordering, NaN equal to NaN), the inputs afterwards (in-place ops), and whether it threw and
/// an exception of which type (another message for the same type is only noted). Inputs are drawn so that both sides of value conditions are taken: fixed
/// patterns first (all positive, all negative, zeros, alternating), then seeded normals at
/// several scales with exact zeros; an integer input declared `in [lo, hi]` draws from the inner
/// range [lo+1, hi-1] on even trials (the guards of index ops hold) and from [lo, hi] on odd ones
/// (they fail). The last two trials put a NaN and an infinity into floating inputs.
///
/// \code
///   soundness::Session S;
///   S.check("Case0", {{"x", torch::kFloat, {4}}},
///           [](auto &In) { original::Case0 M; return M.forward(In[0]); },
///           [](auto &In) { rewritten::Case0 M; return M.forward(In[0]); });
///   return S.finish();
/// \endcode

#include <torch/torch.h>

#include <functional>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

namespace soundness {

constexpr int kTrials = 18;

/// One input, as its `// graphify-entry:` comment declares it.
struct InputSpec {
  std::string Name;
  torch::ScalarType Dtype;
  std::vector<int64_t> Sizes;
  bool HasRange = false;
  int64_t Lo = 0, Hi = 0;
};

using Forward = std::function<torch::Tensor(std::vector<torch::Tensor> &)>;

inline torch::Tensor makeInput(const InputSpec &Spec, int Trial) {
  torch::manual_seed(1000 + 31 * Trial + static_cast<int64_t>(Spec.Name.size()) * 7 + Spec.Name[0]);
  if (Spec.HasRange) {
    bool Inner = Trial % 2 == 0 && Spec.Hi - Spec.Lo >= 2;
    int64_t Lo = Inner ? Spec.Lo + 1 : Spec.Lo, Hi = Inner ? Spec.Hi - 1 : Spec.Hi;
    return torch::randint(Lo, Hi + 1, Spec.Sizes, torch::TensorOptions().dtype(Spec.Dtype));
  }
  auto Opts = torch::TensorOptions().dtype(torch::kDouble);
  int64_t N = 1;
  for (int64_t S : Spec.Sizes)
    N *= S;
  auto Alternating = (torch::arange(N, Opts).remainder(2) * 2 - 1).reshape(Spec.Sizes);
  torch::Tensor X;
  switch (Trial) {
  case 0: X = torch::full(Spec.Sizes, 1.5, Opts); break;
  case 1: X = torch::full(Spec.Sizes, -1.5, Opts); break;
  case 2: X = torch::zeros(Spec.Sizes, Opts); break;
  case 3: X = Alternating * 0.75; break;
  case 4: X = torch::full(Spec.Sizes, 0.25, Opts); break;
  default: {
    static const double Scales[] = {0.5, 1, 2, 4};
    X = torch::randn(Spec.Sizes, Opts) * Scales[Trial % 4];
    if (Trial % 3 == 0)
      X = X * (torch::rand(Spec.Sizes, Opts) > 0.3).to(torch::kDouble);
  }
  }
  // The last two trials carry a NaN and an infinity: comparisons with them are false both ways,
  // which is where `~m` and the opposite comparison part ways.
  if (Trial == kTrials - 2)
    X.view({-1})[0] = std::numeric_limits<double>::quiet_NaN();
  if (Trial == kTrials - 1)
    X.view({-1})[N - 1] = std::numeric_limits<double>::infinity();
  return Spec.Dtype == torch::kBool ? X > 0 : X.to(Spec.Dtype);
}

/// What one call did.
struct Outcome {
  bool Threw = false;
  std::string Error;     ///< first line of the message, without LibTorch's backtrace
  std::string ErrorType; ///< the exception's dynamic type (c10::IndexError, c10::ValueError, ...)
  torch::Tensor Value;
  std::vector<torch::Tensor> InputsAfter;
};

inline std::string firstLine(const std::string &S) { return S.substr(0, S.find('\n')); }

inline Outcome run(const Forward &F, const std::vector<torch::Tensor> &Inputs) {
  Outcome O;
  for (const torch::Tensor &T : Inputs)
    O.InputsAfter.push_back(T.clone());
  // Equal seeds: ops that draw (multinomial) draw the same on both sides when called the same way.
  torch::manual_seed(7);
  try {
    O.Value = F(O.InputsAfter);
  } catch (const c10::Error &E) {
    O.Threw = true;
    O.Error = firstLine(E.what_without_backtrace());
    O.ErrorType = c10::demangle(typeid(E).name());
  } catch (const std::exception &E) {
    O.Threw = true;
    O.Error = firstLine(E.what());
    O.ErrorType = c10::demangle(typeid(E).name());
  }
  return O;
}

/// Empty when A and B agree, else what differs.
inline std::string differenceOf(const torch::Tensor &A, const torch::Tensor &B) {
  if (A.defined() != B.defined())
    return "one side is undefined";
  if (!A.defined())
    return "";
  if (A.sizes() != B.sizes())
    return "shapes differ";
  if (A.scalar_type() != B.scalar_type())
    return "dtypes differ";
  if (A.numel() == 0)
    return "";
  if (A.is_floating_point()) {
    // A reduction over a fixed-size tensor may add in another order than one over a
    // selection; LibTorch does not specify its summation order.
    auto DA = A.to(torch::kDouble), DB = B.to(torch::kDouble);
    double Rtol = A.scalar_type() == torch::kDouble ? 1e-9 : 1e-5;
    return torch::allclose(DA, DB, Rtol, 1e-6, /*equal_nan=*/true) ? "" : "values differ";
  }
  return A.equal(B) ? "" : "values differ";
}

inline std::string describe(const Outcome &O) {
  if (O.Threw)
    return "threw " + O.ErrorType + " '" + O.Error + "'";
  std::ostringstream S;
  S << "returned " << O.Value;
  return S.str();
}

class Session {
public:
  // One thread: reductions then add in the same order on every run (and tiny tensors gain
  // nothing from more).
  Session() { torch::set_num_threads(1); }

  /// Runs Original and Rewritten on kTrials inputs; prints every disagreement.
  void check(const std::string &Module, const std::vector<InputSpec> &Specs, const Forward &Original,
             const Forward &Rewritten) {
    ++Modules;
    int ModuleMismatches = 0;
    for (int Trial = 0; Trial < kTrials; ++Trial) {
      std::vector<torch::Tensor> Inputs;
      for (const InputSpec &Spec : Specs)
        Inputs.push_back(makeInput(Spec, Trial));
      Outcome A = run(Original, Inputs), B = run(Rewritten, Inputs);
      ++Trials;
      ThrewOriginal += A.Threw;
      std::string What;
      if (A.Threw != B.Threw)
        What = A.Threw ? "only the original threw" : "only the rewritten version threw";
      else if (A.Threw && A.ErrorType != B.ErrorType)
        What = "both threw, exceptions of different types";
      else if (A.Threw && A.Error != B.Error)
        // Same type, other wording (select() vs index() on the same out-of-range position): a
        // caller cannot tell them apart by what it catches, so it is noted, not counted.
        std::cout << "note: " << Module << " trial " << Trial << ": both threw " << A.ErrorType << ": '" << A.Error
                  << "' vs '" << B.Error << "'\n";
      else if (!A.Threw)
        What = differenceOf(A.Value, B.Value);
      for (size_t I = 0; What.empty() && I < Inputs.size(); ++I)
        if (!(A.Threw && B.Threw) && !differenceOf(A.InputsAfter[I], B.InputsAfter[I]).empty())
          What = "input '" + Specs[I].Name + "' differs after the call";
      if (What.empty())
        continue;
      ++ModuleMismatches;
      std::cout << "MISMATCH " << Module << " trial " << Trial << ": " << What << "\n";
      for (size_t I = 0; I < Inputs.size(); ++I)
        std::cout << "  input " << Specs[I].Name << " =\n" << Inputs[I] << "\n";
      std::cout << "  original:  " << describe(A) << "\n  rewritten: " << describe(B) << "\n";
      for (size_t I = 0; I < Inputs.size(); ++I)
        if (!differenceOf(A.InputsAfter[I], B.InputsAfter[I]).empty())
          std::cout << "  input " << Specs[I].Name << " after the call: original\n"
                    << A.InputsAfter[I] << "\n  rewritten\n" << B.InputsAfter[I] << "\n";
      // The first few trials of a module say enough; the rest only repeat them.
      if (ModuleMismatches == 3)
        break;
    }
    Mismatches += ModuleMismatches;
    MismatchedModules += ModuleMismatches > 0;
  }

  /// Prints the summary line; the exit status of the driver.
  int finish() const {
    std::cout << "soundness: " << Modules << " modules, " << Trials << " trials (" << ThrewOriginal
              << " where the original threw), " << MismatchedModules << " modules disagree\n";
    return MismatchedModules ? 1 : 0;
  }

private:
  int Modules = 0, Trials = 0, ThrewOriginal = 0, Mismatches = 0, MismatchedModules = 0;
};

} // namespace soundness
