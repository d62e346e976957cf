// The exchange formats are line-oriented so that a harness that dies half-way still leaves every
// completed trial readable, and so that the harness side (generated C++ with no dependencies)
// stays a few lines of printf.
#include "graphify/validate/Values.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringRef.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace graphify::validate {

static llvm::Error formatError(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

int64_t HostTensor::numel() const {
  int64_t N = 1;
  for (int64_t D : Shape)
    N *= D;
  return N;
}

std::string formatTensor(const HostTensor &T) {
  if (T.Undefined)
    return "undefined";
  std::string S = T.IsScalar ? "s " : "";
  S += dtypeName(T.Type);
  S += " " + std::to_string(T.Shape.size());
  for (int64_t D : T.Shape)
    S += " " + std::to_string(D);
  S += " :";
  char Buf[40];
  int64_t N = T.numel();
  for (int64_t I = 0; I < N; ++I) {
    if (isFloating(T.Type))
      std::snprintf(Buf, sizeof Buf, " %.17g", T.Floats[I]);
    else
      std::snprintf(Buf, sizeof Buf, " %lld", static_cast<long long>(T.Ints[I]));
    S += Buf;
  }
  return S;
}

llvm::Expected<HostTensor> parseTensor(const std::string &Line) {
  HostTensor T;
  llvm::StringRef Rest(Line);
  Rest = Rest.trim();
  if (Rest == "undefined") {
    T.Undefined = true;
    return T;
  }
  llvm::SmallVector<llvm::StringRef, 16> Tok;
  Rest.split(Tok, ' ', -1, /*KeepEmpty=*/false);
  size_t I = 0;
  if (I < Tok.size() && Tok[I] == "s") {
    T.IsScalar = true;
    ++I;
  }
  if (I >= Tok.size())
    return formatError("empty tensor line");
  auto Type = parseDType(Tok[I++].str());
  if (!Type)
    return formatError("unknown dtype in tensor line '" + Line.substr(0, 60) + "'");
  T.Type = *Type;
  unsigned NDim = 0;
  if (I >= Tok.size() || Tok[I++].getAsInteger(10, NDim))
    return formatError("malformed rank in tensor line '" + Line.substr(0, 60) + "'");
  for (unsigned D = 0; D < NDim; ++D) {
    int64_t Size = 0;
    if (I >= Tok.size() || Tok[I++].getAsInteger(10, Size) || Size < 0)
      return formatError("malformed shape in tensor line '" + Line.substr(0, 60) + "'");
    T.Shape.push_back(Size);
  }
  if (I >= Tok.size() || Tok[I++] != ":")
    return formatError("missing ':' in tensor line '" + Line.substr(0, 60) + "'");
  int64_t N = T.numel();
  if (int64_t(Tok.size() - I) != N)
    return formatError("tensor line has " + llvm::Twine(Tok.size() - I) + " values for " + llvm::Twine(N) +
                       " elements");
  for (; I < Tok.size(); ++I) {
    std::string V = Tok[I].str();
    char *End = nullptr;
    if (isFloating(T.Type)) {
      T.Floats.push_back(std::strtod(V.c_str(), &End));
    } else {
      T.Ints.push_back(std::strtoll(V.c_str(), &End, 10));
    }
    if (End != V.c_str() + V.size())
      return formatError("malformed value '" + V + "' in tensor line");
  }
  return T;
}

std::string formatInputsFile(const std::vector<TrialInputs> &Trials) {
  std::string S = "graphify-inputs 1\n";
  for (const TrialInputs &T : Trials) {
    S += "trial " + std::to_string(T.Trial) + " " + T.Variant + " " + std::to_string(T.Inputs.size()) + "\n";
    for (const HostTensor &In : T.Inputs)
      S += formatTensor(In) + "\n";
  }
  return S;
}

llvm::Expected<std::vector<TrialInputs>> parseInputsFile(const std::string &Text) {
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  llvm::StringRef(Text).split(Lines, '\n', -1, /*KeepEmpty=*/false);
  if (Lines.empty() || Lines[0] != "graphify-inputs 1")
    return formatError("not a graphify inputs file");
  std::vector<TrialInputs> Out;
  for (size_t L = 1; L < Lines.size();) {
    llvm::SmallVector<llvm::StringRef, 4> Tok;
    Lines[L++].split(Tok, ' ');
    TrialInputs T;
    unsigned N = 0;
    if (Tok.size() != 4 || Tok[0] != "trial" || Tok[1].getAsInteger(10, T.Trial) || Tok[3].getAsInteger(10, N))
      return formatError("malformed trial header in inputs file: '" + Lines[L - 1] + "'");
    T.Variant = Tok[2].str();
    for (unsigned I = 0; I < N; ++I) {
      if (L >= Lines.size())
        return formatError("inputs file ends inside trial " + llvm::Twine(T.Trial));
      auto In = parseTensor(Lines[L++].str());
      if (!In)
        return In.takeError();
      T.Inputs.push_back(std::move(*In));
    }
    Out.push_back(std::move(T));
  }
  return Out;
}

std::string escapeField(const std::string &S) {
  std::string Out;
  for (char C : S) {
    if (C == '\\')
      Out += "\\\\";
    else if (C == '\n')
      Out += "\\n";
    else if (C == '\t')
      Out += "\\t";
    else
      Out += C;
  }
  return Out;
}

std::string unescapeField(const std::string &S) {
  std::string Out;
  for (size_t I = 0; I < S.size(); ++I) {
    if (S[I] == '\\' && I + 1 < S.size()) {
      char N = S[++I];
      Out += N == 'n' ? '\n' : N == 't' ? '\t' : N;
    } else {
      Out += S[I];
    }
  }
  return Out;
}

/// Reads `<kind> <t> ok <n>` + n tensor lines, or `<kind> <t> error <msg>`.
static llvm::Error parseTrial(llvm::ArrayRef<llvm::StringRef> Lines, size_t &L, llvm::StringRef Head,
                              std::vector<TrialOutputs> &Into) {
  auto [Kind, Rest] = Head.split(' ');
  auto [TrialText, Rest2] = Rest.split(' ');
  auto [Status, Tail] = Rest2.split(' ');
  TrialOutputs T;
  if (TrialText.getAsInteger(10, T.Trial))
    return formatError("malformed trial number in results line '" + Head + "'");
  if (Status == "error") {
    T.Error = unescapeField(Tail.str());
    Into.push_back(std::move(T));
    return llvm::Error::success();
  }
  unsigned N = 0;
  if (Status != "ok" || Tail.getAsInteger(10, N))
    return formatError("malformed results line '" + Head + "'");
  T.Ok = true;
  for (unsigned I = 0; I < N; ++I) {
    // A harness killed mid-record leaves a truncated trial: treat it as not written.
    if (L >= Lines.size())
      return llvm::Error::success();
    auto V = parseTensor(Lines[L++].str());
    if (!V)
      return V.takeError();
    T.Values.push_back(std::move(*V));
  }
  Into.push_back(std::move(T));
  return llvm::Error::success();
}

/// Reads `grad <t> ok <n> <s>` + s `<output>\t<why>` lines + n `<target>\t<tensor>` lines, or
/// `grad <t> error <msg>`.
static llvm::Error parseGradientTrial(llvm::ArrayRef<llvm::StringRef> Lines, size_t &L, llvm::StringRef Head,
                                      std::vector<TrialGradients> &Into) {
  llvm::SmallVector<llvm::StringRef, 5> Tok;
  Head.split(Tok, ' ', /*MaxSplit=*/3);
  TrialGradients T;
  if (Tok.size() < 3 || Tok[1].getAsInteger(10, T.Trial))
    return formatError("malformed results line '" + Head.take_front(80) + "'");
  if (Tok[2] == "error") {
    T.Error = unescapeField(Tok.size() > 3 ? Tok[3].str() : "");
    Into.push_back(std::move(T));
    return llvm::Error::success();
  }
  unsigned N = 0, Skipped = 0;
  auto [NText, SText] = Tok.size() > 3 ? Tok[3].split(' ') : std::pair<llvm::StringRef, llvm::StringRef>();
  if (Tok[2] != "ok" || NText.getAsInteger(10, N) || SText.getAsInteger(10, Skipped))
    return formatError("malformed results line '" + Head.take_front(80) + "'");
  T.Ok = true;
  for (unsigned I = 0; I < Skipped + N; ++I) {
    if (L >= Lines.size())
      return llvm::Error::success(); // truncated by a dying harness: the trial is not counted
    auto [Left, Right] = Lines[L++].split('\t');
    if (I < Skipped) {
      unsigned Output = 0;
      if (Left.getAsInteger(10, Output))
        return formatError("malformed skipped-output line '" + Left.take_front(80) + "'");
      T.SkippedOutputs.push_back({Output, unescapeField(Right.str())});
      continue;
    }
    auto V = parseTensor(Right.str());
    if (!V)
      return V.takeError();
    T.Gradients.push_back({unescapeField(Left.str()), std::move(*V)});
  }
  Into.push_back(std::move(T));
  return llvm::Error::success();
}

llvm::Expected<HarnessResults> parseResultsFile(const std::string &Text) {
  HarnessResults R;
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  llvm::StringRef(Text).split(Lines, '\n', -1, /*KeepEmpty=*/false);
  if (Lines.empty())
    return R; // the harness died before writing anything
  if (Lines[0] != "graphify-results 1")
    return formatError("not a graphify results file");
  for (size_t L = 1; L < Lines.size();) {
    llvm::StringRef Head = Lines[L++];
    if (Head.starts_with("eager ")) {
      if (auto E = parseTrial(Lines, L, Head, R.Eager))
        return std::move(E);
    } else if (Head.starts_with("replay ")) {
      if (auto E = parseTrial(Lines, L, Head, R.Replays))
        return std::move(E);
    } else if (Head.starts_with("grad ")) {
      if (auto E = parseGradientTrial(Lines, L, Head, R.Gradients))
        return std::move(E);
    } else if (Head.starts_with("params ")) {
      unsigned N = 0;
      if (Head.drop_front(strlen("params ")).getAsInteger(10, N))
        return formatError("malformed results line '" + Head.take_front(80) + "'");
      R.Parameters = N;
    } else if (Head == "capture ok") {
      R.Capture.Status = CaptureOutcome::State::Captured;
    } else if (Head.starts_with("capture refused ")) {
      llvm::SmallVector<llvm::StringRef, 4> F;
      Head.drop_front(strlen("capture refused ")).split(F, '\t');
      if (F.size() != 4 || F[0].getAsInteger(10, R.Capture.Line))
        return formatError("malformed results line '" + Head + "'");
      R.Capture.Status = CaptureOutcome::State::Refused;
      R.Capture.Op = unescapeField(F[1].str());
      R.Capture.File = unescapeField(F[2].str());
      R.Capture.Message = unescapeField(F[3].str());
    } else if (Head.starts_with("capture failed ")) {
      R.Capture.Status = CaptureOutcome::State::Failed;
      R.Capture.Message = unescapeField(Head.drop_front(strlen("capture failed ")).str());
    } else if (Head.starts_with("warning ")) {
      R.Warnings.push_back(unescapeField(Head.drop_front(strlen("warning ")).str()));
    } else if (Head.starts_with("nodevice ")) {
      R.NoDevice = unescapeField(Head.drop_front(strlen("nodevice ")).str());
    } else if (Head.starts_with("fatal ")) {
      R.Fatal = unescapeField(Head.drop_front(strlen("fatal ")).str());
    } else if (Head == "done") {
      R.Finished = true;
    } else {
      return formatError("unexpected results line '" + Head.take_front(80) + "'");
    }
  }
  return R;
}

} // namespace graphify::validate
