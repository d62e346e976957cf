#pragma once
/// \file
/// Host-side values exchanged with the generated harnesses, and the two files that carry them:
/// the inputs file the validator writes (every trial's inputs) and the results file a harness
/// writes (outputs per trial, capture and trace outcomes). The framing is line-oriented text (a
/// person can read a `--keep-temps` file with `less`), but a tensor's elements are a binary
/// payload in the dtype's own layout: the harness reads them straight into a tensor and writes
/// them straight from one, and the validator compares them where they lie in the mapped file.
/// Per-element text (printf, strtod) is what made a 2048x2048 input take minutes.
///
/// A tensor record is a header line and a payload:
///
///     f32 2 2 3 : 24\n<24 bytes>\n        s f64 0 : 8\n<8 bytes>\n        undefined\n
///
/// `dtype ndim dims... : nbytes` (`s ` first for a C++ number the entry returned), then exactly
/// nbytes = numel x the element size (f32 4, f64 8, i32 4, i64 8, bool 1 byte 0/1) in the host's
/// byte order, row-major, then a newline. Bit-exact: no value is rounded on the way.
///
/// \code
///   graphify::validate::HostTensor T = graphify::validate::HostTensor::floats(DType::F32, {2}, {1.5, -0.25});
///   std::string Record = graphify::validate::formatTensor(T);   // "f32 1 2 : 8\n" + 8 bytes + "\n"
///   double X = graphify::validate::parseTensor(Record)->valueAsDouble(1);  // -0.25
/// \endcode

#include "graphify/validate/EntrySpec.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace graphify::validate {

/// Bytes per element of `T` in a tensor record (bool: one byte, 0 or 1).
size_t elementSize(DType T);

/// A dense, immutable tensor on the host. Its elements are kept in the dtype's own layout, either
/// in memory it owns or as a view into a mapped results file that it keeps alive: an output of
/// 2^24 floats costs 64 MiB of page cache, not 128 MiB of doubles per copy.
struct HostTensor {
  DType Type = DType::F32;
  std::vector<int64_t> Shape;
  bool IsScalar = false;  ///< a C++ scalar returned by the entry (not a tensor)
  bool Undefined = false; ///< an undefined (default-constructed) tensor

  /// A tensor of dtype `T` (floating) holding `Values`, each rounded to `T`.
  static HostTensor floats(DType T, std::vector<int64_t> Shape, llvm::ArrayRef<double> Values);
  /// A tensor of dtype `T` (integer or bool) holding `Values` (bools as 0/1).
  static HostTensor ints(DType T, std::vector<int64_t> Shape, llvm::ArrayRef<int64_t> Values);
  /// A tensor of dtype `T` and `Shape` whose payload `Bytes` is kept alive by `Owner`.
  static HostTensor view(DType T, std::vector<int64_t> Shape, llvm::StringRef Bytes,
                         std::shared_ptr<const void> Owner);
  /// A zero-filled tensor whose payload the caller fills through mutableBytes() (input generation).
  static HostTensor zeros(DType T, std::vector<int64_t> Shape);

  int64_t numel() const;
  /// The payload: numel() * elementSize(Type) bytes.
  llvm::StringRef bytes() const { return llvm::StringRef(Data, Size); }
  /// The payload of a tensor made by zeros(), for filling in place.
  char *mutableBytes() const { return const_cast<char *>(Data); }
  /// Element `I` (row-major) as a double (exact for every dtype but i64 beyond 2^53).
  double valueAsDouble(int64_t I) const;
  /// Element `I` of an integer or bool tensor.
  int64_t intAt(int64_t I) const;
  /// Every element, as doubles or as integers (for small tensors and tests).
  std::vector<double> doubles() const;
  std::vector<int64_t> integers() const;

private:
  std::shared_ptr<const void> Owner; ///< keeps Data alive (an owned buffer or a mapped file)
  const char *Data = nullptr;
  size_t Size = 0;
};

/// One trial's inputs, in parameter order, and the variant that produced them.
struct TrialInputs {
  unsigned Trial = 0;
  std::string Variant;
  std::vector<HostTensor> Inputs;
};

/// Appends the record of `T` (header, payload, newline) to `OS`.
void writeTensor(llvm::raw_ostream &OS, const HostTensor &T);
/// The record of `T` as a string.
std::string formatTensor(const HostTensor &T);
/// The inverse of formatTensor: exactly one record, or an error naming what is wrong (a header
/// that does not parse, a byte count that does not match the shape, a record cut short).
llvm::Expected<HostTensor> parseTensor(llvm::StringRef Record);

/// The inputs file: the line `graphify-inputs 2`, then per trial the line
/// `trial <t> <variant> <n>` and n tensor records.
inline constexpr const char *InputsFileHeader = "graphify-inputs 2\n";
std::string formatTrialHeader(unsigned Trial, const std::string &Variant, size_t NumInputs);
std::string formatInputsFile(const std::vector<TrialInputs> &Trials);
/// Parses an inputs file; the tensors view `Text`, which `Owner` (may be null: they copy) keeps alive.
llvm::Expected<std::vector<TrialInputs>> parseInputsFile(llvm::StringRef Text,
                                                         std::shared_ptr<const void> Owner = nullptr);

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
  /// With a captured core (HarnessSpec::CaptureName): the core run eagerly at trials 1..K-1.
  std::vector<TrialOutputs> References;
  std::vector<std::string> Warnings; ///< trace warnings
  std::optional<unsigned> Parameters; ///< mode `grad`: parameters that require grad (0 for functions)
  std::vector<TrialGradients> Gradients; ///< mode `grad`: one per trial, in order
  bool Finished = false;             ///< the harness wrote its final `done` line
  std::string NoDevice;              ///< set when the harness found no usable device
  std::string Fatal;                 ///< an exception outside any trial (e.g. the module's constructor)
};

inline constexpr const char *ResultsFileHeader = "graphify-results 2\n";
/// Parses a results file; unknown lines are errors (the protocol is ours on both ends). A trial
/// whose records a dying harness cut short is left out. The tensors view `Text`, which `Owner`
/// (may be null: they copy) keeps alive.
llvm::Expected<HarnessResults> parseResultsFile(llvm::StringRef Text, std::shared_ptr<const void> Owner = nullptr);
/// Maps the results file at `Path` and parses it; a missing or empty file is an empty result (the
/// harness died before writing anything).
llvm::Expected<HarnessResults> readResultsFile(const std::string &Path);

/// Escapes `\`, newline and tab so a message fits in one tab-separated field.
std::string escapeField(const std::string &S);
std::string unescapeField(const std::string &S);

} // namespace graphify::validate
