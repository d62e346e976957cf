#pragma once
/// \file
/// The entry grammar: what inputs an entry takes, as written in a `// graphify-entry:` comment
/// above the entry or in `--input` flags. One grammar serves both; docs/validate.md has it in
/// full. Errors name the offending column and show the text with a caret under the bad token.
///
/// \code
///   auto Specs = graphify::validate::parseEntryComment(
///       "x: f32[3], ids: i64[4,5] in [0, 99]", "model.cpp:5:20");
///   auto One = graphify::validate::parseInputFlag("x=f32[3]@-1:1");
/// \endcode

#include <llvm/Support/Error.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace graphify::validate {

/// Element types an input may have (the runtime's five).
enum class DType { F32, F64, I32, I64, Bool };

/// `f32`, `f64`, `i32`, `i64`, `bool`.
const char *dtypeName(DType T);
/// Parses one of the names above.
std::optional<DType> parseDType(const std::string &Name);
inline bool isFloating(DType T) { return T == DType::F32 || T == DType::F64; }

/// The closed interval values are drawn from (`in [lo, hi]` or `@lo:hi`).
struct ValueRange {
  double Lo = 0;
  double Hi = 0;
};

/// One tensor input of an entry: `name: dtype[d0,d1,...]` with an optional range.
struct InputSpec {
  /// The most elements one generated input may have (64 MiB as f32): equivalence and capture
  /// do not depend on size, and a typo such as f32[100000000000] must not exhaust memory. The
  /// limit is what validates in seconds: f32[4096,4096] in 23 s on two cores, 2^26 elements in
  /// 70 s (docs/validate.md, Limits), nearly all of it writing and reading the payloads.
  static constexpr int64_t kMaxElements = int64_t(1) << 24;

  std::string Name;
  DType Type = DType::F32;
  std::vector<int64_t> Shape; ///< empty: a 0-d tensor
  std::optional<ValueRange> Range;

  /// The interval draws come from: Range if given, else [-2, 2] for floats and [-10, 10] for
  /// integers ([0, 1] for bool).
  ValueRange effectiveRange() const;
  int64_t numel() const;
  /// Canonical spelling, `x: f32[3,3] in [-1, 1]` (round-trips through parseEntryComment).
  std::string str() const;
};

/// The text after `graphify-entry:` in a comment; the marker itself.
inline constexpr const char *EntryMarker = "graphify-entry:";

/// Parses a comma-separated list of `name: type` inputs (the text after the marker). `Where`
/// prefixes messages (`file:line`), `Column` is the 1-based column of `Text[0]` in that line.
/// An empty list is valid (an entry without inputs).
llvm::Expected<std::vector<InputSpec>> parseEntryComment(const std::string &Text, const std::string &Where = "",
                                                          unsigned Column = 1);

/// Parses the value of one `--input`: `name=dtype[shape]` with an optional `@lo:hi` (or
/// ` in [lo, hi]`).
llvm::Expected<InputSpec> parseInputFlag(const std::string &Text);

/// Finds a `// graphify-entry:` comment in one source line; returns the text after the marker
/// and sets `Column` (1-based) to where that text starts. Nullopt when the line has none.
std::optional<std::string> findEntryComment(const std::string &Line, unsigned &Column);

} // namespace graphify::validate
