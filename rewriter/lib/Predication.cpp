// If-conversion by renaming. The invariant: every name the emitted code reads refers to one
// value for its whole life (static single assignment), so computing a branch before the
// condition is known, or computing both branches, cannot change what any expression reads.
// A variable's current value is a binding: its own name (the value it had before the region), a
// fresh name the rewrite declared, or an expression not yet read (kept inline so that a
// variable assigned once appears in the where() itself, as a person would write it; it is
// declared under a fresh name the first time something reads it).
#include "Predication.h"

#include "BranchObstacles.h"
#include "Compaction.h"

#include "ConditionLifting.h"
#include "DomainGuard.h"
#include "ExprUtil.h"
#include "FreshNames.h"
#include "IfChain.h"
#include "Refusal.h"
#include "Safety.h"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include <map>
#include <optional>
#include <regex>

using namespace clang;

namespace graphify::rewriter {

bool isDefinedBefore(const VarDecl *V, const Stmt *If, const Stmt *Body, ASTContext &Ctx) {
  if (isa<ParmVarDecl>(V))
    return true;
  if (const Expr *Init = V->getInit()) {
    const auto *CE = dyn_cast<CXXConstructExpr>(stripImplicit(Init));
    if (!CE || CE->getNumArgs() > 0)
      return true;
  }
  SourceManager &SM = Ctx.getSourceManager();
  llvm::SmallVector<const Stmt *, 32> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *E = dyn_cast<Expr>(S)) {
      const Expr *Target = nullptr;
      if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->getOpcode() == BO_Assign)
        Target = BO->getLHS();
      if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E); OC && OC->getOperator() == OO_Equal)
        Target = OC->getArg(0);
      if (Target && referencedVar(Target) == V && SM.isBeforeInTranslationUnit(S->getEndLoc(), If->getBeginLoc()))
        return true;
    }
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return false;
}

/// The name an expression looks up without qualification through the scopes around it — a
/// variable, parameter, global or function (`h`), a member through the implicit `this` (`h` for
/// `this->h`), or a name a template leaves unresolved — and the declaration it found, if any.
/// A local of the same name declared in front of it would capture it.
static std::optional<std::pair<llvm::StringRef, const Decl *>> unqualifiedLookup(const Stmt *S) {
  auto Named = [](const NamedDecl *D) -> std::optional<std::pair<llvm::StringRef, const Decl *>> {
    if (!D->getDeclName().isIdentifier())
      return std::nullopt;
    return std::make_pair(D->getName(), static_cast<const Decl *>(D));
  };
  if (const auto *DR = dyn_cast<DeclRefExpr>(S))
    return Named(DR->getDecl());
  if (const auto *ME = dyn_cast<MemberExpr>(S); ME && ME->isImplicitAccess())
    return Named(ME->getMemberDecl());
  if (const auto *UL = dyn_cast<OverloadExpr>(S); UL && UL->getName().isIdentifier())
    return std::make_pair(UL->getName().getAsIdentifierInfo()->getName(), static_cast<const Decl *>(nullptr));
  if (const auto *DS = dyn_cast<CXXDependentScopeMemberExpr>(S); DS && DS->isImplicitAccess() &&
                                                                   DS->getMember().isIdentifier())
    return std::make_pair(DS->getMember().getAsIdentifierInfo()->getName(), static_cast<const Decl *>(nullptr));
  return std::nullopt;
}

/// Whether `Name` is declared or referenced in `Body` (other than by `Except`), not counting the
/// statements `Skip` says to leave out. Members read through the implicit `this` count: a local
/// hoisted under their name would shadow them.
static bool nameUsed(llvm::StringRef Name, const Stmt *Body, const VarDecl *Except = nullptr,
                     llvm::function_ref<bool(const Stmt *)> Skip = nullptr) {
  llvm::SmallVector<const Stmt *, 32> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S || (Skip && Skip(S)))
      continue;
    if (auto Found = unqualifiedLookup(S); Found && Found->first == Name && Found->second != Except)
      return true;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *ND = dyn_cast<NamedDecl>(D);
            ND && ND != Except && ND->getDeclName().isIdentifier() && ND->getName() == Name)
          return true;
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return false;
}

/// Whether another fix of this pass introduces `Name` in the function `Body` (FreshNames.h).
static bool takenByOtherFix(const Stmt *Body, llvm::StringRef Name) {
  const FreshNameRegistry *Names = FreshNameRegistry::current();
  return Names && Names->takenByOther(Body, Name);
}

static void reserveForThisFix(const Stmt *Body, llvm::StringRef Name, std::vector<std::string> &Taken) {
  Taken.push_back(Name.str());
  if (FreshNameRegistry *Names = FreshNameRegistry::current())
    Names->reserve(Body, Name);
}

std::string freshName(llvm::StringRef Base, const Stmt *Body, std::vector<std::string> &Taken) {
  for (int N = 0;; ++N) {
    std::string Name = N == 0 ? Base.str() : Base.str() + std::to_string(N + 1);
    if (llvm::is_contained(Taken, Name) || nameUsed(Name, Body) || takenByOtherFix(Body, Name))
      continue;
    reserveForThisFix(Body, Name, Taken);
    return Name;
  }
}

namespace {

/// How messages name the statements of the region itself (not of a branch).
const char *const TopLevel = "the code after the if";

/// A value of the region: its text and, when one expression computes it, that expression
/// (for shape and dtype checks).
struct Value {
  std::string Text;
  const Expr *Source = nullptr;
};

struct Binding {
  std::string Text;
  bool Atomic = true;          ///< a name; else an expression not yet read
  bool Undefined = false;      ///< declared without a value (`torch::Tensor y;`)
  const Expr *Source = nullptr;
};
using Env = std::map<const VarDecl *, Binding>;

bool isIdentifier(llvm::StringRef S) {
  if (S.empty() || !(isalpha(S[0]) || S[0] == '_'))
    return false;
  return llvm::all_of(S, [](char C) { return isalnum(C) || C == '_'; });
}

class Predicator {
public:
  Predicator(const ApiModel &Api, ASTContext &Ctx, const Stmt *Body, SourceRange Region)
      : Api(Api), Ctx(Ctx), Body(Body), Region(Region) {}

  /// Runs `Stmts` with `E`; the value returned when every path returns, none when control falls
  /// through the end.
  llvm::Expected<std::optional<Value>> run(llvm::ArrayRef<const Stmt *> Stmts, Env &E, bool MayReturn,
                                           const std::string &Where);

  std::vector<std::string> Lines;
  PredicatedCode Out;
  /// Variables declared inside the region (not written back after it).
  std::vector<const VarDecl *> Declared;
  std::vector<std::string> Taken;
  /// The conditions under which the statement being rendered ran in the original.
  std::vector<PathCondition> Path;

  llvm::Expected<std::string> render(const Expr *X, Env &E);
  std::string readVar(const VarDecl *V, Env &E);
  std::string line(const Stmt *S) const;

private:
  llvm::Expected<std::optional<Value>> runIf(const IfStmt *If, llvm::ArrayRef<const Stmt *> Rest, Env &E,
                                             bool MayReturn, const std::string &Where);
  llvm::Error declare(const DeclStmt *DS, Env &E, const std::string &Where);
  llvm::Error assign(const Expr *Lhs, const Expr *Rhs, Env &E, const std::string &Where);
  llvm::Error partialWrite(const Expr *Lhs, const std::string &Where);
  const Expr *partialWriteIn(const Stmt *S) const;
  std::string nameFor(const VarDecl *V);
  bool nameUsedOutside(llvm::StringRef Name, const VarDecl *V) const;

  const ApiModel &Api;
  ASTContext &Ctx;
  const Stmt *Body;
  SourceRange Region;
};

std::string Predicator::line(const Stmt *S) const {
  const SourceManager &SM = Ctx.getSourceManager();
  return " (line " + std::to_string(SM.getExpansionLineNumber(S->getBeginLoc())) + ")";
}

std::string Predicator::nameFor(const VarDecl *V) {
  // A hoisted variable keeps its name unless another variable of the region took it first or
  // the code outside the region declares or uses it.
  std::string Base = V->getNameAsString();
  if (!llvm::is_contained(Taken, Base) && !nameUsedOutside(Base, V) && !takenByOtherFix(Body, Base)) {
    reserveForThisFix(Body, Base, Taken);
    return Base;
  }
  return freshName(Base, Body, Taken);
}

bool Predicator::nameUsedOutside(llvm::StringRef Name, const VarDecl *V) const {
  const SourceManager &SM = Ctx.getSourceManager();
  auto Inside = [&](const Stmt *S) {
    return !SM.isBeforeInTranslationUnit(S->getBeginLoc(), Region.getBegin()) &&
           !SM.isBeforeInTranslationUnit(Region.getEnd(), S->getEndLoc());
  };
  if (nameUsed(Name, Body, V, Inside))
    return true;
  // Inside the region, a variable of another branch may share the name (Taken sorts those
  // out), but a name that the region reads from outside it — a member through `this`, a
  // global, a parameter or an earlier local — would be captured by the hoisted declaration.
  llvm::SmallVector<const Stmt *, 32> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (auto Found = unqualifiedLookup(S); Found && Found->first == Name && Found->second != V && Inside(S)) {
      const Decl *D = Found->second;
      bool DeclaredInRegion = D && isa<VarDecl>(D) && cast<VarDecl>(D)->hasLocalStorage() &&
                              !isa<ParmVarDecl>(D) && Region.fullyContains(D->getSourceRange());
      if (!DeclaredInRegion)
        return true;
    }
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  // Parameters are declared outside the body.
  if (const auto *FD = dyn_cast_or_null<FunctionDecl>(enclosingFunction(Body, Ctx)))
    for (const ParmVarDecl *P : FD->parameters())
      if (P->getName() == Name)
        return true;
  return false;
}

std::string Predicator::readVar(const VarDecl *V, Env &E) {
  auto It = E.find(V);
  if (It == E.end())
    return V->getNameAsString();
  Binding &B = It->second;
  if (!B.Atomic) {
    std::string Name = freshName(V->getNameAsString(), Body, Taken);
    Lines.push_back("auto " + Name + " = " + B.Text + ";");
    B = Binding{Name, true, false, B.Source};
  }
  return B.Text;
}

llvm::Expected<std::string> Predicator::render(const Expr *X, Env &E) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Text = sourceText(X, Ctx);
  SourceLocation Begin = SM.getExpansionLoc(X->getBeginLoc());
  unsigned Base = SM.getFileOffset(Begin);
  // Every reference to a variable the region rebound, last first so that offsets stay valid.
  std::vector<std::pair<unsigned, const DeclRefExpr *>> Uses;
  llvm::SmallVector<const Stmt *, 16> Work{X};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue;
    if (const auto *DR = dyn_cast<DeclRefExpr>(S))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()); V && E.count(V) && E[V].Text != V->getName()) {
        if (DR->getLocation().isMacroID())
          return refuse("'" + V->getNameAsString() + "' is used inside a macro" + line(DR));
        Uses.push_back({SM.getFileOffset(DR->getLocation()) - Base, DR});
      }
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  llvm::sort(Uses, [](auto &A, auto &B) { return A.first > B.first; });
  std::vector<TextEdit> Renames;
  for (auto [Offset, DR] : Uses) {
    const auto *V = cast<VarDecl>(DR->getDecl());
    if (E[V].Undefined)
      return refuse("'" + V->getNameAsString() + "' is read before it has a value" + line(DR));
    std::string Now = readVar(V, E);
    size_t Len = V->getName().size();
    if (Offset + Len > Text.size() || Text.compare(Offset, Len, V->getName().str()) != 0)
      return refuse("'" + V->getNameAsString() + "' is spelled in a way the rewrite cannot rename" + line(DR));
    Renames.push_back({Offset, static_cast<unsigned>(Len), Now});
  }
  // Everything here runs unconditionally: the inputs of domain-restricted ops are guarded by
  // the conditions under which the original ran them (docs/rewrites.md, gradient-safe arms).
  return guardedText(X, Path, Renames, Api, Ctx);
}

llvm::Error Predicator::declare(const DeclStmt *DS, Env &E, const std::string &Where) {
  for (const Decl *D : DS->decls()) {
    const auto *V = dyn_cast<VarDecl>(D);
    if (!V)
      return refuse(Where + " declares something other than a variable" + line(DS));
    if (V->isStaticLocal() || V->getType()->isReferenceType())
      return refuse(Where + " declares the " + std::string(V->isStaticLocal() ? "static" : "reference") + " '" +
                    V->getNameAsString() + "'" + line(DS));
    if (llvm::is_contained(Out.LiftedLocals, V))
      return refuse(Where + " declares '" + V->getNameAsString() + "', which a condition reads" + line(DS));
    std::string Name = nameFor(V);
    // The type as written, from the start of the declaration to the first variable's name
    // (`const auto`, `torch::Tensor`); every variable of one declaration shares it.
    const auto *First = cast<VarDecl>(*DS->decl_begin());
    const SourceManager &SM = Ctx.getSourceManager();
    if (DS->getBeginLoc().isMacroID() || First->getLocation().isMacroID())
      return refuse(Where + " declares '" + V->getNameAsString() + "' inside a macro" + line(DS));
    std::string Type =
        llvm::StringRef(Lexer::getSourceText(CharSourceRange::getCharRange(DS->getBeginLoc(), First->getLocation()),
                                             SM, Ctx.getLangOpts()))
            .rtrim()
            .str();
    if (Type.empty() || Type.find_first_of("*&[") != std::string::npos)
      return refuse(Where + " declares '" + V->getNameAsString() + "' with a type the rewrite cannot copy" + line(DS));
    Declared.push_back(V);
    const Expr *Init = V->getInit();
    const auto *Default = Init ? dyn_cast<CXXConstructExpr>(stripImplicit(Init)) : nullptr;
    if (!Init || (Default && Default->getNumArgs() == 0)) {
      if (!Api.isTensor(V->getType()))
        return refuse(Where + " declares '" + V->getNameAsString() + "' without a value" + line(DS));
      Lines.push_back(Type + " " + Name + ";");
      E[V] = Binding{Name, true, true, nullptr};
      continue;
    }
    if (auto Why = findSideEffect(Init, Api))
      return refuse(Where + " " + *Why);
    auto Text = render(Init, E);
    if (!Text)
      return Text.takeError();
    Lines.push_back(Type + " " + Name + " = " + *Text + ";");
    E[V] = Binding{Name, true, false, stripAll(Init)};
  }
  return llvm::Error::success();
}

llvm::Error Predicator::partialWrite(const Expr *Lhs, const std::string &Where) {
  // `boxes[i] = b`, `t.index({m}) = v`: a write into part of a tensor, which selecting whole
  // values cannot express; what can is selecting the whole updated tensor.
  const Expr *Base = stripAll(Lhs);
  while (const Expr *Object = isa_and_nonnull<CallExpr>(Base) ? callObject(Base) : nullptr)
    Base = stripAll(Object);
  const VarDecl *Whole = referencedVar(Base);
  const std::string Name = Whole ? "'" + Whole->getNameAsString() + "'" : "a tensor";
  return refuse(Where + " writes into part of " + Name + line(Lhs) + ", which selecting whole values cannot " +
                "express: compute the updated tensor on both paths (a clone written with index_put_, " +
                "positions kept as long tensors) and select it whole with torch::where on the condition " +
                "kept on the device");
}

/// The target of the first assignment into part of a tensor among `S`'s statements (not in a
/// nested loop or lambda), or null.
const Expr *Predicator::partialWriteIn(const Stmt *S) const {
  if (!S || isa<LambdaExpr>(S) || isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) || isa<CXXForRangeStmt>(S))
    return nullptr;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S); Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
    if (!referencedVar(Op->getArg(0)) && Api.isTensorExpr(Op->getArg(0)))
      return Op->getArg(0);
  for (const Stmt *Child : S->children())
    if (const Expr *Found = partialWriteIn(Child))
      return Found;
  return nullptr;
}

llvm::Error Predicator::assign(const Expr *Lhs, const Expr *Rhs, Env &E, const std::string &Where) {
  const VarDecl *V = referencedVar(Lhs);
  if (!V && Api.isTensorExpr(Lhs))
    return partialWrite(Lhs, Where);
  if (!V)
    return refuse(Where + " assigns to something other than a variable" + line(Lhs));
  if (!V->hasLocalStorage() || V->getType()->isReferenceType())
    return refuse(Where + " assigns to '" + V->getNameAsString() + "', which outlives the function" + line(Lhs));
  if (auto Why = findSideEffect(Rhs, Api))
    return refuse(Where + " " + *Why);
  auto Text = render(Rhs, E);
  if (!Text)
    return Text.takeError();
  E[V] = Binding{*Text, isIdentifier(*Text), false, stripAll(Rhs)};
  return llvm::Error::success();
}

llvm::Expected<std::optional<Value>> Predicator::run(llvm::ArrayRef<const Stmt *> Stmts, Env &E, bool MayReturn,
                                                     const std::string &Where) {
  for (size_t I = 0; I < Stmts.size(); ++I) {
    const Stmt *S = Stmts[I];
    if (isa<NullStmt>(S))
      continue;
    if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
      llvm::SmallVector<const Stmt *, 8> Inner(CS->body_begin(), CS->body_end());
      auto V = run(Inner, E, MayReturn, Where);
      if (!V || *V)
        return V;
      continue;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      if (auto Err = declare(DS, E, Where))
        return std::move(Err);
      continue;
    }
    if (const auto *R = dyn_cast<ReturnStmt>(S)) {
      if (!MayReturn || !R->getRetValue())
        return refuse(Where + " returns" + line(S));
      if (I + 1 != Stmts.size())
        return refuse(Where + " has statements after its return" + line(Stmts[I + 1]));
      if (auto Why = findSideEffect(R->getRetValue(), Api))
        return refuse(Where + " " + *Why);
      auto Text = render(R->getRetValue(), E);
      if (!Text)
        return Text.takeError();
      return std::optional<Value>(Value{*Text, stripAll(R->getRetValue())});
    }
    if (const auto *If = dyn_cast<IfStmt>(S))
      return runIf(If, Stmts.drop_front(I + 1), E, MayReturn, Where);
    if (const auto *X = dyn_cast<Expr>(S)) {
      X = stripAll(X);
      if (const auto *BO = dyn_cast<BinaryOperator>(X); BO && BO->getOpcode() == BO_Assign) {
        if (auto Err = assign(BO->getLHS(), BO->getRHS(), E, Where))
          return std::move(Err);
        continue;
      }
      if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(X); OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2) {
        if (auto Err = assign(OC->getArg(0), OC->getArg(1), E, Where))
          return std::move(Err);
        continue;
      }
    }
    if (isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) || isa<CXXForRangeStmt>(S))
      return refuse(Where + " contains a loop" + line(S));
    if (auto Why = findSideEffect(S, Api))
      return refuse(Where + " " + *Why);
    return refuse(Where + " has a statement that computes nothing the rewrite keeps" + line(S));
  }
  return std::optional<Value>();
}

/// The first `throw` in `S` outside lambdas, or null.
static const Stmt *findThrow(const Stmt *S) {
  if (!S || isa<LambdaExpr>(S))
    return nullptr;
  if (isa<CXXThrowExpr>(S))
    return S;
  for (const Stmt *Child : S->children())
    if (const Stmt *Found = findThrow(Child))
      return Found;
  return nullptr;
}

llvm::Expected<std::optional<Value>> Predicator::runIf(const IfStmt *If, llvm::ArrayRef<const Stmt *> Rest, Env &E,
                                                       bool MayReturn, const std::string &Where) {
  IfChain Chain = decomposeIfChain(If);
  // An arm that throws has no select form whatever its condition (`if (!torch::isfinite(loss)
  // .item<bool>()) throw ...;`): that is the obstacle to name, before any of the condition's.
  // Host work beside the throw (an assertion beside a stored flag) stays when it goes: named first.
  for (size_t I = 0; I <= Chain.Branches.size(); ++I)
    if (const Stmt *Throw = findThrow(I < Chain.Branches.size() ? Chain.Branches[I].Body : Chain.Else)) {
      if (auto Why = branchObstacle(If->getCond(), Api, Ctx))
        return refuse(*Why);
      return refuse("the " + Chain.armName(I) + " branch throws an exception" + line(Throw));
    }
  // So has an arm that writes into part of a tensor (`out[k++] = row`, `feat[i] = other[i]`):
  // converting the condition would not make it expressible.
  // `out[k++] = row` under a test keeps the rows that pass, packed: a selection (Compaction.h).
  for (size_t I = 0; I <= Chain.Branches.size(); ++I) {
    const Stmt *Arm = I < Chain.Branches.size() ? Chain.Branches[I].Body : Chain.Else;
    if (std::string Packed = Arm ? compactionIn({Arm}, Ctx) : ""; !Packed.empty())
      return refuse(compactionRefusal(Packed));
    if (const Expr *Part = partialWriteIn(Arm))
      return partialWrite(Part, "the " + Chain.armName(I) + " branch");
  }
  // Conditions: lifted to tensors; they read the values before the if.
  std::vector<std::string> Conds;
  for (size_t I = 0; I < Chain.Branches.size(); ++I) {
    const IfChain::Branch &B = Chain.Branches[I];
    if (B.If->hasInitStorage() || B.If->hasVarStorage() || B.If->isConstexpr() || B.If->isConsteval())
      return refuse("the if declares a variable or is constexpr" + line(B.If));
    if (I > 0)
      if (auto Why = findSideEffect(B.Cond, Api, /*AllowHostReads=*/true))
        return refuse("the " + Chain.armName(I) + " condition " + *Why);
    for (const auto &[V, Bound] : E)
      if (Bound.Text != V->getName() && !usesOf(V, B.Cond).empty())
        return refuse("the condition reads '" + V->getNameAsString() + "', which the code before it changes" +
                      line(B.Cond));
    auto L = liftCondition(B.Cond, LiftScope{Body, If}, Api, Ctx);
    if (!L)
      return L.takeError();
    Out.LiftedLocals.insert(Out.LiftedLocals.end(), L->Locals.begin(), L->Locals.end());
    Conds.push_back(L->Text);
  }
  // Each arm runs on a copy of the environment.
  std::vector<const Stmt *> Arms;
  for (const IfChain::Branch &B : Chain.Branches)
    Arms.push_back(B.Body);
  // Arms with domain-restricted ops get guards that read the conditions: computed once, here
  // (they read only values from before the if, which nothing in the region overwrites).
  bool Guarded = Chain.Else && armNeedsGuards(Chain.Else, Api, Ctx);
  for (const Stmt *Arm : Arms)
    Guarded = Guarded || armNeedsGuards(Arm, Api, Ctx);
  for (const Stmt *S : Rest)
    Guarded = Guarded || (!Chain.Else && armNeedsGuards(S, Api, Ctx));
  if (Guarded)
    for (std::string &C : Conds)
      if (!isIdentifier(C)) {
        std::string Name = freshName("cond", Body, Taken);
        Lines.push_back("auto " + Name + " = " + C + ";");
        C = Name;
      }
  // The path to arm I: the earlier conditions false, its own true (the else: all false).
  auto enterArm = [&](size_t I) {
    for (size_t J = 0; J < Conds.size() && J <= I; ++J)
      Path.push_back({Conds[J], J == I});
  };
  auto leaveArm = [&](size_t I) { Path.resize(Path.size() - std::min(Conds.size(), I + 1)); };
  std::vector<Env> Envs;
  std::vector<std::optional<Value>> Results;
  size_t Returning = 0;
  for (size_t I = 0; I <= Arms.size(); ++I) {
    if (I == Arms.size() && !Chain.Else) {
      Envs.push_back(E);
      Results.push_back(std::nullopt);
      break;
    }
    const Stmt *Arm = I < Arms.size() ? Arms[I] : Chain.Else;
    std::string Label = "the " + (I < Arms.size() ? Chain.armName(I) : std::string("else")) + " branch";
    Envs.push_back(E);
    llvm::SmallVector<const Stmt *, 8> Body = bodyStatements(Arm);
    enterArm(I);
    auto R = run(Body, Envs.back(), MayReturn, Label);
    leaveArm(I);
    if (!R)
      return R.takeError();
    Returning += R->has_value();
    Results.push_back(*R);
  }
  const size_t NumArms = Results.size();
  const bool FallsThroughOnElse = !Chain.Else;
  std::vector<std::string> CondNames = Conds;
  auto Spell = [&](const Expr *Hint) { return Api.spell(Hint, "where"); };

  if (Returning > 0) {
    // Every branch returns, or the fall-through continues to the statements after the if.
    if (Returning != NumArms - (FallsThroughOnElse ? 1 : 0))
      return refuse("some branches of the if return and others do not" + line(If));
    if (FallsThroughOnElse) {
      enterArm(Arms.size());
      auto Tail = run(Rest, Envs.back(), MayReturn, "the code after the if");
      leaveArm(Arms.size());
      if (!Tail)
        return Tail.takeError();
      if (!*Tail)
        return refuse(Where == TopLevel ? "the code after the if does not end in a return" + line(If)
                                        : Where + " returns on some paths only" + line(If));
      Results.back() = *Tail;
    } else if (!Rest.empty()) {
      return refuse("the statements after the if are never reached" + line(Rest.front()));
    }
    for (size_t I = 1; I < Results.size(); ++I)
      if (Results[0]->Source && Results[I]->Source)
        if (auto Why = armsIncompatible(Results[0]->Source, Results[I]->Source, Api, Ctx))
          return refuse(*Why);
    std::string Acc = Results.back()->Text;
    for (size_t I = Conds.size(); I-- > 0;)
      Acc = Spell(Results[I]->Source) + "(" + Conds[I] + ", " + Results[I]->Text + ", " + Acc + ")";
    return std::optional<Value>(Value{Acc, Results[0]->Source});
  }

  // No branch returns: merge what the branches assigned.
  std::vector<const VarDecl *> Changed;
  for (const Env &Arm : Envs)
    for (const auto &[V, Bound] : Arm) {
      auto Before = E.find(V);
      if (Before == E.end() && llvm::is_contained(Declared, V))
        continue; // declared in this branch: it ends with the branch
      Binding Old = Before != E.end() ? Before->second : Binding{V->getNameAsString(), true, false, nullptr};
      if ((Old.Text != Bound.Text || Old.Undefined != Bound.Undefined) && !llvm::is_contained(Changed, V))
        Changed.push_back(V);
    }
  if (Changed.empty())
    return refuse("the branches of the if assign nothing" + line(If));
  if (Changed.size() > 1 && Conds.size() == 1 && !isIdentifier(Conds[0])) {
    std::string Name = freshName("cond", Body, Taken);
    Lines.push_back("auto " + Name + " = " + Conds[0] + ";");
    CondNames[0] = Name;
  } else if (Changed.size() > 1) {
    for (std::string &C : CondNames) {
      if (isIdentifier(C))
        continue;
      std::string Name = freshName("cond", Body, Taken);
      Lines.push_back("auto " + Name + " = " + C + ";");
      C = Name;
    }
  }
  for (const VarDecl *V : Changed) {
    if (!Api.isTensor(V->getType())) {
      size_t Arm = 0;
      while (Arm + 1 < Envs.size() && (!Envs[Arm].count(V) || !Envs[Arm][V].Source))
        ++Arm;
      const Expr *At = Envs[Arm].count(V) && Envs[Arm][V].Source ? Envs[Arm][V].Source : If->getCond();
      return refuse("the " + (Arm < Arms.size() ? Chain.armName(Arm) : std::string("else")) + " branch assigns to '" +
                    V->getNameAsString() + "', which is not a tensor" + line(At));
    }
    std::vector<Binding> Values;
    for (Env &Arm : Envs) {
      auto It = Arm.find(V);
      Binding B = It != Arm.end() ? It->second : Binding{V->getNameAsString(), true, false, nullptr};
      if (B.Undefined || (It == Arm.end() && !E.count(V) && !isDefinedBefore(V, If, Body, Ctx)))
        return refuse("'" + V->getNameAsString() + "' may be undefined when a branch does not assign it" + line(If));
      Values.push_back(B);
    }
    const Expr *First = nullptr;
    for (const Binding &B : Values)
      if (B.Source) {
        if (!First)
          First = B.Source;
        else if (auto Why = armsIncompatible(First, B.Source, Api, Ctx))
          return refuse(*Why);
      }
    // A branch that leaves V alone selects the value V held before the if.
    for (size_t I = 0; First && I < Envs.size(); ++I)
      if (!Envs[I].count(V) && !E.count(V))
        if (auto Why = armAndValueBeforeIncompatible(First, V, If, Api, Ctx))
          return refuse(*Why);
    std::string Acc = Values.back().Text;
    for (size_t I = CondNames.size(); I-- > 0;)
      Acc = Spell(First) + "(" + CondNames[I] + ", " + Values[I].Text + ", " + Acc + ")";
    E[V] = Binding{Acc, false, false, First};
  }
  return run(Rest, E, MayReturn, Where);
}

} // namespace

llvm::Expected<PredicatedCode> predicateReturnRegion(llvm::ArrayRef<const Stmt *> Region, const ApiModel &Api,
                                                     ASTContext &Ctx) {
  const Stmt *Body = functionBody(enclosingFunction(Region.front(), Ctx));
  if (!Body)
    return refuse("the if is not inside a function body");
  Predicator P(Api, Ctx, Body, SourceRange(Region.front()->getBeginLoc(), Region.back()->getEndLoc()));
  Env E;
  auto V = P.run(Region, E, /*MayReturn=*/true, TopLevel);
  if (!V)
    return V.takeError();
  if (!*V)
    return refuse("the code after the if does not end in a return");
  for (const std::string &L : P.Lines)
    P.Out.Text += L + "\n";
  P.Out.Text += "return " + (*V)->Text + ";";
  return std::move(P.Out);
}

llvm::Expected<PredicatedCode> predicateAssignIf(const IfStmt *If, const ApiModel &Api, ASTContext &Ctx) {
  const Stmt *Body = functionBody(enclosingFunction(If, Ctx));
  if (!Body)
    return refuse("the if is not inside a function body");
  Predicator P(Api, Ctx, Body, If->getSourceRange());
  Env E;
  const Stmt *Region[] = {If};
  auto V = P.run(Region, E, /*MayReturn=*/false, "the if");
  if (!V)
    return V.takeError();
  // Write back every variable of the enclosing code whose value changed. A value that reads a
  // variable written before it is declared first, so that it reads the old value.
  std::vector<std::pair<const VarDecl *, std::string>> Writes;
  for (auto &[Var, Bound] : E)
    if (!llvm::is_contained(P.Declared, Var) && Bound.Text != Var->getName())
      Writes.push_back({Var, Bound.Text});
  llvm::sort(Writes, [](auto &A, auto &B) { return A.first->getBeginLoc() < B.first->getBeginLoc(); });
  std::vector<std::string> Stores;
  for (size_t I = 0; I < Writes.size(); ++I) {
    bool ReadsEarlierWrite = false;
    for (size_t J = 0; J < I; ++J)
      ReadsEarlierWrite |= std::regex_search(Writes[I].second,
                                             std::regex("\\b" + Writes[J].first->getNameAsString() + "\\b"));
    if (ReadsEarlierWrite) {
      for (size_t K = I; K < Writes.size(); ++K)
        Writes[K].second = P.readVar(Writes[K].first, E);
      break;
    }
  }
  for (auto &[Var, Text] : Writes)
    P.Lines.push_back(Var->getNameAsString() + " = " + Text + ";");
  if (Writes.empty())
    return refuse("the branches of the if assign nothing outside it" + P.line(If));
  for (auto &[Var, Text] : Writes)
    if (auto Why = storageSharingLost(Var, If, Body, Api, Ctx))
      return refuse(*Why);
  bool InBlock = false;
  for (const DynTypedNode &Parent : Ctx.getParents(*If))
    InBlock |= Parent.get<CompoundStmt>() != nullptr;
  for (size_t I = 0; I < P.Lines.size(); ++I)
    P.Out.Text += P.Lines[I] + (I + 1 < P.Lines.size() ? "\n" : "");
  if (!InBlock)
    P.Out.Text = "{\n" + P.Out.Text + "\n}";
  return std::move(P.Out);
}

} // namespace graphify::rewriter
