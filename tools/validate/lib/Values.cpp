// The exchange formats are framed by lines so that a harness that dies half-way still leaves every
// completed trial readable, and so that the harness side (generated C++ with no dependencies)
// stays a few lines of printf and fwrite. Payloads are never converted to text: the validator
// reads them where the mapped file holds them.
#include "graphify/validate/Values.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/MathExtras.h>
#include <llvm/Support/MemoryBuffer.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace graphify::validate {

static llvm::Error formatError(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

size_t elementSize(DType T) {
  switch (T) {
  case DType::F32: return 4;
  case DType::F64: return 8;
  case DType::I32: return 4;
  case DType::I64: return 8;
  case DType::Bool: return 1;
  }
  return 0;
}

static int64_t product(const std::vector<int64_t> &Shape) {
  int64_t N = 1;
  for (int64_t D : Shape)
    N *= D;
  return N;
}

int64_t HostTensor::numel() const { return product(Shape); }

HostTensor HostTensor::zeros(DType T, std::vector<int64_t> Shape) {
  HostTensor H;
  H.Type = T;
  H.Shape = std::move(Shape);
  auto Buffer = std::make_shared<std::string>(size_t(H.numel()) * elementSize(T), '\0');
  H.Data = Buffer->data();
  H.Size = Buffer->size();
  H.Owner = std::move(Buffer);
  return H;
}

HostTensor HostTensor::floats(DType T, std::vector<int64_t> Shape, llvm::ArrayRef<double> Values) {
  HostTensor H = zeros(T, std::move(Shape));
  assert(isFloating(T) && size_t(H.numel()) == Values.size() && "a float tensor needs one value per element");
  for (size_t I = 0; I < Values.size(); ++I) {
    if (T == DType::F32) {
      float F = float(Values[I]);
      std::memcpy(H.mutableBytes() + 4 * I, &F, 4);
    } else {
      std::memcpy(H.mutableBytes() + 8 * I, &Values[I], 8);
    }
  }
  return H;
}

HostTensor HostTensor::ints(DType T, std::vector<int64_t> Shape, llvm::ArrayRef<int64_t> Values) {
  HostTensor H = zeros(T, std::move(Shape));
  assert(!isFloating(T) && size_t(H.numel()) == Values.size() && "an integer tensor needs one value per element");
  for (size_t I = 0; I < Values.size(); ++I) {
    if (T == DType::I32) {
      int32_t V = int32_t(Values[I]);
      std::memcpy(H.mutableBytes() + 4 * I, &V, 4);
    } else if (T == DType::I64) {
      std::memcpy(H.mutableBytes() + 8 * I, &Values[I], 8);
    } else {
      H.mutableBytes()[I] = Values[I] ? 1 : 0;
    }
  }
  return H;
}

HostTensor HostTensor::view(DType T, std::vector<int64_t> Shape, llvm::StringRef Bytes,
                            std::shared_ptr<const void> Owner) {
  HostTensor H;
  H.Type = T;
  H.Shape = std::move(Shape);
  if (!Owner) { // nothing keeps the bytes alive: copy them
    auto Buffer = std::make_shared<std::string>(Bytes.str());
    Bytes = *Buffer;
    Owner = std::move(Buffer);
  }
  H.Data = Bytes.data();
  H.Size = Bytes.size();
  H.Owner = std::move(Owner);
  return H;
}

/// Element `I` of a payload of `T`s, which may be unaligned (a memory-mapped record).
template <typename T> static T loadElement(const char *Data, int64_t I) {
  T V;
  std::memcpy(&V, Data + sizeof(T) * I, sizeof(T));
  return V;
}

double HostTensor::valueAsDouble(int64_t I) const {
  switch (Type) {
  case DType::F32: return loadElement<float>(Data, I);
  case DType::F64: return loadElement<double>(Data, I);
  default: return double(intAt(I));
  }
}

int64_t HostTensor::intAt(int64_t I) const {
  switch (Type) {
  case DType::I32: return loadElement<int32_t>(Data, I);
  case DType::I64: return loadElement<int64_t>(Data, I);
  case DType::Bool: return Data[I] ? 1 : 0;
  default: return int64_t(valueAsDouble(I));
  }
}

std::vector<double> HostTensor::doubles() const {
  std::vector<double> Out(static_cast<size_t>(numel()));
  for (size_t I = 0; I < Out.size(); ++I)
    Out[I] = valueAsDouble(int64_t(I));
  return Out;
}

std::vector<int64_t> HostTensor::integers() const {
  std::vector<int64_t> Out(static_cast<size_t>(numel()));
  for (size_t I = 0; I < Out.size(); ++I)
    Out[I] = intAt(int64_t(I));
  return Out;
}

void writeTensor(llvm::raw_ostream &OS, const HostTensor &T) {
  if (T.Undefined) {
    OS << "undefined\n";
    return;
  }
  if (T.IsScalar)
    OS << "s ";
  OS << dtypeName(T.Type) << ' ' << T.Shape.size();
  for (int64_t D : T.Shape)
    OS << ' ' << D;
  OS << " : " << T.bytes().size() << '\n' << T.bytes() << '\n';
}

std::string formatTensor(const HostTensor &T) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  writeTensor(OS, T);
  return S;
}

namespace {

/// Reads a buffer of lines and payloads front to back.
class RecordCursor {
public:
  explicit RecordCursor(llvm::StringRef Text) : Rest(Text) {}
  bool atEnd() const { return Rest.empty(); }
  /// The next line without its newline; nullopt at the end. A last line without a newline (a
  /// writer that stopped inside it) is returned all the same, and lastLineCutShort() says so.
  std::optional<llvm::StringRef> line() {
    if (Rest.empty())
      return std::nullopt;
    size_t End = Rest.find('\n');
    Unterminated = End == llvm::StringRef::npos;
    llvm::StringRef Line = Rest.take_front(End);
    Rest = Unterminated ? llvm::StringRef() : Rest.drop_front(End + 1);
    return Line;
  }
  /// Whether the last line() had no newline: the writer stopped inside it.
  bool lastLineCutShort() const { return Unterminated; }
  /// The next `N` bytes, or nullopt (consuming nothing) when fewer are left.
  std::optional<llvm::StringRef> take(size_t N) {
    if (Rest.size() < N)
      return std::nullopt;
    llvm::StringRef Out = Rest.take_front(N);
    Rest = Rest.drop_front(N);
    return Out;
  }
  size_t left() const { return Rest.size(); }

private:
  llvm::StringRef Rest;
  bool Unterminated = false;
};

/// A record read from a cursor: the tensor, or nullopt when the text ends inside the record.
using MaybeTensor = std::optional<HostTensor>;

llvm::Expected<MaybeTensor> readTensor(llvm::StringRef Header, RecordCursor &C,
                                       const std::shared_ptr<const void> &Owner) {
  HostTensor T;
  llvm::StringRef Rest = Header.trim();
  if (Rest == "undefined") {
    T.Undefined = true;
    return MaybeTensor(std::move(T));
  }
  auto Quoted = [&] { return "'" + Header.take_front(60).str() + "'"; };
  llvm::SmallVector<llvm::StringRef, 8> Tok;
  Rest.split(Tok, ' ', -1, /*KeepEmpty=*/false);
  size_t I = 0;
  bool Scalar = I < Tok.size() && Tok[I] == "s";
  if (Scalar)
    ++I;
  if (I >= Tok.size())
    return formatError("empty tensor header");
  auto Type = parseDType(Tok[I++].str());
  if (!Type)
    return formatError("unknown dtype in tensor header " + Quoted());
  unsigned NDim = 0;
  if (I >= Tok.size() || Tok[I++].getAsInteger(10, NDim) || NDim > 64)
    return formatError("malformed rank in tensor header " + Quoted());
  std::vector<int64_t> Shape;
  int64_t Elements = 1;
  for (unsigned D = 0; D < NDim; ++D) {
    int64_t Size = 0;
    if (I >= Tok.size() || Tok[I++].getAsInteger(10, Size) || Size < 0 ||
        llvm::MulOverflow(Elements, Size, Elements))
      return formatError("malformed shape in tensor header " + Quoted());
    Shape.push_back(Size);
  }
  uint64_t Bytes = 0;
  if (I >= Tok.size() || Tok[I++] != ":" || I + 1 != Tok.size() || Tok[I].getAsInteger(10, Bytes))
    return formatError("malformed tensor header " + Quoted() + " (expected 'dtype ndim dims... : nbytes')");
  uint64_t Expected = 0;
  if (__builtin_mul_overflow(uint64_t(Elements), uint64_t(elementSize(*Type)), &Expected) || Bytes != Expected)
    return formatError("tensor header " + Quoted() + " announces " + llvm::Twine(Bytes) + " bytes for " +
                       llvm::Twine(Elements) + " elements of " + dtypeName(*Type) + " (" + llvm::Twine(Expected) +
                       " bytes)");
  // The payload and its closing newline; fewer bytes mean the writer stopped inside the record.
  auto Payload = C.take(Bytes);
  if (!Payload)
    return MaybeTensor();
  auto Newline = C.take(1);
  if (!Newline)
    return MaybeTensor();
  if (*Newline != "\n")
    return formatError("tensor record " + Quoted() + " is not followed by a newline after its " +
                       llvm::Twine(Bytes) + " bytes");
  T = HostTensor::view(*Type, std::move(Shape), *Payload, Owner);
  T.IsScalar = Scalar;
  return MaybeTensor(std::move(T));
}

} // namespace

llvm::Expected<HostTensor> parseTensor(llvm::StringRef Record) {
  RecordCursor C(Record);
  std::optional<llvm::StringRef> Header = C.line();
  if (!Header)
    return formatError("empty tensor record");
  if (C.lastLineCutShort())
    return formatError("tensor record '" + Header->take_front(60) + "' ends inside its header");
  size_t Left = C.left();
  auto T = readTensor(*Header, C, nullptr);
  if (!T)
    return T.takeError();
  if (!*T)
    return formatError("tensor record '" + Header->take_front(60) + "' ends after " + llvm::Twine(Left) +
                       " bytes of its payload");
  if (!C.atEnd())
    return formatError("tensor record '" + Header->take_front(60) + "' is followed by " + llvm::Twine(C.left()) +
                       " more bytes");
  return std::move(**T);
}

std::string formatTrialHeader(unsigned Trial, const std::string &Variant, size_t NumInputs) {
  return "trial " + std::to_string(Trial) + " " + Variant + " " + std::to_string(NumInputs) + "\n";
}

std::string formatInputsFile(const std::vector<TrialInputs> &Trials) {
  std::string S = InputsFileHeader;
  llvm::raw_string_ostream OS(S);
  for (const TrialInputs &T : Trials) {
    OS << formatTrialHeader(T.Trial, T.Variant, T.Inputs.size());
    for (const HostTensor &In : T.Inputs)
      writeTensor(OS, In);
  }
  return S;
}

llvm::Expected<std::vector<TrialInputs>> parseInputsFile(llvm::StringRef Text, std::shared_ptr<const void> Owner) {
  if (!Text.consume_front(InputsFileHeader))
    return formatError("not a graphify inputs file (expected '" + llvm::StringRef(InputsFileHeader).rtrim() + "')");
  RecordCursor C(Text);
  std::vector<TrialInputs> Out;
  while (auto Line = C.line()) {
    llvm::SmallVector<llvm::StringRef, 4> Tok;
    Line->split(Tok, ' ');
    TrialInputs T;
    unsigned N = 0;
    if (Tok.size() != 4 || Tok[0] != "trial" || Tok[1].getAsInteger(10, T.Trial) || Tok[3].getAsInteger(10, N))
      return formatError("malformed trial header in inputs file: '" + Line->take_front(80) + "'");
    T.Variant = Tok[2].str();
    for (unsigned I = 0; I < N; ++I) {
      auto Header = C.line();
      if (!Header || C.lastLineCutShort())
        return formatError("inputs file ends inside trial " + llvm::Twine(T.Trial) + " (input " + llvm::Twine(I) +
                           " of " + llvm::Twine(N) + " is missing)");
      auto In = readTensor(*Header, C, Owner);
      if (!In)
        return In.takeError();
      if (!*In)
        return formatError("inputs file ends inside trial " + llvm::Twine(T.Trial) + " (input " + llvm::Twine(I) +
                           " is cut short: '" + Header->take_front(60) + "' and " + llvm::Twine(C.left()) +
                           " bytes left)");
      T.Inputs.push_back(std::move(**In));
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

namespace {

/// Whether a results trial was read in full, or a dying harness cut it short.
enum class TrialRead { Complete, CutShort };

/// Reads `<kind> <t> ok <n>` + n tensor records, or `<kind> <t> error <msg>`.
llvm::Expected<TrialRead> parseTrial(RecordCursor &C, llvm::StringRef Head, const std::shared_ptr<const void> &Owner,
                                     std::vector<TrialOutputs> &Into) {
  auto [Kind, Rest] = Head.split(' ');
  auto [TrialText, Rest2] = Rest.split(' ');
  auto [Status, Tail] = Rest2.split(' ');
  TrialOutputs T;
  if (TrialText.getAsInteger(10, T.Trial))
    return formatError("malformed trial number in results line '" + Head.take_front(80) + "'");
  if (Status == "error") {
    T.Error = unescapeField(Tail.str());
    Into.push_back(std::move(T));
    return TrialRead::Complete;
  }
  unsigned N = 0;
  if (Status != "ok" || Tail.getAsInteger(10, N))
    return formatError("malformed results line '" + Head.take_front(80) + "'");
  T.Ok = true;
  for (unsigned I = 0; I < N; ++I) {
    auto Header = C.line();
    if (!Header || C.lastLineCutShort())
      return TrialRead::CutShort;
    auto V = readTensor(*Header, C, Owner);
    if (!V)
      return V.takeError();
    if (!*V)
      return TrialRead::CutShort;
    T.Values.push_back(std::move(**V));
  }
  Into.push_back(std::move(T));
  return TrialRead::Complete;
}

/// Reads `grad <t> ok <n> <s>` + s `<output>\t<why>` lines + n `<target>\t<tensor header>` records,
/// or `grad <t> error <msg>`.
llvm::Expected<TrialRead> parseGradientTrial(RecordCursor &C, llvm::StringRef Head,
                                             const std::shared_ptr<const void> &Owner,
                                             std::vector<TrialGradients> &Into) {
  llvm::SmallVector<llvm::StringRef, 5> Tok;
  Head.split(Tok, ' ', /*MaxSplit=*/3);
  TrialGradients T;
  if (Tok.size() < 3 || Tok[1].getAsInteger(10, T.Trial))
    return formatError("malformed results line '" + Head.take_front(80) + "'");
  if (Tok[2] == "error") {
    T.Error = unescapeField(Tok.size() > 3 ? Tok[3].str() : "");
    Into.push_back(std::move(T));
    return TrialRead::Complete;
  }
  unsigned N = 0, Skipped = 0;
  auto [NText, SText] = Tok.size() > 3 ? Tok[3].split(' ') : std::pair<llvm::StringRef, llvm::StringRef>();
  if (Tok[2] != "ok" || NText.getAsInteger(10, N) || SText.getAsInteger(10, Skipped))
    return formatError("malformed results line '" + Head.take_front(80) + "'");
  T.Ok = true;
  for (unsigned I = 0; I < Skipped + N; ++I) {
    auto Line = C.line();
    if (!Line || C.lastLineCutShort())
      return TrialRead::CutShort;
    auto [Left, Right] = Line->split('\t');
    if (I < Skipped) {
      unsigned Output = 0;
      if (Left.getAsInteger(10, Output))
        return formatError("malformed skipped-output line '" + Left.take_front(80) + "'");
      T.SkippedOutputs.push_back({Output, unescapeField(Right.str())});
      continue;
    }
    auto V = readTensor(Right, C, Owner);
    if (!V)
      return V.takeError();
    if (!*V)
      return TrialRead::CutShort;
    T.Gradients.push_back({unescapeField(Left.str()), std::move(**V)});
  }
  Into.push_back(std::move(T));
  return TrialRead::Complete;
}

} // namespace

/// Reads one line of a results file (and the records a trial line announces) into `R`.
static llvm::Expected<TrialRead> parseResultsLine(RecordCursor &C, llvm::StringRef Head,
                                                  const std::shared_ptr<const void> &Owner, HarnessResults &R) {
  if (Head.starts_with("eager "))
    return parseTrial(C, Head, Owner, R.Eager);
  if (Head.starts_with("replay "))
    return parseTrial(C, Head, Owner, R.Replays);
  if (Head.starts_with("reference "))
    return parseTrial(C, Head, Owner, R.References);
  if (Head.starts_with("grad "))
    return parseGradientTrial(C, Head, Owner, R.Gradients);
  if (Head.starts_with("params ")) {
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
      return formatError("malformed results line '" + Head.take_front(80) + "'");
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
  return TrialRead::Complete;
}

llvm::Expected<HarnessResults> parseResultsFile(llvm::StringRef Text, std::shared_ptr<const void> Owner) {
  HarnessResults R;
  if (Text.empty())
    return R; // the harness died before writing anything
  if (!Text.consume_front(ResultsFileHeader))
    return formatError("not a graphify results file (expected '" + llvm::StringRef(ResultsFileHeader).rtrim() +
                       "')");
  RecordCursor C(Text);
  while (auto Line = C.line()) {
    if (C.lastLineCutShort())
      break; // a harness killed mid-line: the line is not a record
    if (Line->empty())
      continue;
    auto Read = parseResultsLine(C, *Line, Owner, R);
    if (!Read)
      return Read.takeError();
    if (*Read == TrialRead::CutShort)
      break; // a harness killed mid-record: nothing after it was written
  }
  return R;
}

llvm::Expected<HarnessResults> readResultsFile(const std::string &Path) {
  // Mapped, not read: the tensors stay where the file holds them (IsText = false,
  // RequiresNullTerminator = false, so that a page-multiple file is mapped too).
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buf)
    return HarnessResults(); // never written: the harness died first
  std::shared_ptr<const llvm::MemoryBuffer> Owner(std::move(*Buf));
  return parseResultsFile(Owner->getBuffer(), Owner);
}

} // namespace graphify::validate
