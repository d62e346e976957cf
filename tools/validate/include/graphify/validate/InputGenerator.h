#pragma once
/// \file
/// Deterministic inputs that exercise both sides of data-dependent decisions. Trials come in
/// cycles of eight variants; within a cycle the variants are derived from one seeded random draw,
/// so trial 1 (the negation of trial 0) flips every sign-based decision trial 0 took — which is
/// what makes a trace recorded at trial 0 visibly diverge. Values depend only on (seed, trial,
/// input index, spec), never on a runtime's generator, so the original and the rewritten programs
/// (separate processes, possibly different runtimes) see bit-identical inputs.
///
/// \code
///   auto Trials = graphify::validate::generateTrials(Specs, /*Seed=*/0, /*Count=*/8);
///   // Trials[1].Variant == "negated", Trials[4].Variant == "zeros", ...
/// \endcode

#include "graphify/validate/EntrySpec.h"
#include "graphify/validate/Values.h"

#include <llvm/Support/Error.h>

#include <cstdint>
#include <string>
#include <vector>

namespace graphify::validate {

/// The per-trial variants, in cycle order (trial t uses `t % 8`).
enum class Variant {
  Random,      ///< a seeded uniform draw over the input's range (the cycle's base draw)
  Negated,     ///< the base draw reflected about the range's centre (negation for [-a, a]); masks inverted
  AllPositive, ///< every value > 0 (within the range); masks all true
  AllNegative, ///< every value < 0 (within the range); masks all false
  Zeros,       ///< every value 0 (clamped into the range); masks all false
  ShiftedUp,   ///< the base draw + k, k a quarter of the range, clamped; masks all true
  ShiftedDown, ///< the base draw - k, clamped; masks all false
  Fresh        ///< a second, independent uniform draw
};
inline constexpr unsigned NumVariants = 8;

const char *variantName(Variant V);
Variant variantForTrial(unsigned Trial);

/// The values of input `InputIndex` (in parameter order) at `Trial`.
HostTensor generateInput(const InputSpec &Spec, uint64_t Seed, unsigned Trial, unsigned InputIndex);
/// All inputs of all trials `0..Count-1`.
std::vector<TrialInputs> generateTrials(const std::vector<InputSpec> &Specs, uint64_t Seed, unsigned Count);
/// The same trials written to an inputs file (Values.h) one input at a time, so that memory holds
/// one input's payload however many trials and inputs there are.
llvm::Error writeInputsFile(const std::string &Path, const std::vector<InputSpec> &Specs, uint64_t Seed,
                            unsigned Count);

} // namespace graphify::validate
