#pragma once
/// \file
/// The padded form of value-dependent selections: the engine of `selection-to-padded`
/// (docs/rewrites.md, "Padded selections"). A selection of K rows out of N keeps N rows, the
/// selected ones first and in their order, and a 0-d count K:
///
/// \code
///   auto kept = x.index({m});                      // K rows: a shape no graph can hold
///   // becomes
///   auto kept_valid = m;
///   auto kept_order = torch::argsort(torch::logical_not(kept_valid).to(torch::kInt), true, 0);
///   auto kept = x.index_select(0, kept_order);     // N rows; rows [0, K) are x.index({m})
///   auto kept_count = kept_valid.sum();            // K, on the device
/// \endcode
///
/// Values computed row by row from padded values of one *group* (rows aligned, one count) stay
/// padded in that group: element-wise calls (tag `elementwise`) and calls along other dimensions
/// (tag `along_dims` with every dimension argument a constant other than 0, and indexing whose
/// first entry takes every row: `index({Slice(), 4})`).
/// A selection of a padded value ANDs its mask with the validity of the rows (`row < count`) and
/// starts a new group. Shape preconditions the original checked on the K selected rows and that
/// the rewrite cannot prove (a mask of one dimension and one element per row, operands that
/// broadcast without touching the rows) become metadata checks in the rewritten code, which read
/// no tensor value. Anything else that meets a padded value is refused with the construct named.

#include "ApiModel.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <llvm/Support/Error.h>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace graphify::rewriter {

/// Lifts the expressions of one function body into the padded form, statement by statement, in
/// program order (the group a variable holds is the one its last lifted assignment gave it).
class PaddedLifter {
public:
  PaddedLifter(const clang::Stmt *Body, const ApiModel &Api, clang::ASTContext &Ctx, std::vector<std::string> &Taken)
      : Body(Body), Api(Api), Ctx(Ctx), Taken(Taken) {}

  /// The padded text of `E`: selections replaced by their compacted locals, whose computation
  /// (and the metadata checks the rewrite relies on) is appended to `Prelude`; and the group of
  /// its rows (-1: not padded). `NameHint` names the locals of a selection that is `E` itself.
  struct Lifted {
    std::string Text;
    int Group = -1;
  };
  llvm::Expected<Lifted> lift(const clang::Expr *E, llvm::StringRef NameHint, std::string &Prelude);

  /// The group the variable (or structured binding) holds now, or -1.
  int groupOf(const clang::ValueDecl *D) const;
  void setGroup(const clang::ValueDecl *D, int Group);
  /// The name of the 0-d count of a group.
  const std::string &countOf(int Group) const { return Counts[Group]; }
  /// Whether `S` names a variable that holds a padded value now, or contains a selection, other
  /// than in a query of its metadata (tag metadata_query: `b.dtype()`, `b.options()`).
  bool touchesPadded(const clang::Stmt *S) const;
  /// Whether `E` reads a size of a variable that padding leaves as it is: its rank (`v.dim()`, tag
  /// rank_query) or its size along a dimension other than the rows (`v.size(1)`, `v.sizes()[2]`).
  bool isStaticShapeQuery(const clang::Expr *E) const;
  /// Whether `E` is a selection this engine pads (isPaddableSelection).
  bool isSelection(const clang::Expr *E) const;
  /// Whether `E` gathers rows at positions a variable holds that the padded form computes (kept
  /// indices, the positions of a mask's true elements): every row of them, valid or not, is in
  /// range of what they index, so the padded gather raises nothing (the rows of a source that is
  /// not padded are checked by the gather's lifting).
  bool isPaddedGather(const clang::Expr *E) const;
  /// `D` is given a new value: selections by it no longer share the order computed before.
  void forget(const clang::ValueDecl *D);
  /// How many selections have been padded so far.
  size_t groupCount() const { return Counts.size(); }
  /// A group with the rows and order of `Group` and fewer valid rows: the first `Count` (a cap
  /// that keeps a prefix of the selection, `k = k.slice(0, 0, m)`).
  int derive(int Group, std::string Count);
  /// Whether `Group` came from derive(): its values may be views of rows other values of the
  /// original still hold (`k = k.slice(0, 0, m)`), which the padded form keeps whole.
  bool isDerived(int Group) const { return Derived.count(Group) > 0; }
  /// The code returns before this point when the selection of `Group` is empty, so what
  /// follows may reduce its rows (`if (b.size(0) == 0) return ...;`, then `b.max()`).
  void markNonEmpty(int Group) { NonEmpty.insert(Group); }

private:
  const clang::Stmt *Body;
  const ApiModel &Api;
  clang::ASTContext &Ctx;
  std::vector<std::string> &Taken;
  std::map<const clang::ValueDecl *, int> Groups;
  std::vector<std::string> Counts;
  std::vector<std::string> Orders; ///< per group: the local holding its row order
  /// Selections by the same mask variable from sources of the same group share one order, so
  /// their rows line up (`boxes.index({keep})`, `scores.index({keep})`).
  std::map<std::pair<const clang::ValueDecl *, int>, int> ByMask;
  /// Groups of positions: the indices kept by greedy suppression (tag greedy_suppression), the
  /// positions of the true elements of a mask (tag nonzero_positions), a padded key's sort order
  /// (tag sort_positions). Every row, valid or not,
  /// holds a position in [0, rows of what they index), so gathers by them stay in range.
  struct PositionRows {
    int RowGroup;     ///< the group of the rows the positions index (-1: not padded)
    std::string Rows; ///< their row count, as code
    const clang::ValueDecl *Source = nullptr; ///< the variable they index, until it is assigned again
  };
  std::map<int, PositionRows> PositionGroups;
  /// A new padded group with its count and row order (locals of the prelude); its index.
  int addGroup(const std::string &Count, const std::string &Order) {
    Counts.push_back(Count);
    Orders.push_back(Order);
    return static_cast<int>(Counts.size()) - 1;
  }
  std::set<int> Derived;  ///< groups made by derive()
  std::set<int> NonEmpty; ///< groups proven to hold a row wherever the code reads them now

  llvm::Expected<int> classify(const clang::Expr *E, std::map<const clang::Stmt *, std::string> &Replaced,
                               llvm::StringRef NameHint, std::string &Prelude);
  llvm::Expected<int> classifySelection(const clang::Expr *E, std::map<const clang::Stmt *, std::string> &Replaced,
                                        llvm::StringRef NameHint, std::string &Prelude);
  std::string thresholdText(const clang::CallExpr *Call, const clang::Expr *Threshold) const;
  llvm::Expected<int> classifySuppression(const clang::Expr *E, std::map<const clang::Stmt *, std::string> &Replaced,
                                          llvm::StringRef NameHint, std::string &Prelude);
  llvm::Expected<int> classifyPositions(const clang::Expr *E, std::map<const clang::Stmt *, std::string> &Replaced,
                                        llvm::StringRef NameHint, std::string &Prelude);
  /// `k.argsort(0, descending)` of a padded one-dimensional floating key (tag sort_positions):
  /// a stable sort of the key with the padded rows given the value that sorts last (-inf
  /// descending, NaN ascending), so the first `count` positions are the original's order of the
  /// valid rows, every position in range.
  llvm::Expected<int> classifySort(const clang::Expr *E, std::map<const clang::Stmt *, std::string> &Replaced,
                                   llvm::StringRef NameHint, std::string &Prelude);
  llvm::Expected<int> classifyGather(const clang::Expr *E, const clang::Expr *Source, const clang::Expr *Index,
                                     std::map<const clang::Stmt *, std::string> &Replaced, std::string &Prelude);
  /// The source and the positions of a gather of rows (`x.index_select(0, i)`, tag gathers_rows;
  /// `x.index({i})` with a tensor of positions), or false.
  bool gatherParts(const clang::Expr *E, const clang::Expr *&Source, const clang::Expr *&Index) const;
  /// A name for `E` in the prelude: its text when it names a variable, else a fresh local bound to it.
  std::string named(const clang::Expr *E, llvm::StringRef Base, std::map<const clang::Stmt *, std::string> &Replaced,
                    std::string &Prelude);
  llvm::Expected<int> classifyRowWise(const clang::Expr *E, llvm::ArrayRef<const clang::Expr *> Operands,
                                      std::map<const clang::Stmt *, std::string> &Replaced, std::string &Prelude);
  /// A full reduction (isFullReduction) of a value that may be padded: kept when a repeated
  /// element leaves it unchanged (tag idempotent_reduction: `b.max()`, `torch::any(m)`) and the
  /// selection is known to have a row (markNonEmpty); refused otherwise. Its result is not padded.
  llvm::Expected<int> classifyReduction(const clang::Expr *E, std::map<const clang::Stmt *, std::string> &Replaced,
                                        llvm::StringRef NameHint, std::string &Prelude);
  /// `v.view(-1)`, `v.reshape({-1})`, `v.flatten()` (tag same_elements): one dimension of
  /// every element.
  bool flattensToOneDimension(const clang::Expr *E) const;
  /// A flattening of a padded value: its rows and group when each row holds one element (a max
  /// along 1 kept as a dimension, [K, 1]), which the core checks on the metadata and throws
  /// std::invalid_argument otherwise (the documented price: the original would flatten K
  /// rows of several elements).
  llvm::Expected<int> classifyFlattened(const clang::Expr *E, std::map<const clang::Stmt *, std::string> &Replaced,
                                        std::string &Prelude);
  /// `x.index({Slice(), ...})`: indexing whose first entry takes every row.
  bool keepsEveryRow(const clang::Expr *E) const;
  std::string where(const clang::Stmt *S) const;
};

/// Whether `E` is a selection the padded form keeps: `x.index({m})` (tag bool_mask_index, one
/// index list with one entry) with `m` provably a boolean tensor, or greedy suppression
/// (`vision::ops::nms(boxes, scores, t)`, tag greedy_suppression), whose kept indices the padded
/// form computes with the exact fixed-size greedy algorithm, or the positions of a mask's true
/// elements as a list (`m.nonzero().select(1, 0)`, `.squeeze(1)`: tag nonzero_positions).
bool isPaddableSelection(const clang::Expr *E, const ApiModel &Api);

/// The source text of `S` with the nodes of `Replaced` (found under `S`) replaced by their text.
std::string textWithReplacements(const clang::Stmt *S, const std::map<const clang::Stmt *, std::string> &Replaced,
                                 const clang::ASTContext &Ctx);

} // namespace graphify::rewriter
