#pragma once
/// \file
/// The planner of `selection-to-padded` (rules/SelectionToPadded.cpp): it walks a function body
/// statement by statement and records in a Plan (PaddedSplitPlan.h) what the capturable core
/// computes, padded (PaddedSelection.h), and what the host epilogue does. Its methods are defined
/// by the part of the body they plan: the walk and the checks on the whole function
/// (PaddedSplitPlanner.cpp), the selecting loop and its pushes (PaddedSplitLoop.cpp), host
/// declarations and the host tail (PaddedSplitHost.cpp), early returns, row counts and caps
/// (PaddedSplitGuards.cpp), and the statements the core takes (PaddedSplitStatements.cpp).

#include "ApiModel.h"
#include "HostRead.h"
#include "PaddedSelection.h"
#include "PaddedSplitPlan.h"
#include "Safety.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>
#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/Error.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace graphify::rewriter::padded_split {

class Planner {
public:
  Planner(const clang::FunctionDecl &F, const ApiModel &Api, clang::ASTContext &Ctx)
      : F(F), Body(F.getBody()), Api(Api), Ctx(Ctx), Lifter(Body, Api, Ctx, Taken) {}

  /// Why evaluating `E` in the core could change what the program does (findSideEffect). The
  /// nodes the padded form replaces (greedy suppression, the positions of a mask's true
  /// elements) are not evaluated as written: their operands are checked instead, and the calls
  /// around them by their own effect (pure calls and gathers, which stay in range once padded);
  /// so are gathers by variables holding such positions (isPaddedGather).
  std::optional<std::string> sideEffect(const clang::Expr *E) const;

  /// A node under `E` that the padded form replaces by its own computation, or null.
  const clang::Expr *firstReplaced(const clang::Expr *E) const;
  bool containsReplaced(const clang::Expr *E) const { return firstReplaced(E) != nullptr; }
  /// A selection the padded form computes another way than written (not a boolean-mask index,
  /// whose operands stay as they are).
  bool isReplaced(const clang::Expr *E) const;

  llvm::Expected<Plan> plan();

  const clang::FunctionDecl &F;
  const clang::Stmt *Body;
  std::vector<std::string> Taken;

private:
  const ApiModel &Api;
  clang::ASTContext &Ctx;
  PaddedLifter Lifter;
  Evaluation Ran = Evaluation::AsBefore;
  /// The loop being planned (LoopPlan), whose body may not assign what was declared before it.
  const clang::ForStmt *InLoop = nullptr;
  /// Host variables that hold a selection's row count (`int n = kept.size(0);`), with its group:
  /// the core does not compute them, the guards that read them read the count in the epilogue
  /// (checkCountAliases: nothing else may read them).
  std::map<const clang::ValueDecl *, int> CountAliases;
  std::vector<const clang::Expr *> GuardConds; ///< the conditions of the guards taken so far

  /// A statement before the first selection and before any guard (`torch::Tensor boxes;`, an
  /// `if`/`else` on a parameter's shape, a loop that prepares inputs): the core runs it verbatim.
  /// It may not leave the function (a return or goto anywhere in it but a lambda; at the top
  /// level of a body a break or continue belongs to a loop inside it), mention a selection, or
  /// read tensor data on the host, which would keep the core from being captured (that is a host
  /// tail's or the finding's own fix).
  bool isVerbatimPrefix(const clang::Stmt *S, const Plan &P) const;

  /// The statements of the body the epilogue runs and the core does not: the host tail, the
  /// loop's host part, the guards (the epilogue tests them on the sliced values), the host
  /// declarations and the loops that fill collected vectors beforehand. They stay in the method,
  /// where they may call its class's other members.
  std::set<const clang::Stmt *> stayInMethod(const Plan &P) const;

  /// Every read of a row-count variable is in a guard's condition.
  llvm::Error checkCountAliases() const;

  /// The statements the core runs copy no tensor to the host (`pred = pred.to(torch::kCPU)`
  /// before a selection): such a core would wait for the device, which no capture holds.
  llvm::Error checkCoreStaysOnDevice(const Plan &P) const;

  llvm::Error checkSignature();

  /// A tensor parameter taken by non-const reference that the body assigns is the caller's
  /// variable: a replay of the captured core runs its kernels again but assigns nothing. The core
  /// takes it by value and the epilogue repeats the assignments after calling it — each a
  /// top-level statement `p = <views of p>` (calls tagged shares_storage and pure, their other
  /// arguments host values the epilogue has), which reads no tensor data and launches nothing.
  /// Writes into its elements (`p.index_put_(...)`) are kernels on the caller's storage, which a
  /// replay runs again.
  llvm::Error referenceParameters(Plan &P);

  /// `p = p.transpose(-1, -2)` (also chains of views): `p` assigned a view of itself whose other
  /// arguments are host values the epilogue has before the core runs.
  bool isViewOfItself(const clang::Stmt *S, const clang::ParmVarDecl *Param, const Plan &P) const;

  /// Without a host tail the core computes what the function returns: tensors.
  llvm::Error checkReturnType();

  /// `Allowed` and the host declarations the epilogue makes before it takes the guards.
  static std::map<const clang::ValueDecl *, unsigned>
  withHostDecls(std::map<const clang::ValueDecl *, unsigned> Allowed, const Plan &P);

  /// `std::vector<torch::Tensor> out;` that a later loop pushes into (pushesIntoCollected): the
  /// epilogue declares it and does the pushes, with the sliced values.
  bool isCollectedVector(const clang::DeclStmt *DS, const clang::Stmt *const *Next,
                         const clang::Stmt *const *End) const;

  /// `for (int64_t i = 0; i < preds.size(0); ++i) out.push_back(torch::zeros({0, 6}));` before
  /// the selecting loop: a loop whose body only pushes into collected vectors, whose header and
  /// values run no user code, change nothing and read only what the epilogue has (parameters the
  /// function leaves alone, host declarations, the counter). The epilogue runs it; the result says
  /// whether after calling the core — when it reads the metadata of a reference parameter the
  /// statements before it assign, which the epilogue's parameter holds again once the core has
  /// run and the epilogue has repeated the assignments (SettledParameters.h). The error says why
  /// it is no prefill.
  llvm::Expected<bool> prefill(const clang::ForStmt *For, llvm::ArrayRef<const clang::Stmt *> Earlier,
                               llvm::ArrayRef<const clang::Stmt *> Later, const Plan &P) const;

  /// The vectors the top-level statements of the loop's body assign by the counter (`out[i] = e;`).
  static llvm::SmallVector<const clang::VarDecl *, 4> loopSlots(const clang::ForStmt *For);

  /// The vectors the top-level statements of the loop's body push into.
  static llvm::SmallVector<const clang::VarDecl *, 4> loopPushes(const clang::ForStmt *For);

  bool pushesIntoCollected(const clang::ForStmt *For, const Plan &P) const;

  /// The loop whose iterations select (LoopPlan). Its trip count must not depend on what the
  /// body computes: the header reads no selection, runs nothing that could change behaviour, and
  /// reads nothing the body assigns; every statement of the body is one the padded form takes,
  /// a guard `if (c) continue;` testing a selection, or a push into a collected vector.
  llvm::Error loop(const clang::ForStmt *For, Plan &P);

  /// The element type of the vector `V` as its declaration spells it (`torch::Tensor`), else as
  /// it can be written outside the function.
  std::string elementTypeText(const clang::VarDecl *V) const;

  /// A selection in a top-level statement of the loop's body (not in a nested loop or lambda), or null.
  const clang::Expr *firstSelection(const clang::ForStmt *For) const;

  /// A call that writes tensor data: an in-place op (tag in_place), or an assignment to a tensor
  /// expression other than a variable (`x.select(1, 0) = v`, `keep[i] = v` copy into the view).
  bool writesTensorData(const clang::Expr *E) const;

  /// Whether `E` is a call that returns a tensor by value (`x.select(1, 0)`, `keep[i]`): assigning
  /// to it copies into the elements it views. Assigning to a reference (`out[i]` of a vector, a
  /// variable) rebinds the handle instead.
  bool returnsTensorByValue(const clang::Expr *E) const;

  /// Whether the write `E` (writesTensorData) goes into a tensor the host part of the loop makes
  /// itself: a local it declares, given only new tensors (calls the packs describe that share
  /// no storage: `auto keep = torch::empty({n}); keep[c] = v;`), which no device part can read.
  bool writesOwnTensor(const clang::Expr *E, const LoopPlan &L) const;

  /// Whether `S` is in the host part of the loop's iterations.
  bool inLoopTail(const clang::Stmt *S, const LoopPlan &L) const;

  /// The iteration's host part, from `It` to the end of the loop's body: the tensors it reads
  /// that the iteration computes are collected for each iteration (`Collect`, at the end of the
  /// core's body), those computed before the loop are outputs once; it may not read other host
  /// values the core computes, or parameters the function assigns.
  llvm::Error loopTail(const clang::Stmt *const *It, const clang::CompoundStmt *Block, LoopPlan &L,
                       std::string &Collect, const Plan &P);

  /// `++i`, `i++`, `i += c` or `--i`, `i--`, `i -= c` with a constant or a variable the loop
  /// leaves alone.
  bool incrementsOnly(const clang::Expr *Inc, const clang::VarDecl *Index) const;

  /// `if (c) continue;` in the loop: the epilogue takes it on the sliced values the core keeps
  /// for that point of each iteration.
  llvm::Error loopGuard(const clang::IfStmt *If, LoopPlan &L, Plan &P);

  /// A tensor whose value at a guard the core keeps for the epilogue: a padded value, or a
  /// tensor the function computes (a local, a parameter it assigns), which a guard may test
  /// (`if (!m.any().item<bool>()) continue;`) as the original did, on the core's copy.
  bool isComputedTensor(const clang::ValueDecl *D) const;
  bool readsCountAlias(const clang::Expr *E) const;
  bool readsComputedTensor(const clang::Expr *E) const;

  /// What a guard's condition may read in the epilogue besides parameters and host declarations.
  static std::map<const clang::ValueDecl *, unsigned> guardReads(const Guard &G);

  /// The core keeps the values of the tensors a guard's condition reads, as they are at the
  /// guard (later assignments may rebind the variables), as outputs the epilogue tests: `auto
  /// kept_at_12 = kept;`, or pushed into a vector with one element per iteration in the loop.
  void keepReads(const clang::Expr *Cond, const std::string &Line, Guard &G, std::vector<Output> &Into, bool Each,
                 Plan &P);

  /// Whether the function writes tensor data anywhere (writesTensorData).
  bool writesInPlace() const;

  /// Whether every read of `D` in `Cond` is the object of a query of its shape or metadata
  /// (`kept.size(0)`, `kept.sizes()[0]`, `kept.dim()`, `kept.dtype()`), which a write into its
  /// elements leaves unchanged.
  bool readsOnlyMetadataOf(const clang::Expr *Cond, const clang::ValueDecl *D) const;

  /// `out.push_back(e)` into a collected vector, or `out[i] = e` (Method empty) into one the
  /// statements before the loop filled: the core collects `e`, padded, for each iteration.
  llvm::Error push(const clang::Stmt *S, const clang::VarDecl *Into, const std::string &Method,
                   const clang::Expr *Value, LoopPlan &L, Plan &P);

  /// `auto nc = pred.size(1) - 5;`, `int64_t n = boxes.sizes()[0];` at the top of the body: one
  /// host number computed from the parameters' sizes (calls tagged shape_query or rank_query, or
  /// pure calls returning no tensor) and from such numbers declared before it. Nothing before it
  /// can have changed what it reads, so the epilogue computes the same value before it calls the
  /// core, which computes its own; the host parts read the epilogue's.
  bool readsOnlyParameterSizes(const clang::DeclStmt *DS, const Plan &P) const;

  /// `std::vector<Det> out;`, `int n = 0;`, `float best = -1.0f;`: one host variable whose
  /// initialisation runs no code of the user's and reads nothing the function computes, so the
  /// epilogue may declare it before the core runs (placeHostDecls says where it goes).
  bool isIdleHostDecl(const clang::DeclStmt *DS) const;

  /// Where each deferred host declaration goes: the core declares those its statements read (it
  /// has its own copy, initialised alike); the epilogue those that the guards or the host tail
  /// read, or that nothing reads (as the original declared them). A variable the core writes and
  /// the epilogue reads is refused: the epilogue's copy would not see the write.
  llvm::Error placeHostDecls(Plan &P);

  /// Whether the statements from `It` to the end may run as a host tail: they read tensor data on
  /// the host (a copy to the CPU, a pointer or accessor, a scalar read, a print), or the function
  /// returns host data, which the epilogue computes anyway — and the first of them is not a
  /// construct with a device form.
  bool startsHostTail(const clang::Stmt *const *It, const clang::Stmt *const *End, const Plan &P) const;

  /// A first obstacle with a device form of its own (a selection, greedy suppression, a call
  /// that cannot be captured) keeps its refusal: moving it to the host is not its fix.
  bool hasDeviceFormOfItsOwn(const clang::Stmt *S) const;

  /// `S` reads tensor data on the host (a copy to the CPU, a pointer or accessor, a scalar read),
  /// itself or in a function of the file it calls.
  bool readsOnHost(const clang::Stmt *S) const { return firstHostRead(S, &F, Api, Ctx).has_value(); }

  /// The host tail from `It`: the core's tensor locals it reads become outputs, and so do tensor
  /// parameters taken by value that the core assigns (the epilogue assigns its own); it may not
  /// read the core's host values or other parameters the core assigns, which the epilogue does
  /// not have.
  llvm::Error hostTail(const clang::Stmt *const *It, const clang::Stmt *const *End, Plan &P);

  llvm::Error guard(const clang::IfStmt *If, bool Started, Plan &P);

  llvm::Error finalReturn(const clang::ReturnStmt *R, Plan &P);

  /// The variable whose row count `E` reads (`v.size(0)`, `v.sizes()[0]`), when it is padded.
  const clang::ValueDecl *rowCountOf(const clang::Expr *E) const;

  /// The padded variable whose size `E` reads, when a size of 0 means no row: `v.size(0)`,
  /// `v.sizes()[0]`, `v.numel()`.
  const clang::ValueDecl *emptinessSizeOf(const clang::Expr *E) const;

  /// The padded variable that a condition tests for emptiness, so that it has a row where the
  /// condition is false: `v.size(0) == 0`, `!v.numel()`, `v.size(0) < 1`, `v.size(0) <= 0`, or
  /// such a test ORed with others. Null otherwise.
  const clang::ValueDecl *emptinessTested(const clang::Expr *Cond) const;

  /// The end `m` of `v.slice(0, 0, m)` or `v.index({Slice(0, m)})` (tag range_slice: the first m
  /// rows of `v`, start 0 or None, step 1 or left out), or null.
  const clang::Expr *rowPrefixEnd(const clang::Expr *E, const clang::VarDecl *V) const;

  /// Whether `E` tests a capped variable's row count against the cap's bound: `v.size(0) > m`
  /// or `>=` (when it fails the slice would keep every row, so only the count changes).
  bool sizeTestOf(const clang::Expr *E, Cap &C) const;

  std::optional<Cap> capOf(const clang::IfStmt *If) const;

  bool isCap(const clang::IfStmt *If) const { return capOf(If).has_value(); }

  /// The count of the first `Bound` rows of a selection of `Before` rows, as Python's slicing
  /// (which `slice` and `Slice` follow) takes them: min(count, m) for m >= 0, count + m clamped at
  /// 0 for m < 0 (counted from the end).
  std::string prefixCount(const std::string &Before, const clang::Expr *BoundExpr) const;

  /// `i = i.index({Slice(None, max_det)})` or `auto top = kept.slice(0, 0, k)` of a padded
  /// variable: the first rows of the selection, which the padded form keeps whole with the count
  /// clamped (prefixCount), in a group derived from the sliced one. Null when `Init` is no such
  /// slice.
  std::optional<llvm::Error> prefixOfSelection(const clang::Stmt *S, const clang::VarDecl *V, const clang::Expr *Init,
                                               Plan &P);

  /// The padded form keeps the rows and clamps the count: when the test fails, m >= count and the
  /// slice would keep every row; when it holds, the slice keeps m rows (m >= 0) or count + m
  /// (m < 0, counted from the end) — Python's slicing, which `slice` and `Slice` follow.
  llvm::Error cap(const clang::IfStmt *If, Plan &P);

  llvm::Error statement(const clang::Stmt *S, Plan &P);

  /// `t = v` or `t op= v` (+, -, *, /) with `t` a tensor expression other than a variable: a
  /// write through a view (`pred.select(1, 0) = ...`).
  bool isColumnWrite(const clang::CXXOperatorCallExpr *OC) const;

  /// The variable whose storage a chain of views reaches (`pred` in `pred.select(1, 0)`, `keep`
  /// in `keep[c]`: calls the packs tag shares_storage), or null.
  static const clang::VarDecl *viewedVariable(const clang::Expr *E, const ApiModel &Api);

  /// `pred.select(1, 0) = pred.select(1, 0) - pred.select(1, 2) / 2;` (also +=, -=, *=, /=): a
  /// write through a view that keeps every row of a padded variable, each row from the same row
  /// of a value of its group or from one element. The padded rows take values nobody reads; the
  /// selected ones the original's. The variable must be the iteration's own in a loop (the core
  /// runs the statements after a 'continue' in every iteration), and not a capped value, which
  /// the original holds as a view of rows another variable still has.
  llvm::Error write(const clang::CXXOperatorCallExpr *OC, Plan &P);

  /// `auto [values, indices] = torch::max(kept, 1);`: each binding holds the rows of the call.
  /// `auto box = parts[0], cls = parts[1];`: each name declared on its own in the core, in order
  /// (a later initialiser may read an earlier name, and its prelude must come after it).
  llvm::Error declarations(const clang::DeclStmt *DS, Plan &P);

  llvm::Error bindings(const clang::DeclStmt *S, const clang::DecompositionDecl *DD, Plan &P);

  llvm::Error value(const clang::Stmt *S, const clang::VarDecl *V, const clang::Expr *Init, Plan &P);
};

} // namespace graphify::rewriter::padded_split
