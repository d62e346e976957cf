#pragma once
/// \file
/// What the taint interpreter's parts share (TaintAnalysis.cpp, TaintProgram.cpp,
/// BodyInterpreter*.cpp): a function's summary as its callers see it, the summary bits of
/// parameters, and the shapes of C++ the interpreter recognises by signature (a size query, an
/// element read, an iterator, a method that stores its arguments, a forwarding reference).
///
/// \code
///   if (const VarDecl *V = taint::rootVariable(LHS)) ... // `v` of `v[i].x = ...`
/// \endcode

#include "TaintState.h"

#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/bit.h>

#include <string>

namespace graphify::taint {

/// What a caller needs to know about a function body.
struct FunctionSummary {
  TaintValue Return;       ///< taint of the returned value (Params: which parameters flow to it)
  /// Whether the returned tensor's shape follows tensor values (Params: the shapes of which
  /// tensor parameters flow to it).
  TaintValue ReturnShape;
  /// The length of a returned host container (Return is then its elements only).
  TaintValue ReturnSize;
  bool ReturnsMask = false;///< every return is a provable boolean mask
  /// Every return is a tensor in pageable host memory. Only read for functions defined in
  /// another TU (imported): a body of this TU is followed to its factory (HostOrigin.h).
  bool ReturnsHost = false;
  bool SawReturn = false;
  /// Per parameter: what a reference or pointer parameter holds at exit (a host container's
  /// elements), and how many elements a host container parameter holds then. Kept apart so that
  /// a helper filling a vector with tensor values at static positions does not make its length
  /// data dependent for the caller.
  llvm::SmallVector<TaintValue, 4> Out, OutSize;
  /// Per parameter: for a `Tensor&` parameter, the call that left the tensor it holds at every
  /// exit in pageable host memory (`out = torch::from_blob(...).clone();`), or a parameter's
  /// placeholder (`Impl::paramPlaceholder`) when it holds whatever that parameter held at the
  /// call (`padded = pad(original, ...)`, or left as it came); null when it may be on a device.
  /// Kept within the TU: the calls are this TU's nodes.
  llvm::SmallVector<const clang::Expr *, 4> OutHost;
  /// The host scalar fields (of any object) the body writes, itself or through the calls it
  /// makes: a call under a condition that follows tensor data leaves them following the data
  /// (`if (score > t) track.hit();` with `hit() { misses = 0; }`). Kept within the TU.
  llvm::SmallVector<const clang::FieldDecl *, 4> WritesFields;
  /// The tensor fields (of any object) the body rebinds, itself or through its calls, and whether
  /// it may rebind any (it makes a call graphify has no summary for: virtual, through a lambda,
  /// defined elsewhere). A caller's TaintState::ThisFieldShapes forgets them at the call. Kept
  /// within the TU.
  llvm::SmallVector<const clang::FieldDecl *, 4> RebindsTensorFields;
  bool RebindsAnyTensorField = false;

  unsigned weight() const {
    unsigned W = Return.tainted() + llvm::popcount(Return.Params) + ReturnsMask + ReturnsHost + ReturnShape.tainted() +
                 llvm::popcount(ReturnShape.Params) + ReturnSize.tainted() + llvm::popcount(ReturnSize.Params);
    W += llvm::count_if(OutHost, [](const clang::Expr *O) { return O != nullptr; });
    W += WritesFields.size() + RebindsTensorFields.size() + RebindsAnyTensorField;
    for (const TaintValue &V : Out)
      W += V.tainted() + llvm::popcount(V.Params);
    for (const TaintValue &V : OutSize)
      W += V.tainted() + llvm::popcount(V.Params);
    return W;
  }

  /// Joins what another round (or another body of the same function) found. Summaries only grow
  /// across rounds, so that the rounds terminate.
  void absorb(const FunctionSummary &Sum) {
    Return = join(Return, Sum.Return);
    ReturnShape = join(ReturnShape, Sum.ReturnShape);
    ReturnSize = join(ReturnSize, Sum.ReturnSize);
    ReturnsMask = Sum.ReturnsMask;
    ReturnsHost = ReturnsHost || Sum.ReturnsHost; // a must-fact, kept once found (as OutHost)
    SawReturn = Sum.SawReturn;
    auto JoinAll = [](llvm::SmallVector<TaintValue, 4> &Into, llvm::ArrayRef<TaintValue> From) {
      if (Into.size() < From.size())
        Into.resize(From.size());
      for (unsigned J = 0; J < From.size(); ++J)
        Into[J] = join(Into[J], From[J]);
    };
    JoinAll(Out, Sum.Out);
    JoinAll(OutSize, Sum.OutSize);
    for (const clang::FieldDecl *F : Sum.WritesFields)
      if (!llvm::is_contained(WritesFields, F))
        WritesFields.push_back(F);
    for (const clang::FieldDecl *F : Sum.RebindsTensorFields)
      if (!llvm::is_contained(RebindsTensorFields, F))
        RebindsTensorFields.push_back(F);
    RebindsAnyTensorField = RebindsAnyTensorField || Sum.RebindsAnyTensorField;
    // Host residency is a must-fact: the latest round's answer, but one found is not forgotten,
    // so that the weight still only grows.
    if (OutHost.size() < Sum.OutHost.size())
      OutHost.resize(Sum.OutHost.size(), nullptr);
    for (unsigned J = 0; J < Sum.OutHost.size(); ++J)
      if (Sum.OutHost[J])
        OutHost[J] = Sum.OutHost[J];
  }
};

const clang::FunctionDecl *key(const clang::FunctionDecl *FD);

inline bool isLocal(const clang::VarDecl *VD) { return VD->hasLocalStorage() || llvm::isa<clang::ParmVarDecl>(VD); }

/// The variable an lvalue ultimately lives in (`v` for `v[i]`, `s.f`, `*p`, `v.at(i)`), or null.
const clang::VarDecl *rootVariable(const clang::Expr *E);

/// The variables `std::tie(a, b)` binds, in order; empty for any other expression.
llvm::ArrayRef<const clang::Expr *> tiedReferences(const clang::Expr *E);

/// The field of `*this` an lvalue ultimately lives in (`history_` for `history_[i]`,
/// `this->boxes[i].score`), or null.
const clang::FieldDecl *rootThisField(const clang::Expr *E);

/// Whether the `I`th parameter of the template instantiation `F` was declared as a forwarding
/// reference (`template <typename... A> void debug(const char *fmt, A &&...args)`): it binds
/// an lvalue as a non-const reference only to pass it on as given — a logger's or a formatter's
/// arguments, an `emplace`'s constructor arguments — so it is taken as read, not written.
bool isForwardingReference(const clang::FunctionDecl &F, unsigned I);

/// `size()`, `empty()`, `has_value()`, `operator bool`: a const method without parameters
/// that returns an integer or a bool by value. On a container it reads how many elements there
/// are, not what they hold. Told by the signature, not by name.
bool isSizeQuery(const clang::CXXMethodDecl &MD);

/// `v[i]`, `v.at(i)`, `v.front()`, `opt.value()`, `v.data()`, `m.ptr<float>(r)`: a reference or
/// a pointer to elements, chosen by integer positions (or none). It reads elements, not the
/// number of elements.
bool isElementRead(const clang::CXXMethodDecl &MD);

/// An opaque non-const method of an object that is not a container: one that returns nothing
/// (`add(w)`, `update(s)`) or the object itself (a builder) is taken to store its arguments; one
/// that returns a value (`lookup(id)`, `decode(ids)`) is taken to compute it from them. A method
/// whose body the analysis sees needs no such guess.
bool storesArguments(const clang::CXXMethodDecl &MD);

/// The key under which a local container's number of elements is tracked (its elements are
/// under `{VD, nullptr}`).
inline constexpr char ContainerSizeSlot = 0;
inline TaintKey sizeKey(const clang::VarDecl *VD) { return {VD, &ContainerSizeSlot}; }

/// Summary bits (TaintValue::Params): bit i stands for what parameter i holds, bit 32 + i for
/// the number of elements of host-container parameter i, which a caller's container may have
/// apart from its elements (`loop to w.size()` in a helper given a vector of read values of a
/// static length is not data dependent). Parameters past the 32nd get no bit.
inline constexpr unsigned SizeBits = 32;
inline uint64_t paramBit(unsigned I) { return I < SizeBits ? uint64_t(1) << I : 0; }
inline uint64_t sizeBit(unsigned I) { return I < SizeBits ? uint64_t(1) << (SizeBits + I) : 0; }

/// Whether running `S` may leave it by `return` (then the code after a branch around it runs
/// only on some values), go on with the next iteration of the enclosing loop (`continue`), or
/// leave that loop (`break`). Lambdas and nested loops (for break and continue) and switches (for
/// break) keep their own jumps.
struct Exits {
  bool Returns = false, Continues = false, Breaks = false;
};
void findExits(const clang::Stmt *S, Exits &J, bool InLoop = false, bool InSwitch = false);

/// Whether a parameter of type `T` lets the callee write the caller's object: a non-const
/// reference or a pointer to non-const.
inline bool mayWriteThrough(clang::QualType T) {
  return (T->isReferenceType() && !T.getNonReferenceType().isConstQualified()) ||
         (T->isPointerType() && !T->getPointeeType().isConstQualified());
}

std::string nameOf(const clang::NamedDecl *D);

std::string calleeName(const clang::FunctionDecl *FD);

} // namespace graphify::taint
