#pragma once
/// \file
/// The analysis entry point: one translation unit in, findings out, plus the data-flow facts the
/// rewriter needs to decide whether and how to fix each finding.
///
/// \code
///   graphify::AnalysisConfig Config{&Rules};
///   graphify::AnalysisResult R = graphify::analyzeTranslationUnit(ASTContext, Config);
///   for (const graphify::Finding &F : R.Findings) ...
/// \endcode

#include "graphify/analyzer/Finding.h"
#include "graphify/analyzer/ProgramFacts.h"
#include "graphify/analyzer/StaticBounds.h"
#include "graphify/rules/RuleSet.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace graphify {

enum class Profile { CudaGraph, Trace };
enum class Scope { Graph, All };

struct AnalysisConfig {
  const RuleSet *Rules = nullptr;
  Profile ProfileKind = Profile::CudaGraph;
  Scope ScopeKind = Scope::Graph;
  /// Globs on qualified function names (`Model::step`, `*::forward`) that are graph regions.
  std::vector<std::string> GraphRegionGlobs;
  /// The configured static bounds (StaticBounds.h); annotations on functions add to them.
  std::vector<StaticBound> StaticBounds;
  /// Returns whether a check id is enabled (from --checks / Checks:); null means all enabled.
  std::function<bool(llvm::StringRef)> IsCheckEnabled;
  /// Returns whether findings in this file are reported (main file always; headers by
  /// HeaderFilterRegex); null means main file only.
  std::function<bool(llvm::StringRef)> IsFileReported;
  /// Returns whether the bodies in this file are analysed (the project's own files, a superset
  /// of the reported ones); null means the reported files. Findings in analysed files that are
  /// not reported come back too, for the caller to count.
  std::function<bool(llvm::StringRef)> IsFileAnalysed;
  /// Whole-program mode: what the other translation units established (summaries, parameter
  /// entries, fields, globals and regions of functions defined elsewhere); null: this TU alone.
  const ProgramFacts *Program = nullptr;
};

/// Where a host value left the device, and how it travelled to the use being reported.
struct TaintOrigin {
  const clang::Expr *Source = nullptr;   ///< the item()/equal()/data_ptr() call
  std::string What;                      ///< "'item' copies one element to the host"
  /// Steps from the source to the use, each a located note ("assigned to 's' here").
  std::vector<std::pair<const clang::Stmt *, std::string>> Steps;
  /// The value is a size of a tensor whose shape follows the data: `Source` is the selection
  /// (nonzero, boolean indexing) that made it, not a read.
  bool SizeOfSelection = false;
  /// `Source` is a selection: the value is its size, or was computed on the host from it (a
  /// struct a host library derives from a buffer of that size), which is no longer the size.
  bool FromSelection = false;
  /// The value follows the data through control flow, not through what was computed: a number
  /// counted or a flag set under a condition that tests tensor data, or in a loop whose trip
  /// count does (an implicit flow).
  bool ThroughControl = false;
};

/// What a value with this origin depends on, for messages: "a tensor value read on the host",
/// or "the size of a value-dependent selection".
std::string dependenceOf(const TaintOrigin *O);

/// Facts the analysis established, queryable by the rewriter and the checks.
class DataFacts {
public:
  virtual ~DataFacts() = default;
  /// The origin if `E` (a host value) depends on tensor values at that program point, else null.
  virtual const TaintOrigin *taintOf(const clang::Expr *E) const = 0;
  /// Whether `E` is provably a boolean tensor (a mask).
  virtual bool isBoolMask(const clang::Expr *E) const = 0;
  /// The tensor flavor of a type (after stripping references/cv), or null if not a tensor.
  virtual const ApiFlavor *tensorFlavor(clang::QualType T) const = 0;
  /// The rule-pack entries matching a call or construct expression (empty if none).
  virtual std::vector<const ApiEntry *> entriesFor(const clang::Expr *CallOrConstruct) const = 0;
  /// The call that put the tensor `E` evaluates to in pageable host memory (a host factory, a
  /// `to(kCPU)` copy, followed through locals and fields as the analysis knows them), or null.
  virtual const clang::Expr *hostMemoryOrigin(const clang::Expr *E) const = 0;
  /// The static bound the user gave the local or parameter `V` (StaticBounds.h), or nullopt.
  virtual std::optional<int64_t> staticBoundOf(const clang::VarDecl *V) const {
    (void)V;
    return std::nullopt;
  }
};

struct AnalysisResult {
  std::vector<Finding> Findings;
  /// Parallel to Findings: the AST node each finding is about (the if, the call, the loop).
  std::vector<const clang::Stmt *> Anchors;
  std::shared_ptr<const DataFacts> Facts;
  /// The graph-region globs (AnalysisConfig::GraphRegionGlobs) that named a function defined
  /// in the analysed files; a glob no translation unit matches is a mistake the driver reports.
  std::set<std::string> MatchedRegionGlobs;
  /// The configured static bounds (as `function::variable`) that named a variable of a function
  /// defined in the analysed files; the driver reports the others.
  std::set<std::string> MatchedStaticBounds;
  /// Malformed GRAPHIFY_STATIC_BOUND annotations, as `file:line:col: message`.
  std::vector<std::string> AnnotationProblems;
  /// Code that should be checked and is not (calls in regions and windows whose targets graphify
  /// cannot see, captures begun and never ended here), as `file:line:col: message`.
  std::vector<std::string> UncheckedCode;
};

/// Runs every enabled check on the translation unit.
AnalysisResult analyzeTranslationUnit(clang::ASTContext &Ctx, const AnalysisConfig &Config);

/// One translation unit analysed in rounds, for whole-program mode: each round imports the
/// program facts known so far and exports what this TU establishes; the checks run once, on the
/// last round's facts. analyzeTranslationUnit is one round and the checks.
///
/// \code
///   graphify::UnitAnalysis U(Ctx, Config);
///   graphify::UnitFacts Mine = U.analyze(&Program);   // repeat while Program changes
///   graphify::AnalysisResult R = U.check();
/// \endcode
class UnitAnalysis {
public:
  UnitAnalysis(clang::ASTContext &Ctx, const AnalysisConfig &Config);
  ~UnitAnalysis();
  /// Finds the regions and runs the taint analysis with `Program`'s facts imported (null: none);
  /// returns the facts this TU exports and the program facts it looked up.
  UnitFacts analyze(const ProgramFacts *Program);
  /// Runs the enabled checks on the facts of the last analyze().
  AnalysisResult check();
  /// The graph-region globs the last analyze() matched (an extraction records them without checking).
  std::set<std::string> matchedRegionGlobs() const;
  /// The configured static bounds (`function::variable`) that name a variable of a function
  /// defined in the analysed files (an extraction records them without checking).
  std::set<std::string> matchedStaticBounds() const;

  class Impl;

private:
  std::unique_ptr<Impl> P;
};

} // namespace graphify
