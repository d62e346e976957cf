// Summary files. Invariants: rendering is deterministic (llvm::json prints object keys sorted,
// and every table is a std::map), so equal facts give equal bytes; parsing accepts exactly what
// rendering writes and names the first thing wrong as a JSON path ("(root).facts.summaries");
// origins are written inline where they are used and kept once per reading table.
//
//   { "format": "graphify-unit-summary" | "graphify-program-summary",
//     "graphify": "<version that wrote it>", "version": 1,
//     unit:    "file", "directory", "command": digest, "files": {path: digest}, "facts": T,
//              "lookups": [key], "imports": T, "region_globs": [glob], "static_bounds": [bound]
//     program: "units": [file], "sources": {file: digest}, "settled": bool, "facts": T,
//              "region_globs": [glob], "static_bounds": [bound] }
//   T = { "summaries": {usr: {"return", "return_shape", "return_size": V, "returns_mask",
//                             "returns_host": bool, "out", "out_size": [V] | count of clean Vs}
//                            | parameter count (a summary with no taint)},
//         "param_entries": {usr: [O|null]}, "fields" | "field_shapes" | "field_sizes" |
//         "globals": {usr: O|null}, "regions": {usr: "relaxed"|"strict"},
//         "captures" | "virtual_captures": {usr: E}, "callables": {key: H},
//         "idle_helpers": {usr: bool} }
//   V = {"origin": O|null, "params": int, "any_dim": bool} | params (an int: no origin, not any_dim)
//   O = {"what", "read": P, "steps": [{"where": P, "message"}], "size_of_selection",
//        "from_selection", "through_control"}          P = {"file", "line", "column", "offset"}
#include "graphify/lint/SummaryFile.h"

#include "graphify/rewriter/SafeFileReplace.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/xxhash.h>
#include <llvm/Support/MemoryBuffer.h>

#include <algorithm>

namespace graphify {

namespace json = llvm::json;

namespace {

constexpr int64_t kFormatVersion = 4; // 2: region_globs, static_bounds; 3: idle_helpers; 4: setter_calls, flag_records
constexpr llvm::StringLiteral kUnitFormat = "graphify-unit-summary";
constexpr llvm::StringLiteral kProgramFormat = "graphify-program-summary";

// ---- writing ----

json::Value pointJson(const SourcePoint &P) {
  return json::Object{{"file", P.File}, {"line", P.Line}, {"column", P.Column}, {"offset", P.Offset}};
}

json::Value originJson(const PortableOrigin *O) {
  if (!O)
    return nullptr;
  json::Array Steps;
  for (const FindingNote &N : O->Steps)
    Steps.push_back(json::Object{{"where", pointJson(N.Where)}, {"message", N.Message}});
  return json::Object{{"what", O->What},
                      {"read", pointJson(O->Read)},
                      {"steps", std::move(Steps)},
                      {"size_of_selection", O->SizeOfSelection},
                      {"from_selection", O->FromSelection},
                      {"through_control", O->ThroughControl}};
}

/// Whether a value is its parameter bits alone (no origin, not any dimension): most of a program's
/// are, and they are written as a number. An object per value made a large program's summary
/// cost its readers and writers gigabytes (every llvm::json::Object holds at least 64 buckets:
/// ggml-cuda's 141 units, docs/architecture.md).
bool paramsOnly(const PortableValue &V) { return !V.Origin && !V.AnyDim; }

json::Value valueJson(const PortableValue &V) {
  // The parameter set is 64 bits; JSON integers are signed 64-bit: the bits travel unchanged.
  if (paramsOnly(V))
    return int64_t(V.Params);
  return json::Object{{"origin", originJson(V.Origin)}, {"params", int64_t(V.Params)}, {"any_dim", V.AnyDim}};
}

/// A list of values, or its length when every value is clean (the per-parameter lists of most
/// functions).
json::Value valuesJson(const std::vector<PortableValue> &Vs) {
  if (llvm::all_of(Vs, [](const PortableValue &V) { return paramsOnly(V) && !V.Params; }))
    return int64_t(Vs.size());
  json::Array A;
  for (const PortableValue &V : Vs)
    A.push_back(valueJson(V));
  return A;
}

/// Whether a function summary says nothing (no taint anywhere, as many parameters out as sizes):
/// most functions of a program, written as their parameter count.
bool cleanSummary(const PortableSummary &S) {
  auto clean = [](const PortableValue &V) { return paramsOnly(V) && !V.Params; };
  return clean(S.Return) && clean(S.ReturnShape) && clean(S.ReturnSize) && !S.ReturnsMask && !S.ReturnsHost &&
         S.Out.size() == S.OutSize.size() && llvm::all_of(S.Out, clean) && llvm::all_of(S.OutSize, clean);
}

json::Value summaryJson(const PortableSummary &S) {
  if (cleanSummary(S))
    return int64_t(S.Out.size());
  return json::Object{{"return", valueJson(S.Return)},       {"return_shape", valueJson(S.ReturnShape)},
                      {"return_size", valueJson(S.ReturnSize)}, {"returns_mask", S.ReturnsMask},
                      {"returns_host", S.ReturnsHost},        {"out", valuesJson(S.Out)},
                      {"out_size", valuesJson(S.OutSize)}};
}

llvm::StringRef regionName(RegionKind K) {
  switch (K) {
  case RegionKind::None: return "none";
  case RegionKind::Relaxed: return "relaxed";
  case RegionKind::Strict: return "strict";
  }
  return "none";
}

json::Value effectJson(const CaptureEffect &E) {
  return json::Object{{"opens", E.Opens},
                      {"closes", E.Closes},
                      {"relaxed", E.Relaxed},
                      {"opens_on_true", E.OpensOnTrue},
                      {"stream_param", E.StreamParam},
                      {"stream_field", E.StreamField}};
}

json::Value callablesJson(const HeldCallables &H) {
  json::Array Bodies;
  for (const std::string &B : H.Bodies)
    Bodies.push_back(B);
  return json::Object{{"called", regionName(H.Called)}, {"bodies", std::move(Bodies)}, {"opaque", H.Opaque}};
}

json::Value flagWritesJson(const FlagWrites &W) { return json::Object{{"fits", W.Fits}, {"sets", W.SetSomewhere}}; }

template <typename Map, typename Fn> json::Object mapJson(const Map &M, Fn Render) {
  json::Object O;
  for (const auto &[Key, Value] : M)
    O[Key] = Render(Value);
  return O;
}

json::Value tableJson(const FactTable &T) {
  return json::Object{
      {"summaries", mapJson(T.Summaries, summaryJson)},
      {"param_entries", mapJson(T.ParamEntries,
                                [](const std::vector<const PortableOrigin *> &Es) {
                                  json::Array A;
                                  for (const PortableOrigin *O : Es)
                                    A.push_back(originJson(O));
                                  return A;
                                })},
      {"fields", mapJson(T.Fields, originJson)},
      {"field_shapes", mapJson(T.FieldShapes, originJson)},
      {"field_sizes", mapJson(T.FieldSizes, originJson)},
      {"globals", mapJson(T.Globals, originJson)},
      {"regions", mapJson(T.Regions, [](RegionKind K) { return json::Value(regionName(K)); })},
      {"captures", mapJson(T.Captures, effectJson)},
      {"virtual_captures", mapJson(T.VirtualCaptures, effectJson)},
      {"callables", mapJson(T.Callables, callablesJson)},
      {"idle_helpers", mapJson(T.IdleHelpers, [](bool Idle) { return json::Value(Idle); })},
      {"setter_calls", mapJson(T.SetterCalls, flagWritesJson)},
      {"flag_records", mapJson(T.FlagRecords, flagWritesJson)},
  };
}

std::string render(json::Object O) { return llvm::formatv("{0:1}", json::Value(std::move(O))).str() + "\n"; }

// ---- reading ----
//
// Each reader fills its output from `V` and reports the first problem at `P`; they return false
// after reporting.

bool readPoint(const json::Value &V, SourcePoint &Out, json::Path P) {
  json::ObjectMapper M(V, P);
  uint64_t Line = 0, Column = 0, Offset = 0;
  if (!M || !M.map("file", Out.File) || !M.map("line", Line) || !M.map("column", Column) || !M.map("offset", Offset))
    return false;
  if (Line > UINT32_MAX || Column > UINT32_MAX || Offset > UINT32_MAX)
    return P.report("position out of range"), false;
  Out.Line = unsigned(Line);
  Out.Column = unsigned(Column);
  Out.Offset = unsigned(Offset);
  return true;
}

bool readOrigin(const json::Value &V, FactTable &Into, const PortableOrigin *&Out, json::Path P) {
  Out = nullptr;
  if (V.getAsNull())
    return true;
  PortableOrigin O;
  json::ObjectMapper M(V, P);
  if (!M || !M.map("what", O.What) || !M.map("size_of_selection", O.SizeOfSelection) ||
      !M.map("from_selection", O.FromSelection) || !M.map("through_control", O.ThroughControl))
    return false;
  const json::Object *Obj = V.getAsObject();
  const json::Value *Read = Obj->get("read");
  if (!Read || !readPoint(*Read, O.Read, P.field("read")))
    return Read ? false : (P.field("read").report("missing value"), false);
  const json::Array *Steps = Obj->getArray("steps");
  if (!Steps)
    return P.field("steps").report("expected array"), false;
  for (size_t I = 0; I < Steps->size(); ++I) {
    FindingNote N;
    json::ObjectMapper S((*Steps)[I], P.field("steps").index(I));
    const json::Value *Where = (*Steps)[I].getAsObject() ? (*Steps)[I].getAsObject()->get("where") : nullptr;
    if (!S || !S.map("message", N.Message))
      return false;
    if (!Where)
      return P.field("steps").index(I).field("where").report("missing value"), false;
    if (!readPoint(*Where, N.Where, P.field("steps").index(I).field("where")))
      return false;
    O.Steps.push_back(std::move(N));
  }
  Out = Into.keep(&O);
  return true;
}

bool readValue(const json::Value &V, FactTable &Into, PortableValue &Out, json::Path P) {
  if (std::optional<int64_t> Params = V.getAsInteger()) { // paramsOnly
    Out = PortableValue();
    Out.Params = uint64_t(*Params);
    return true;
  }
  json::ObjectMapper M(V, P);
  int64_t Params = 0;
  if (!M || !M.map("params", Params) || !M.map("any_dim", Out.AnyDim))
    return false;
  Out.Params = uint64_t(Params);
  const json::Value *Origin = V.getAsObject()->get("origin");
  if (!Origin)
    return P.field("origin").report("missing value"), false;
  return readOrigin(*Origin, Into, Out.Origin, P.field("origin"));
}

bool readValues(const json::Value *V, FactTable &Into, std::vector<PortableValue> &Out, json::Path P) {
  if (std::optional<int64_t> Clean = V ? V->getAsInteger() : std::nullopt) { // so many clean values
    if (*Clean < 0 || *Clean > 4096)
      return P.report("expected an array or a count of parameters"), false;
    Out.assign(size_t(*Clean), PortableValue());
    return true;
  }
  const json::Array *A = V ? V->getAsArray() : nullptr;
  if (!A)
    return P.report("expected array"), false;
  Out.resize(A->size());
  for (size_t I = 0; I < A->size(); ++I)
    if (!readValue((*A)[I], Into, Out[I], P.index(I)))
      return false;
  return true;
}

bool readSummary(const json::Value &V, FactTable &Into, PortableSummary &Out, json::Path P) {
  if (V.getAsInteger()) { // cleanSummary: the parameter count
    Out = PortableSummary();
    return readValues(&V, Into, Out.Out, P) && readValues(&V, Into, Out.OutSize, P);
  }
  json::ObjectMapper M(V, P);
  if (!M || !M.map("returns_mask", Out.ReturnsMask) || !M.map("returns_host", Out.ReturnsHost))
    return false;
  const json::Object &O = *V.getAsObject();
  for (auto [Name, Into2] : {std::pair<const char *, PortableValue *>{"return", &Out.Return},
                             {"return_shape", &Out.ReturnShape},
                             {"return_size", &Out.ReturnSize}}) {
    const json::Value *F = O.get(Name);
    if (!F)
      return P.field(Name).report("missing value"), false;
    if (!readValue(*F, Into, *Into2, P.field(Name)))
      return false;
  }
  return readValues(O.get("out"), Into, Out.Out, P.field("out")) &&
         readValues(O.get("out_size"), Into, Out.OutSize, P.field("out_size"));
}

bool readRegion(const json::Value &V, RegionKind &Out, json::Path P) {
  std::optional<llvm::StringRef> S = V.getAsString();
  if (S == "none")
    Out = RegionKind::None;
  else if (S == "relaxed")
    Out = RegionKind::Relaxed;
  else if (S == "strict")
    Out = RegionKind::Strict;
  else
    return P.report("expected \"none\", \"relaxed\" or \"strict\""), false;
  return true;
}

bool readEffect(const json::Value &V, CaptureEffect &Out, json::Path P) {
  json::ObjectMapper M(V, P);
  return M && M.map("opens", Out.Opens) && M.map("closes", Out.Closes) && M.map("relaxed", Out.Relaxed) &&
         M.map("opens_on_true", Out.OpensOnTrue) && M.map("stream_param", Out.StreamParam) &&
         M.map("stream_field", Out.StreamField);
}

bool readCallables(const json::Value &V, HeldCallables &Out, json::Path P) {
  json::ObjectMapper M(V, P);
  std::vector<std::string> Bodies;
  if (!M || !M.map("opaque", Out.Opaque) || !M.map("bodies", Bodies))
    return false;
  Out.Bodies.insert(Bodies.begin(), Bodies.end());
  const json::Value *Called = V.getAsObject()->get("called");
  if (!Called)
    return P.field("called").report("missing value"), false;
  return readRegion(*Called, Out.Called, P.field("called"));
}

/// Reads the object at `Key` of `O` entry by entry with `Each(value, entry-path, key)`.
template <typename Fn> bool readMap(const json::Object &O, llvm::StringRef Key, json::Path P, Fn Each) {
  const json::Object *M = O.getObject(Key);
  if (!M)
    return P.field(Key).report("expected object"), false;
  for (const auto &[K, V] : *M)
    if (!Each(V, P.field(Key).field(K), std::string(K.str())))
      return false;
  return true;
}

bool readFlagWrites(const json::Value &V, FlagWrites &Into, json::Path P) {
  const json::Object *W = V.getAsObject();
  std::optional<bool> Fits = W ? W->getBoolean("fits") : std::nullopt;
  std::optional<bool> Sets = W ? W->getBoolean("sets") : std::nullopt;
  if (!Fits || !Sets)
    return P.report("expected {\"fits\": boolean, \"sets\": boolean}"), false;
  Into = {*Fits, *Sets};
  return true;
}

bool readTable(const json::Value &V, FactTable &T, json::Path P) {
  const json::Object *O = V.getAsObject();
  if (!O)
    return P.report("expected object"), false;
  auto Origins = [&](std::map<std::string, const PortableOrigin *> &Into) {
    return [&T, &Into](const json::Value &E, json::Path EP, std::string K) {
      return readOrigin(E, T, Into[K], EP);
    };
  };
  auto Effects = [](std::map<std::string, CaptureEffect> &Into) {
    return [&Into](const json::Value &E, json::Path EP, std::string K) { return readEffect(E, Into[K], EP); };
  };
  return readMap(*O, "summaries", P,
                 [&](const json::Value &E, json::Path EP, std::string K) {
                   return readSummary(E, T, T.Summaries[K], EP);
                 }) &&
         readMap(*O, "param_entries", P,
                 [&](const json::Value &E, json::Path EP, std::string K) {
                   const json::Array *A = E.getAsArray();
                   if (!A)
                     return EP.report("expected array"), false;
                   std::vector<const PortableOrigin *> &Into = T.ParamEntries[K];
                   Into.resize(A->size());
                   for (size_t I = 0; I < A->size(); ++I)
                     if (!readOrigin((*A)[I], T, Into[I], EP.index(I)))
                       return false;
                   return true;
                 }) &&
         readMap(*O, "fields", P, Origins(T.Fields)) && readMap(*O, "field_shapes", P, Origins(T.FieldShapes)) &&
         readMap(*O, "field_sizes", P, Origins(T.FieldSizes)) && readMap(*O, "globals", P, Origins(T.Globals)) &&
         readMap(*O, "regions", P,
                 [&](const json::Value &E, json::Path EP, std::string K) { return readRegion(E, T.Regions[K], EP); }) &&
         readMap(*O, "captures", P, Effects(T.Captures)) &&
         readMap(*O, "virtual_captures", P, Effects(T.VirtualCaptures)) &&
         readMap(*O, "callables", P, [&](const json::Value &E, json::Path EP, std::string K) {
           return readCallables(E, T.Callables[K], EP);
         }) &&
         readMap(*O, "idle_helpers", P, [&](const json::Value &E, json::Path EP, std::string K) {
           std::optional<bool> Idle = E.getAsBoolean();
           if (!Idle)
             return EP.report("expected boolean"), false;
           T.IdleHelpers[K] = *Idle;
           return true;
         }) &&
         readMap(*O, "setter_calls", P, [&](const json::Value &E, json::Path EP, std::string K) {
           return readFlagWrites(E, T.SetterCalls[K], EP);
         }) &&
         readMap(*O, "flag_records", P, [&](const json::Value &E, json::Path EP, std::string K) {
           return readFlagWrites(E, T.FlagRecords[K], EP);
         });
}

/// Parses `Text` and checks the header: the format name and the versions.
llvm::Expected<json::Object> parseHeader(llvm::StringRef Text, llvm::StringRef Path, llvm::StringRef Format,
                                         llvm::StringRef ToolVersion) {
  llvm::Expected<json::Value> V = json::parse(Text);
  if (!V) {
    // llvm::json says "[3:5, byte=20]: Invalid JSON value" with a 0-based column; say it as a
    // compiler would.
    std::string Msg = llvm::toString(V.takeError());
    llvm::StringRef M(Msg);
    unsigned Line = 0, Col = 0;
    if (M.consume_front("[") && !M.consumeInteger(10, Line) && M.consume_front(":") && !M.consumeInteger(10, Col)) {
      M = M.drop_until([](char C) { return C == ']'; });
      M.consume_front("]");
      M.consume_front(":");
      return llvm::createStringError(
          llvm::formatv("{0}:{1}:{2}: error: invalid JSON: {3}", Path, Line, Col + 1, M.trim()).str());
    }
    return llvm::createStringError((Path + ": error: " + Msg).str());
  }
  json::Object *O = V->getAsObject();
  std::optional<llvm::StringRef> Got = O ? O->getString("format") : std::nullopt;
  if (Got != Format)
    return llvm::createStringError(
        llvm::formatv("{0}: error: not a {1} file (its \"format\" is {2})", Path, Format,
                      Got ? "\"" + Got->str() + "\"" : std::string("missing"))
            .str());
  std::optional<int64_t> Version = O->getInteger("version");
  if (!Version)
    return llvm::createStringError(llvm::formatv("{0}: error: {1} without a \"version\"", Path, Format).str());
  if (*Version != kFormatVersion)
    return llvm::createStringError(llvm::formatv("{0}: error: {1} version {2}; this graphify reads version {3}",
                                                 Path, Format, *Version, kFormatVersion)
                                       .str());
  std::optional<llvm::StringRef> By = O->getString("graphify");
  if (By != ToolVersion)
    return llvm::createStringError(llvm::formatv("{0}: error: written by graphify {1}, this is graphify {2}: "
                                                 "extract the summaries again",
                                                 Path, By ? *By : "(unknown)", ToolVersion)
                                       .str());
  return std::move(*O);
}

llvm::Error pathError(llvm::StringRef Path, const json::Path::Root &R) {
  return llvm::createStringError((Path + ": error: " + llvm::toString(R.getError())).str());
}

} // namespace

bool mergesBefore(const UnitSummary &A, const UnitSummary &B) {
  return std::tie(A.File, A.Directory, A.Command) < std::tie(B.File, B.Directory, B.Command);
}

std::string commandDigest(const std::vector<std::string> &CommandLine) {
  std::string Joined;
  for (const std::string &A : CommandLine) {
    Joined += A;
    Joined += '\0';
  }
  return llvm::formatv("{0:x-16}", llvm::xxh3_64bits(Joined)).str();
}

std::string contentDigest(llvm::StringRef Bytes) {
  return llvm::formatv("{0:x-16}", llvm::xxh3_64bits(Bytes)).str();
}

std::string sourcesDigest(const std::map<std::string, std::string> &Files) {
  std::string Joined;
  for (const auto &[Path, Digest] : Files)
    Joined += Path + '\0' + Digest + '\0';
  return contentDigest(Joined);
}

bool sameUnit(const UnitSummary &A, const UnitSummary &B) {
  return A.File == B.File && A.Directory == B.Directory && A.Command == B.Command;
}

std::string summaryFileName(const UnitSummary &S) {
  std::string Unit = (S.File + llvm::Twine('\0') + S.Directory + llvm::Twine('\0') + S.Command).str();
  return llvm::formatv("{0}.{1}.{2}.summary", llvm::sys::path::filename(S.File), contentDigest(Unit),
                       contentDigest(llvm::formatv("{0}", tableJson(S.Imports)).str()))
      .str();
}

std::string mirroredPath(llvm::StringRef Dir, llvm::StringRef File) {
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::append(P, llvm::sys::path::relative_path(File));
  return std::string(P);
}

static json::Object sourcesJson(const std::map<std::string, std::string> &Sources) {
  json::Object O;
  for (const auto &[File, Digest] : Sources)
    O[File] = Digest;
  return O;
}

static json::Array stringsJson(const std::set<std::string> &Strings) {
  json::Array A;
  for (const std::string &S : Strings)
    A.push_back(S);
  return A;
}

std::string renderUnitSummary(const UnitSummary &S, llvm::StringRef ToolVersion) {
  json::Array Lookups;
  for (const std::string &L : S.Facts.Lookups)
    Lookups.push_back(L);
  return render(json::Object{{"format", kUnitFormat},
                             {"version", kFormatVersion},
                             {"graphify", ToolVersion},
                             {"file", S.File},
                             {"directory", S.Directory},
                             {"command", S.Command},
                             {"files", sourcesJson(S.Files)},
                             {"facts", tableJson(S.Facts)},
                             {"lookups", std::move(Lookups)},
                             {"imports", tableJson(S.Imports)},
                             {"region_globs", stringsJson(S.MatchedRegionGlobs)},
                             {"static_bounds", stringsJson(S.MatchedStaticBounds)}});
}

std::string renderProgramSummary(const ProgramSummary &S, llvm::StringRef ToolVersion) {
  json::Array Units;
  for (const std::string &U : S.Units)
    Units.push_back(U);
  return render(json::Object{{"format", kProgramFormat},
                             {"version", kFormatVersion},
                             {"graphify", ToolVersion},
                             {"units", std::move(Units)},
                             {"sources", sourcesJson(S.Sources)},
                             {"settled", S.Settled},
                             {"facts", tableJson(S.Facts)},
                             {"region_globs", stringsJson(S.MatchedRegionGlobs)},
                             {"static_bounds", stringsJson(S.MatchedStaticBounds)}});
}

llvm::Expected<UnitSummary> parseUnitSummary(llvm::StringRef Text, llvm::StringRef Path, llvm::StringRef ToolVersion) {
  llvm::Expected<json::Object> Doc = parseHeader(Text, Path, kUnitFormat, ToolVersion);
  if (!Doc)
    return Doc.takeError();
  UnitSummary S;
  json::Value Whole(std::move(*Doc));
  json::Path::Root R("summary");
  json::ObjectMapper M(Whole, R);
  std::vector<std::string> Lookups, Globs, Bounds;
  const json::Object &O = *Whole.getAsObject();
  bool Ok = M.map("file", S.File) && M.map("directory", S.Directory) && M.map("command", S.Command) &&
            M.map("files", S.Files) && M.map("lookups", Lookups) && M.map("region_globs", Globs) &&
            M.map("static_bounds", Bounds);
  Ok = Ok && (O.get("facts") ? readTable(*O.get("facts"), S.Facts, json::Path(R).field("facts"))
                             : (json::Path(R).field("facts").report("missing value"), false));
  Ok = Ok && (O.get("imports") ? readTable(*O.get("imports"), S.Imports, json::Path(R).field("imports"))
                               : (json::Path(R).field("imports").report("missing value"), false));
  if (!Ok)
    return pathError(Path, R);
  S.Facts.Lookups.insert(Lookups.begin(), Lookups.end());
  S.MatchedRegionGlobs.insert(Globs.begin(), Globs.end());
  S.MatchedStaticBounds.insert(Bounds.begin(), Bounds.end());
  return S;
}

llvm::Expected<ProgramSummary> parseProgramSummary(llvm::StringRef Text, llvm::StringRef Path,
                                                   llvm::StringRef ToolVersion) {
  llvm::Expected<json::Object> Doc = parseHeader(Text, Path, kProgramFormat, ToolVersion);
  if (!Doc)
    return Doc.takeError();
  ProgramSummary S;
  json::Value Whole(std::move(*Doc));
  json::Path::Root R("summary");
  json::ObjectMapper M(Whole, R);
  const json::Object &O = *Whole.getAsObject();
  std::vector<std::string> Globs, Bounds;
  bool Ok = M.map("units", S.Units) && M.map("sources", S.Sources) && M.map("settled", S.Settled) &&
            M.map("region_globs", Globs) && M.map("static_bounds", Bounds);
  Ok = Ok && (O.get("facts") ? readTable(*O.get("facts"), S.Facts, json::Path(R).field("facts"))
                             : (json::Path(R).field("facts").report("missing value"), false));
  if (!Ok)
    return pathError(Path, R);
  S.MatchedRegionGlobs.insert(Globs.begin(), Globs.end());
  S.MatchedStaticBounds.insert(Bounds.begin(), Bounds.end());
  return S;
}

namespace {
llvm::Expected<std::string> readText(llvm::StringRef Path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> B = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!B)
    return llvm::createStringError((Path + ": error: cannot read: " + B.getError().message()).str());
  return (*B)->getBuffer().str();
}
} // namespace

llvm::Expected<UnitSummary> readUnitSummary(llvm::StringRef Path, llvm::StringRef ToolVersion) {
  llvm::Expected<std::string> Text = readText(Path);
  if (!Text)
    return Text.takeError();
  return parseUnitSummary(*Text, Path, ToolVersion);
}

llvm::Expected<ProgramSummary> readProgramSummary(llvm::StringRef Path, llvm::StringRef ToolVersion) {
  llvm::Expected<std::string> Text = readText(Path);
  if (!Text)
    return Text.takeError();
  return parseProgramSummary(*Text, Path, ToolVersion);
}

llvm::Expected<std::vector<std::string>> summaryFilesIn(llvm::StringRef Dir) {
  std::vector<std::string> Files;
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC))
    if (llvm::StringRef(It->path()).ends_with(".summary") && It->type() != llvm::sys::fs::file_type::directory_file)
      Files.push_back(It->path());
  if (EC)
    return llvm::createStringError("cannot list '" + Dir.str() + "': " + EC.message());
  std::sort(Files.begin(), Files.end());
  return Files;
}

void removeEmptyDirectoriesUnder(llvm::StringRef Root) {
  std::vector<std::string> Dirs;
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(Root, EC), End; It != End && !EC; It.increment(EC))
    if (It->type() == llvm::sys::fs::file_type::directory_file)
      Dirs.push_back(It->path());
  std::sort(Dirs.rbegin(), Dirs.rend()); // a directory after everything under it
  for (const std::string &D : Dirs)
    (void)llvm::sys::fs::remove(D, /*IgnoreNonExisting=*/true); // fails, as wanted, when not empty
}

llvm::Expected<bool> writeFileIfChanged(llvm::StringRef Path, llvm::StringRef Text) {
  if (llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Old = llvm::MemoryBuffer::getFile(Path, true);
      Old && (*Old)->getBuffer() == Text)
    return false;
  // A build system names outputs in directories it has not made yet, as it does for objects.
  if (llvm::StringRef Parent = llvm::sys::path::parent_path(Path); !Parent.empty())
    if (std::error_code EC = llvm::sys::fs::create_directories(Parent))
      return llvm::createStringError("cannot create '" + Parent.str() + "': " + EC.message());
  if (llvm::Error E = rewriter::writeOutputFile(Path, Text))
    return std::move(E);
  return true;
}

} // namespace graphify
