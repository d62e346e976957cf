#include "Outlining.h"

#include "ExprUtil.h"
#include "Refusal.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/QualTypeNames.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Tooling/Inclusions/HeaderIncludes.h>

#include <set>

using namespace clang;

namespace graphify::rewriter {

namespace {

/// Whether `D` is declared inside the class `C` (or a class nested in it).
bool declaredIn(const Decl *D, const CXXRecordDecl *C) {
  if (!C)
    return false;
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *R = dyn_cast<CXXRecordDecl>(DC); R && R->getCanonicalDecl() == C->getCanonicalDecl())
      return true;
  return false;
}

/// Whether `D` is a member of the class `C` or of one of its bases.
bool memberOf(const Decl *D, const CXXRecordDecl *C) {
  const auto *R = dyn_cast<CXXRecordDecl>(D->getDeclContext());
  if (!R || !C)
    return false;
  return R->getCanonicalDecl() == C->getCanonicalDecl() || (C->hasDefinition() && C->isDerivedFrom(R));
}

/// The typedef or class declared in `C` that `T`'s spelling goes through, or null.
const NamedDecl *classScopeName(QualType T, const CXXRecordDecl *C, const ASTContext &Ctx) {
  if (!C)
    return nullptr;
  T = T.getNonReferenceType();
  for (int Step = 0; Step < 16 && !T.isNull(); ++Step) {
    if (const auto *TT = T->getAs<TypedefType>(); TT && declaredIn(TT->getDecl(), C))
      return TT->getDecl();
    // A lambda's closure type is declared where the lambda is written, which moves with it.
    if (const TagDecl *Tag = T->getAsTagDecl();
        Tag && declaredIn(Tag, C) && !(isa<CXXRecordDecl>(Tag) && cast<CXXRecordDecl>(Tag)->isLambda()))
      return Tag;
    QualType Next = T.getSingleStepDesugaredType(Ctx);
    if (Next == T)
      break;
    T = Next;
  }
  return nullptr;
}

/// A type written as `auto` (also `const auto`) replaced by what it deduced, qualifiers kept.
QualType deduced(QualType T) {
  if (const auto *AT = dyn_cast<AutoType>(T.getTypePtr()); AT && AT->isDeduced())
    return QualType(AT->getDeducedType().getTypePtr(), T.getLocalFastQualifiers() | AT->getDeducedType().getLocalFastQualifiers());
  return T;
}

class BlockWalker {
public:
  /// `Subject` names the statements in refusals ("the statements before the host part");
  /// `ReturnsAllowed`: the block is a whole body, whose returns stay where they are.
  BlockWalker(const FunctionDecl &F, ASTContext &Ctx, OutlinedBlock &Out, std::string Subject, bool ReturnsAllowed)
      : F(F), Ctx(Ctx), Out(Out), Class(isa<CXXMethodDecl>(F) ? cast<CXXMethodDecl>(F).getParent() : nullptr),
        Subject(std::move(Subject)), ReturnsAllowed(ReturnsAllowed) {}

  std::set<const VarDecl *> Declared; ///< variables declared anywhere in the block
  std::set<const BindingDecl *> Bindings; ///< structured bindings declared in the block
  std::set<const ParmVarDecl *> Params;
  /// Statements the outlined code does not run (they stay in the method), not walked.
  const std::set<const Stmt *> *Skip = nullptr;

  llvm::Error walk(const Stmt *S, bool InLambda) {
    if (!S || (Skip && Skip->count(S)))
      return llvm::Error::success();
    if (isa<ReturnStmt>(S) && !InLambda && !ReturnsAllowed)
      return refuse(Subject + " return (line " + lineOf(S, Ctx) +
                    "): the core would need the wrapper to return too");
    if (isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S) || isa<LabelStmt>(S))
      return refuse(Subject + " jump with goto (line " + lineOf(S, Ctx) + ")");
    if (isa<CoreturnStmt>(S) || isa<CoawaitExpr>(S) || isa<CoyieldExpr>(S))
      return refuse("'" + F.getNameAsString() + "' is a coroutine");
    if (const auto *ME = dyn_cast<MemberExpr>(S)) {
      if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts())) {
        const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
        if (!Field)
          return refuse(Subject + " call the method '" +
                        ME->getMemberDecl()->getNameAsString() + "' of the class (line " + lineOf(S, Ctx) +
                        "), which a function outside the class cannot");
        if (!llvm::is_contained(Out.Fields, Field))
          Out.Fields.push_back(Field);
        Out.FieldUses[ME] = Field->getNameAsString();
        return llvm::Error::success();
      }
      if (const AccessSpecifier A = ME->getMemberDecl()->getAccess(); A == AS_private || A == AS_protected)
        return refuse(Subject + " use the member '" + ME->getMemberDecl()->getNameAsString() +
                      "' (line " + lineOf(S, Ctx) + "), which a function outside the class cannot reach");
    }
    if (isa<CXXThisExpr>(S))
      return refuse(Subject + " use 'this' (line " + lineOf(S, Ctx) +
                    ") other than to read its fields");
    if (const auto *DR = dyn_cast<DeclRefExpr>(S)) {
      const ValueDecl *D = DR->getDecl();
      if (const auto *V = dyn_cast<VarDecl>(D); V && V->isLocalVarDeclOrParm() && !Declared.count(V)) {
        if (const auto *P = dyn_cast<ParmVarDecl>(V); P && P->getDeclContext() == &F)
          Params.insert(P);
        else if (!isa<ParmVarDecl>(V) && !llvm::is_contained(Out.Locals, V))
          Out.Locals.push_back(V);
      } else if (memberOf(D, Class) && !isa<FieldDecl>(D)) {
        return refuse(Subject + " name '" + D->getNameAsString() + "' (line " +
                      lineOf(S, Ctx) + "), a member of the class, which a function outside the class cannot");
      } else if (const auto *B = dyn_cast<BindingDecl>(D); B && !Bindings.count(B)) {
        // A binding of a tuple-like object (what `max(dim)` and `topk` return) is a variable of
        // its own, which the core takes by reference as it takes a local; a binding of a
        // struct's field names a part of an object, which no parameter can.
        const VarDecl *Holding = B->getHoldingVar();
        if (!Holding)
          return refuse(Subject + " use the structured binding '" + B->getNameAsString() + "' (line " +
                        lineOf(S, Ctx) + ") declared before them (name the values one by one)");
        if (!llvm::is_contained(Out.Locals, Holding))
          Out.Locals.push_back(Holding);
      }
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls()) {
        if (const auto *V = dyn_cast<VarDecl>(D)) {
          Declared.insert(V);
          if (const NamedDecl *N = classScopeName(V->getType(), Class, Ctx))
            return classScope(N, S);
        }
        if (const auto *DD = dyn_cast<DecompositionDecl>(D))
          for (const BindingDecl *B : DD->bindings()) {
            Bindings.insert(B);
            if (const auto *Holding = B->getHoldingVar())
              Declared.insert(Holding);
          }
      }
    if (isa<CXXConstructExpr>(S) || isa<ExplicitCastExpr>(S) || isa<CXXUnresolvedConstructExpr>(S))
      if (const NamedDecl *N = classScopeName(cast<Expr>(S)->getType(), Class, Ctx))
        return classScope(N, S);
    const bool Lambda = InLambda || isa<LambdaExpr>(S);
    if (const auto *L = dyn_cast<LambdaExpr>(S)) {
      // A lambda's captures are read where it is written; its body where it is called.
      for (const LambdaCapture &C : L->captures())
        if (C.capturesThis())
          return refuse(Subject + " hold a lambda that captures 'this' (line " + lineOf(S, Ctx) + ")");
      return walk(L->getBody(), true);
    }
    for (const Stmt *C : S->children())
      if (auto Err = walk(C, Lambda))
        return Err;
    return llvm::Error::success();
  }

private:
  const FunctionDecl &F;
  ASTContext &Ctx;
  OutlinedBlock &Out;
  const CXXRecordDecl *Class;
  std::string Subject;
  bool ReturnsAllowed;

  llvm::Error classScope(const NamedDecl *N, const Stmt *S) {
    return refuse(Subject + " name the type '" + N->getNameAsString() + "' (line " +
                  lineOf(S, Ctx) + "), declared in the class, which a function outside the class cannot");
  }
};

const Stmt *parentOf(const Stmt *S, ASTContext &Ctx) {
  auto Parents = Ctx.getParents(*S);
  return Parents.empty() ? nullptr : Parents[0].get<Stmt>();
}

/// Whether `Use` (a use of a variable) may change the variable it names: assigned, incremented,
/// its address taken, bound to a non-const reference, or the object of a non-const method.
bool mayWrite(const DeclRefExpr *Use, ASTContext &Ctx) {
  const Stmt *P = parentOf(Use, Ctx);
  while (P && (isa<ParenExpr>(P) || (isa<ImplicitCastExpr>(P) && cast<ImplicitCastExpr>(P)->getCastKind() == CK_NoOp)))
    P = parentOf(P, Ctx);
  if (!P)
    return false;
  auto IsUse = [&](const Expr *E) { return E->IgnoreParenImpCasts() == Use; };
  auto BindsMutableReference = [](QualType T) {
    return T->isReferenceType() && !T.getNonReferenceType().isConstQualified();
  };
  // `slice(1, iniX, maxX)` converts `iniX` to `c10::optional<int64_t>`, whose constructor takes
  // `U&&` (an lvalue binds `int&`) to copy it: a library's forwarding reference does not write.
  auto Forwards = [&](const FunctionDecl *Callee, unsigned I) {
    const FunctionDecl *Pattern = Callee ? Callee->getTemplateInstantiationPattern() : nullptr;
    if (!Pattern || I >= Pattern->getNumParams() ||
        !Ctx.getSourceManager().isInSystemHeader(Ctx.getSourceManager().getExpansionLoc(Pattern->getLocation())))
      return false;
    const auto *R = Pattern->getParamDecl(I)->getType()->getAs<RValueReferenceType>();
    return R && !R->getPointeeType().hasQualifiers() && R->getPointeeType()->getAs<TemplateTypeParmType>();
  };
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(P))
    return IC->getCastKind() != CK_LValueToRValue;
  if (const auto *BO = dyn_cast<BinaryOperator>(P))
    return BO->isAssignmentOp() && IsUse(BO->getLHS());
  if (const auto *UO = dyn_cast<UnaryOperator>(P))
    return UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf;
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(P))
    if (OC->getNumArgs() > 0 && IsUse(OC->getArg(0)) &&
        (OC->isAssignmentOp() || OC->getOperator() == OO_PlusPlus || OC->getOperator() == OO_MinusMinus))
      return true;
  if (const auto *M = dyn_cast<MemberExpr>(P))
    if (const auto *Method = dyn_cast<CXXMethodDecl>(M->getMemberDecl()))
      return !Method->isConst() && !Method->isStatic();
  if (const auto *Call = dyn_cast<CallExpr>(P)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    const unsigned Shift = isa<CXXOperatorCallExpr>(Call) && isa_and_nonnull<CXXMethodDecl>(Callee) ? 1 : 0;
    for (unsigned I = Shift; I < Call->getNumArgs(); ++I)
      if (IsUse(Call->getArg(I)))
        return !Callee || I - Shift >= Callee->getNumParams() ||
               (BindsMutableReference(Callee->getParamDecl(I - Shift)->getType()) && !Forwards(Callee, I - Shift));
  }
  if (const auto *Ctor = dyn_cast<CXXConstructExpr>(P))
    for (unsigned I = 0; I < Ctor->getNumArgs(); ++I)
      if (IsUse(Ctor->getArg(I)))
        return I >= Ctor->getConstructor()->getNumParams() ||
               (BindsMutableReference(Ctor->getConstructor()->getParamDecl(I)->getType()) &&
                !Forwards(Ctor->getConstructor(), I));
  return false;
}

/// A use of `D` in `Stmts` for which `Pred` holds, or null.
const DeclRefExpr *useIn(llvm::ArrayRef<const Stmt *> Stmts, const ValueDecl *D,
                         llvm::function_ref<bool(const DeclRefExpr *)> Pred) {
  for (const Stmt *S : Stmts)
    if (const Expr *E = findExpr(S, [&](const Expr *E) {
          const auto *DR = dyn_cast<DeclRefExpr>(E);
          return DR && DR->getDecl() == D && Pred(DR);
        }))
      return cast<DeclRefExpr>(E);
  return nullptr;
}

/// Whether some statement of `Stmts` names `D`.
bool names(llvm::ArrayRef<const Stmt *> Stmts, const ValueDecl *D) {
  return useIn(Stmts, D, [](const DeclRefExpr *) { return true; });
}

/// Whether some statement of `Stmts` may write `V` (mayWrite).
bool writes(llvm::ArrayRef<const Stmt *> Stmts, const VarDecl *V, ASTContext &Ctx) {
  return useIn(Stmts, V, [&](const DeclRefExpr *DR) { return mayWrite(DR, Ctx); });
}

} // namespace

/// Whether a parameter, local or class member of `F` is named `Name`, hiding a namespace of that
/// name inside `F`'s body and after the parameter in its parameter list.
static bool hidesNamespace(const FunctionDecl &F, llvm::StringRef Name) {
  for (const ParmVarDecl *P : F.parameters())
    if (P->getName() == Name)
      return true;
  if (const auto *M = dyn_cast<CXXMethodDecl>(&F))
    for (const Decl *D : M->getParent()->decls())
      if (const auto *ND = dyn_cast<NamedDecl>(D); ND && ND->getDeclName().isIdentifier() && ND->getName() == Name)
        return true;
  llvm::SmallVector<const Stmt *, 16> Work{F.getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D); V && V->getName() == Name)
          return true;
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return false;
}

std::string nameableType(QualType T, const ASTContext &Ctx, const FunctionDecl *In) {
  T = deduced(T.getNonReferenceType());
  if (T.isNull() || T->isDependentType() || T->getContainedAutoType())
    return "";
  if (const CXXRecordDecl *R = T->getAsCXXRecordDecl()) {
    if (R->isLambda() || !R->getIdentifier() || R->isLocalClass())
      return "";
    for (const DeclContext *DC = R->getDeclContext(); DC; DC = DC->getParent())
      if (DC->isFunctionOrMethod())
        return "";
    if (R->getAccess() == AS_private || R->getAccess() == AS_protected)
      return "";
  }
  if (T->isArrayType() || T->isFunctionType())
    return "";
  PrintingPolicy Policy = Ctx.getPrintingPolicy();
  Policy.SuppressTagKeyword = true;
  std::string Name = TypeName::getFullyQualifiedName(T, Ctx, Policy);
  // Sugar through a library's implementation names (`std::__tuple_element_t<0, ...>` for what
  // std::get returns) says less than the type itself.
  const bool Canonical = llvm::StringRef(Name).contains("__");
  if (Canonical)
    Name = TypeName::getFullyQualifiedName(T.getCanonicalType(), Ctx, Policy);
  if (In)
    for (size_t At = Name.find("::"); At != std::string::npos; At = Name.find("::", At + 2)) {
      size_t Start = At;
      while (Start > 0 && (llvm::isAlnum(Name[Start - 1]) || Name[Start - 1] == '_'))
        --Start;
      if (Start < At && hidesNamespace(*In, llvm::StringRef(Name).slice(Start, At)))
        return TypeName::getFullyQualifiedName(Canonical ? T.getCanonicalType() : T, Ctx, Policy,
                                               /*WithGlobalNsPrefix=*/true);
    }
  return Name;
}

llvm::Expected<OutlinedBlock> outlineBlock(const FunctionDecl &F, llvm::ArrayRef<const Stmt *> Block,
                                           llvm::ArrayRef<const Stmt *> After, ASTContext &Ctx,
                                           std::vector<const ParmVarDecl *> *AssignedParams,
                                           const OutlineOptions &Options) {
  OutlinedBlock Out;
  BlockWalker Walker(F, Ctx, Out, Options.Subject, Options.EndsFunction);
  for (const Stmt *S : Block)
    if (auto Err = Walker.walk(S, false))
      return std::move(Err);
  // A by-value parameter the block assigns is the core's own copy: the wrapper after it would
  // read the value it had before.
  for (const ParmVarDecl *P : Walker.Params)
    if (!P->getType()->isReferenceType() && writes(Block, P, Ctx) && names(After, P)) {
      if (AssignedParams) {
        AssignedParams->push_back(P);
        continue;
      }
      return refuse(Options.Subject + " assign the parameter '" + P->getNameAsString() +
                    "', which the host part reads after them");
    }
  for (const VarDecl *V : Out.Locals)
    if (nameableType(V->getType(), Ctx).empty())
      return refuse(Options.Subject + " use '" + V->getNameAsString() + "', whose type '" +
                    V->getType().getAsString() + "' cannot be named outside the function");
  for (const FieldDecl *Field : Out.Fields)
    if (nameableType(Field->getType(), Ctx).empty())
      return refuse(Options.Subject + " use the field '" + Field->getNameAsString() +
                    "', whose type cannot be named outside the class");
  for (const Stmt *S : Block) {
    const auto *DS = dyn_cast<DeclStmt>(S);
    if (!DS)
      continue;
    for (const Decl *D : DS->decls()) {
      if (const auto *DD = dyn_cast<DecompositionDecl>(D)) {
        for (const BindingDecl *B : DD->bindings())
          if (names(After, B))
            return refuse("the structured binding '" + B->getNameAsString() + "' (line " + lineOf(S, Ctx) +
                          ") is read after " + Options.Subject + " (name the values one by one)");
        continue;
      }
      const auto *V = dyn_cast<VarDecl>(D);
      if (!V || !names(After, V))
        continue;
      if (V->getType()->isReferenceType())
        return refuse("'" + V->getNameAsString() + "' (line " + lineOf(S, Ctx) +
                      ") is a reference read by the host part; the core cannot return what it refers to");
      if (V->isStaticLocal())
        return refuse("'" + V->getNameAsString() + "' (line " + lineOf(S, Ctx) + ") is a static local read by the host part");
      if (nameableType(V->getType(), Ctx).empty())
        return refuse("'" + V->getNameAsString() + "' (line " + lineOf(S, Ctx) + ") is read by the host part and its type '" +
                      V->getType().getAsString() + "' cannot be named outside the function");
      Out.Outputs.push_back(V);
    }
  }
  return Out;
}

/// Whether a `using namespace` before `F`'s definition, in the scope it is written in or one
/// around it, makes the names of `NS` visible there unqualified (`using namespace det;` then
/// `Boxes det::Filter::keep(...)` written at file scope): a core placed beside `F` names them
/// as `F`'s body does.
static bool namespaceVisibleAt(const FunctionDecl &F, const DeclContext *NS) {
  const SourceManager &SM = F.getASTContext().getSourceManager();
  for (const DeclContext *DC = F.getLexicalDeclContext(); DC; DC = DC->getLexicalParent())
    for (const Decl *D : DC->decls())
      if (const auto *UD = dyn_cast<UsingDirectiveDecl>(D);
          UD && SM.isBeforeInTranslationUnit(UD->getLocation(), F.getLocation()) && UD->getNominatedNamespace() &&
          UD->getNominatedNamespace()->getRedeclContext()->Equals(NS->getRedeclContext()))
        return true;
  return false;
}

llvm::Error checkCoreCanStandBeside(const FunctionDecl &F) {
  const std::string Name = "'" + F.getNameAsString() + "'";
  if (isa<CXXConstructorDecl>(F) || isa<CXXDestructorDecl>(F) || isa<CXXConversionDecl>(F) || F.isVariadic() ||
      F.isOverloadedOperator())
    return refuseOutOfScope(Name + " is a constructor, destructor, operator or variadic function");
  if (const auto *M = dyn_cast<CXXMethodDecl>(&F)) {
    if (M->getParent()->isLambda() || M->getParent()->isLocalClass())
      return refuseOutOfScope(Name + " is a lambda or a method of a local class");
    // The namespace, not the block that opens it: a .cpp opens its class's namespace again
    // (another NamespaceDecl of the same namespace) around the method's definition.
    if (!F.getLexicalDeclContext()->isRecord() &&
        !F.getLexicalDeclContext()->getRedeclContext()->Equals(
            M->getParent()->getEnclosingNamespaceContext()->getRedeclContext()) &&
        !namespaceVisibleAt(F, M->getParent()->getEnclosingNamespaceContext()))
      return refuseOutOfScope(Name + " is defined outside the namespace of its class, where its core could not "
                                     "name what the class's namespace declares");
  }
  return llvm::Error::success();
}

llvm::Expected<OutlinedBlock> outlineMethodBody(const FunctionDecl &F, ASTContext &Ctx,
                                                const std::set<const Stmt *> &StayInMethod) {
  OutlinedBlock Out;
  const std::string Subject = "the statements of '" + F.getNameAsString() + "' that the core runs";
  BlockWalker Walker(F, Ctx, Out, Subject, true);
  Walker.Skip = &StayInMethod;
  if (auto Err = Walker.walk(F.getBody(), false))
    return std::move(Err);
  const CXXRecordDecl *Class = isa<CXXMethodDecl>(F) ? cast<CXXMethodDecl>(F).getParent() : nullptr;
  for (const ParmVarDecl *P : F.parameters())
    if (const NamedDecl *N = classScopeName(P->getType(), Class, Ctx))
      return refuse("the parameter '" + P->getNameAsString() + "' has the type '" + N->getNameAsString() +
                    "', declared in the class, which a function outside the class cannot name");
  for (const FieldDecl *Field : Out.Fields) {
    if (nameableType(Field->getType(), Ctx).empty())
      return refuse(Subject + " use the field '" + Field->getNameAsString() +
                    "', whose type cannot be named outside the class");
    auto NamedLikeField = [&](const VarDecl *V) { return V->getName() == Field->getName(); };
    if (llvm::any_of(F.parameters(), NamedLikeField) || llvm::any_of(Walker.Declared, NamedLikeField))
      return refuse(Subject + " declare a variable named like the field '" + Field->getNameAsString() +
                    "', which the core takes as a parameter of that name");
  }
  return Out;
}

std::vector<std::string> fieldNames(const CXXRecordDecl *Class) {
  std::vector<std::string> Names;
  auto Add = [&](const CXXRecordDecl *C) {
    for (const FieldDecl *Field : C->fields())
      Names.push_back(Field->getNameAsString());
    return true;
  };
  if (Class && Class->hasDefinition()) {
    Add(Class);
    Class->forallBases(Add);
  }
  return Names;
}

std::optional<transformer::Edit> includeEdit(llvm::StringRef Header, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const FileID Main = SM.getMainFileID();
  auto Entry = SM.getFileEntryRefForID(Main);
  tooling::HeaderIncludes Includes(Entry ? Entry->getName() : "main.cpp", SM.getBufferData(Main),
                                   tooling::IncludeStyle());
  std::optional<tooling::Replacement> R =
      Includes.insert(Header, /*IsAngled=*/true, tooling::IncludeDirective::Include);
  if (!R)
    return std::nullopt;
  transformer::Edit E;
  E.Kind = transformer::EditKind::Range;
  SourceLocation At = SM.getLocForStartOfFile(Main).getLocWithOffset(R->getOffset());
  E.Range = CharSourceRange::getCharRange(At, At.getLocWithOffset(R->getLength()));
  E.Replacement = R->getReplacementText().str();
  return E;
}

} // namespace graphify::rewriter
