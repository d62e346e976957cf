#pragma once
/// \file
/// Host-side values exchanged with the generated harnesses, and the two line-oriented text files
/// that carry them: the inputs file the validator writes (every trial's inputs) and the results
/// file a harness writes (outputs per trial, capture and trace outcomes). Text rather than binary
/// so that `--keep-temps` leaves files a person can read; doubles are printed with 17 significant
/// digits, so every f32/f64 value round-trips exactly.
///
/// \code
///   graphify::validate::HostTensor T{DType::F32, {2}, {1.5, -0.25}, {}};
///   std::string Line = graphify::validate::formatTensor(T);   // "f32 1 2 : 1.5 -0.25"
/// \endcode

#include "graphify/validate/EntrySpec.h"

#include <llvm/Support/Error.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace graphify::validate {

/// A dense tensor on the host: floats in `Floats`, integers and bools (0/1) in `Ints`.
struct HostTensor {
  DType Type = DType::F32;
  std::vector<int64_t> Shape;
  std::vector<double> Floats;
  std::vector<int64_t> Ints;
  bool IsScalar = false; ///< a C++ scalar returned by the entry (not a tensor)
  bool Undefined = false; ///< an undefined (default-constructed) tensor

  int64_t numel() const;
  double valueAsDouble(int64_t I) const { return isFloating(Type) ? Floats[I] : double(Ints[I]); }
};

/// One trial's inputs, in parameter order, and the variant that produced them.
struct TrialInputs {
  unsigned Trial = 0;
  std::string Variant;
  std::vector<HostTensor> Inputs;
};

/// `dtype ndim d0 d1 ... : v0 v1 ...` (`s ` prefix for scalars, `undefined` for undefined).
std::string formatTensor(const HostTensor &T);
/// The inverse of formatTensor.
llvm::Expected<HostTensor> parseTensor(const std::string &Line);

/// The inputs file: a header, then per trial `trial <t> <variant> <n>` and n tensor lines.
std::string formatInputsFile(const std::vector<TrialInputs> &Trials);
llvm::Expected<std::vector<TrialInputs>> parseInputsFile(const std::string &Text);

/// What one trial of one run produced: its outputs, or the exception it raised.
struct TrialOutputs {
  unsigned Trial = 0;
  bool Ok = false;
  std::string Error; ///< the exception's message when !Ok
  std::vector<HostTensor> Values;
};

/// One gradient a backward pass produced, and what it is taken with respect to.
struct NamedGradient {
  /// `input <k>` (the harness numbers the entry's inputs; the validator knows their names) or
  /// `parameter <name>` (as `named_parameters()` spells it).
  std::string Target;
  HostTensor Value; ///< zeros where the target did not reach any output
};

/// What one trial of a gradient run produced: every gradient, or the exception it raised.
struct TrialGradients {
  unsigned Trial = 0;
  bool Ok = false;
  std::string Error; ///< the exception's message when !Ok
  /// Outputs that carry no gradient and were left out of the backward pass: (output index, why).
  std::vector<std::pair<unsigned, std::string>> SkippedOutputs;
  std::vector<NamedGradient> Gradients;
};

/// How a capture (or trace) attempt ended.
struct CaptureOutcome {
  enum class State {
    NotRun,     ///< the harness never got there (crash, timeout, LibTorch runtime)
    Captured,   ///< capture succeeded
    Refused,    ///< gfy::CaptureError: an op that needs the host
    Failed      ///< another exception while capturing
  } Status = State::NotRun;
  std::string Op;      ///< the refused op (Refused)
  std::string File;    ///< its caller's file (Refused)
  unsigned Line = 0;   ///< its caller's line (Refused)
  std::string Message; ///< the exception's message (Refused, Failed)
};

/// Everything a harness run wrote to its results file (see Harness.h for the protocol).
struct HarnessResults {
  std::vector<TrialOutputs> Eager;   ///< mode `eager`: one per trial, in order
  CaptureOutcome Capture;            ///< mode `capture` or `trace`
  std::vector<TrialOutputs> Replays; ///< trials 1..K-1 replayed on the captured graph
  std::vector<std::string> Warnings; ///< trace warnings
  std::optional<unsigned> Parameters; ///< mode `grad`: parameters that require grad (0 for functions)
  std::vector<TrialGradients> Gradients; ///< mode `grad`: one per trial, in order
  bool Finished = false;             ///< the harness wrote its final `done` line
  std::string NoDevice;              ///< set when the harness found no usable device
  std::string Fatal;                 ///< an exception outside any trial (e.g. the module's constructor)
};

/// Parses a results file; unknown lines are errors (the protocol is ours on both ends).
llvm::Expected<HarnessResults> parseResultsFile(const std::string &Text);

/// Escapes `\`, newline and tab so a message fits in one tab-separated field.
std::string escapeField(const std::string &S);
std::string unescapeField(const std::string &S);

} // namespace graphify::validate
