#pragma once
/// \file
/// The data-flow analysis behind every value-dependence check. It interprets each function body
/// of the translation unit in statement order over an abstract state (which host locations hold
/// values read from tensors, which tensor locals are boolean masks), joins the states of branch
/// arms, iterates loops to a fixpoint, and summarizes functions so that taint crosses calls:
/// "returns a value read inside", "returns the taint of parameter i", "writes parameter j", and
/// "parameter i receives taint at some call site". Rounds over the whole TU repeat until the
/// summaries stop growing; the facts of the last round are the result.
///
/// \code
///   graphify::TaintAnalysis TA(Ctx, Facts, [&](const clang::Decl *D) { return Regions.contains(D); });
///   TA.run(Functions);
///   const graphify::TaintOrigin *O = Facts.taintOf(IfCond);
/// \endcode

#include "graphify/analyzer/TaintFacts.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>

#include <functional>
#include <set>
#include <string>

namespace graphify {

class TaintAnalysis {
public:
  /// `IsGraphRegion` tells which bodies are graph regions: a value they return reaches the graph.
  TaintAnalysis(clang::ASTContext &Ctx, TaintFacts &Facts,
                std::function<bool(const clang::Decl *)> IsGraphRegion);
  ~TaintAnalysis();

  /// Whole-program mode: functions, fields and globals without a local definition or write take
  /// their facts from `Program`; every key looked up there is added to `Lookups`.
  void importFrom(const ProgramFacts *Program, std::set<std::string> *Lookups);

  /// Analyzes these function bodies (lambdas inside them are analyzed in place, with the state
  /// they capture) until the inter-procedural summaries are stable.
  void run(llvm::ArrayRef<const clang::FunctionDecl *> Functions);

  /// Whole-program mode: the summaries of `Functions`, the parameter entries, fields and globals
  /// this TU established, in portable form (after run()).
  void exportTo(FactTable &Out, llvm::ArrayRef<const clang::FunctionDecl *> Functions) const;

  class Impl;

private:
  std::unique_ptr<Impl> P;
};

} // namespace graphify
