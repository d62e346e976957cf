// HostWork. A call is host work when it fills a host container (a non-const member call on a type
// with a value_type whose value, if any, is dropped: push_back, resize, not at(); a compound
// assignment such as `text += c`) or is a free
// function given no tensor and returning none; a body works on the host only when no expression
// in it has a tensor type, so nothing it does reaches the graph's tensors.
#include "HostWork.h"

#include "ExprUtil.h"

#include "graphify/analyzer/ApiResolver.h"

#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/SmallPtrSet.h>

using namespace clang;

namespace graphify::rewriter {

namespace {

/// Whether `T` is a tensor or a template specialization with a tensor among its type arguments
/// (`std::vector<torch::Tensor>`, `std::map<int, at::Tensor>`), two levels deep.
bool mentionsTensor(QualType T, const ApiModel &Api, int Depth = 0) {
  if (Api.isTensor(T))
    return true;
  const auto *RD = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl());
  if (!RD || Depth > 1)
    return false;
  for (const TemplateArgument &A : RD->getTemplateArgs().asArray())
    if (A.getKind() == TemplateArgument::Type && mentionsTensor(A.getAsType(), Api, Depth + 1))
      return true;
  return false;
}

} // namespace

bool holdsNoTensor(QualType T, const ApiModel &Api) {
  const CXXRecordDecl *RD = T->getPointeeCXXRecordDecl();
  if (!RD)
    RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || Api.isTensor(T))
    return false;
  bool Tensor = false;
  auto Check = [&](const CXXRecordDecl *C) {
    for (const FieldDecl *F : C->fields())
      Tensor |= mentionsTensor(F->getType(), Api);
    return true;
  };
  Check(RD);
  RD->forallBases(Check);
  return !Tensor;
}

/// A function of the project `Call` runs (a body the packs do not describe, outside the tensor
/// libraries, the bundled runtime's headers included, and outside system headers), or null.
static const FunctionDecl *projectCallee(const CallExpr *Call, const ApiModel &Api, ASTContext &Ctx) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (!Callee || !Callee->hasBody(Def) || !Def || !Api.entriesFor(Call).empty() || Api.isLibraryDecl(Callee) ||
      Api.isLibraryDecl(Def) || Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
    return nullptr;
  return Def;
}

static std::string firstHostWorkFrom(llvm::ArrayRef<const Stmt *> Stmts, const ApiModel &Api, ASTContext &Ctx,
                                     bool TensorFills, unsigned CalleeDepth,
                                     llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen,
                                     const FunctionDecl *Within = nullptr);

/// Whether `Object` is a local variable of `Within` (a callee searched for host work): a container
/// it fills there (a shape built up, parts gathered for a cat) is gone when it returns.
static bool localOf(const Expr *Object, const FunctionDecl *Within) {
  const auto *DRE = Within && Object ? dyn_cast<DeclRefExpr>(Object->IgnoreParenImpCasts()) : nullptr;
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return VD && VD->isLocalVarDecl() && VD->getDeclContext() == Within;
}

/// The host work of a function of the project called among the statements, as "'f' (line N),
/// where <its first host work>", or empty.
static std::string hostWorkOfCallee(const CallExpr *Call, const ApiModel &Api, ASTContext &Ctx, bool TensorFills,
                                    unsigned CalleeDepth, llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen) {
  const FunctionDecl *Def = CalleeDepth ? projectCallee(Call, Api, Ctx) : nullptr;
  if (!Def || !Seen.insert(Def).second)
    return "";
  const Stmt *Body = Def->getBody();
  std::string Inner = firstHostWorkFrom({Body}, Api, Ctx, TensorFills, CalleeDepth - 1, Seen, Def);
  if (Inner.empty())
    return "";
  unsigned Line = Ctx.getSourceManager().getExpansionLineNumber(Call->getBeginLoc());
  return "'" + Def->getNameAsString() + "' (line " + std::to_string(Line) + "), where " + Inner;
}

std::string firstHostWork(llvm::ArrayRef<const Stmt *> Stmts, const ApiModel &Api, ASTContext &Ctx,
                          bool TensorFills, unsigned CalleeDepth) {
  llvm::SmallPtrSet<const FunctionDecl *, 4> Seen;
  // The statements' own host work first (`storage.set(id, "eos", 1)`), what a helper they call
  // does inside (a value computed by `any_cast`, which resets a holder) only when they have none:
  // the call a reader would move out is the one written here.
  if (CalleeDepth > 0)
    if (std::string Own = firstHostWorkFrom(Stmts, Api, Ctx, TensorFills, 0, Seen); !Own.empty())
      return Own;
  return firstHostWorkFrom(Stmts, Api, Ctx, TensorFills, CalleeDepth, Seen);
}

static std::string firstHostWorkFrom(llvm::ArrayRef<const Stmt *> Stmts, const ApiModel &Api, ASTContext &Ctx,
                                     bool TensorFills, unsigned CalleeDepth,
                                     llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen, const FunctionDecl *Within) {
  for (const Stmt *Top : Stmts) {
    // (statement, whether it is a statement of its own: its value, if any, is discarded)
    llvm::SmallVector<std::pair<const Stmt *, bool>, 16> Work{{Top, true}};
    while (!Work.empty()) {
      auto [S, Discarded] = Work.pop_back_val();
      // A throw's message is no host work of its own: the throw is the exit the rewrites name.
      if (!S || isa<LambdaExpr>(S) || isa<CXXThrowExpr>(S))
        continue;
      if (const auto *E = dyn_cast<Expr>(S); E && Discarded)
        S = E->IgnoreImplicit();
      const auto *Call = dyn_cast<CallExpr>(S);
      const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
      // `text += c` on a string or another host container: an append, written as an operator.
      if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(Call);
          Op && Op->isAssignmentOp() && Op->getOperator() != OO_Equal && Op->getNumArgs() == 2 &&
          isHostContainerType(Op->getArg(0)->getType()) && !Api.isTensorExpr(Op->getArg(0)) &&
          !localOf(Op->getArg(0), Within)) {
        unsigned Line = Ctx.getSourceManager().getExpansionLineNumber(Op->getBeginLoc());
        return "'" + sourceText(Op->getArg(0), Ctx) + " " + getOperatorSpelling(Op->getOperator()) + "' (line " +
               std::to_string(Line) + ") fills a host container";
      }
      // `canvas.at<uchar>(y, x) = 255`, `buf.at(i) = v`: an element of a host object (an image,
      // a buffer) written through the reference a method returns.
      if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp() && Discarded)
        if (const auto *Element = dyn_cast<CXXMemberCallExpr>(BO->getLHS()->IgnoreParenImpCasts());
            Element && Element->isLValue() && Element->getMethodDecl() && !Element->getMethodDecl()->isConst() &&
            !Api.isTensorExpr(Element->getImplicitObjectArgument()) && !Api.isTensorExpr(BO->getRHS()) &&
            !localOf(Element->getImplicitObjectArgument(), Within)) {
          unsigned Line = Ctx.getSourceManager().getExpansionLineNumber(BO->getBeginLoc());
          return "'" + sourceText(Element->getCallee(), Ctx) + "' (line " + std::to_string(Line) +
                 ") writes into a host object";
        }
      // `std::cerr << "no detections" << std::endl;`: a print, written as an operator. With
      // `TensorFills` false, one given a tensor is that tensor's read, a finding of its own.
      if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(Call);
          Op && Discarded && Op->getOperator() == OO_LessLess && isOutputStreamType(Op->getType())) {
        const Expr *Stream = Op;
        bool PrintsTensor = false;
        while (const auto *Inner = dyn_cast<CXXOperatorCallExpr>(Stream->IgnoreImplicit()))
          if (Inner->getOperator() == OO_LessLess && Inner->getNumArgs() == 2) {
            PrintsTensor |= Api.isTensorExpr(Inner->getArg(1));
            Stream = Inner->getArg(0);
          } else {
            break;
          }
        unsigned Line = Ctx.getSourceManager().getExpansionLineNumber(Op->getBeginLoc());
        if (TensorFills || !PrintsTensor)
          return "'" + sourceText(Stream, Ctx) + " <<' (line " + std::to_string(Line) + ") prints on the host";
      }
      if (Callee && !isa<CXXOperatorCallExpr>(Call)) {
        const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
        const Expr *Object = MC ? MC->getImplicitObjectArgument() : nullptr;
        // A container changed (`push_back`, `resize`, `insert`): a non-const method whose value,
        // if any, is dropped. An element read (`m.at(k)`, `v.front()`) used as a value is not work.
        bool HostContainer = Object && isHostContainerType(MC->getObjectType()) && MC->getMethodDecl() &&
                             !MC->getMethodDecl()->isConst() && (Discarded || Call->getType()->isVoidType());
        bool TensorArg = Object && Api.isTensorExpr(Object);
        for (const Expr *A : Call->arguments())
          TensorArg |= Api.isTensorExpr(A);
        HostContainer &= (TensorFills || !TensorArg) && !localOf(Object, Within);
        // A free function called for its effect (its value discarded) on no tensor: writing a
        // file, drawing, logging. A value computed on the host (std::max(a, b)) is not work. So is
        // a method of an object that holds no tensor (`logger->debug(...)`, `writer.write(...)`).
        bool HostFunction = Discarded && !TensorArg && !Api.isTensorExpr(Call) &&
                            (!Object || (!HostContainer && holdsNoTensor(MC->getObjectType(), Api)));
        if (HostContainer || HostFunction) {
          unsigned Line = Ctx.getSourceManager().getExpansionLineNumber(Call->getBeginLoc());
          // The callee as written names the object and the operator (`v.push_back`, `out->emplace_back`).
          std::string Name = HostContainer ? sourceText(MC->getCallee(), Ctx) : Callee->getQualifiedNameAsString();
          return "'" + Name + "' (line " + std::to_string(Line) + ")" +
                 (HostContainer ? " fills a host container" : " is host code");
        }
      }
      // `process_terminals(terminals)`: the host work is inside the helper the branch calls.
      if (Call)
        if (std::string Inner = hostWorkOfCallee(Call, Api, Ctx, TensorFills, CalleeDepth, Seen); !Inner.empty())
          return Inner;
      // In source order: the children are popped in reverse of their push.
      llvm::SmallVector<const Stmt *, 8> Children(S->child_begin(), S->child_end());
      for (auto It = Children.rbegin(); It != Children.rend(); ++It)
        Work.push_back({*It, isa<CompoundStmt>(S) || (isa<IfStmt>(S) && *It != cast<IfStmt>(S)->getCond()) ||
                                 (isa<ForStmt>(S) && *It == cast<ForStmt>(S)->getBody()) ||
                                 (isa<WhileStmt>(S) && *It == cast<WhileStmt>(S)->getBody())});
    }
  }
  return "";
}

/// The host container an object expression picks an element of (`tracks_` in `tracks_[k]`,
/// `tracks_[k]->`, `tracks_.at(k)`), or null.
static const Expr *pickedFromHostList(const Expr *Object) {
  Object = Object ? Object->IgnoreImplicit() : nullptr;
  if (const auto *Arrow = dyn_cast_or_null<CXXOperatorCallExpr>(Object); Arrow && Arrow->getOperator() == OO_Arrow)
    Object = Arrow->getArg(0)->IgnoreImplicit();
  const Expr *List = nullptr;
  if (const auto *Sub = dyn_cast_or_null<CXXOperatorCallExpr>(Object); Sub && Sub->getOperator() == OO_Subscript)
    List = Sub->getArg(0);
  else if (const auto *At = dyn_cast_or_null<CXXMemberCallExpr>(Object);
           At && At->getMethodDecl() && At->getMethodDecl()->getIdentifier() && At->getMethodDecl()->getName() == "at")
    List = At->getImplicitObjectArgument();
  return List && isHostContainerType(List->IgnoreImplicit()->getType()) ? List->IgnoreImplicit() : nullptr;
}

std::string hostListElementUpdate(const Stmt *Body, const ApiModel &Api, ASTContext &Ctx) {
  llvm::SmallVector<const Stmt *, 32> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S); MC && MC->getMethodDecl() && !MC->getMethodDecl()->isConst())
      if (const Expr *List = pickedFromHostList(MC->getImplicitObjectArgument()); List && !Api.isTensorExpr(MC->getImplicitObjectArgument()))
        return "'" + sourceText(MC->getCallee(), Ctx) + "' (line " +
               std::to_string(Ctx.getSourceManager().getExpansionLineNumber(MC->getBeginLoc())) +
               ") changes an object the host picks from the list '" + sourceText(List, Ctx) + "'";
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return "";
}

std::string hostListUpdateAdvice(const std::string &Update) {
  return "in the loop's body, " + Update + ", which no graph can choose: keep the objects' state as one tensor "
         "with a row per object, updated at the matched rows (index_put_ with the positions kept as long "
         "tensors, or torch::where on a match mask), or move the loop, and the reads that pick the objects, "
         "out of the graph region, after the replay";
}

bool worksOnHostOnly(const Stmt *Body, const ApiModel &Api) {
  bool DoesSomething = false;
  llvm::SmallVector<const Stmt *, 32> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *E = dyn_cast<Expr>(S); E && Api.isTensorExpr(E))
      return false;
    if (const auto *BO = dyn_cast<BinaryOperator>(S))
      DoesSomething |= BO->isAssignmentOp();
    // `++count` under a test counts as much as `count += 1`.
    if (const auto *UO = dyn_cast<UnaryOperator>(S))
      DoesSomething |= UO->isIncrementDecrementOp();
    DoesSomething |= isa<CallExpr>(S) || isa<CompoundAssignOperator>(S);
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return DoesSomething;
}

/// A definition of `Callee` whose body works on host values only and which takes no tensor.
static bool runsOnHostOnly(const FunctionDecl &Callee, const ApiModel &Api) {
  const FunctionDecl *Def = Callee.getDefinition();
  return Def && Def->getBody() && worksOnHostOnly(Def->getBody(), Api) &&
         llvm::none_of(Def->parameters(), [&](const ParmVarDecl *P) { return Api.isTensor(P->getType()); });
}

std::string hostOnlyFunction(const Stmt *S, const ApiModel &Api, ASTContext &Ctx) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(S ? enclosingFunction(S, Ctx) : nullptr);
  if (!FD || !runsOnHostOnly(*FD, Api))
    return "";
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && MD->getParent()->isLambda())
    return "the lambda at line " +
           std::to_string(Ctx.getSourceManager().getExpansionLineNumber(MD->getParent()->getBeginLoc()));
  return "'" + FD->getQualifiedNameAsString() + "'";
}

std::string hostValueCallIn(const Expr *Cond, const ApiModel &Api, ASTContext &Ctx) {
  const Expr *Found = findExpr(Cond, [&](const Expr *E) {
    const auto *Call = dyn_cast<CallExpr>(E);
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
    return Def && Def->getBody() && Api.entriesFor(Call).empty() && !Api.isTensorExpr(Call) &&
           !Ctx.getSourceManager().isInSystemHeader(Def->getLocation()) && !runsOnHostOnly(*Def, Api);
  });
  if (!Found)
    return "";
  return "'" + cast<CallExpr>(Found)->getDirectCallee()->getNameAsString() + "' (line " +
         std::to_string(Ctx.getSourceManager().getExpansionLineNumber(Found->getBeginLoc())) + ")";
}

std::string hostFunctionAdvice(const std::string &Function) {
  return "the code is in " + Function + ", which works on host values only (it holds no tensor) and which no "
         "graph runs: move its call, and the reads that feed it, out of the graph region, after the replay (the "
         "region returns the tensors they read)";
}

bool initRunsNoUserCode(const Expr *Init, const ApiModel &Api, ASTContext &Ctx) {
  return !Init || !findExpr(Init, [&](const Expr *E) {
    if (const auto *DR = dyn_cast<DeclRefExpr>(E))
      return !isa<EnumConstantDecl>(DR->getDecl());
    if (isa<CallExpr>(E) || Api.isTensorExpr(E))
      return true;
    const auto *Construct = dyn_cast<CXXConstructExpr>(E);
    if (!Construct || Construct->getConstructor()->isTrivial())
      return false;
    const CXXConstructorDecl *Ctor = Construct->getConstructor();
    return Construct->getNumArgs() > 0 || !Ctor->isDefaultConstructor() ||
           !(Ctor->isImplicit() || Ctor->isDefaulted() || Ctx.getSourceManager().isInSystemHeader(Ctor->getLocation()));
  });
}

/// `Arg` is among the arguments of `Call`.
static bool passes(const CallExpr &Call, const Expr *Arg) {
  return llvm::any_of(Call.arguments(),
                      [&](const Expr *A) { return A->IgnoreParenCasts() == Arg->IgnoreParenCasts(); });
}

/// A function of the project: not of the tensor API or the standard library, none the packs
/// describe.
static bool isProjectCallee(const CallExpr &Call, const FunctionDecl *Callee, const ApiModel &Api) {
  return Callee && !Api.isLibraryDecl(Callee) && !Callee->isInStdNamespace() && Api.entriesFor(&Call).empty();
}

bool handsMemoryToHostCode(const CallExpr &Call, const Expr *Arg, const ApiModel &Api) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!isProjectCallee(Call, Callee, Api) || !Arg->getType()->isPointerType() || !passes(Call, Arg))
    return false;
  // A method is host code when its object holds no tensor or its body shows it: a decoder method
  // of a model class (`GreedySearch(scores.data_ptr<float>(), len)`) that reads the scores only.
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Callee); MD && !MD->isStatic()) {
    const auto *MC = dyn_cast<CXXMemberCallExpr>(&Call);
    return MC && !isHostContainerType(MC->getObjectType()) &&
           (holdsNoTensor(MC->getObjectType(), Api) || runsOnHostOnly(*Callee, Api));
  }
  return true;
}

bool handsValueToHostCode(const CallExpr &Call, const Expr *Arg, const ApiModel &Api) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!isProjectCallee(Call, Callee, Api) || !passes(Call, Arg))
    return false;
  // A helper that returns a number computes one, which the walk follows instead (to the branch or
  // the size it decides); one that builds a string or a list from it is host work.
  QualType Result = Callee->getReturnType();
  if (!Result->isVoidType() && (Result->isScalarType() || Api.isTensor(Result)))
    return false;
  if (runsOnHostOnly(*Callee, Api))
    return true;
  if (!Result->isVoidType())
    return false;
  // A method of an object that holds no tensor (`logger->debug(fmt, i, s)`) is host code as well.
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Callee); MD && !MD->isStatic()) {
    const auto *MC = dyn_cast<CXXMemberCallExpr>(&Call);
    if (!MC || isHostContainerType(MC->getObjectType()) || !holdsNoTensor(MC->getObjectType(), Api))
      return false;
  }
  return llvm::none_of(Callee->parameters(), [&](const ParmVarDecl *P) { return Api.isTensor(P->getType()); });
}

const VarDecl *hostListStoring(const DeclRefExpr *Use, ASTContext &Ctx) {
  const Expr *Arg = Use;
  for (unsigned Depth = 0; Depth < 6; ++Depth) {
    const DynTypedNodeList Parents = Ctx.getParents(*Arg);
    const Expr *Up = Parents.empty() ? nullptr : Parents[0].get<Expr>();
    if (!Up)
      return nullptr;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Up)) {
      const CXXMethodDecl *MD = MC->getMethodDecl();
      const Expr *Object = MC->getImplicitObjectArgument();
      if (!MD || MD->isConst() || isElementAccess(*MD) || !Object || Object->IgnoreParenImpCasts() == Arg ||
          !isHostContainerType(Object->getType()))
        return nullptr;
      const auto *DRE = dyn_cast<DeclRefExpr>(Object->IgnoreParenImpCasts());
      const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      return VD && VD->hasLocalStorage() ? VD : nullptr;
    }
    if (!isa<ImplicitCastExpr, ParenExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr>(Up))
      return nullptr;
    Arg = Up;
  }
  return nullptr;
}

std::string collectedValueAdvice(const std::string &Value, const std::string &List, unsigned Line) {
  return "'" + Value + "' is also stored into the host list '" + List + "' at line " + std::to_string(Line) +
         ": keep what the list collects in a preallocated device tensor written at the step's index (a "
         "static buffer as long as the loop's bound, `buf.index_put_({step}, value)`; an end test becomes a "
         "done flag kept on the device), and read the buffer once after the loop";
}

} // namespace graphify::rewriter
