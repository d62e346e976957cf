#pragma once
/// \file
/// What the taint analysis established for one translation unit: which host expressions depend
/// on tensor values (with the path back to the read), which tensor expressions are provably
/// boolean masks, and which host reads flow into the graph. The checks and the rewriter read
/// these facts; only TaintAnalysis writes them.
///
/// \code
///   if (const graphify::TracedOrigin *O = Facts.tracedTaintOf(Cond))
///     for (auto &Step : O->Steps) ...   // "assigned to 's' here"
/// \endcode

#include "graphify/analyzer/Analysis.h"
#include "graphify/analyzer/ApiResolver.h"
#include "graphify/analyzer/ProgramFacts.h"

#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceLocation.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>

#include <deque>
#include <memory>

namespace graphify {

/// A TaintOrigin that also knows where to put each note: the called name of the source and one
/// location per step (steps may name declarations, which are not statements).
struct TracedOrigin : TaintOrigin {
  clang::SourceLocation SourceLoc;             ///< the source call's name (`item` in `x.item()`)
  std::vector<clang::SourceLocation> StepLocs; ///< parallel to Steps
  /// Whole-program mode: the read happened in another translation unit, with these steps
  /// there; `Source` is then null and `Steps` are the ones taken in this TU after it.
  const PortableOrigin *Imported = nullptr;
};

/// The facts of one translation unit; implements the DataFacts interface the rewriter uses.
class TaintFacts : public DataFacts {
public:
  explicit TaintFacts(const RuleSet &Rules) : Api(std::make_unique<ApiResolver>(Rules)) {}

  const TaintOrigin *taintOf(const clang::Expr *E) const override { return tracedTaintOf(E); }
  bool isBoolMask(const clang::Expr *E) const override;
  const ApiFlavor *tensorFlavor(clang::QualType T) const override { return Api->tensorFlavor(T); }
  std::vector<const ApiEntry *> entriesFor(const clang::Expr *CallOrConstruct) const override;
  const clang::Expr *hostMemoryOrigin(const clang::Expr *E) const override;
  std::optional<int64_t> staticBoundOf(const clang::VarDecl *V) const override {
    return graphify::staticBoundOf(V, Bounds);
  }
  void setStaticBounds(std::vector<StaticBound> B) { Bounds = std::move(B); }

  /// The origin of `E`'s taint (looking through parentheses and implicit conversions), or null.
  const TracedOrigin *tracedTaintOf(const clang::Expr *E) const;
  /// Whether the host value read by the source call `SourceCall` reaches tensor math, a branch,
  /// a loop, a size or a region's return (what changes a trace's result).
  bool flowsIntoGraph(const clang::Expr *SourceCall) const { return Used.contains(SourceCall); }

  /// Why the number of elements of the host container `E` may depend on tensor values, where
  /// that number is a tensor's size (a `length_args` argument: `torch::tensor(keep)`), or null.
  const TracedOrigin *lengthTaintOf(const clang::Expr *E) const;

  /// Why whether the handler `Catch` runs may depend on tensor values (an access in its try block
  /// that raises for a value-dependent shape, length or position), or null.
  const TracedOrigin *handlerTaintOf(const clang::CXXCatchStmt *Catch) const {
    return Handlers.lookup(Catch);
  }

  /// The call that put the tensor read by `E` (a local or a field) in pageable host memory,
  /// as the analysis knows it at that point, or null.
  const clang::Expr *hostResidentOrigin(const clang::Expr *E) const;

  const ApiResolver &api() const { return *Api; }

  // --- written by TaintAnalysis ---
  TracedOrigin *newOrigin() { return &Storage.emplace_back(); }
  void recordTaint(const clang::Expr *E, const TracedOrigin *O);
  /// Replaces what is known of `E` (null: clean): a range-for's range stands for its number of
  /// elements, not for what they hold.
  void replaceTaint(const clang::Expr *E, const TracedOrigin *O);
  void recordMask(const clang::Expr *E) { Masks.insert(E); }
  void recordLength(const clang::Expr *E, const TracedOrigin *O);
  void recordUse(const clang::Expr *SourceCall) { Used.insert(SourceCall); }
  void recordHandler(const clang::CXXCatchStmt *Catch, const TracedOrigin *O) {
    if (O)
      Handlers.try_emplace(Catch, O);
  }
  /// What the read `E` holds (null: not known to be in host memory); the last evaluation of a
  /// loop body, the one at its fixed point, wins.
  void recordHostResident(const clang::Expr *E, const clang::Expr *Origin);
  /// Forgets the per-expression facts (origins stay allocated), before a new round.
  void clearExpressionFacts();

private:
  std::unique_ptr<ApiResolver> Api;
  std::deque<TracedOrigin> Storage;
  llvm::DenseMap<const clang::Expr *, const TracedOrigin *> Taint;
  llvm::DenseSet<const clang::Expr *> Masks;
  llvm::DenseMap<const clang::Expr *, const TracedOrigin *> Lengths;
  llvm::DenseSet<const clang::Expr *> Used;
  llvm::DenseMap<const clang::CXXCatchStmt *, const TracedOrigin *> Handlers;
  llvm::DenseMap<const clang::Expr *, const clang::Expr *> HostResident;
  std::vector<StaticBound> Bounds;
};

} // namespace graphify
