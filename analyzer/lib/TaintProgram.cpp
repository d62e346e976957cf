// TaintAnalysis::Impl (TaintProgram.h): the TU-wide facts and the whole-program bridge.
#include "TaintProgram.h"

#include "graphify/analyzer/HostOrigin.h"

#include <clang/AST/ExprCXX.h>

#include <map>
#include <tuple>

namespace graphify {

using namespace clang;
using taint::FunctionSummary;
using taint::key;

const Expr *TaintAnalysis::Impl::paramPlaceholder(const ParmVarDecl *P) {
  auto [It, New] = Placeholders.try_emplace(P, nullptr);
  if (New) {
    It->second = DeclRefExpr::Create(Ctx, NestedNameSpecifierLoc(), SourceLocation(), const_cast<ParmVarDecl *>(P),
                                     false, P->getLocation(), P->getType().getNonReferenceType(), VK_LValue);
    PlaceholderParams[It->second] = P;
  }
  return It->second;
}

const ParmVarDecl *TaintAnalysis::Impl::placeholderParam(const Expr *E) const {
  return E ? PlaceholderParams.lookup(E) : nullptr;
}

const Expr *TaintAnalysis::Impl::realHostOrigin(const Expr *Origin) const {
  return placeholderParam(Origin) ? nullptr : Origin;
}

bool TaintAnalysis::Impl::visibleStores(const VarDecl *VD) {
  auto [It, New] = VisibleStoreLists.try_emplace(VD, false);
  if (New)
    It->second = storedOnlyVisibly(VD, Api);
  return It->second;
}

unsigned TaintAnalysis::Impl::weight() const {
  unsigned W = FieldTaint.size() + GlobalTaint.size() + FieldShapes.size() + FieldSizes.size() +
               FieldHostWrites.size() + FieldOtherWrites.size() + FieldHostUpgrades;
  for (const auto &KV : Summaries)
    W += KV.second.weight();
  for (const auto *Entries : {&ParamEntry, &ParamSizeEntry})
    for (const auto &KV : *Entries)
      W += llvm::count_if(KV.second, [](const TracedOrigin *O) { return O != nullptr; });
  for (const auto &KV : MaskArguments)
    W += KV.second.size();
  for (const auto &KV : HostArguments)
    W += KV.second.size();
  return W;
}

std::optional<llvm::ArrayRef<const CallExpr *>> TaintAnalysis::Impl::everyCallOf(const FunctionDecl *FD) {
  if (!Sites)
    Sites = std::make_unique<CallSites>(Ctx);
  return Sites->allCallsOf(*FD, /*WholeProgram=*/Program != nullptr);
}

void TaintAnalysis::Impl::noteMaskArgument(const FunctionDecl *Callee, unsigned Index, const Expr *Call) {
  MaskArguments[{key(Callee), Index}].insert(Call);
}

bool TaintAnalysis::Impl::alwaysGivenMask(const FunctionDecl *FD, unsigned Index) {
  auto It = MaskArguments.find({key(FD), Index});
  if (It == MaskArguments.end())
    return false;
  auto Calls = everyCallOf(FD);
  return Calls && !Calls->empty() &&
         llvm::all_of(*Calls, [&](const CallExpr *CE) { return It->second.contains(CE); });
}

void TaintAnalysis::Impl::noteHostArgument(const FunctionDecl *Callee, unsigned Index, const Expr *Call,
                                           const Expr *Origin) {
  HostArguments[{key(Callee), Index}].try_emplace(Call, Origin);
}

const Expr *TaintAnalysis::Impl::alwaysGivenHost(const FunctionDecl *FD, unsigned Index) {
  auto It = HostArguments.find({key(FD), Index});
  if (It == HostArguments.end())
    return nullptr;
  auto Calls = everyCallOf(FD);
  if (!Calls || Calls->empty())
    return nullptr;
  const Expr *First = nullptr;
  for (const CallExpr *CE : *Calls) {
    const Expr *Origin = It->second.lookup(CE);
    if (!Origin)
      return nullptr;
    First = First ? First : Origin;
  }
  return First;
}

void TaintAnalysis::Impl::noteParamEntry(const FunctionDecl *Callee, unsigned Index, const TracedOrigin *O, bool Size) {
  if (!O)
    return;
  auto &Slots = (Size ? ParamSizeEntry : ParamEntry)[key(Callee)];
  if (Slots.size() <= Index)
    Slots.resize(Index + 1, nullptr);
  if (!Slots[Index])
    Slots[Index] = O;
}

const TracedOrigin *TaintAnalysis::Impl::paramEntry(const FunctionDecl *FD, unsigned Index, bool Size) {
  const auto &Entries = Size ? ParamSizeEntry : ParamEntry;
  auto It = Entries.find(key(FD));
  if (It != Entries.end() && Index < It->second.size() && It->second[Index])
    return It->second[Index];
  if (!Program)
    return nullptr;
  const std::string &Usr = lookup("P:", FD);
  auto Imp = Program->ParamEntries.find(Usr);
  if (Imp == Program->ParamEntries.end() || Index >= Imp->second.size())
    return nullptr;
  return imported(Imp->second[Index]);
}

const std::string &TaintAnalysis::Impl::usr(const Decl *D) {
  auto [It, New] = Usrs.try_emplace(D->getCanonicalDecl());
  if (New)
    It->second = usrOf(D);
  return It->second;
}

const std::string &TaintAnalysis::Impl::lookup(const char *Kind, const Decl *D) {
  const std::string &Usr = usr(D);
  if (Lookups && !Usr.empty())
    Lookups->insert(Kind + Usr);
  return Usr;
}

const TracedOrigin *TaintAnalysis::Impl::imported(const PortableOrigin *P) {
  if (!P)
    return nullptr;
  auto [It, New] = ImportedOrigins.try_emplace(P, nullptr);
  if (New) {
    TracedOrigin *O = Facts.newOrigin();
    O->What = P->What;
    O->SizeOfSelection = P->SizeOfSelection;
    O->FromSelection = P->FromSelection || P->SizeOfSelection;
    O->ThroughControl = P->ThroughControl;
    O->Imported = P;
    It->second = O;
  }
  return It->second;
}

const FunctionSummary *TaintAnalysis::Impl::importedSummary(const FunctionDecl *FD) {
  if (!Program || !FD)
    return nullptr;
  auto [It, New] = ImportedSummaries.try_emplace(key(FD));
  if (New) {
    auto S = Program->Summaries.find(lookup("S:", FD));
    if (S != Program->Summaries.end()) {
      FunctionSummary Sum;
      Sum.Return = {imported(S->second.Return.Origin), S->second.Return.Params, nullptr};
      Sum.ReturnSize = {imported(S->second.ReturnSize.Origin), S->second.ReturnSize.Params, nullptr};
      Sum.ReturnShape = {imported(S->second.ReturnShape.Origin), S->second.ReturnShape.Params, nullptr,
                         S->second.ReturnShape.AnyDim};
      Sum.ReturnsMask = S->second.ReturnsMask;
      Sum.ReturnsHost = S->second.ReturnsHost;
      Sum.SawReturn = true;
      for (const PortableValue &V : S->second.Out)
        Sum.Out.push_back({imported(V.Origin), V.Params, nullptr});
      for (const PortableValue &V : S->second.OutSize)
        Sum.OutSize.push_back({imported(V.Origin), V.Params, nullptr});
      It->second = std::move(Sum);
    }
  }
  return It->second ? &*It->second : nullptr;
}

const TracedOrigin *TaintAnalysis::Impl::importedFrom(const std::map<std::string, const PortableOrigin *> &Table,
                                                      const char *Kind, const Decl *D) {
  if (!Program)
    return nullptr;
  auto It = Table.find(lookup(Kind, D));
  return It == Table.end() ? nullptr : imported(It->second);
}

const TracedOrigin *TaintAnalysis::Impl::importedField(const FieldDecl *F) {
  return Program ? importedFrom(Program->Fields, "F:", F) : nullptr;
}

const TracedOrigin *TaintAnalysis::Impl::importedFieldShape(const FieldDecl *F) {
  return Program ? importedFrom(Program->FieldShapes, "H:", F) : nullptr;
}

const TracedOrigin *TaintAnalysis::Impl::importedFieldSize(const FieldDecl *F) {
  return Program ? importedFrom(Program->FieldSizes, "N:", F) : nullptr;
}

const TracedOrigin *TaintAnalysis::Impl::importedGlobal(const VarDecl *VD) {
  return Program ? importedFrom(Program->Globals, "G:", VD) : nullptr;
}

PortableOrigin TaintAnalysis::Impl::portable(const TracedOrigin &O) const {
  const SourceManager &SM = Ctx.getSourceManager();
  PortableOrigin P;
  if (O.Imported) {
    P = *O.Imported;
  } else {
    P.What = O.What;
    P.SizeOfSelection = O.SizeOfSelection;
    P.FromSelection = O.FromSelection;
    P.ThroughControl = O.ThroughControl;
    SourceLocation Read = O.SourceLoc.isValid() ? O.SourceLoc
                                                : (O.Source ? O.Source->getExprLoc() : SourceLocation());
    P.Read = portablePoint(SM, Read);
  }
  for (size_t I = 0; I < O.Steps.size(); ++I) {
    SourceLocation L = I < O.StepLocs.size() ? O.StepLocs[I] : SourceLocation();
    if (L.isInvalid() && O.Steps[I].first)
      L = O.Steps[I].first->getBeginLoc();
    if (L.isValid())
      P.Steps.push_back({portablePoint(SM, L), O.Steps[I].second});
  }
  return P;
}

const PortableOrigin *TaintAnalysis::Impl::keep(FactTable &Out, const TracedOrigin *O) const {
  if (!O)
    return nullptr;
  PortableOrigin P = portable(*O);
  return Out.keep(&P);
}

void TaintAnalysis::importFrom(const ProgramFacts *Program, std::set<std::string> *Lookups) {
  P->Program = Program;
  P->Lookups = Lookups;
}

void TaintAnalysis::exportTo(FactTable &Out, llvm::ArrayRef<const FunctionDecl *> Functions) const {
  // A program fact keeps "the leading dimension" or "any": other followed dimensions go as any.
  auto Value = [&](const TaintValue &V) {
    return PortableValue{P->keep(Out, V.Origin), V.Params, V.AnyDim || V.ParamDimsMoved || (V.tainted() && V.Dims != 1)};
  };
  for (const FunctionDecl *FD : Functions) {
    auto It = P->Summaries.find(key(FD));
    const std::string &Usr = P->usr(FD);
    if (It == P->Summaries.end() || Usr.empty())
      continue;
    PortableSummary S;
    S.Return = Value(It->second.Return);
    S.ReturnShape = Value(It->second.ReturnShape);
    S.ReturnSize = Value(It->second.ReturnSize);
    S.ReturnsMask = It->second.ReturnsMask;
    S.ReturnsHost = It->second.ReturnsHost;
    for (const TaintValue &V : It->second.Out)
      S.Out.push_back(Value(V));
    for (const TaintValue &V : It->second.OutSize)
      S.OutSize.push_back(Value(V));
    Out.Summaries[Usr] = std::move(S);
  }
  for (const auto &[FD, Slots] : P->ParamEntry) {
    const std::string &Usr = P->usr(FD);
    if (Usr.empty())
      continue;
    std::vector<const PortableOrigin *> &Into = Out.ParamEntries[Usr];
    Into.resize(std::max(Into.size(), Slots.size()), nullptr);
    for (size_t I = 0; I < Slots.size(); ++I)
      if (!Into[I])
        Into[I] = P->keep(Out, Slots[I]);
  }
  // Several declarations may share a USR (a global declared `extern` and defined): the earliest
  // read explains the taint, whatever order the maps iterate in.
  auto Earliest = [&](std::map<std::string, const PortableOrigin *> &Into, const Decl *D, const TracedOrigin *O) {
    const std::string &Usr = P->usr(D);
    if (Usr.empty() || !O)
      return;
    const PortableOrigin *New = P->keep(Out, O);
    const PortableOrigin *&Slot = Into[Usr];
    if (!Slot || std::tie(New->Read.File, New->Read.Offset) < std::tie(Slot->Read.File, Slot->Read.Offset))
      Slot = New;
  };
  for (const auto &[F, O] : P->FieldTaint)
    Earliest(Out.Fields, F, O);
  for (const auto &[F, O] : P->FieldShapes)
    Earliest(Out.FieldShapes, F, O);
  for (const auto &[F, O] : P->FieldSizes)
    Earliest(Out.FieldSizes, F, O);
  for (const auto &[VD, O] : P->GlobalTaint)
    Earliest(Out.Globals, VD, O);
}

} // namespace graphify
