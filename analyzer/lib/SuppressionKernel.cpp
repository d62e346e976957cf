// Recognizes torchvision's CPU NMS kernel written out by hand (SuppressionKernel.h says what is
// accepted). The matcher walks the body statement by statement and gives every local a role
// (a coordinate column, the areas, the order, the buffers, their data pointers, the counters);
// the scalar arithmetic of the inner loop is turned into a canonical term, with locals replaced
// by their values, and compared with the kernel's own IoU test built by the same functions. The
// ops named here are the ones this one algorithm is written with; whether a call is the tensor
// library's is still asked of the resolver.
#include "graphify/analyzer/SuppressionKernel.h"

#include "BracedSizes.h"
#include "graphify/analyzer/ApiResolver.h"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/StmtCXX.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/STLExtras.h>

#include <string>

namespace graphify {

using namespace clang;

namespace {

/// What a local of the kernel holds.
enum class Role { Column0, Column1, Column2, Column3, Areas, Order, Suppressed, Keep, Size, Count };

/// `E` without parentheses, the implicit casts that keep the value (lvalue-to-rvalue, no-op) and
/// temporaries: what the scalar arithmetic and the tensor calls are written with.
const Expr *bare(const Expr *E) {
  while (E) {
    if (const auto *P = dyn_cast<ParenExpr>(E))
      E = P->getSubExpr();
    else if (const auto *C = dyn_cast<ImplicitCastExpr>(E);
             C && (C->getCastKind() == CK_LValueToRValue || C->getCastKind() == CK_NoOp))
      E = C->getSubExpr();
    else if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (const auto *W = dyn_cast<ExprWithCleanups>(E))
      E = W->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else if (const auto *K = dyn_cast<ConstantExpr>(E))
      E = K->getSubExpr();
    else
      return E;
  }
  return E;
}

/// `E` without wrappers and the conversion to an optional (`slice`'s bounds are optional).
const Expr *unwrapped(const Expr *E) {
  E = bare(skipValueWrappers(E));
  if (const auto *C = dyn_cast_or_null<CXXConstructExpr>(E); C && C->getNumArgs() == 1)
    E = bare(skipValueWrappers(C->getArg(0)));
  return E;
}

const VarDecl *varOf(const Expr *E) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(unwrapped(E));
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

std::optional<int64_t> integerOf(const Expr *E, const ASTContext &Ctx) {
  E = unwrapped(E);
  if (!E || E->isValueDependent())
    return std::nullopt;
  if (auto V = E->getIntegerConstantExpr(Ctx))
    return V->getExtValue();
  return std::nullopt;
}

/// A bool given as a literal, also through the optional<bool> the stable flag is taken as.
std::optional<bool> boolOf(const Expr *E) {
  for (int Depth = 0; E && Depth < 8; ++Depth) {
    E = skipValueWrappers(E);
    if (const auto *B = dyn_cast<CXXBoolLiteralExpr>(E))
      return B->getValue();
    const auto *C = dyn_cast<CXXConstructExpr>(E);
    if (!C || C->getNumArgs() != 1)
      return std::nullopt;
    E = C->getArg(0);
  }
  return std::nullopt;
}

/// The number of arguments written at a call (defaulted ones left out).
unsigned written(const CallExpr *CE) {
  return static_cast<unsigned>(
      llvm::count_if(CE->arguments(), [](const Expr *A) { return !isa<CXXDefaultArgExpr>(A); }));
}

/// `E` as a method call on a tensor: its name and object, or null.
const CXXMemberCallExpr *tensorMethod(const Expr *E, const ApiResolver &Api, llvm::StringRef Name) {
  const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(bare(skipValueWrappers(E)));
  if (!MC || !MC->getMethodDecl() || MC->getMethodDecl()->getName() != Name ||
      !Api.isTensor(MC->getImplicitObjectArgument()->getType()))
    return nullptr;
  return MC;
}

/// The single element of a size list written `{n}`, or null.
const Expr *singleSize(const Expr *E) {
  const InitListExpr *IL = bracedSizes(E);
  return IL && IL->getNumInits() == 1 ? IL->getInit(0) : nullptr;
}

/// The qualified name of a free function's callee (`std::max`), or empty.
std::string freeCallee(const Expr *E) {
  const auto *CE = dyn_cast_or_null<CallExpr>(E);
  if (!CE || isa<CXXMemberCallExpr>(CE) || isa<CXXOperatorCallExpr>(CE) || !CE->getDirectCallee())
    return {};
  return CE->getDirectCallee()->getQualifiedNameAsString();
}

/// The one statement an `if` without else runs (`if (c) s;` or `if (c) { s; }`), or null.
const Stmt *soleThen(const IfStmt *If) {
  if (!If || If->getElse() || If->getInit() || If->getConditionVariable())
    return nullptr;
  const Stmt *Then = If->getThen();
  if (const auto *CS = dyn_cast<CompoundStmt>(Then))
    return CS->size() == 1 ? CS->body_front() : nullptr;
  return Then;
}

// Canonical terms: the kernel's scalar arithmetic spelled one way. Sums and products of two
// operands are ordered (IEEE addition and multiplication commute exactly); nothing else is.
std::string apply(llvm::StringRef Op, std::string A, std::string B) {
  if ((Op == "add" || Op == "mul") && B < A)
    std::swap(A, B);
  return Op.str() + "(" + A + "," + B + ")";
}
std::string column(int K, llvm::StringRef Index) { return "c" + std::to_string(K) + "[" + Index.str() + "]"; }
std::string area(llvm::StringRef Index) {
  return apply("mul", apply("sub", column(2, Index), column(0, Index)),
               apply("sub", column(3, Index), column(1, Index)));
}

/// torchvision's test, IoU of kept box i and later box j greater than the threshold.
std::string kernelTest() {
  std::string W = apply("max", "0", apply("sub", apply("min", column(2, "i"), column(2, "j")),
                                          apply("max", column(0, "i"), column(0, "j"))));
  std::string H = apply("max", "0", apply("sub", apply("min", column(3, "i"), column(3, "j")),
                                          apply("max", column(1, "i"), column(1, "j"))));
  std::string Inter = apply("mul", W, H);
  std::string Iou = apply("div", Inter, apply("sub", apply("add", area("i"), area("j")), Inter));
  return "gt(" + Iou + ",threshold)";
}

class KernelMatcher {
public:
  KernelMatcher(const FunctionDecl &FD, const ApiResolver &Api)
      : FD(FD), Api(Api), Ctx(FD.getASTContext()) {}

  std::optional<SuppressionKernel> match() {
    if (FD.getNumParams() != 3 || !Api.isTensor(FD.getReturnType()))
      return std::nullopt;
    Boxes = FD.getParamDecl(0);
    Scores = FD.getParamDecl(1);
    Threshold = FD.getParamDecl(2);
    if (!Api.isTensor(Boxes->getType()) || !Api.isTensor(Scores->getType()) ||
        !Threshold->getType().getNonReferenceType()->isRealFloatingType())
      return std::nullopt;
    const auto *Body = dyn_cast_or_null<CompoundStmt>(FD.getBody());
    if (!Body || Body->body_empty())
      return std::nullopt;
    for (const Stmt *S : Body->body()) {
      if (Returned)
        return std::nullopt;
      if (!statement(S))
        return std::nullopt;
    }
    if (!Returned || !Looped || Element.isNull())
      return std::nullopt;
    return SuppressionKernel{{Element}, StableSort};
  }

private:
  const FunctionDecl &FD;
  const ApiResolver &Api;
  const ASTContext &Ctx;
  const ParmVarDecl *Boxes = nullptr, *Scores = nullptr, *Threshold = nullptr;
  llvm::DenseMap<const VarDecl *, Role> Tensors;  ///< tensor locals
  llvm::DenseMap<const VarDecl *, Role> Pointers; ///< data pointers of those tensors
  llvm::DenseMap<const VarDecl *, Role> Integers; ///< the size and the count
  /// Scalar locals of the loops by their value (a canonical term).
  llvm::DenseMap<const VarDecl *, std::string> Terms;
  const VarDecl *Outer = nullptr, *Inner = nullptr;
  QualType Element;
  bool StableSort = false, Looped = false, Returned = false;

  bool statement(const Stmt *S) {
    if (isa<NullStmt>(S))
      return true;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      return llvm::all_of(DS->decls(), [&](const Decl *D) {
        const auto *VD = dyn_cast<VarDecl>(D);
        return VD && VD->getInit() && declaration(VD);
      });
    if (const auto *If = dyn_cast<IfStmt>(S))
      return !Looped && earlyReturn(If);
    if (const auto *For = dyn_cast<ForStmt>(S))
      return !Looped && (Looped = outerLoop(For));
    if (const auto *R = dyn_cast<ReturnStmt>(S))
      return Looped && (Returned = finalReturn(R));
    return false;
  }

  std::optional<Role> roleOf(const Expr *E, const llvm::DenseMap<const VarDecl *, Role> &In) const {
    const VarDecl *VD = varOf(E);
    if (!VD)
      return std::nullopt;
    auto It = In.find(VD);
    return It == In.end() ? std::nullopt : std::optional<Role>(It->second);
  }
  bool names(const Expr *E, const VarDecl *VD) const { return VD && varOf(E) == VD; }

  /// Gives `VD` the role `R` unless another local has it: one column, one order, one count.
  static bool uniquely(llvm::DenseMap<const VarDecl *, Role> &In, const VarDecl *VD, Role R) {
    if (llvm::any_of(In, [R](const auto &Entry) { return Entry.second == R; }))
      return false;
    In[VD] = R;
    return true;
  }
  bool has(const llvm::DenseMap<const VarDecl *, Role> &In, Role R) const {
    return llvm::any_of(In, [R](const auto &Entry) { return Entry.second == R; });
  }

  bool declaration(const VarDecl *VD) {
    const Expr *Init = VD->getInit();
    QualType T = VD->getType();
    if (Api.isTensor(T)) {
      std::optional<Role> R = tensorValue(Init);
      return R && uniquely(Tensors, VD, *R);
    }
    if (T->isPointerType()) {
      const auto *MC = tensorMethod(Init, Api, "data_ptr");
      std::optional<Role> R = MC ? roleOf(MC->getImplicitObjectArgument(), Tensors) : std::nullopt;
      return R && elementTypeFits(*R, T->getPointeeType()) && uniquely(Pointers, VD, *R);
    }
    if (T->isIntegerType()) {
      if (const auto *MC = tensorMethod(Init, Api, "size");
          MC && written(MC) == 1 && names(MC->getImplicitObjectArgument(), Boxes) && integerOf(MC->getArg(0), Ctx) == 0)
        return uniquely(Integers, VD, Role::Size);
      if (integerOf(Init, Ctx) == 0)
        return uniquely(Integers, VD, Role::Count);
    }
    return false;
  }

  /// The role of a tensor local's initializer, through copies to the CPU and `contiguous`.
  std::optional<Role> tensorValue(const Expr *Init) {
    const Expr *E = bare(skipValueWrappers(Init));
    bool Contiguous = false;
    while (true) {
      if (const auto *MC = tensorMethod(E, Api, "contiguous"); MC && written(MC) == 0) {
        E = bare(skipValueWrappers(MC->getImplicitObjectArgument()));
        Contiguous = true;
      } else if (const auto *ToCpu = tensorMethod(E, Api, "cpu"); ToCpu && written(ToCpu) == 0)
        E = bare(skipValueWrappers(ToCpu->getImplicitObjectArgument()));
      else if (const auto *To = tensorMethod(E, Api, "to"); To && written(To) == 1 && isCpuDevice(To->getArg(0)))
        E = bare(skipValueWrappers(To->getImplicitObjectArgument()));
      else
        break;
    }
    // A column is read through its data pointer one element after another: without contiguous()
    // the pointer walks the boxes' rows, not the column.
    if (const auto *Select = tensorMethod(E, Api, "select");
        Select && Contiguous && written(Select) == 2 && names(Select->getImplicitObjectArgument(), Boxes) &&
        integerOf(Select->getArg(0), Ctx) == 1) {
      std::optional<int64_t> K = integerOf(Select->getArg(1), Ctx);
      if (!K || *K < 0 || *K > 3)
        return std::nullopt;
      return static_cast<Role>(static_cast<int>(Role::Column0) + *K);
    }
    if (const auto *Get = dyn_cast<CallExpr>(E); Get && freeCallee(Get) == "std::get" && Get->getNumArgs() == 1)
      return sortedOrder(Get);
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E); Op && Op->getOperator() == OO_Star) {
      std::optional<std::string> T = tensorTerm(Op);
      return T && *T == area("#") ? std::optional<Role>(Role::Areas) : std::nullopt;
    }
    return buffer(E);
  }

  /// A device argument naming the CPU (`torch::kCPU`, `torch::Device("cpu")`): `to` with it
  /// copies and keeps the dtype, where options or a dtype would convert the values.
  /// The implicit conversion `to(kCPU)` goes through (to TensorOptions) is looked into.
  static bool isCpuDevice(const Expr *Arg) {
    for (int Depth = 0; Arg && Depth < 4; ++Depth) {
      Arg = skipValueWrappers(Arg);
      QualType T = Arg->getType().getNonReferenceType().getCanonicalType();
      const auto *RD = T->getAsCXXRecordDecl();
      if (T->isEnumeralType() || (RD && RD->getName() == "Device"))
        return ApiResolver::mentionsConstant(Arg, "CPU", "cpu");
      const auto *Conversion = dyn_cast<CXXConstructExpr>(Arg);
      if (!Conversion || Conversion->getNumArgs() != 1)
        return false;
      Arg = Conversion->getArg(0);
    }
    return false;
  }

  /// `std::get<1>(scores.sort(...))` sorting descending along dimension 0.
  std::optional<Role> sortedOrder(const CallExpr *Get) {
    const TemplateArgumentList *Args = Get->getDirectCallee()->getTemplateSpecializationArgs();
    if (!Args || Args->size() < 1 || Args->get(0).getKind() != TemplateArgument::Integral ||
        Args->get(0).getAsIntegral() != 1)
      return std::nullopt;
    const auto *Sort = tensorMethod(Get->getArg(0), Api, "sort");
    if (!Sort || !names(Sort->getImplicitObjectArgument(), Scores))
      return std::nullopt;
    unsigned First = written(Sort) == 3 ? 1 : 0;
    if (written(Sort) == 3) {
      std::optional<bool> Stable = boolOf(Sort->getArg(0));
      if (!Stable)
        return std::nullopt;
      StableSort = *Stable;
    } else if (written(Sort) != 2) {
      return std::nullopt;
    }
    if (integerOf(Sort->getArg(First), Ctx) != 0 || boolOf(Sort->getArg(First + 1)) != true)
      return std::nullopt;
    return Role::Order;
  }

  /// `zeros({n}, options of dtype byte/bool)` (suppressed) or of dtype long (keep), n the size.
  std::optional<Role> buffer(const Expr *E) {
    const auto *CE = dyn_cast<CallExpr>(E);
    auto Call = Api.resolve(CE);
    if (!Call || Call->Entries.empty() || Call->IsMethod || (Call->Name != "zeros" && Call->Name != "empty") ||
        Call->Args.size() != 2 || roleOf(singleSize(Call->Args[0]), Integers) != Role::Size)
      return std::nullopt;
    const Expr *Options = Call->Args[1];
    if (Call->Name == "zeros" && (ApiResolver::mentionsConstant(Options, "Byte", "") ||
                                  ApiResolver::mentionsConstant(Options, "Bool", "")))
      return Role::Suppressed;
    if (ApiResolver::mentionsConstant(Options, "Long", ""))
      return Role::Keep;
    return std::nullopt;
  }

  bool elementTypeFits(Role R, QualType Pointee) {
    Pointee = Pointee.getCanonicalType().getUnqualifiedType();
    switch (R) {
    case Role::Suppressed:
      return Pointee->isSpecificBuiltinType(BuiltinType::UChar) || Pointee->isBooleanType();
    case Role::Keep:
    case Role::Order:
      return Pointee->isSpecificBuiltinType(BuiltinType::Long) ||
             Pointee->isSpecificBuiltinType(BuiltinType::LongLong);
    default:
      if (!Pointee->isSpecificBuiltinType(BuiltinType::Float) && !Pointee->isSpecificBuiltinType(BuiltinType::Double))
        return false;
      if (Element.isNull())
        Element = Pointee;
      return Ctx.hasSameType(Element, Pointee);
    }
  }

  /// The areas tensor as a term over the columns: `(x2 - x1) * (y2 - y1)` element by element.
  std::optional<std::string> tensorTerm(const Expr *E) {
    E = bare(skipValueWrappers(E));
    if (std::optional<Role> R = roleOf(E, Tensors); R && *R <= Role::Column3)
      return column(static_cast<int>(*R) - static_cast<int>(Role::Column0), "#");
    const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
    if (!Op || Op->getNumArgs() != 2 || (Op->getOperator() != OO_Star && Op->getOperator() != OO_Minus))
      return std::nullopt;
    auto A = tensorTerm(Op->getArg(0)), B = tensorTerm(Op->getArg(1));
    if (!A || !B)
      return std::nullopt;
    return apply(Op->getOperator() == OO_Star ? "mul" : "sub", *A, *B);
  }

  /// `if (boxes.numel() == 0) return <empty long tensor>;`
  bool earlyReturn(const IfStmt *If) {
    const auto *R = dyn_cast_or_null<ReturnStmt>(soleThen(If));
    if (!R || !R->getRetValue())
      return false;
    const auto *Cmp = dyn_cast<BinaryOperator>(bare(If->getCond()));
    if (!Cmp || Cmp->getOpcode() != BO_EQ || integerOf(Cmp->getRHS(), Ctx) != 0)
      return false;
    const auto *Numel = tensorMethod(Cmp->getLHS(), Api, "numel");
    const auto *Size = tensorMethod(Cmp->getLHS(), Api, "size");
    if (!(Numel && written(Numel) == 0 && names(Numel->getImplicitObjectArgument(), Boxes)) &&
        !(Size && written(Size) == 1 && names(Size->getImplicitObjectArgument(), Boxes) &&
          integerOf(Size->getArg(0), Ctx) == 0))
      return false;
    auto Call = Api.resolve(bare(skipValueWrappers(R->getRetValue())));
    return Call && !Call->Entries.empty() && !Call->IsMethod && (Call->Name == "empty" || Call->Name == "zeros") &&
           Call->Args.size() == 2 && integerOf(singleSize(Call->Args[0]), Ctx) == 0 &&
           ApiResolver::mentionsConstant(Call->Args[1], "Long", "");
  }

  /// `return keep_t.narrow(0, 0, count);` (or `slice`).
  bool finalReturn(const ReturnStmt *R) {
    const Expr *E = R->getRetValue();
    const CXXMemberCallExpr *MC = tensorMethod(E, Api, "narrow");
    if (!MC)
      MC = tensorMethod(E, Api, "slice");
    return MC && written(MC) == 3 && roleOf(MC->getImplicitObjectArgument(), Tensors) == Role::Keep &&
           integerOf(MC->getArg(0), Ctx) == 0 && integerOf(MC->getArg(1), Ctx) == 0 &&
           roleOf(MC->getArg(2), Integers) == Role::Count;
  }

  /// `for (int64_t c = <From>; c < size; c++)`: the counter, or null.
  const VarDecl *countedLoop(const ForStmt *For, const VarDecl *From) {
    const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit());
    const auto *VD = Init && Init->isSingleDecl() ? dyn_cast<VarDecl>(Init->getSingleDecl()) : nullptr;
    if (!VD || !VD->getType()->isIntegerType() || !VD->getInit())
      return nullptr;
    if (From) {
      const auto *Next = dyn_cast<BinaryOperator>(bare(skipValueWrappers(VD->getInit())));
      if (!Next || Next->getOpcode() != BO_Add || !names(Next->getLHS(), From) || integerOf(Next->getRHS(), Ctx) != 1)
        return nullptr;
    } else if (integerOf(VD->getInit(), Ctx) != 0) {
      return nullptr;
    }
    const auto *Cond = dyn_cast_or_null<BinaryOperator>(bare(For->getCond()));
    if (!Cond || Cond->getOpcode() != BO_LT || !names(Cond->getLHS(), VD) ||
        roleOf(Cond->getRHS(), Integers) != Role::Size)
      return nullptr;
    const Expr *Inc = bare(For->getInc());
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc); U && U->isIncrementOp() && names(U->getSubExpr(), VD))
      return VD;
    if (const auto *A = dyn_cast_or_null<CompoundAssignOperator>(Inc);
        A && A->getOpcode() == BO_AddAssign && names(A->getLHS(), VD) && integerOf(A->getRHS(), Ctx) == 1)
      return VD;
    return nullptr;
  }

  /// `auto i = order[c];`: the candidate visited at step c.
  const VarDecl *candidate(const Stmt *S, const VarDecl *Counter) {
    const auto *DS = dyn_cast<DeclStmt>(S);
    const auto *VD = DS && DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
    if (!VD || !VD->getType()->isIntegerType() || !VD->getInit())
      return nullptr;
    const auto *Sub = dyn_cast<ArraySubscriptExpr>(bare(skipValueWrappers(VD->getInit())));
    if (!Sub || roleOf(Sub->getBase(), Pointers) != Role::Order || !names(Sub->getIdx(), Counter))
      return nullptr;
    return VD;
  }

  /// `suppressed[c]` read as a test: `== 1`, `!= 0` or the byte itself.
  bool isSuppressedTest(const Expr *E, const VarDecl *Candidate) {
    E = bare(E);
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E);
        Cast && (Cast->getCastKind() == CK_IntegralToBoolean || Cast->getCastKind() == CK_IntegralCast))
      E = bare(Cast->getSubExpr());
    if (const auto *Cmp = dyn_cast<BinaryOperator>(E)) {
      std::optional<int64_t> Rhs = integerOf(Cmp->getRHS(), Ctx);
      if (!((Cmp->getOpcode() == BO_EQ && Rhs == 1) || (Cmp->getOpcode() == BO_NE && Rhs == 0)))
        return false;
      E = bare(Cmp->getLHS());
      if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E); Cast && Cast->getCastKind() == CK_IntegralCast)
        E = bare(Cast->getSubExpr());
    }
    const auto *Sub = dyn_cast<ArraySubscriptExpr>(E);
    return Sub && roleOf(Sub->getBase(), Pointers) == Role::Suppressed && names(Sub->getIdx(), Candidate);
  }

  /// `if (suppressed[c] == 1) continue;`
  bool skipsSuppressed(const Stmt *S, const VarDecl *Candidate) {
    const auto *If = dyn_cast<IfStmt>(S);
    return isa_and_nonnull<ContinueStmt>(soleThen(If)) && isSuppressedTest(If->getCond(), Candidate);
  }

  /// `keep[count++] = i;`
  bool appendsKept(const Stmt *S, const VarDecl *Candidate) {
    const auto *A = dyn_cast<BinaryOperator>(S);
    if (!A || A->getOpcode() != BO_Assign || !names(A->getRHS(), Candidate))
      return false;
    const auto *Sub = dyn_cast<ArraySubscriptExpr>(bare(A->getLHS()));
    if (!Sub || roleOf(Sub->getBase(), Pointers) != Role::Keep)
      return false;
    const auto *Inc = dyn_cast<UnaryOperator>(bare(skipValueWrappers(Sub->getIdx())));
    return Inc && Inc->getOpcode() == UO_PostInc && roleOf(Inc->getSubExpr(), Integers) == Role::Count;
  }

  /// A scalar local of a loop body: `auto xx1 = std::max(ix1, x1[j]);` in the boxes' element type.
  bool scalarLocal(const Stmt *S) {
    const auto *DS = dyn_cast<DeclStmt>(S);
    if (!DS)
      return false;
    for (const Decl *D : DS->decls()) {
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!VD || !VD->getInit() || !Ctx.hasSameType(VD->getType().getUnqualifiedType(), Element))
        return false;
      std::optional<std::string> T = term(VD->getInit());
      if (!T)
        return false;
      Terms[VD] = *T;
    }
    return true;
  }

  /// The rest of a loop body from `It`: scalar locals, then exactly one statement, returned
  /// (null when a local is not the kernel's arithmetic or the statements do not end so).
  const Stmt *lastAfterScalarLocals(CompoundStmt::const_body_iterator It, CompoundStmt::const_body_iterator End) {
    for (; It != End && isa<DeclStmt>(*It); ++It)
      if (!scalarLocal(*It))
        return nullptr;
    return It != End && std::next(It) == End ? *It : nullptr;
  }

  bool outerLoop(const ForStmt *For) {
    for (Role R :
         {Role::Column0, Role::Column1, Role::Column2, Role::Column3, Role::Order, Role::Suppressed, Role::Keep})
      if (!has(Tensors, R))
        return false;
    if (Element.isNull() || !has(Pointers, Role::Order) || !has(Pointers, Role::Suppressed) ||
        !has(Pointers, Role::Keep) || !has(Integers, Role::Size) || !has(Integers, Role::Count))
      return false;
    const VarDecl *Step = countedLoop(For, nullptr);
    const auto *Body = dyn_cast_or_null<CompoundStmt>(For->getBody());
    if (!Step || !Body || Body->size() < 4)
      return false;
    auto It = Body->body_begin();
    Outer = candidate(*It++, Step);
    if (!Outer || !skipsSuppressed(*It++, Outer) || !appendsKept(*It++, Outer))
      return false;
    const auto *InnerFor = dyn_cast_or_null<ForStmt>(lastAfterScalarLocals(It, Body->body_end()));
    return InnerFor && innerLoop(InnerFor, Step);
  }

  bool innerLoop(const ForStmt *For, const VarDecl *OuterStep) {
    const VarDecl *Step = countedLoop(For, OuterStep);
    const auto *Body = dyn_cast_or_null<CompoundStmt>(For->getBody());
    if (!Step || !Body || Body->size() < 3)
      return false;
    auto It = Body->body_begin();
    Inner = candidate(*It++, Step);
    if (!Inner || !skipsSuppressed(*It++, Inner))
      return false;
    const Stmt *Last = lastAfterScalarLocals(It, Body->body_end());
    return Last && suppressesOverlapping(Last);
  }

  /// `if (ovr > threshold) suppressed[j] = 1;` with the kernel's IoU.
  bool suppressesOverlapping(const Stmt *S) {
    const auto *If = dyn_cast<IfStmt>(S);
    const auto *Set = dyn_cast_or_null<BinaryOperator>(soleThen(If));
    if (!Set || Set->getOpcode() != BO_Assign)
      return false;
    const auto *Sub = dyn_cast<ArraySubscriptExpr>(bare(Set->getLHS()));
    const Expr *One = skipValueWrappers(Set->getRHS());
    if (!Sub || roleOf(Sub->getBase(), Pointers) != Role::Suppressed || !names(Sub->getIdx(), Inner) ||
        !(integerOf(One, Ctx) == 1 || boolOf(One) == true))
      return false;
    const auto *Cmp = dyn_cast<BinaryOperator>(bare(If->getCond()));
    if (!Cmp || (Cmp->getOpcode() != BO_GT && Cmp->getOpcode() != BO_LT))
      return false;
    const Expr *Iou = Cmp->getOpcode() == BO_GT ? Cmp->getLHS() : Cmp->getRHS();
    const Expr *Limit = Cmp->getOpcode() == BO_GT ? Cmp->getRHS() : Cmp->getLHS();
    // C++ compares in the wider of the two types: widening either side keeps the result.
    if (!names(widened(Limit), Threshold))
      return false;
    std::optional<std::string> T = term(widened(Iou));
    return T && "gt(" + *T + ",threshold)" == kernelTest();
  }

  /// `E` without a floating-point widening (float to double) or lvalue conversions.
  const Expr *widened(const Expr *E) {
    E = bare(E);
    if (const auto *C = dyn_cast<ImplicitCastExpr>(E); C && C->getCastKind() == CK_FloatingCast &&
        Ctx.getTypeSize(C->getType()) >= Ctx.getTypeSize(C->getSubExpr()->getType()))
      E = bare(C->getSubExpr());
    return E;
  }

  /// The canonical term of scalar arithmetic in the element type, or nullopt.
  std::optional<std::string> term(const Expr *E) {
    E = bare(E);
    if (!E)
      return std::nullopt;
    if (isZero(E))
      return "0";
    if (!Ctx.hasSameType(E->getType().getNonReferenceType().getUnqualifiedType(), Element))
      return std::nullopt;
    if (const VarDecl *VD = varOf(E)) {
      auto It = Terms.find(VD);
      return It == Terms.end() ? std::nullopt : std::optional<std::string>(It->second);
    }
    if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(E)) {
      std::optional<Role> R = roleOf(Sub->getBase(), Pointers);
      const VarDecl *Index = varOf(Sub->getIdx());
      if (!R || (Index != Outer && Index != Inner) || !Index)
        return std::nullopt;
      const std::string Side = Index == Outer ? "i" : "j";
      if (*R <= Role::Column3)
        return column(static_cast<int>(*R) - static_cast<int>(Role::Column0), Side);
      if (*R == Role::Areas)
        return area(Side);
      return std::nullopt;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      static const std::pair<BinaryOperatorKind, const char *> Ops[] = {
          {BO_Add, "add"}, {BO_Sub, "sub"}, {BO_Mul, "mul"}, {BO_Div, "div"}};
      for (const auto &[Kind, Name] : Ops)
        if (BO->getOpcode() == Kind) {
          auto A = term(BO->getLHS()), B = term(BO->getRHS());
          if (!A || !B)
            return std::nullopt;
          return apply(Name, *A, *B);
        }
      return std::nullopt;
    }
    if (const auto *CE = dyn_cast<CallExpr>(E)) {
      std::string Callee = freeCallee(CE);
      if ((Callee != "std::max" && Callee != "std::min") || CE->getNumArgs() != 2)
        return std::nullopt;
      auto A = term(CE->getArg(0)), B = term(CE->getArg(1));
      if (!A || !B)
        return std::nullopt;
      return apply(Callee == "std::max" ? "max" : "min", *A, *B);
    }
    // std::max(a, b) is `a < b ? b : a`, std::min(a, b) is `b < a ? b : a`.
    if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      const auto *Less = dyn_cast<BinaryOperator>(bare(CO->getCond()));
      if (!Less || Less->getOpcode() != BO_LT)
        return std::nullopt;
      auto L = term(Less->getLHS()), R = term(Less->getRHS());
      auto Then = term(CO->getTrueExpr()), Else = term(CO->getFalseExpr());
      if (!L || !R || !Then || !Else)
        return std::nullopt;
      if (*Then == *R && *Else == *L)
        return apply("max", *L, *R);
      if (*Then == *L && *Else == *R)
        return apply("min", *R, *L);
      return std::nullopt;
    }
    return std::nullopt;
  }

  /// A zero of any arithmetic type: `0`, `0.f`, `static_cast<float>(0)`.
  bool isZero(const Expr *E) const {
    E = skipValueWrappers(E);
    if (const auto *SC = dyn_cast<CXXStaticCastExpr>(E))
      E = skipValueWrappers(SC->getSubExpr());
    if (const auto *F = dyn_cast<FloatingLiteral>(E))
      return F->getValue().isZero();
    if (const auto *I = dyn_cast<IntegerLiteral>(E))
      return I->getValue().isZero();
    return false;
  }
};

} // namespace

std::optional<SuppressionKernel> recognizeSuppressionKernel(const FunctionDecl &FD, const ApiResolver &Api) {
  return KernelMatcher(FD, Api).match();
}

} // namespace graphify
