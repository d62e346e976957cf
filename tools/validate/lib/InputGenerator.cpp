// Our own generator (SplitMix64) rather than std::uniform_real_distribution: the standard leaves
// distributions implementation-defined, and the inputs must be identical across compilers,
// standard libraries and runs for the cache and the reports to be reproducible.
#include "graphify/validate/InputGenerator.h"

#include <algorithm>
#include <cmath>

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

/// Rounds to what the dtype can hold, so that the value written is the value the model sees.
double roundTo(DType T, double V) {
  if (T == DType::F32)
    return double(float(V));
  return V;
}

/// `Count` uniform draws over the range, from the stream named by (seed, cycle, input, salt).
std::vector<double> uniformDraw(const InputSpec &Spec, uint64_t Seed, unsigned Cycle, unsigned Input,
                                uint64_t Salt) {
  SplitMix64 G(mix(mix(mix(Seed, Cycle), Input), Salt));
  ValueRange R = Spec.effectiveRange();
  std::vector<double> Out(Spec.numel());
  for (double &V : Out) {
    double U = G.unit();
    if (Spec.Type == DType::Bool)
      V = U < 0.5 ? 0 : 1;
    else if (isFloating(Spec.Type))
      V = R.Lo + (R.Hi - R.Lo) * U;
    else
      V = std::min(R.Hi, R.Lo + std::floor(U * (R.Hi - R.Lo + 1)));
  }
  return Out;
}

} // namespace

HostTensor generateInput(const InputSpec &Spec, uint64_t Seed, unsigned Trial, unsigned InputIndex) {
  const unsigned Cycle = Trial / NumVariants;
  const Variant V = variantForTrial(Trial);
  const ValueRange R = Spec.effectiveRange();
  const bool Floating = isFloating(Spec.Type);
  std::vector<double> Base = uniformDraw(Spec, Seed, Cycle, InputIndex, /*Salt=*/0);
  std::vector<double> Vals = Base;

  if (Spec.Type == DType::Bool) {
    for (double &B : Vals) {
      switch (V) {
      case Variant::Random: break;
      case Variant::Negated: B = 1 - B; break;
      case Variant::AllPositive:
      case Variant::ShiftedUp: B = 1; break;
      case Variant::AllNegative:
      case Variant::Zeros:
      case Variant::ShiftedDown: B = 0; break;
      case Variant::Fresh: break;
      }
    }
    if (V == Variant::Fresh)
      Vals = uniformDraw(Spec, Seed, Cycle, InputIndex, /*Salt=*/7);
  } else {
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
    for (size_t I = 0; I < Vals.size(); ++I) {
      double &X = Vals[I];
      switch (V) {
      case Variant::Random: break;
      case Variant::Negated: X = R.Lo + R.Hi - Base[I]; break;
      case Variant::AllPositive:
        X = R.Hi > 0 ? (Floating ? Between(std::max(R.Lo, 0.0), R.Hi) : Between(PosLo, R.Hi)) : R.Hi;
        break;
      case Variant::AllNegative:
        X = R.Lo < 0 ? (Floating ? -Between(-std::min(R.Hi, 0.0), -R.Lo) : Between(R.Lo, NegHi)) : R.Lo;
        break;
      case Variant::Zeros: X = std::clamp(0.0, R.Lo, R.Hi); break;
      case Variant::ShiftedUp: X = std::clamp(Base[I] + K, R.Lo, R.Hi); break;
      case Variant::ShiftedDown: X = std::clamp(Base[I] - K, R.Lo, R.Hi); break;
      case Variant::Fresh: break;
      }
    }
    if (V == Variant::Fresh)
      Vals = uniformDraw(Spec, Seed, Cycle, InputIndex, /*Salt=*/7);
  }

  HostTensor T;
  T.Type = Spec.Type;
  T.Shape = Spec.Shape;
  if (Floating) {
    T.Floats.reserve(Vals.size());
    for (double X : Vals)
      T.Floats.push_back(roundTo(Spec.Type, X));
  } else {
    T.Ints.reserve(Vals.size());
    for (double X : Vals)
      T.Ints.push_back(static_cast<int64_t>(X));
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

} // namespace graphify::validate
