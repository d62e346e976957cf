// The application's own capture flags. Invariant: a flag is recognised only when every write of
// it in the unit is one of the three kinds that keep it equal to "a capture this code began is
// running"; one other write anywhere disqualifies it.
#include "CaptureFlags.h"

#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <functional>
#include <optional>

namespace graphify {

using namespace clang;

/// The declaration a flag candidate expression names: a bool field, or a bool variable with
/// static or thread storage.
/// The flag an accessor returns by reference (`bool &capturing() { static bool f = false; return
/// f; }`): a function returning `bool &` whose one statement returns a flag candidate.
static const ValueDecl *accessedFlag(const CallExpr *CE) {
  const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->getReturnType()->isLValueReferenceType() || !FD->hasBody(Def))
    return nullptr;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  const ReturnStmt *Ret = nullptr;
  for (const Stmt *S : Body ? Body->body() : llvm::ArrayRef<Stmt *>{})
    if (const auto *R = dyn_cast<ReturnStmt>(S); R && !Ret)
      Ret = R;
    else if (!isa<DeclStmt>(S))
      return nullptr; // more than the flag's declaration and its return
  return Ret ? CaptureFlags::flagNamed(Ret->getRetValue()) : nullptr;
}

/// A flag's type: a bool, or an integer the C way (`static int g_capturing = 0;`, set to 1 and 0).
/// An integer written any other way (a count, `++`) is no flag: its writes say so.
static bool isFlagType(QualType T) {
  return T->isBooleanType() || (T->isIntegerType() && !T->isEnumeralType() && !T->isAnyCharacterType());
}

const ValueDecl *CaptureFlags::flagNamed(const Expr *E) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  if (const auto *CE = dyn_cast_or_null<CallExpr>(E); CE && !isa<CXXOperatorCallExpr>(CE))
    return accessedFlag(CE); // `capturing() = true`, `if (!capturing())`
  const ValueDecl *D = nullptr;
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E))
    D = DRE->getDecl();
  else if (const auto *ME = dyn_cast_or_null<MemberExpr>(E))
    D = ME->getMemberDecl();
  if (!D || !isFlagType(D->getType()))
    return nullptr;
  if (const auto *V = dyn_cast<VarDecl>(D); V && V->hasLocalStorage())
    return nullptr;
  return isa<FieldDecl, VarDecl>(D) ? cast<ValueDecl>(D->getCanonicalDecl()) : nullptr;
}

/// One bool parameter taken by value: the shape of a setter.
static bool takesOneBool(const FunctionDecl *FD) {
  return FD && FD->getNumParams() == 1 && FD->getParamDecl(0)->getType()->isBooleanType();
}

/// A function the project may set a flag through: one bool parameter, declared outside the
/// libraries.
static bool setterShaped(const FunctionDecl *FD, const ApiResolver &Api) {
  if (!takesOneBool(FD) || Api.isLibraryDecl(FD))
    return false;
  const SourceManager &SM = FD->getASTContext().getSourceManager();
  return !SM.isInSystemHeader(SM.getFileLoc(FD->getLocation()));
}

const ValueDecl *CaptureFlags::setFlag(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!takesOneBool(FD) || !FD->hasBody(Def))
    return nullptr;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  if (!Body || Body->size() != 1)
    return nullptr;
  const auto *BO = dyn_cast<BinaryOperator>(Body->body_front());
  if (!BO || BO->getOpcode() != BO_Assign)
    return nullptr;
  const auto *From = dyn_cast<DeclRefExpr>(BO->getRHS()->IgnoreParenImpCasts());
  if (!From || From->getDecl() != Def->getParamDecl(0))
    return nullptr;
  return flagNamed(BO->getLHS());
}

namespace {

/// `true`, `false`, `1` or `0`, when `E` is such a literal.
std::optional<bool> literalTruth(const Expr *E) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  // A constructor that leaves the field to its default member initialiser (`bool capturing_ =
  // false;`) initialises it with that.
  if (const auto *Default = dyn_cast_or_null<CXXDefaultInitExpr>(E))
    E = Default->getExpr() ? Default->getExpr()->IgnoreParenImpCasts() : nullptr;
  if (const auto *B = dyn_cast_or_null<CXXBoolLiteralExpr>(E))
    return B->getValue();
  if (const auto *I = dyn_cast_or_null<IntegerLiteral>(E); I && I->getValue().ule(1))
    return I->getValue() == 1;
  return std::nullopt;
}

} // namespace

/// Walks the unit's function bodies and initialisers, noting every write of a flag candidate.
class CaptureFlagCollector : public RecursiveASTVisitor<CaptureFlagCollector> {
public:
  CaptureFlagCollector(const ApiResolver &Api, CaptureFlags &Flags) : Api(Api), Flags(Flags) {}

  bool TraverseDecl(Decl *D) {
    // The libraries' headers set no flag of the application's.
    if (D && !isa<TranslationUnitDecl>(D) && D->getASTContext().getSourceManager().isInSystemHeader(D->getLocation()))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }

  /// The unit's setters and the flags they set.
  llvm::DenseMap<const FunctionDecl *, const ValueDecl *> Setters;

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (!FD->doesThisDeclarationHaveABody() || isLambdaCall(FD))
      return true;
    if (const ValueDecl *Flag = CaptureFlags::setFlag(FD))
      Setters[FD->getCanonicalDecl()] = Flag;
    const bool Ctor = isa<CXXConstructorDecl>(FD);
    if (const auto *C = dyn_cast<CXXConstructorDecl>(FD))
      for (const CXXCtorInitializer *Init : C->inits())
        if (const FieldDecl *F = Init->getMember(); F && isFlagType(F->getType()))
          Flags.note(cast<ValueDecl>(F->getCanonicalDecl()), literalTruth(Init->getInit()) == false
                                                                  ? CaptureFlags::Write::ClearedOnEnd
                                                                  : CaptureFlags::Write::Other);
    writesIn(FD->getBody(), *FD, Ctor);
    return true;
  }

  bool VisitFieldDecl(FieldDecl *F) {
    if (const Expr *Init = F->getInClassInitializer(); Init && isFlagType(F->getType()) &&
                                                       literalTruth(Init) != false)
      Flags.note(cast<ValueDecl>(F->getCanonicalDecl()), CaptureFlags::Write::Other);
    return true;
  }

  bool VisitVarDecl(VarDecl *V) {
    if (!V->hasLocalStorage() && isFlagType(V->getType()) && V->getInit() && literalTruth(V->getInit()) != false)
      Flags.note(cast<ValueDecl>(V->getCanonicalDecl()), CaptureFlags::Write::Other);
    return true;
  }

private:
  const ApiResolver &Api;
  CaptureFlags &Flags;
  llvm::DenseMap<std::pair<const FunctionDecl *, const char *>, bool> Calls;

  static bool isLambdaCall(const FunctionDecl *FD) {
    const auto *M = dyn_cast<CXXMethodDecl>(FD);
    return M && M->getParent()->isLambda();
  }

  /// Whether `FD`'s body makes a call tagged `Tag`, itself or one call deep in the unit.
  bool calls(const FunctionDecl *FD, const char *Tag, unsigned Depth = 0) {
    const FunctionDecl *Def = nullptr;
    if (!FD || !FD->hasBody(Def) || Depth > 1)
      return false;
    auto [It, New] = Calls.try_emplace({Def, Tag}, false);
    if (!New)
      return It->second;
    bool Found = false;
    std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
      if (!S || Found)
        return;
      if (const auto *E = dyn_cast<Expr>(S); E && isa<CallExpr, CXXConstructExpr>(E)) {
        if (auto C = Api.resolve(E); C && C->hasTag(Tag))
          Found = true;
        else if (const auto *CE = dyn_cast<CallExpr>(E); CE && CE->getDirectCallee() && !Api.isLibraryDecl(CE->getDirectCallee()))
          Found = calls(CE->getDirectCallee(), Tag, Depth + 1);
      }
      for (const Stmt *Child : S->children())
        Walk(Child);
    };
    Walk(Def->getBody());
    Calls[{Def, Tag}] = Found;
    return Found;
  }

  /// Whether `CE` makes a call tagged `Tag`: it is one, or it calls a function of the unit whose
  /// body makes one (calls, one call deep).
  bool makes(const CallExpr *CE, const char *Tag) {
    if (auto C = Api.resolve(CE); C && C->hasTag(Tag))
      return true;
    return CE->getDirectCallee() && !Api.isLibraryDecl(CE->getDirectCallee()) && calls(CE->getDirectCallee(), Tag, 1);
  }

  /// The calls in `FD`'s body (lambdas aside: they run elsewhere).
  static std::vector<const CallExpr *> callsOf(const FunctionDecl &FD) {
    std::vector<const CallExpr *> Out;
    std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
      if (!S || isa<LambdaExpr>(S))
        return;
      if (const auto *CE = dyn_cast<CallExpr>(S))
        Out.push_back(CE);
      for (const Stmt *Child : S->children())
        Walk(Child);
    };
    Walk(FD.getBody());
    return Out;
  }

  static bool before(const SourceManager &SM, SourceLocation A, SourceLocation B) {
    return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(A), SM.getExpansionLoc(B));
  }

  /// Whether `FD`'s body makes a call tagged `Tag` (`capture_begin`, `capture_end`) before `At` in
  /// source order: a flag raised after an end is raised too late, one cleared after a begin and
  /// before the end is cleared inside the window.
  bool callsBefore(const FunctionDecl &FD, SourceLocation At, const char *Tag) {
    const SourceManager &SM = FD.getASTContext().getSourceManager();
    return llvm::any_of(callsOf(FD), [&](const CallExpr *CE) { return before(SM, CE->getEndLoc(), At) && makes(CE, Tag); });
  }

  /// Whether `FD` calls something after `At` and before its first end call after `At`: code that
  /// runs in the window after a flag was cleared there (none when no end call follows `At`).
  bool runsBeforeEnd(const FunctionDecl &FD, SourceLocation At) {
    const SourceManager &SM = FD.getASTContext().getSourceManager();
    std::vector<const CallExpr *> After;
    for (const CallExpr *CE : callsOf(FD))
      if (before(SM, At, CE->getBeginLoc()))
        After.push_back(CE);
    const CallExpr *End = nullptr;
    for (const CallExpr *CE : After)
      if (makes(CE, "capture_end") && (!End || before(SM, CE->getBeginLoc(), End->getBeginLoc())))
        End = CE;
    return End && llvm::any_of(After, [&](const CallExpr *CE) { return before(SM, CE->getEndLoc(), End->getBeginLoc()); });
  }

  /// What writing the value `Written` (null: not a plain assignment) at `At` in `FD` is.
  CaptureFlags::Write writeOf(const Expr *Written, SourceLocation At, const FunctionDecl &FD, bool Ctor) {
    std::optional<bool> Value = Written ? literalTruth(Written) : std::nullopt;
    if (Value == true && calls(&FD, "capture_begin") && !callsBefore(FD, At, "capture_end"))
      return CaptureFlags::Write::SetOnBegin;
    // Cleared where the capture ends, not between a begin and the end of the same function
    // (`capturing = false; sync(); cudaStreamEndCapture(...)`: the sync runs captured).
    if (Value == false && (Ctor || (calls(&FD, "capture_end") &&
                                    !(callsBefore(FD, At, "capture_begin") && runsBeforeEnd(FD, At)))))
      return CaptureFlags::Write::ClearedOnEnd;
    return CaptureFlags::Write::Other;
  }

  /// Notes the writes of flag candidates in `S`, a part of `FD`'s body. Whether `FD` begins or
  /// ends a capture is asked only at such a write (most bodies write none).
  void writesIn(const Stmt *S, const FunctionDecl &FD, bool Ctor) {
    if (!S)
      return;
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
      if (const ValueDecl *D = CaptureFlags::flagNamed(BO->getLHS());
          D && !(BO->getOpcode() == BO_Assign && CaptureFlags::setFlag(&FD) == D)) // a setter's calls write
        Flags.note(D, writeOf(BO->getOpcode() == BO_Assign ? BO->getRHS() : nullptr, BO->getBeginLoc(), FD, Ctor));
    // `set_capturing(true)`: the write of the flag the setter sets; noted for every function of
    // that shape, for the units that define the setter.
    if (const auto *CE = dyn_cast<CallExpr>(S); CE && CE->getNumArgs() == 1 && setterShaped(CE->getDirectCallee(), Api)) {
      CaptureFlags::Write W = writeOf(CE->getArg(0), CE->getBeginLoc(), FD, Ctor);
      Flags.Calls[CE->getDirectCallee()->getCanonicalDecl()].join(
          {W != CaptureFlags::Write::Other, W == CaptureFlags::Write::SetOnBegin});
      if (const ValueDecl *D = CaptureFlags::setFlag(CE->getDirectCallee()))
        Flags.note(D, W);
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(S); UO && (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf))
      if (const ValueDecl *D = CaptureFlags::flagNamed(UO->getSubExpr()))
        Flags.note(D, CaptureFlags::Write::Other);
    if (const auto *CE = dyn_cast<CallExpr>(S)) // bound to a non-const reference: written there
      if (const FunctionDecl *Callee = CE->getDirectCallee())
        for (unsigned I = 0; I < CE->getNumArgs() && I < Callee->getNumParams(); ++I) {
          QualType T = Callee->getParamDecl(I)->getType();
          if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified())
            if (const ValueDecl *D = CaptureFlags::flagNamed(CE->getArg(I)))
              Flags.note(D, CaptureFlags::Write::Other);
        }
    for (const Stmt *Child : S->children())
      writesIn(Child, FD, Ctor);
  }
};

CaptureFlags::CaptureFlags(const ApiResolver &Api, ASTContext &Ast, const SetterCalls *Imported,
                           const FlagRecords *ImportedFlags) {
  CaptureFlagCollector Collector(Api, *this);
  Collector.TraverseDecl(Ast.getTranslationUnitDecl());
  // The setters' calls in other units write their flags too.
  for (const auto &[Setter, Flag] : Collector.Setters)
    if (Imported)
      if (auto It = Imported->find(Setter); It != Imported->end())
        Records[Flag].join(It->second);
  // And so do the other units' own writes (a flag defined, set or cleared in another file).
  if (ImportedFlags)
    for (const auto &[Flag, W] : *ImportedFlags)
      Records[Flag].join(W);
}

void CaptureFlags::note(const ValueDecl *D, Write W) {
  Records[D].join({W != Write::Other, W == Write::SetOnBegin});
}

bool CaptureFlags::isFlag(const ValueDecl *D) const {
  auto It = D ? Records.find(cast<ValueDecl>(D->getCanonicalDecl())) : Records.end();
  return It != Records.end() && It->second.Fits && It->second.SetSomewhere;
}

} // namespace graphify
