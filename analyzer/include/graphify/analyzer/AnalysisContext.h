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

  /// What a tainted argument slot may hold (size_args and position_args).
  enum class ArgumentSlot { Size, Position };
  /// The first tainted leaf inside argument `Arg`: an element of a braced list `{n, 3}`, an
  /// argument of a construction (a vector, a TensorIndex), or `Arg` itself; null when `Arg` is
  /// clean. For positions, leaves must be integers and a construction that is itself a pack API
  /// (`Slice(a, b)`, whose bounds are sizes) is not looked into.
  const clang::Expr *taintedLeaf(const clang::Expr *Arg, ArgumentSlot Slot, unsigned Depth = 0) const;

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
