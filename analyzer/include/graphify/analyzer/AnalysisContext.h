#pragma once
/// \file
/// What a check sees: the AST, the rule packs, the graph regions, the taint facts, and one way
/// to report. Checks never walk the whole TU themselves; they visit region code through
/// forEachRegionStmt() and report through report(), which places the caret, keeps one finding
/// per (file, line, check), drops findings outside reported files, and turns a taint origin
/// into located notes.
///
/// \code
///   void MyCheck::run(graphify::AnalysisContext &Ctx) {
///     Ctx.forEachRegionStmt([&](const clang::Stmt &S) {
///       if (const auto *If = llvm::dyn_cast<clang::IfStmt>(&S))
///         if (const graphify::TracedOrigin *O = Ctx.facts().tracedTaintOf(If->getCond()))
///           Ctx.report(info(), If->getCond()->getBeginLoc(), "...", If, O);
///     });
///   }
/// \endcode
/// A check about calls and their arguments is a tag plus a message:
/// \code
///   Ctx.forEachRegionApiCall([&](const graphify::ApiCall &Call) {
///     Ctx.forEachTaintedArgument(Call, AnalysisContext::ArgumentSlot::Size, [&](const auto &Arg) {
///       Ctx.reportArgument(info(), Call, Arg, "...", AnalysisContext::ArgumentAnchor::Call);
///       return true; // the first tainted argument only
///     });
///   });
/// \endcode

#include "graphify/analyzer/Analysis.h"
#include "graphify/analyzer/ApiResolver.h"
#include "graphify/analyzer/Check.h"
#include "graphify/analyzer/GraphRegions.h"
#include "graphify/analyzer/TaintFacts.h"

#include <clang/AST/ASTContext.h>
#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/StringSet.h>

#include <set>
#include <tuple>

namespace graphify {

class AnalysisContext {
public:
  AnalysisContext(clang::ASTContext &Ast, const AnalysisConfig &Config, const TaintFacts &Facts,
                  const GraphRegions &Regions,
                  llvm::ArrayRef<const clang::FunctionDecl *> Functions, AnalysisResult &Out);

  clang::ASTContext &ast() const { return Ast; }
  const RuleSet &rules() const { return *Config.Rules; }
  const AnalysisConfig &config() const { return Config; }
  Profile profile() const { return Config.ProfileKind; }
  const ApiResolver &api() const { return Facts.api(); }
  const TaintFacts &facts() const { return Facts; }
  const GraphRegions &regions() const { return Regions; }
  /// The analysed function bodies (regions or not).
  llvm::ArrayRef<const clang::FunctionDecl *> functions() const { return Functions; }

  /// Calls `Visit` on every statement and expression of graph-region code (all analyzed code
  /// under Scope::All), in source order. Instantiations of one template are each visited;
  /// report() keeps one finding per line and check.
  void forEachRegionStmt(llvm::function_ref<void(const clang::Stmt &)> Visit) const;

  /// Where a region statement runs: `RelaxedCapture` when it is captured only in relaxed mode
  /// (a relaxed window, or a body reached only from one), so capture_relaxed_ok calls are fine.
  struct RegionSite {
    bool RelaxedCapture = false;
  };
  /// forEachRegionStmt, also saying where each statement runs.
  void forEachRegionSite(llvm::function_ref<void(const clang::Stmt &, RegionSite)> Visit) const;

  /// Which region statements forEachRegionApiCall visits: calls (also overloaded operators,
  /// member and kernel calls), or constructions too (`Slice(a, b)`, `std::vector<int64_t>(n)`).
  enum class CallForms { Calls, CallsAndConstructions };
  /// Calls `Visit` on every region call the resolver normalizes (ApiResolver::resolve), the
  /// statement itself being `Call.Call`; `Call.Entries` is empty for a call no pack describes
  /// (a project's function, `std::vector::operator[]`), which some checks read too.
  void forEachRegionApiCall(llvm::function_ref<void(const ApiCall &)> Visit,
                            CallForms Forms = CallForms::Calls) const;

  /// What a tainted argument slot may hold (size_args and position_args).
  enum class ArgumentSlot { Size, Position };
  /// The first tainted leaf inside argument `Arg`: an element of a braced list `{n, 3}`, an
  /// argument of a construction (a vector, a TensorIndex), or `Arg` itself; null when `Arg` is
  /// clean. For positions, leaves must be integers and a construction that is itself a pack API
  /// (`Slice(a, b)`, whose bounds are sizes) is not looked into.
  const clang::Expr *taintedLeaf(const clang::Expr *Arg, ArgumentSlot Slot, unsigned Depth = 0) const;

  /// A tainted leaf of an argument (taintedLeaf) and the tensor read it depends on.
  struct TaintedArgument {
    const clang::Expr &Leaf;
    const TracedOrigin *Origin;
  };
  /// Calls `Visit` on the tainted leaf of each argument of `Call` at the slots of `Slot`, in
  /// position order: the `size_args` of its entries tagged `size_argument`, or the
  /// `position_args` of those tagged `position_argument`. Stops when `Visit` returns true;
  /// returns whether it did.
  bool forEachTaintedArgument(const ApiCall &Call, ArgumentSlot Slot,
                              llvm::function_ref<bool(const TaintedArgument &)> Visit) const;

  /// What a finding about an argument stands for (its anchor, which recipes and rewrites read):
  /// the whole call, or the argument's tainted leaf.
  enum class ArgumentAnchor { Call, Leaf };
  /// report() of a finding about `Arg`, an argument of `Call`: the caret at the leaf, which is
  /// underlined, with the notes back to its tensor read.
  bool reportArgument(const CheckInfo &Check, const ApiCall &Call, const TaintedArgument &Arg, std::string Message,
                      ArgumentAnchor Anchor);

  /// Reports a finding of `Check` with the caret at `Caret` (macro locations are mapped to the
  /// file: arguments to where they are spelled, macro bodies to the expansion). `Range`, when
  /// valid and on the caret's line, is underlined. `Taint` adds the notes walking back to the
  /// tensor read. Returns false when dropped (duplicate line, unreported file, system header).
  bool report(const CheckInfo &Check, clang::SourceLocation Caret, std::string Message,
              const clang::Stmt *Anchor, const TracedOrigin *Taint = nullptr,
              clang::SourceRange Range = {});

  /// report() for a finding that stands for the construct `Construct` (see Finding::Construct):
  /// the findings inside its source range are folded into it once every check has run.
  bool reportConstruct(const CheckInfo &Check, clang::SourceLocation Caret, std::string Message,
                       const clang::Stmt &Construct, Finding::ConstructKind Kind, const TracedOrigin *Taint,
                       clang::SourceRange Range = {});

  /// The finding the last successful report() kept.
  Finding &lastFinding() { return Out.Findings.back(); }

  /// Whether findings at `Loc` would be kept (an analysed file, not a system header).
  bool isReportedLocation(clang::SourceLocation Loc) const;

private:
  clang::ASTContext &Ast;
  const AnalysisConfig &Config;
  const TaintFacts &Facts;
  const GraphRegions &Regions;
  llvm::ArrayRef<const clang::FunctionDecl *> Functions;
  AnalysisResult &Out;
  /// (file, line, column, check) of every finding so far: a construct seen twice (a template
  /// instantiated twice, a macro's body) is reported once; two calls on one line are two findings.
  std::set<std::tuple<std::string, unsigned, unsigned, std::string>> Seen;

  SourcePoint point(clang::SourceLocation Loc) const;
};

} // namespace graphify
