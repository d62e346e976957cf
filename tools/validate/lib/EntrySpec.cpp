// A hand-written recursive-descent parser for the entry grammar. It is small enough that a
// table-driven parser would hide more than it saves, and hand-writing it lets every error point at
// the exact column of the token that broke it (the only thing a user needs from such a message).
#include "graphify/validate/EntrySpec.h"

#include <llvm/Support/MathExtras.h>

#include "graphify/rules/StrictYaml.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

namespace graphify::validate {

const char *dtypeName(DType T) {
  switch (T) {
  case DType::F32: return "f32";
  case DType::F64: return "f64";
  case DType::I32: return "i32";
  case DType::I64: return "i64";
  case DType::Bool: return "bool";
  }
  return "?";
}

std::optional<DType> parseDType(const std::string &Name) {
  for (DType T : {DType::F32, DType::F64, DType::I32, DType::I64, DType::Bool})
    if (Name == dtypeName(T))
      return T;
  return std::nullopt;
}

ValueRange InputSpec::effectiveRange() const {
  if (Range)
    return *Range;
  if (Type == DType::Bool)
    return {0, 1};
  if (isFloating(Type))
    return {-2, 2};
  return {-10, 10};
}

int64_t InputSpec::numel() const {
  int64_t N = 1;
  for (int64_t D : Shape)
    N *= D;
  return N;
}

static std::string formatNumber(double V) {
  char Buf[64];
  if (V == std::floor(V) && std::fabs(V) < 1e15)
    std::snprintf(Buf, sizeof Buf, "%lld", static_cast<long long>(V));
  else
    std::snprintf(Buf, sizeof Buf, "%.9g", V);
  return Buf;
}

std::string InputSpec::str() const {
  std::string S = Name + ": " + dtypeName(Type) + "[";
  for (size_t I = 0; I < Shape.size(); ++I)
    S += (I ? "," : "") + std::to_string(Shape[I]);
  S += "]";
  if (Range)
    S += " in [" + formatNumber(Range->Lo) + ", " + formatNumber(Range->Hi) + "]";
  return S;
}

namespace {

/// One pass over one spec string. `Where` and `Column0` only shape messages.
class SpecParser {
public:
  SpecParser(const std::string &Text, std::string Where, unsigned Column0)
      : S(Text), Where(std::move(Where)), Column0(Column0) {}

  llvm::Expected<std::vector<InputSpec>> parseList() {
    std::vector<InputSpec> Out;
    std::set<std::string> Seen;
    skipSpace();
    if (atEnd())
      return Out;
    while (true) {
      size_t NameAt = P;
      auto In = parseInput();
      if (!In)
        return In.takeError();
      if (!Seen.insert(In->Name).second)
        return error(NameAt, "duplicate input name '" + In->Name + "'");
      Out.push_back(std::move(*In));
      skipSpace();
      if (atEnd())
        return Out;
      if (S[P] != ',')
        return error(P, "expected ',' or the end of the list after input '" + Out.back().Name + "', found " +
                            found());
      ++P;
      skipSpace();
    }
  }

  llvm::Expected<InputSpec> parseSingle() {
    skipSpace();
    auto In = parseInput();
    if (!In)
      return In.takeError();
    skipSpace();
    if (!atEnd())
      return error(P, "unexpected " + found() + " after the input spec");
    return In;
  }

private:
  const std::string &S;
  std::string Where;
  unsigned Column0;
  size_t P = 0;

  bool atEnd() const { return P >= S.size(); }
  void skipSpace() {
    while (!atEnd() && std::isspace(static_cast<unsigned char>(S[P])))
      ++P;
  }
  std::string found() const {
    if (atEnd())
      return "the end of the text";
    return "'" + std::string(1, S[P]) + "'";
  }
  static bool isIdentStart(char C) { return std::isalpha(static_cast<unsigned char>(C)) || C == '_'; }
  static bool isIdentChar(char C) { return std::isalnum(static_cast<unsigned char>(C)) || C == '_'; }

  std::string identifier() {
    size_t Start = P;
    if (atEnd() || !isIdentStart(S[P]))
      return "";
    while (!atEnd() && isIdentChar(S[P]))
      ++P;
    return S.substr(Start, P - Start);
  }

  /// `where:col: error: msg`, then the text and a caret under column `At`.
  llvm::Error error(size_t At, const std::string &Msg) const {
    std::string Out = Where.empty() ? std::string() : Where + ":";
    Out += std::to_string(Column0 + At) + ": error: " + Msg + "\n  " + S + "\n  " + std::string(At, ' ') + "^";
    return llvm::createStringError(llvm::inconvertibleErrorCode(), Out);
  }

  llvm::Expected<InputSpec> parseInput() {
    InputSpec In;
    size_t At = P;
    In.Name = identifier();
    if (In.Name.empty())
      return error(At, "expected an input name, found " + found());
    skipSpace();
    if (atEnd() || (S[P] != ':' && S[P] != '='))
      return error(P, "expected ':' (or '=') after input name '" + In.Name + "', found " + found());
    ++P;
    skipSpace();
    At = P;
    std::string TypeName = identifier();
    if (TypeName.empty())
      return error(At, "expected a dtype (f32, f64, i32, i64 or bool) for '" + In.Name + "', found " + found());
    auto T = parseDType(TypeName);
    if (!T)
      return error(At, "unknown dtype '" + TypeName + "'" +
                           didYouMean(TypeName, {"f32", "f64", "i32", "i64", "bool"}) +
                           " (expected f32, f64, i32, i64 or bool)");
    In.Type = *T;
    skipSpace();
    if (atEnd() || S[P] != '[')
      return error(P, "expected '[' and a shape after dtype '" + TypeName + "', found " + found());
    ++P;
    skipSpace();
    if (!atEnd() && S[P] == ']') {
      ++P; // `[]`: a 0-d tensor
    } else {
      while (true) {
        skipSpace();
        At = P;
        while (!atEnd() && std::isdigit(static_cast<unsigned char>(S[P])))
          ++P;
        if (At == P)
          return error(At, "expected a dimension (a non-negative integer), found " + found());
        // Checked: a dimension, and the product so far, must stay within the input limit.
        int64_t Dim = 0, Elements = 0;
        if (S.substr(At, P - At).size() > 18 ||
            (Dim = std::strtoll(S.substr(At, P - At).c_str(), nullptr, 10)) > InputSpec::kMaxElements ||
            llvm::MulOverflow(In.numel(), Dim, Elements) || Elements > InputSpec::kMaxElements)
          return error(At, "input '" + In.Name + "' would have more than " +
                               std::to_string(InputSpec::kMaxElements) +
                               " elements; generated inputs are limited to that (equivalence does not depend on size)");
        In.Shape.push_back(Dim);
        skipSpace();
        if (!atEnd() && S[P] == ',') {
          ++P;
          continue;
        }
        if (!atEnd() && S[P] == ']') {
          ++P;
          break;
        }
        return error(P, "expected ',' or ']' after a dimension, found " + found());
      }
    }
    // Optional range: `@lo:hi` or `in [lo, hi]`.
    size_t Before = P;
    skipSpace();
    size_t RangeAt = P;
    ValueRange R;
    if (!atEnd() && S[P] == '@') {
      ++P;
      auto Lo = number();
      if (!Lo)
        return Lo.takeError();
      if (atEnd() || S[P] != ':')
        return error(P, "expected ':' between the bounds of the range, found " + found());
      ++P;
      auto Hi = number();
      if (!Hi)
        return Hi.takeError();
      R = {*Lo, *Hi};
    } else if (S.compare(P, 2, "in") == 0 && (P + 2 >= S.size() || !isIdentChar(S[P + 2]))) {
      P += 2;
      skipSpace();
      if (atEnd() || S[P] != '[')
        return error(P, "expected '[' after 'in', found " + found());
      ++P;
      skipSpace();
      auto Lo = number();
      if (!Lo)
        return Lo.takeError();
      skipSpace();
      if (atEnd() || S[P] != ',')
        return error(P, "expected ',' between the bounds of the range, found " + found());
      ++P;
      skipSpace();
      auto Hi = number();
      if (!Hi)
        return Hi.takeError();
      skipSpace();
      if (atEnd() || S[P] != ']')
        return error(P, "expected ']' to close the range, found " + found());
      ++P;
      R = {*Lo, *Hi};
    } else {
      P = Before;
      return In;
    }
    if (In.Type == DType::Bool)
      return error(RangeAt, "a value range is not allowed for bool input '" + In.Name + "'");
    if (R.Lo > R.Hi)
      return error(RangeAt, "empty range [" + formatNumber(R.Lo) + ", " + formatNumber(R.Hi) +
                                "]: the lower bound exceeds the upper bound");
    if (!isFloating(In.Type) && (R.Lo != std::floor(R.Lo) || R.Hi != std::floor(R.Hi)))
      return error(RangeAt, "the bounds of a range for " + std::string(dtypeName(In.Type)) + " input '" +
                                In.Name + "' must be integers");
    // Integer draws are made in double arithmetic and then converted: the bounds must be values
    // of the type that a double also holds exactly.
    const double Limit = In.Type == DType::I32 ? 2147483647.0 : In.Type == DType::I64 ? 9007199254740992.0 : 0;
    if (Limit != 0 && (R.Lo < -Limit - (In.Type == DType::I32 ? 1 : 0) || R.Hi > Limit))
      return error(RangeAt, "the bounds of a range for " + std::string(dtypeName(In.Type)) + " input '" + In.Name +
                                "' must lie in [" + formatNumber(-Limit - (In.Type == DType::I32 ? 1 : 0)) + ", " +
                                formatNumber(Limit) + "]");
    if (In.Type == DType::F32 && (std::abs(R.Lo) > 3.4028234663852886e38 || std::abs(R.Hi) > 3.4028234663852886e38))
      return error(RangeAt, "the bounds of a range for f32 input '" + In.Name + "' exceed the largest f32");
    In.Range = R;
    return In;
  }

  /// A decimal number: optional sign, digits, optional fraction and exponent.
  llvm::Expected<double> number() {
    size_t At = P;
    if (!atEnd() && (S[P] == '-' || S[P] == '+'))
      ++P;
    size_t Digits = 0;
    while (!atEnd() && (std::isdigit(static_cast<unsigned char>(S[P])) || S[P] == '.')) {
      Digits += S[P] != '.';
      ++P;
    }
    if (Digits == 0) {
      P = At;
      return error(At, "expected a number, found " + found());
    }
    if (!atEnd() && (S[P] == 'e' || S[P] == 'E')) {
      size_t Exp = P++;
      if (!atEnd() && (S[P] == '-' || S[P] == '+'))
        ++P;
      if (atEnd() || !std::isdigit(static_cast<unsigned char>(S[P])))
        return error(Exp, "malformed exponent in a number");
      while (!atEnd() && std::isdigit(static_cast<unsigned char>(S[P])))
        ++P;
    }
    std::string Text = S.substr(At, P - At);
    char *End = nullptr;
    double V = std::strtod(Text.c_str(), &End);
    if (End != Text.c_str() + Text.size())
      return error(At, "malformed number '" + Text + "'");
    return V;
  }
};

} // namespace

llvm::Expected<std::vector<InputSpec>> parseEntryComment(const std::string &Text, const std::string &Where,
                                                          unsigned Column) {
  return SpecParser(Text, Where, Column).parseList();
}

llvm::Expected<InputSpec> parseInputFlag(const std::string &Text) {
  return SpecParser(Text, "--input", 1).parseSingle();
}

std::optional<std::string> findEntryComment(const std::string &Line, unsigned &Column) {
  size_t Slash = Line.find("//");
  if (Slash == std::string::npos)
    return std::nullopt;
  size_t At = Slash + 2;
  while (At < Line.size() && (Line[At] == ' ' || Line[At] == '\t' || Line[At] == '/'))
    ++At;
  std::string Marker = EntryMarker;
  if (Line.compare(At, Marker.size(), Marker) != 0)
    return std::nullopt;
  At += Marker.size();
  while (At < Line.size() && (Line[At] == ' ' || Line[At] == '\t'))
    ++At;
  std::string Rest = Line.substr(At);
  while (!Rest.empty() && (Rest.back() == '\r' || Rest.back() == ' ' || Rest.back() == '\t'))
    Rest.pop_back();
  Column = static_cast<unsigned>(At) + 1;
  return Rest;
}

} // namespace graphify::validate
