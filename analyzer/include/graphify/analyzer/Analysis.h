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
#include "graphify/rules/RuleSet.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>

#include <functional>
#include <memory>
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
  /// Returns whether a check id is enabled (from --checks / Checks:); null means all enabled.
  std::function<bool(llvm::StringRef)> IsCheckEnabled;
  /// Returns whether findings in this file are reported (main file always; headers by
  /// HeaderFilterRegex); null means main file only.
  std::function<bool(llvm::StringRef)> IsFileReported;
};

/// Where a host value left the device, and how it travelled to the use being reported.
struct TaintOrigin {
  const clang::Expr *Source = nullptr;   ///< the item()/equal()/data_ptr() call
  std::string What;                      ///< "'item' copies one element to the host"
  /// Steps from the source to the use, each a located note ("assigned to 's' here").
  std::vector<std::pair<const clang::Stmt *, std::string>> Steps;
};

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
};

struct AnalysisResult {
  std::vector<Finding> Findings;
  /// Parallel to Findings: the AST node each finding is about (the if, the call, the loop).
  std::vector<const clang::Stmt *> Anchors;
  std::shared_ptr<const DataFacts> Facts;
};

/// Runs every enabled check on the translation unit.
AnalysisResult analyzeTranslationUnit(clang::ASTContext &Ctx, const AnalysisConfig &Config);

} // namespace graphify
