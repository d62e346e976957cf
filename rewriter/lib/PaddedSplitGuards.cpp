#include "PaddedSplitPlanner.h"
#include "PaddedSplitShapes.h"
#include "ExprUtil.h"
#include "HostRead.h"
#include "HostWork.h"
#include "IfChain.h"
#include "Outlining.h"
#include "PaddedSelection.h"
#include "Predication.h"
#include "RuleSupport.h"
#include "Safety.h"
#include "SettledParameters.h"

#include "graphify/analyzer/HostOrigin.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/Lex/Lexer.h>
#include <clang/Tooling/Transformer/SourceCode.h>

#include <map>
#include <optional>
#include <set>

using namespace clang;
using namespace clang::transformer;

namespace graphify::rewriter::padded_split {

bool Planner::isComputedTensor(const ValueDecl *D) const {
  if (Lifter.groupOf(D) >= 0)
    return true;
  const auto *V = dyn_cast<VarDecl>(D);
  if (!V || !V->hasLocalStorage() || V->getType()->isReferenceType() || !Api.isTensor(V->getType()))
    return false;
  return !isa<ParmVarDecl>(V) || isReassigned(V, Body);
}

bool Planner::readsCountAlias(const Expr *E) const {
  return findExpr(E, [&](const Expr *Sub) {
           const auto *DR = dyn_cast<DeclRefExpr>(Sub);
           return DR && CountAliases.count(DR->getDecl());
         }) != nullptr;
}

bool Planner::readsComputedTensor(const Expr *E) const {
  return findExpr(E, [&](const Expr *Sub) {
           const auto *DR = dyn_cast<DeclRefExpr>(Sub);
           return DR && isComputedTensor(DR->getDecl());
         }) != nullptr;
}

std::map<const ValueDecl *, unsigned> Planner::guardReads(const Guard &G) {
  std::map<const ValueDecl *, unsigned> Allowed = G.Reads;
  for (const auto &[D, Count] : G.CountReads)
    Allowed.emplace(D, ~0u);
  return Allowed;
}

void Planner::keepReads(const Expr *Cond, const std::string &Line, Guard &G, std::vector<Output> &Into, bool Each,
                        Plan &P) {
  llvm::SmallVector<const Stmt *, 16> Work{Cond};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (const auto *DR = dyn_cast_or_null<DeclRefExpr>(S)) {
      auto Alias = CountAliases.find(DR->getDecl());
      if (Alias != CountAliases.end())
        G.CountReads[DR->getDecl()] = Lifter.countOf(Alias->second);
    }
    if (const auto *DR = dyn_cast_or_null<DeclRefExpr>(S); DR && isComputedTensor(DR->getDecl()) &&
                                                           !G.Reads.count(DR->getDecl())) {
      // The core may write into the tensor after the guard (write()), where the original tested
      // it before: the guard then tests a copy, unless it reads no element of it.
      const std::string Name = DR->getDecl()->getNameAsString();
      const std::string Value = writesInPlace() && !readsOnlyMetadataOf(Cond, DR->getDecl()) ? Name + ".clone()" : Name;
      const std::string Kept = freshName(Name + "_at_" + Line, Body, Taken);
      P.Core += Each ? Kept + ".push_back(" + Value + ");\n" : "auto " + Kept + " = " + Value + ";\n";
      const int Group = Lifter.groupOf(DR->getDecl());
      G.Reads[DR->getDecl()] = Into.size();
      Into.push_back({Kept, Group >= 0 ? Lifter.countOf(Group) : "", Each});
    }
    if (S)
      for (const Stmt *C : S->children())
        Work.push_back(C);
  }
}

bool Planner::writesInPlace() const {
  return findExpr(Body, [&](const Expr *E) { return writesTensorData(E); }) != nullptr;
}

bool Planner::readsOnlyMetadataOf(const Expr *Cond, const ValueDecl *D) const {
  std::set<const Expr *> Queried;
  unsigned Reads = 0;
  llvm::SmallVector<const Stmt *, 16> Work{Cond};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *E = dyn_cast<Expr>(S); E && isa<CallExpr>(E) && callObject(E) &&
                                            (Api.callHasTag(E, "shape_query") || Api.callHasTag(E, "rank_query") ||
                                             Api.callHasTag(E, "metadata_query")))
      Queried.insert(stripAll(callObject(E)));
    if (const auto *DR = dyn_cast<DeclRefExpr>(S); DR && DR->getDecl() == D)
      ++Reads;
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  const unsigned QueriedReads = llvm::count_if(Queried, [&](const Expr *E) {
    const auto *DR = dyn_cast<DeclRefExpr>(E);
    return DR && DR->getDecl() == D;
  });
  return QueriedReads == Reads;
}

llvm::Error Planner::guard(const IfStmt *If, bool Started, Plan &P) {
  const Expr *Cond = If->getCond();
  const Expr *Value = guardReturn(If)->getRetValue();
  if (!Value)
    return refuse("the return at line " + lineOf(If, Ctx) + " returns nothing");
  if (auto Why = findSideEffect(Cond, Api, /*AllowHostReads=*/true, Evaluation::AsBefore))
    return refuse("the condition at line " + lineOf(If, Ctx) + " " + *Why);
  if (!Lifter.touchesPadded(Cond) && !readsComputedTensor(Cond) && !readsCountAlias(Cond)) {
    if (Started)
      return refuse("the early return at line " + lineOf(If, Ctx) + " does not depend on a selection, and the core "
                    "cannot return early");
    if (auto Why = readsBodyState(If, Body, withHostDecls({}, P)))
      return refuse("the early return at line " + lineOf(If, Ctx) + " " + *Why);
    P.LeadingGuards.push_back(sourceText(If, Ctx));
    return llvm::Error::success();
  }
  Guard G;
  G.Cond = Cond;
  G.Value = Value;
  keepReads(Cond, lineOf(If, Ctx), G, P.Kept, /*Each=*/false, P);
  if (auto Why = readsBodyState(Cond, Body, withHostDecls(guardReads(G), P)))
    return refuse("the condition at line " + lineOf(If, Ctx) + " " + *Why +
                  " (the epilogue tests it on the core's outputs)");
  if (auto Why = readsBodyState(Value, Body, withHostDecls({}, P)))
    return refuse("the early return at line " + lineOf(If, Ctx) + " " + *Why);
  GuardConds.push_back(Cond);
  P.Guards.push_back(std::move(G));
  Ran = Evaluation::Conditional;
  if (const ValueDecl *Tested = emptinessTested(Cond))
    Lifter.markNonEmpty(CountAliases.count(Tested) ? CountAliases.at(Tested) : Lifter.groupOf(Tested));
  return llvm::Error::success();
}

llvm::Error Planner::finalReturn(const ReturnStmt *R, Plan &P) {
  const Expr *V = R->getRetValue();
  llvm::SmallVector<const Expr *, 4> Elements{V};
  if (P.ReturnsAggregate) {
    Elements = returnedElements(V);
    if (Elements.empty())
      return refuse("the return at line " + lineOf(R, Ctx) + " builds its value in a way the split cannot take apart "
                    "(return a braced list {a, b} or std::make_tuple(a, b) of tensors)");
  }
  std::string Prelude;
  for (const Expr *E : Elements) {
    if (!Api.isTensorExpr(E))
      return refuse("'" + sourceText(E, Ctx) + "' (line " + lineOf(E, Ctx) + ") is returned but is not a tensor");
    auto Value = Lifter.lift(E, "result", Prelude);
    if (!Value)
      return Value.takeError();
    if (auto Why = sideEffect(E))
      return refuse("the return at line " + lineOf(R, Ctx) + " " + *Why);
    P.Returned.push_back({Value->Text, Value->Group >= 0 ? Lifter.countOf(Value->Group) : ""});
  }
  P.Core += Prelude;
  return llvm::Error::success();
}

const ValueDecl *Planner::rowCountOf(const Expr *E) const {
  E = stripAll(E);
  bool Subscripted = false;
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E); OC && OC->getOperator() == OO_Subscript) {
    if (OC->getNumArgs() != 2 || !isIntegerConstant(OC->getArg(1), 0, Ctx))
      return nullptr;
    E = stripAll(OC->getArg(0));
    Subscripted = true;
  }
  const auto *Call = dyn_cast<CallExpr>(E);
  if (!Call || !Api.callHasTag(E, "shape_query") || callArgs(E).size() != (Subscripted ? 0u : 1u) ||
      (!Subscripted && !isIntegerConstant(callArgs(E)[0], 0, Ctx)))
    return nullptr;
  const auto *Obj = callObject(E) ? dyn_cast<DeclRefExpr>(stripAll(callObject(E))) : nullptr;
  return Obj && Lifter.groupOf(Obj->getDecl()) >= 0 ? Obj->getDecl() : nullptr;
}

const ValueDecl *Planner::emptinessSizeOf(const Expr *E) const {
  if (const ValueDecl *Rows = rowCountOf(E))
    return Rows;
  E = stripAll(E);
  if (const auto *DR = dyn_cast<DeclRefExpr>(E); DR && CountAliases.count(DR->getDecl()))
    return DR->getDecl(); // int n = kept.size(0);
  const auto *Obj = callObject(E) ? dyn_cast<DeclRefExpr>(stripAll(callObject(E))) : nullptr;
  if (!Obj || !Api.callHasTag(E, "shape_query") || !callArgs(E).empty() || !Api.isTensorExpr(Obj) ||
      Lifter.groupOf(Obj->getDecl()) < 0)
    return nullptr;
  return Obj->getDecl(); // numel(): no other shape query returns a number
}

const ValueDecl *Planner::emptinessTested(const Expr *Cond) const {
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(Cond); UO && UO->getOpcode() == UO_LNot)
    return emptinessSizeOf(UO->getSubExpr());
  const auto *BO = dyn_cast<BinaryOperator>(Cond);
  if (!BO)
    return nullptr;
  if (BO->getOpcode() == BO_LOr) {
    const ValueDecl *Left = emptinessTested(BO->getLHS());
    return Left ? Left : emptinessTested(BO->getRHS());
  }
  const Expr *Size = BO->getLHS(), *Bound = BO->getRHS();
  BinaryOperatorKind Op = BO->getOpcode();
  if (!emptinessSizeOf(Size)) { // 0 == n, 1 > n, 0 >= n
    std::swap(Size, Bound);
    Op = Op == BO_GT ? BO_LT : Op == BO_GE ? BO_LE : Op == BO_LT ? BO_GT : Op == BO_LE ? BO_GE : Op;
  }
  const ValueDecl *Tested = emptinessSizeOf(Size);
  if (!Tested)
    return nullptr;
  const bool Empty = ((Op == BO_EQ || Op == BO_LE) && isIntegerConstant(Bound, 0, Ctx)) ||
                     (Op == BO_LT && isIntegerConstant(Bound, 1, Ctx));
  return Empty ? Tested : nullptr;
}

const Expr *Planner::rowPrefixEnd(const Expr *E, const VarDecl *V) const {
  E = stripAll(E);
  const auto *Obj = callObject(E) ? dyn_cast<DeclRefExpr>(stripAll(callObject(E))) : nullptr;
  if (!isa<CallExpr>(E) || !Obj || Obj->getDecl() != V || Api.callHasTag(E, "in_place"))
    return nullptr;
  auto EndOf = [&](const Expr *Range, const ApiEntry &Entry) -> const Expr * {
    if (Entry.SizeArgs.size() != 3)
      return nullptr;
    const Expr *Start = Api.argAt(Range, Entry.SizeArgs[0]), *End = Api.argAt(Range, Entry.SizeArgs[1]),
               *Step = Api.argAt(Range, Entry.SizeArgs[2]);
    if (!(isAbsent(Start) || isIntegerConstant(Start, 0, Ctx)) ||
        !(isAbsent(Step) || isIntegerConstant(Step, 1, Ctx)) || isAbsent(End))
      return nullptr;
    return End;
  };
  for (const ApiEntry *Entry : Api.entriesFor(E)) {
    if (Entry->hasTag("range_slice") && Entry->DimArgs.size() == 1 &&
        isIntegerConstant(Api.argAt(E, Entry->DimArgs[0]), 0, Ctx))
      return EndOf(E, *Entry);
    if (Entry->IndexArgs.size() != 1)
      continue;
    const Expr *List = Api.argAt(E, Entry->IndexArgs[0]);
    auto Elements = List ? bracedListElements(List) : llvm::SmallVector<const Expr *, 4>{};
    if (Elements.size() != 1)
      return nullptr;
    for (const ApiEntry *Range : Api.entriesFor(stripAll(Elements[0])))
      if (Range->hasTag("range_slice"))
        return EndOf(stripAll(Elements[0]), *Range);
    return nullptr;
  }
  return nullptr;
}

bool Planner::sizeTestOf(const Expr *E, Cap &C) const {
  const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  if (!BO)
    return false;
  const Expr *Size = BO->getLHS(), *Other = BO->getRHS();
  if (BO->getOpcode() == BO_LT || BO->getOpcode() == BO_LE)
    std::swap(Size, Other);
  else if (BO->getOpcode() != BO_GT && BO->getOpcode() != BO_GE)
    return false;
  const ValueDecl *Tested = rowCountOf(Size);
  if (!Tested || sourceText(stripAll(Other), Ctx) != sourceText(stripAll(C.Bound), Ctx))
    return false;
  C.Tested = Tested;
  return true;
}

std::optional<Cap> Planner::capOf(const IfStmt *If) const {
  if (If->getElse() || If->getInit() || If->getConditionVariable())
    return std::nullopt;
  Cap C;
  for (const Stmt *S : bodyStatements(If->getThen())) {
    const Expr *Value = nullptr;
    const VarDecl *V = assignedLocal(S, Value);
    if (!V || Lifter.groupOf(V) < 0)
      return std::nullopt;
    const Expr *End = rowPrefixEnd(Value, V);
    if (!End || (C.Bound && sourceText(stripAll(End), Ctx) != sourceText(stripAll(C.Bound), Ctx)))
      return std::nullopt;
    C.Bound = End;
    C.Capped.push_back(V);
  }
  if (C.Capped.empty())
    return std::nullopt;
  const Expr *Cond = If->getCond()->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond);
      BO && (BO->getOpcode() == BO_LAnd || BO->getOpcode() == BO_And)) {
    if (sizeTestOf(BO->getRHS(), C))
      C.Host = BO->getLHS();
    else if (sizeTestOf(BO->getLHS(), C))
      C.Host = BO->getRHS();
    else
      return std::nullopt;
    return Lifter.touchesPadded(C.Host) ? std::nullopt : std::optional<Cap>(C);
  }
  return sizeTestOf(Cond, C) ? std::optional<Cap>(C) : std::nullopt;
}

std::string Planner::prefixCount(const std::string &Before, const Expr *BoundExpr) const {
  const Expr *Bound = stripAll(BoundExpr);
  const std::string M = isa<DeclRefExpr>(Bound) || isa<IntegerLiteral>(Bound) ? sourceText(Bound, Ctx)
                                                                            : "(" + sourceText(BoundExpr, Ctx) + ")";
  // A constant bound picks its side of Python's slicing now.
  auto Constant = Bound->getIntegerConstantExpr(Ctx);
  const std::string Prefix = Before + ".clamp_max(" + M + ")", FromEnd = "(" + Before + " + " + M + ").clamp_min(0)";
  return Constant ? (Constant->isNegative() ? FromEnd : Prefix) : M + " >= 0 ? " + Prefix + " : " + FromEnd;
}

std::optional<llvm::Error> Planner::prefixOfSelection(const Stmt *S, const VarDecl *V, const Expr *Init, Plan &P) {
  const auto *Call = dyn_cast<CallExpr>(stripAll(Init));
  const VarDecl *Sliced = Call && callObject(Call) ? referencedVar(stripAll(callObject(Call))) : nullptr;
  const int Group = Sliced ? Lifter.groupOf(Sliced) : -1;
  const Expr *End = Group >= 0 ? rowPrefixEnd(Init, Sliced) : nullptr;
  if (!End || !Api.isTensor(V->getType()) || V->getType()->isReferenceType())
    return std::nullopt;
  if (auto Why = findSideEffect(End, Api, false, Ran))
    return refuse("the bound of the slice at line " + lineOf(S, Ctx) + " " + *Why);
  if (Lifter.touchesPadded(End))
    return refuse("the bound of the slice at line " + lineOf(S, Ctx) + " reads a value-dependent selection");
  const std::string Count = freshName(V->getNameAsString() + "_count", Body, Taken);
  P.Core += "auto " + Count + " = " + prefixCount(Lifter.countOf(Group), End) + ";\n";
  if (isa<DeclStmt>(S))
    P.Core += textWithReplacements(S, {{stripAll(Init), Sliced->getNameAsString()}}, Ctx) + "\n";
  else if (V != Sliced)
    P.Core += V->getNameAsString() + " = " + Sliced->getNameAsString() + ";\n";
  Lifter.setGroup(V, Lifter.derive(Group, Count));
  Lifter.forget(V);
  return llvm::Error::success();
}

llvm::Error Planner::cap(const IfStmt *If, Plan &P) {
  Cap C = *capOf(If);
  for (const Expr *Part : {C.Host, C.Bound})
    if (Part)
      if (auto Why = findSideEffect(Part, Api, false, Ran))
        return refuse("the condition at line " + lineOf(If, Ctx) + " " + *Why);
  const int Group = Lifter.groupOf(C.Tested);
  for (const VarDecl *V : C.Capped)
    if (Lifter.groupOf(V) != Group)
      return refuse("the cap at line " + lineOf(If, Ctx) + " tests the rows of '" + C.Tested->getNameAsString() +
                    "' but slices '" + V->getNameAsString() + "', which comes from another selection");
  const std::string Count = freshName(C.Capped.front()->getNameAsString() + "_count", Body, Taken);
  const std::string &Before = Lifter.countOf(Group);
  const std::string Sliced = prefixCount(Before, C.Bound);
  if (C.Host)
    P.Core += "auto " + Count + " = " + Before + ";\nif (" + sourceText(C.Host, Ctx) + ")\n  " + Count + " = " +
              Sliced + ";\n";
  else
    P.Core += "auto " + Count + " = " + Sliced + ";\n";
  const int Capped = Lifter.derive(Group, Count);
  for (const VarDecl *V : C.Capped) {
    Lifter.setGroup(V, Capped);
    Lifter.forget(V);
  }
  return llvm::Error::success();
}

} // namespace graphify::rewriter::padded_split
