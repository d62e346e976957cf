#pragma once
/// \file
/// The facts one taint analysis keeps across the bodies of a translation unit (summaries,
/// fields, globals, the call-site context of parameters) and the whole-program bridge that
/// imports them from other translation units' facts (ProgramFacts) and exports this one's.
/// Private to the taint analysis (TaintAnalysis::Impl); BodyInterpreter reads and grows it.

#include "CallSites.h"
#include "TaintSupport.h"

#include "graphify/analyzer/ProgramFacts.h"
#include "graphify/analyzer/TaintAnalysis.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/SmallPtrSet.h>

#include <functional>
#include <memory>
#include <map>
#include <optional>
#include <set>
#include <string>

namespace graphify {

class TaintAnalysis::Impl {public:
  Impl(clang::ASTContext &Ctx, TaintFacts &Facts, std::function<bool(const clang::Decl *)> IsRegion)
      : Ctx(Ctx), Facts(Facts), Api(Facts.api()), IsRegion(std::move(IsRegion)) {}

  clang::ASTContext &Ctx;
  TaintFacts &Facts;
  const ApiResolver &Api;
  std::function<bool(const clang::Decl *)> IsRegion;

  llvm::DenseMap<const clang::FunctionDecl *, taint::FunctionSummary> Summaries;
  /// Taint a parameter receives at some analyzed call site (context for reporting in helpers).
  llvm::DenseMap<const clang::FunctionDecl *, llvm::SmallVector<const TracedOrigin *, 4>> ParamEntry;
  /// The same for the length of a host container parameter, which may be clean while its
  /// elements hold tensor values (a vector filled at static positions).
  llvm::DenseMap<const clang::FunctionDecl *, llvm::SmallVector<const TracedOrigin *, 4>> ParamSizeEntry;
  /// Fields written from tensor data anywhere in the TU (flow-insensitive, per FieldDecl).
  llvm::DenseMap<const clang::FieldDecl *, const TracedOrigin *> FieldTaint;
  /// Globals and statics written from tensor data anywhere in the TU.
  llvm::DenseMap<const clang::VarDecl *, const TracedOrigin *> GlobalTaint;
  /// Fields holding a tensor (or tensors) given a value-dependent shape anywhere in the TU.
  llvm::DenseMap<const clang::FieldDecl *, const TracedOrigin *> FieldShapes;
  /// Container fields whose number of elements follows tensor data anywhere in the TU.
  llvm::DenseMap<const clang::FieldDecl *, const TracedOrigin *> FieldSizes;
  /// Tensor fields that a function of the TU leaves holding a tensor in pageable host memory
  /// when it returns (a constructor, a method that ends with `cache_ = out.to(kCPU)`; with the
  /// call that put it there), and those that a function leaves holding anything else, or that
  /// are passed where a callee may rebind them. A field that every function leaves in host
  /// memory holds a host tensor whenever a method starts.
  llvm::DenseMap<const clang::FieldDecl *, const clang::Expr *> FieldHostWrites;
  unsigned FieldHostUpgrades = 0; ///< origins of no elements replaced by one that has some
  /// hostFilledList of each local list of tensors, computed once: a declaration is visited again
  /// on every round of a loop's fixpoint, and the answer walks the whole function.
  llvm::DenseMap<const clang::VarDecl *, const clang::Expr *> HostFilledLists;
  /// hostFilledFieldList of each list-of-tensors field, computed once.
  llvm::DenseMap<const clang::FieldDecl *, const clang::Expr *> HostFilledFieldLists;
  llvm::DenseSet<const clang::FieldDecl *> FieldOtherWrites;
  /// storedOnlyVisibly of each local list of tensors, computed once (as HostFilledLists).
  llvm::DenseMap<const clang::VarDecl *, bool> VisibleStoreLists;
  bool visibleStores(const clang::VarDecl *VD);

  /// A tensor parameter's stand-in origin while its function is summarised: "in host memory if
  /// the caller's argument was". It lets a summary say that a `Tensor&` parameter leaves with
  /// what another parameter came with (`padded = pad(original)`); it is never a fact of the
  /// program itself (`realHostOrigin`).
  const clang::Expr *paramPlaceholder(const clang::ParmVarDecl *P);
  /// The parameter `E` stands in for, when it is a placeholder.
  const clang::ParmVarDecl *placeholderParam(const clang::Expr *E) const;
  /// `Origin`, or null when it is a placeholder rather than a call of the program.
  const clang::Expr *realHostOrigin(const clang::Expr *Origin) const;

  llvm::DenseMap<const clang::ParmVarDecl *, const clang::Expr *> Placeholders;
  llvm::DenseMap<const clang::Expr *, const clang::ParmVarDecl *> PlaceholderParams;

  unsigned weight() const;

  void noteParamEntry(const clang::FunctionDecl *Callee, unsigned Index, const TracedOrigin *O, bool Size = false);

  /// Per function and tensor parameter: the calls that passed it a boolean mask, in any round
  /// (mask-ness of an argument only grows from round to round).
  llvm::DenseMap<std::pair<const clang::FunctionDecl *, unsigned>, llvm::SmallPtrSet<const clang::Expr *, 4>>
      MaskArguments;
  /// Per function and tensor parameter: the calls that passed it a tensor in host memory, with
  /// where it was put there (grows from round to round, as MaskArguments).
  llvm::DenseMap<std::pair<const clang::FunctionDecl *, unsigned>, llvm::DenseMap<const clang::Expr *, const clang::Expr *>>
      HostArguments;
  void noteHostArgument(const clang::FunctionDecl *Callee, unsigned Index, const clang::Expr *Call,
                        const clang::Expr *Origin);
  /// Where the tensor parameter `Index` of `FD` is put in host memory when every call `FD` can
  /// have (CallSites) passes it one (`parse(host_rows)` from the region's only call): the
  /// first such call's origin; null otherwise.
  const clang::Expr *alwaysGivenHost(const clang::FunctionDecl *FD, unsigned Index);
  std::unique_ptr<CallSites> Sites;
  /// CallSites::allCallsOf, in whole-program mode when the analysis is.
  std::optional<llvm::ArrayRef<const clang::CallExpr *>> everyCallOf(const clang::FunctionDecl *FD);
  void noteMaskArgument(const clang::FunctionDecl *Callee, unsigned Index, const clang::Expr *Call);
  /// Whether every call `FD` can have (CallSites) passed a boolean mask as parameter `Index`
  /// (`sample(logits, scores > t)` everywhere: the parameter is a mask in its body).
  bool alwaysGivenMask(const clang::FunctionDecl *FD, unsigned Index);

  /// What parameter `Index` receives at some call site: its value, or (`Size`) a host
  /// container's length. Another TU's entries say only the value, which stands for both there.
  const TracedOrigin *paramEntry(const clang::FunctionDecl *FD, unsigned Index, bool Size = false);

  void analyzeFunction(const clang::FunctionDecl *FD);

  // --- whole-program mode ------------------------------------------------------------------

  const ProgramFacts *Program = nullptr;
  std::set<std::string> *Lookups = nullptr;
  llvm::DenseMap<const clang::Decl *, std::string> Usrs;
  llvm::DenseMap<const PortableOrigin *, const TracedOrigin *> ImportedOrigins;
  llvm::DenseMap<const clang::FunctionDecl *, std::optional<taint::FunctionSummary>> ImportedSummaries;

  const std::string &usr(const clang::Decl *D);

  /// The USR of `D`, recorded as looked up under `Kind` ("S:", "P:", "F:", "G:").
  const std::string &lookup(const char *Kind, const clang::Decl *D);

  /// A local origin standing for a read in another TU (one per portable origin).
  const TracedOrigin *imported(const PortableOrigin *P);

  /// The summary of a function defined in another TU, or null when the program has none.
  const taint::FunctionSummary *importedSummary(const clang::FunctionDecl *FD);

  /// The imported origin `Table` (one of the program's USR-keyed tables) holds for `D`, looked
  /// up under `Kind`.
  const TracedOrigin *importedFrom(const std::map<std::string, const PortableOrigin *> &Table, const char *Kind,
                                   const clang::Decl *D);

  const TracedOrigin *importedField(const clang::FieldDecl *F);

  const TracedOrigin *importedFieldShape(const clang::FieldDecl *F);

  const TracedOrigin *importedFieldSize(const clang::FieldDecl *F);

  const TracedOrigin *importedGlobal(const clang::VarDecl *VD);

  /// `O` in portable form: the imported part as it came, then the steps taken here.
  PortableOrigin portable(const TracedOrigin &O) const;

  const PortableOrigin *keep(FactTable &Out, const TracedOrigin *O) const;};

} // namespace graphify
