// Program facts. Invariant: merge() is a join — it never removes a fact or replaces a known
// origin — so the rounds of whole-program mode only grow the facts and always end, and the
// result depends on the order of merges only through which origin explains a fact, which the
// driver fixes by merging in unit order.
#include "graphify/analyzer/ProgramFacts.h"

#include "CallTargetsDetail.h"

#include <clang/AST/ASTContext.h>
#include <clang/Index/USRGeneration.h>
#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/SmallString.h>

namespace graphify {

bool PortableSummary::sameKind(const PortableSummary &O) const {
  if (!Return.sameKind(O.Return) || !ReturnShape.sameKind(O.ReturnShape) || !ReturnSize.sameKind(O.ReturnSize) ||
      ReturnsMask != O.ReturnsMask || ReturnsHost != O.ReturnsHost ||
      Out.size() != O.Out.size() || OutSize.size() != O.OutSize.size())
    return false;
  for (size_t I = 0; I < Out.size(); ++I)
    if (!Out[I].sameKind(O.Out[I]))
      return false;
  for (size_t I = 0; I < OutSize.size(); ++I)
    if (!OutSize[I].sameKind(O.OutSize[I]))
      return false;
  return true;
}

const PortableOrigin *FactTable::keep(const PortableOrigin *O) {
  if (!O)
    return nullptr;
  return &Storage.emplace_back(*O);
}

namespace {

PortableValue joinValue(FactTable &Into, PortableValue A, const PortableValue &B) {
  if (!A.Origin && B.Origin)
    A.Origin = Into.keep(B.Origin);
  A.Params |= B.Params;
  A.AnyDim = A.AnyDim || B.AnyDim;
  return A;
}

const PortableOrigin *joinOrigin(FactTable &Into, const PortableOrigin *A, const PortableOrigin *B) {
  return A ? A : Into.keep(B);
}

template <typename Map, typename Fn> bool sameKey(const Map &A, const Map &B, const std::string &Key, Fn Same) {
  auto I = A.find(Key), J = B.find(Key);
  if (I == A.end() || J == B.end())
    return (I == A.end()) == (J == B.end());
  return Same(I->second, J->second);
}

} // namespace

void ProgramFacts::merge(const FactTable &U) {
  for (const auto &[Usr, S] : U.Summaries) {
    PortableSummary &Mine = Summaries[Usr];
    // Mask-ness is a must-fact of this round's bodies (every definition agrees), not a join
    // with earlier rounds: it only grows as imported callees become known masks.
    // Host residency likewise.
    if (MaskSeen.insert(Usr).second) {
      Mine.ReturnsMask = S.ReturnsMask;
      Mine.ReturnsHost = S.ReturnsHost;
    } else {
      Mine.ReturnsMask = Mine.ReturnsMask && S.ReturnsMask;
      Mine.ReturnsHost = Mine.ReturnsHost && S.ReturnsHost;
    }
    Mine.Return = joinValue(*this, Mine.Return, S.Return);
    Mine.ReturnShape = joinValue(*this, Mine.ReturnShape, S.ReturnShape);
    Mine.ReturnSize = joinValue(*this, Mine.ReturnSize, S.ReturnSize);
    auto JoinAll = [&](std::vector<PortableValue> &Into, const std::vector<PortableValue> &From) {
      if (Into.size() < From.size())
        Into.resize(From.size());
      for (size_t I = 0; I < From.size(); ++I)
        Into[I] = joinValue(*this, Into[I], From[I]);
    };
    JoinAll(Mine.Out, S.Out);
    JoinAll(Mine.OutSize, S.OutSize);
  }
  for (const auto &[Usr, Entries] : U.ParamEntries) {
    std::vector<const PortableOrigin *> &Mine = ParamEntries[Usr];
    if (Mine.size() < Entries.size())
      Mine.resize(Entries.size(), nullptr);
    for (size_t I = 0; I < Entries.size(); ++I)
      Mine[I] = joinOrigin(*this, Mine[I], Entries[I]);
  }
  for (const auto &[Usr, O] : U.Fields)
    Fields[Usr] = joinOrigin(*this, Fields[Usr], O);
  for (const auto &[Usr, O] : U.FieldShapes)
    FieldShapes[Usr] = joinOrigin(*this, FieldShapes[Usr], O);
  for (const auto &[Usr, O] : U.FieldSizes)
    FieldSizes[Usr] = joinOrigin(*this, FieldSizes[Usr], O);
  for (const auto &[Usr, O] : U.Globals)
    Globals[Usr] = joinOrigin(*this, Globals[Usr], O);
  for (const auto &[Usr, K] : U.Regions) {
    RegionKind &Mine = Regions[Usr];
    Mine = std::max(Mine, K); // strict wins over relaxed
  }
  // A function is defined alike in every unit that defines it (an inline function in a header):
  // in each round the effect of the first unit to export it stands (it may grow between rounds
  // as the effects of its callees in other units become known).
  for (const auto &[Usr, E] : U.Captures)
    if (CaptureSeen.insert(Usr).second)
      Captures[Usr] = E;
  // Overriders of one method live in several units: join them (afresh each round).
  for (const auto &[Usr, E] : U.VirtualCaptures) {
    if (VirtualSeen.insert(Usr).second)
      VirtualCaptures[Usr] = E;
    else
      VirtualCaptures[Usr].join(E);
  }
  // Holders only grow: who calls them, what they are given.
  for (const auto &[Key, H] : U.Callables)
    Callables[Key].join(H);
  // A helper's body is the same wherever it is defined: the first answer stands.
  for (const auto &[Usr, Idle] : U.IdleHelpers)
    IdleHelpers.emplace(Usr, Idle);
  // Calls only add up (the same every round: joining again changes nothing).
  for (const auto &[Usr, W] : U.SetterCalls)
    SetterCalls[Usr].join(W);
  for (const auto &[Usr, W] : U.FlagRecords)
    FlagRecords[Usr].join(W);
}

void ProgramFacts::beginRound() {
  MaskSeen.clear();
  CaptureSeen.clear();
  VirtualSeen.clear();
}

bool ProgramFacts::sameOn(const ProgramFacts &Other, const std::set<std::string> &Lookups) const {
  auto SameOrigin = [](const PortableOrigin *A, const PortableOrigin *B) { return bool(A) == bool(B); };
  for (const std::string &L : Lookups) {
    llvm::StringRef Kind = llvm::StringRef(L).take_front(2);
    std::string Usr = L.substr(2);
    bool Same = true;
    if (Kind == "S:")
      Same = sameKey(Summaries, Other.Summaries, Usr,
                     [](const PortableSummary &A, const PortableSummary &B) { return A.sameKind(B); });
    else if (Kind == "P:")
      Same = sameKey(ParamEntries, Other.ParamEntries, Usr,
                     [&](const std::vector<const PortableOrigin *> &A, const std::vector<const PortableOrigin *> &B) {
                       for (size_t I = 0; I < std::max(A.size(), B.size()); ++I)
                         if (SameOrigin(I < A.size() ? A[I] : nullptr, I < B.size() ? B[I] : nullptr) == false)
                           return false;
                       return true;
                     });
    else if (Kind == "F:")
      Same = SameOrigin(Fields.count(Usr) ? Fields.at(Usr) : nullptr,
                        Other.Fields.count(Usr) ? Other.Fields.at(Usr) : nullptr);
    else if (Kind == "H:")
      Same = SameOrigin(FieldShapes.count(Usr) ? FieldShapes.at(Usr) : nullptr,
                        Other.FieldShapes.count(Usr) ? Other.FieldShapes.at(Usr) : nullptr);
    else if (Kind == "N:")
      Same = SameOrigin(FieldSizes.count(Usr) ? FieldSizes.at(Usr) : nullptr,
                        Other.FieldSizes.count(Usr) ? Other.FieldSizes.at(Usr) : nullptr);
    else if (Kind == "G:")
      Same = SameOrigin(Globals.count(Usr) ? Globals.at(Usr) : nullptr,
                        Other.Globals.count(Usr) ? Other.Globals.at(Usr) : nullptr);
    else if (Kind == "R:")
      Same = region(Usr) == Other.region(Usr);
    else if (Kind == "C:") {
      const CaptureEffect *A = capture(Usr), *B = Other.capture(Usr);
      Same = A && B ? *A == *B : A == B;
    } else if (Kind == "V:") {
      const CaptureEffect *A = virtualCapture(Usr), *B = Other.virtualCapture(Usr);
      Same = A && B ? *A == *B : A == B;
    } else if (Kind == "K:") {
      const HeldCallables *A = callables(Usr), *B = Other.callables(Usr);
      Same = A && B ? *A == *B : A == B;
    } else if (Kind == "I:") {
      Same = idleHelper(Usr) == Other.idleHelper(Usr);
    } else if (Kind == "A:") {
      Same = setterCalls(Usr) == Other.setterCalls(Usr);
    } else if (Kind == "B:") {
      Same = flagRecord(Usr) == Other.flagRecord(Usr);
    }
    if (!Same)
      return false;
  }
  return true;
}

ProgramFacts ProgramFacts::snapshot() const {
  ProgramFacts Copy;
  Copy.Summaries = Summaries;
  Copy.ParamEntries = ParamEntries;
  Copy.Fields = Fields;
  Copy.FieldShapes = FieldShapes;
  Copy.FieldSizes = FieldSizes;
  Copy.Globals = Globals;
  Copy.Regions = Regions;
  Copy.Captures = Captures;
  Copy.VirtualCaptures = VirtualCaptures;
  Copy.Callables = Callables;
  Copy.IdleHelpers = IdleHelpers;
  Copy.SetterCalls = SetterCalls;
  Copy.FlagRecords = FlagRecords;
  return Copy;
}

ProgramFacts ProgramFacts::slice(const std::set<std::string> &Lookups) const {
  ProgramFacts Out;
  auto CopyOrigin = [&](const std::map<std::string, const PortableOrigin *> &From,
                        std::map<std::string, const PortableOrigin *> &To, const std::string &Key) {
    if (auto It = From.find(Key); It != From.end())
      To[Key] = Out.keep(It->second);
  };
  for (const std::string &L : Lookups) {
    llvm::StringRef Kind = llvm::StringRef(L).take_front(2);
    std::string Key = L.substr(2);
    if (Kind == "S:") {
      if (auto It = Summaries.find(Key); It != Summaries.end()) {
        PortableSummary Copy = It->second;
        auto KeepValue = [&](PortableValue &V) { V.Origin = Out.keep(V.Origin); };
        KeepValue(Copy.Return);
        KeepValue(Copy.ReturnShape);
        KeepValue(Copy.ReturnSize);
        llvm::for_each(Copy.Out, KeepValue);
        llvm::for_each(Copy.OutSize, KeepValue);
        Out.Summaries[Key] = std::move(Copy);
      }
    } else if (Kind == "P:") {
      if (auto It = ParamEntries.find(Key); It != ParamEntries.end()) {
        std::vector<const PortableOrigin *> &To = Out.ParamEntries[Key];
        for (const PortableOrigin *O : It->second)
          To.push_back(Out.keep(O));
      }
    } else if (Kind == "F:") {
      CopyOrigin(Fields, Out.Fields, Key);
    } else if (Kind == "H:") {
      CopyOrigin(FieldShapes, Out.FieldShapes, Key);
    } else if (Kind == "N:") {
      CopyOrigin(FieldSizes, Out.FieldSizes, Key);
    } else if (Kind == "G:") {
      CopyOrigin(Globals, Out.Globals, Key);
    } else if (Kind == "R:") {
      if (auto It = Regions.find(Key); It != Regions.end())
        Out.Regions[Key] = It->second;
    } else if (Kind == "C:") {
      if (auto It = Captures.find(Key); It != Captures.end())
        Out.Captures[Key] = It->second;
    } else if (Kind == "V:") {
      if (auto It = VirtualCaptures.find(Key); It != VirtualCaptures.end())
        Out.VirtualCaptures[Key] = It->second;
    } else if (Kind == "K:") {
      if (auto It = Callables.find(Key); It != Callables.end())
        Out.Callables[Key] = It->second;
    } else if (Kind == "I:") {
      if (auto It = IdleHelpers.find(Key); It != IdleHelpers.end())
        Out.IdleHelpers[Key] = It->second;
    } else if (Kind == "A:") {
      if (auto It = SetterCalls.find(Key); It != SetterCalls.end())
        Out.SetterCalls[Key] = It->second;
    } else if (Kind == "B:") {
      if (auto It = FlagRecords.find(Key); It != FlagRecords.end())
        Out.FlagRecords[Key] = It->second;
    }
  }
  return Out;
}

RegionKind ProgramFacts::region(const std::string &Usr) const {
  auto It = Regions.find(Usr);
  return It == Regions.end() ? RegionKind::None : It->second;
}

const CaptureEffect *ProgramFacts::capture(const std::string &Usr) const {
  auto It = Captures.find(Usr);
  return It == Captures.end() ? nullptr : &It->second;
}

const CaptureEffect *ProgramFacts::virtualCapture(const std::string &Usr) const {
  auto It = VirtualCaptures.find(Usr);
  return It == VirtualCaptures.end() ? nullptr : &It->second;
}

const HeldCallables *ProgramFacts::callables(const std::string &Key) const {
  auto It = Callables.find(Key);
  return It == Callables.end() ? nullptr : &It->second;
}

std::optional<bool> ProgramFacts::idleHelper(const std::string &Usr) const {
  auto It = IdleHelpers.find(Usr);
  return It == IdleHelpers.end() ? std::nullopt : std::optional<bool>(It->second);
}

std::optional<FlagWrites> ProgramFacts::setterCalls(const std::string &Usr) const {
  auto It = SetterCalls.find(Usr);
  return It == SetterCalls.end() ? std::nullopt : std::optional<FlagWrites>(It->second);
}

std::optional<FlagWrites> ProgramFacts::flagRecord(const std::string &Usr) const {
  auto It = FlagRecords.find(Usr);
  return It == FlagRecords.end() ? std::nullopt : std::optional<FlagWrites>(It->second);
}

std::string usrOf(const clang::Decl *D) {
  if (!D)
    return {};
  D = D->getCanonicalDecl();
  llvm::SmallString<128> Buf;
  if (clang::index::generateUSRForDecl(D, Buf))
    return {}; // true means "ignore this declaration"
  // Clang names a declaration with internal linkage (`static`, an anonymous namespace) by its
  // file's base name only: two `utils.cpp` in different directories would share a helper. The
  // real path of its file keeps them apart (and still unites a header's copies).
  if (const auto *ND = llvm::dyn_cast<clang::NamedDecl>(D); ND && !ND->isExternallyVisible()) {
    const clang::SourceManager &SM = D->getASTContext().getSourceManager();
    return portablePoint(SM, D->getLocation()).File + "|" + std::string(Buf);
  }
  return std::string(Buf);
}

std::string holderKey(const clang::ValueDecl *Holder) {
  if (const auto *P = llvm::dyn_cast_or_null<clang::ParmVarDecl>(Holder)) {
    const auto *FD = llvm::dyn_cast<clang::FunctionDecl>(P->getDeclContext());
    std::string Usr = FD ? usrOf(FD) : std::string();
    return Usr.empty() ? std::string() : Usr + "#" + std::to_string(P->getFunctionScopeIndex());
  }
  // A registry an accessor returns (`std::vector<Hook> &Hooks() { static std::vector<Hook> h;
  // return h; }`) is keyed by the accessor, which the units that only declare it can name too.
  if (const auto *FD = llvm::dyn_cast_or_null<clang::FunctionDecl>(Holder)) {
    std::string Usr = usrOf(FD);
    return Usr.empty() ? std::string() : Usr + "#returned";
  }
  if (const auto *VD = llvm::dyn_cast_or_null<clang::VarDecl>(Holder); VD && VD->isLocalVarDecl()) {
    const auto *Accessor = llvm::dyn_cast<clang::FunctionDecl>(VD->getDeclContext());
    return VD->isStaticLocal() && Accessor && Accessor->getReturnType()->isLValueReferenceType() &&
                   calltargets::returnedHolder(Accessor) == VD->getCanonicalDecl()
               ? holderKey(Accessor)
               : std::string();
  }
  if (!llvm::isa_and_nonnull<clang::FieldDecl, clang::VarDecl>(Holder))
    return {};
  return usrOf(Holder);
}

std::string bodyKey(const clang::Decl *Body) {
  std::string Usr = usrOf(Body);
  if (!Usr.empty())
    return Usr;
  const clang::SourceManager &SM = Body->getASTContext().getSourceManager();
  SourcePoint P = portablePoint(SM, Body->getLocation());
  return P.File + ":" + std::to_string(P.Line) + ":" + std::to_string(P.Column);
}

SourcePoint portablePoint(const clang::SourceManager &SM, clang::SourceLocation Loc) {
  SourcePoint P;
  clang::SourceLocation FileLoc = SM.getFileLoc(Loc);
  if (FileLoc.isInvalid())
    return P;
  clang::FileID FID = SM.getFileID(FileLoc);
  if (clang::OptionalFileEntryRef FE = SM.getFileEntryRefForID(FID); FE && !FE->getFileEntry().tryGetRealPathName().empty())
    P.File = FE->getFileEntry().tryGetRealPathName().str();
  else
    P.File = SM.getFilename(FileLoc).str();
  P.Line = SM.getSpellingLineNumber(FileLoc);
  P.Column = SM.getSpellingColumnNumber(FileLoc);
  P.Offset = SM.getFileOffset(FileLoc);
  return P;
}

} // namespace graphify
