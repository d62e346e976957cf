// Our own generator (SplitMix64) rather than std::uniform_real_distribution: the standard leaves
// distributions implementation-defined, and the inputs must be identical across compilers,
// standard libraries and runs for the cache and the reports to be reproducible.
#include "graphify/validate/InputGenerator.h"

#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace graphify::validate {

const char *variantName(Variant V) {
  switch (V) {
  case Variant::Random: return "random";
  case Variant::Negated: return "negated";
  case Variant::AllPositive: return "all-positive";
  case Variant::AllNegative: return "all-negative";
  case Variant::Zeros: return "zeros";
  case Variant::ShiftedUp: return "shifted-up";
  case Variant::ShiftedDown: return "shifted-down";
  case Variant::Fresh: return "fresh";
  }
  return "?";
}

Variant variantForTrial(unsigned Trial) { return static_cast<Variant>(Trial % NumVariants); }

namespace {

class SplitMix64 {
public:
  explicit SplitMix64(uint64_t State) : State(State) {}
  uint64_t next() {
    uint64_t Z = (State += 0x9e3779b97f4a7c15ULL);
    Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebULL;
    return Z ^ (Z >> 31);
  }
  /// Uniform in [0, 1) with 53 random bits.
  double unit() { return double(next() >> 11) * 0x1.0p-53; }

private:
  uint64_t State;
};

uint64_t mix(uint64_t A, uint64_t B) {
  SplitMix64 G(A ^ (B * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL));
  return G.next();
}

/// Uniform draws over the range, from the stream named by (seed, cycle, input, salt).
class UniformDraw {
public:
  UniformDraw(const InputSpec &Spec, uint64_t Seed, unsigned Cycle, unsigned Input, uint64_t Salt)
      : G(mix(mix(mix(Seed, Cycle), Input), Salt)), Type(Spec.Type), R(Spec.effectiveRange()) {}
  double next() {
    double U = G.unit();
    if (Type == DType::Bool)
      return U < 0.5 ? 0 : 1;
    if (isFloating(Type))
      return R.Lo + (R.Hi - R.Lo) * U;
    return std::min(R.Hi, R.Lo + std::floor(U * (R.Hi - R.Lo + 1)));
  }

private:
  SplitMix64 G;
  DType Type;
  ValueRange R;
};

/// Stores element `I` of `T` in the dtype's layout.
void store(HostTensor &T, int64_t I, double X) {
  char *At = T.mutableBytes() + I * int64_t(elementSize(T.Type));
  switch (T.Type) {
  case DType::F32: {
    float F = float(X);
    std::memcpy(At, &F, 4);
    break;
  }
  case DType::F64: std::memcpy(At, &X, 8); break;
  case DType::I32: {
    int32_t V = int32_t(X);
    std::memcpy(At, &V, 4);
    break;
  }
  case DType::I64: {
    int64_t V = int64_t(X);
    std::memcpy(At, &V, 8);
    break;
  }
  case DType::Bool: *At = X != 0; break;
  }
}

} // namespace

// Element by element, straight into the tensor's own layout: an input of 2^24 elements costs its
// payload and nothing else. Each stream (the base draw, the fresh draw, the variant's own) is read
// in element order, so the values do not depend on how they are stored.
HostTensor generateInput(const InputSpec &Spec, uint64_t Seed, unsigned Trial, unsigned InputIndex) {
  const unsigned Cycle = Trial / NumVariants;
  const Variant V = variantForTrial(Trial);
  const ValueRange R = Spec.effectiveRange();
  const bool Floating = isFloating(Spec.Type);
  UniformDraw Base(Spec, Seed, Cycle, InputIndex, /*Salt=*/0);
  UniformDraw Fresh(Spec, Seed, Cycle, InputIndex, /*Salt=*/7);

  // Positive and negative sub-ranges; when the range has no such values, the closest there is.
  const double Step = Floating ? 0 : 1;
  const double PosLo = std::max(R.Lo, Step), NegHi = std::min(R.Hi, -Step);
  const double K = Floating ? (R.Hi - R.Lo) / 4 : std::max(1.0, std::floor((R.Hi - R.Lo) / 4));
  SplitMix64 G(mix(mix(mix(Seed, Cycle), InputIndex), /*Salt=*/uint64_t(V) + 1));
  auto Between = [&](double Lo, double Hi) {
    double U = G.unit();
    if (!Floating)
      return std::min(Hi, Lo + std::floor(U * (Hi - Lo + 1)));
    // Open at zero: "all positive" must not produce an exact 0.
    return Lo + (Hi - Lo) * (0.05 + 0.95 * U);
  };
  auto BoolValue = [&](double B) {
    switch (V) {
    case Variant::Random: return B;
    case Variant::Negated: return 1 - B;
    case Variant::AllPositive:
    case Variant::ShiftedUp: return 1.0;
    case Variant::AllNegative:
    case Variant::Zeros:
    case Variant::ShiftedDown: return 0.0;
    case Variant::Fresh: return Fresh.next();
    }
    return B;
  };
  auto NumberValue = [&](double X) {
    switch (V) {
    case Variant::Random: return X;
    case Variant::Negated: return R.Lo + R.Hi - X;
    case Variant::AllPositive:
      return R.Hi > 0 ? (Floating ? Between(std::max(R.Lo, 0.0), R.Hi) : Between(PosLo, R.Hi)) : R.Hi;
    case Variant::AllNegative:
      return R.Lo < 0 ? (Floating ? -Between(-std::min(R.Hi, 0.0), -R.Lo) : Between(R.Lo, NegHi)) : R.Lo;
    case Variant::Zeros: return std::clamp(0.0, R.Lo, R.Hi);
    case Variant::ShiftedUp: return std::clamp(X + K, R.Lo, R.Hi);
    case Variant::ShiftedDown: return std::clamp(X - K, R.Lo, R.Hi);
    case Variant::Fresh: return Fresh.next();
    }
    return X;
  };

  HostTensor T = HostTensor::zeros(Spec.Type, Spec.Shape);
  const int64_t N = T.numel();
  for (int64_t I = 0; I < N; ++I) {
    double X = Base.next();
    store(T, I, Spec.Type == DType::Bool ? BoolValue(X) : NumberValue(X));
  }
  return T;
}

std::vector<TrialInputs> generateTrials(const std::vector<InputSpec> &Specs, uint64_t Seed, unsigned Count) {
  std::vector<TrialInputs> Out;
  for (unsigned T = 0; T < Count; ++T) {
    TrialInputs TI;
    TI.Trial = T;
    TI.Variant = variantName(variantForTrial(T));
    for (unsigned I = 0; I < Specs.size(); ++I)
      TI.Inputs.push_back(generateInput(Specs[I], Seed, T, I));
    Out.push_back(std::move(TI));
  }
  return Out;
}

llvm::Error writeInputsFile(const std::string &Path, const std::vector<InputSpec> &Specs, uint64_t Seed,
                            unsigned Count) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  if (EC)
    return llvm::createStringError(EC, "cannot write " + Path + ": " + EC.message());
  OS << InputsFileHeader;
  // One input in memory at a time: generated, written, dropped.
  for (unsigned T = 0; T < Count; ++T) {
    OS << formatTrialHeader(T, variantName(variantForTrial(T)), Specs.size());
    for (unsigned I = 0; I < Specs.size(); ++I)
      writeTensor(OS, generateInput(Specs[I], Seed, T, I));
  }
  OS.close();
  if (OS.has_error()) {
    EC = OS.error();
    OS.clear_error();
    return llvm::createStringError(EC, "cannot write " + Path + ": " + EC.message());
  }
  return llvm::Error::success();
}

} // namespace graphify::validate
