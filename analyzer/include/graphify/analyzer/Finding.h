#pragma once
/// \file
/// A finding is plain data: where, which check, what message, notes that walk the taint back
/// to the device, and an optional fix. Renderers (text, JSON, SARIF, GitHub) read only this.
///
/// \code
///   graphify::Finding F;
///   F.CheckId = "graphify-host-sync";
///   F.Where = {"model.cpp", 12, 9};
///   F.Message = "'item' copies one element to the host, which blocks CUDA-graph capture";
/// \endcode

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace graphify {

/// A position in a file: 1-based line and column (columns count bytes, as clang's do).
struct SourcePoint {
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
  unsigned Offset = 0; ///< byte offset in the file, for fixes and ranges
};

/// A note attached to a finding ("value read from tensor here").
struct FindingNote {
  SourcePoint Where;
  std::string Message;
};

/// One textual edit, in clang-apply-replacements terms.
struct Replacement {
  std::string File;
  unsigned Offset = 0;
  unsigned Length = 0;
  std::string Text;
  /// xxh3 of the file content that Offset and Length refer to (what was analysed); 0 when
  /// unknown. --fix and --diff refuse a file whose content no longer has this hash.
  uint64_t FileHash = 0;
};

/// A rewrite offered for a finding: one or more edits that must be applied together.
struct FixIt {
  std::string RuleName;    ///< rewrite rule id, e.g. "if-return-to-where"
  std::string Explanation; ///< one line, shown as a note
  std::vector<Replacement> Replacements;
};

struct Finding {
  std::string CheckId;
  SourcePoint Where;           ///< caret position
  unsigned RangeLength = 0;    ///< bytes underlined from `Where` on the same line (0: caret only)
  std::string Message;         ///< lowercase, no final period, without the [check-id] suffix
  std::vector<FindingNote> Notes;
  std::optional<FixIt> Fix;
  std::string NoFixReason;     ///< why no rewrite is offered, when one was considered
  /// What to do by hand when no rewrite is about the finding (printed value, data-dependent
  /// trip count, host copy, else the check's help); empty when a fix or a refusal is given.
  std::string Recipe;
  /// The packs' tag the finding reports when the anchor call does not carry it itself (a
  /// module's forward run through its holder, `lin(x)`, that may initialise lazily): the recipe
  /// follows it.
  std::string Tag;
  /// The finding's value is the size of a value-dependent selection (not a value read from a
  /// tensor): its recipe is the padded form.
  bool SizeOfSelection = false;
  /// The value behind the finding comes from a selection (its size, or host values computed from
  /// it): ReadAt is the selection, not a read.
  bool FromSelection = false;
  /// The value follows the data through control flow (see TaintOrigin::ThroughControl).
  bool ThroughControl = false;
  /// A finding that stands for a whole construct: the findings of every check inside
  /// [FoldBegin, FoldEnd) of its file (byte offsets) are folded into its notes, so that one
  /// greedy loop is one finding, not one per host read inside it.
  enum class ConstructKind { None, GreedySelection } Construct = ConstructKind::None;
  unsigned FoldBegin = 0, FoldEnd = 0;
  /// Where the value behind the finding was read from a tensor (the taint's source), when it was.
  SourcePoint ReadAt;
  /// For a host read: what the value it reads becomes, from the other findings whose value it
  /// is — their check ids and lines, in source order. The recipe follows the use (a size, a
  /// position, a loop bound, a branch).
  std::vector<std::pair<std::string, unsigned>> ValueUses;
};

} // namespace graphify
