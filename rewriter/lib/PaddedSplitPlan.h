#pragma once
/// \file
/// The plan of `selection-to-padded` (rules/SelectionToPadded.cpp): what the capturable core
/// computes and what the host epilogue with the original signature does. The Planner
/// (PaddedSplitPlanner.h) fills it statement by statement; render() turns it into the text that
/// replaces the function.

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Stmt.h>
#include <llvm/Support/Error.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace graphify::rewriter::padded_split {

/// An early return the epilogue takes: `if (Cond) return Value;`.
struct Guard {
  const clang::Expr *Cond = nullptr;
  const clang::Expr *Value = nullptr;
  /// Padded variables the condition reads, with the kept output (Plan::Kept) holding their value there.
  std::map<const clang::ValueDecl *, unsigned> Reads;
  /// Host variables holding a selection's row count (`int n = kept.size(0);`) that the condition
  /// reads, with the count: the epilogue reads it in their place.
  std::map<const clang::ValueDecl *, std::string> CountReads;
};

/// One output of the core: a padded value (sliced by its group's count) or a static one.
struct Output {
  std::string Text;
  std::string Count; ///< the 0-d count of its group, or empty (not padded)
  /// A value of each iteration of the loop (LoopPlan): the core returns the vector `Text` of
  /// them, one per iteration.
  bool Each = false;
};

/// What the epilogue's loop does at one point of an iteration: take a guard (`continue`) or
/// push a sliced value into the vector the original pushed into.
struct LoopStep {
  int Guard = -1;                ///< an index into LoopPlan::Guards, or -1 for a push
  const clang::VarDecl *Into = nullptr; ///< the vector the original pushes into
  std::string Method;            ///< push_back or emplace_back
  unsigned Value = 0;            ///< an index into LoopPlan::Outputs
  clang::SourceRange PushLoc;           ///< the push statement (or the slot assignment)
  /// `out[i] = e;` rather than a push: the element, as written (`out[i]`), which the epilogue's
  /// loop (under the original header) rebinds to the sliced value.
  std::string Slot;
};

/// A loop whose iterations each select and collect what they keep into vectors of tensors:
///   std::vector<torch::Tensor> out;
///   for (int64_t i = 0; i < preds.size(0); ++i) {
///     auto kept = preds[i].index({preds[i].select(1, 4) > t});
///     if (kept.size(0) == 0) continue;
///     out.push_back(kept);
///   }
/// The core runs the same loop without its `continue`s, padded, and keeps each iteration's
/// pushed values, the values its guards test and its counts in vectors (Output::Each); the
/// epilogue loops over them, one iteration per element, takes the guards on the sliced values
/// and pushes the slices into its own vectors, which the statements after the loop (the host
/// tail) read as the original's.
struct LoopPlan {
  const clang::ForStmt *For = nullptr;
  std::string Type;            ///< the tensor type the collected vectors hold, as written
  std::vector<Output> Outputs; ///< per iteration: the values pushed and the values guards test
  std::vector<Guard> Guards;   ///< their Reads index Outputs
  std::vector<LoopStep> Steps;
  /// The count of each group the loop's iterations select, with the vector the core collects it in.
  std::map<std::string, std::string> EachCounts;
  /// The iteration's host part: from the first statement of the body the padded form does not
  /// take, when the rest reads tensor data on the host, to the end of the body; the epilogue's
  /// loop runs it on the sliced values of the tensors it reads (TailReads: an index into Outputs,
  /// an element per iteration for the body's locals, one value for the locals before the loop).
  const clang::Stmt *TailBegin = nullptr;
  std::vector<std::pair<const clang::VarDecl *, unsigned>> TailReads;
  /// The epilogue needs the loop counter (its host part reads it): it runs the original header.
  bool ReadsCounter = false;
};

struct Plan {
  const clang::FunctionDecl *Function = nullptr;
  std::string Core;                     ///< the core's statements
  /// The returned values: one for a function returning a tensor, one per element for a tuple,
  /// pair or vector of tensors (returned as a braced list).
  std::vector<Output> Returned;
  bool ReturnsAggregate = false;
  std::vector<Output> Kept;             ///< values the guards test, kept by the core
  std::vector<std::string> LeadingGuards; ///< guards on parameters alone, taken before the core runs
  std::vector<Guard> Guards;
  /// The host tail: the first statement of the part the epilogue runs after the guards, on the
  /// core's tensor locals it reads (TailReads, sliced like the other outputs); null when the
  /// function ends with a return the core computes.
  const clang::Stmt *TailBegin = nullptr;
  std::vector<std::pair<const clang::VarDecl *, Output>> TailReads;
  /// Host declarations that run no code and that the core does not read (`std::vector<Det> out;`,
  /// `int n = 0;`): declared by the epilogue before it calls the core.
  std::vector<const clang::DeclStmt *> HostDecls;
  /// In a method: the fields of `*this` the body uses, which the core (a function outside the
  /// class, or a static member for a method defined in it) takes by reference under their names.
  std::vector<const clang::FieldDecl *> Fields;
  /// The loop whose iterations select, if any, and the vectors of tensors it pushes into
  /// (declared by the epilogue, which does the pushes).
  std::optional<LoopPlan> Loop;
  std::set<const clang::VarDecl *> Collected;
  /// Loops before the selecting one that only fill collected vectors with values the epilogue
  /// can compute (`for (...) out.push_back(torch::zeros({0, 6}));`): the epilogue runs them.
  std::vector<const clang::ForStmt *> Prefills;
  /// The prefills that read a settled reference parameter (SettledParameters.h): the epilogue
  /// runs them after calling the core, which leaves the parameter as they read it.
  std::set<const clang::ForStmt *> PrefillsAfterCore;
  /// Tensor parameters taken by non-const reference that the body assigns (referenceParameters):
  /// the core takes them by value, the epilogue repeats these assignments after calling it.
  std::set<const clang::ParmVarDecl *> ByValueInCore;
  std::vector<const clang::Stmt *> RepeatedAssignments;
};

/// A cap on the rows of a selection: `if (k.size(0) > m) k = k.slice(0, 0, m);` — several
/// variables of the selection may be capped together, and a host condition may be ANDed to the
/// size test (`if (m != -1 && k.size(0) > m)`).
struct Cap {
  const clang::Expr *Host = nullptr;  ///< the host conjunct, or null
  const clang::Expr *Bound = nullptr; ///< m
  const clang::ValueDecl *Tested = nullptr;
  std::vector<const clang::VarDecl *> Capped;
};

/// The core and the epilogue that replace the function (PaddedSplitRender.cpp). `Taken` holds the
/// names the planner gave out; the fresh names of the epilogue are added to it.
llvm::Expected<std::string> render(const Plan &P, std::vector<std::string> &Taken, clang::ASTContext &Ctx);

} // namespace graphify::rewriter::padded_split
