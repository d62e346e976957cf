// SARIF 2.1.0 output, for code-scanning services. Invariant: every result's ruleId and ruleIndex
// point at an entry of tool.driver.rules, regions are 1-based, and file URIs are relative to
// %SRCROOT% (the working directory) when the file lies beneath it, so uploads from CI map onto
// the repository.
#include "graphify/analyzer/Advice.h"
#include "graphify/lint/Output.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/Path.h>

namespace graphify {
namespace {

// RFC 3986 percent-encoding of a path, keeping '/' and unreserved characters.
std::string encodeUriPath(llvm::StringRef Path) {
  std::string Out;
  for (unsigned char C : Path) {
    if (llvm::isAlnum(C) || C == '/' || C == '-' || C == '_' || C == '.' || C == '~')
      Out += char(C);
    else
      Out += "%" + llvm::utohexstr(C, /*LowerCase=*/false, /*Width=*/2);
  }
  return Out;
}

llvm::json::Object artifactLocation(llvm::StringRef File, const OutputContext &Ctx) {
  std::string Rel = relativeToWorkingDir(File, Ctx.WorkingDir);
  if (!Rel.empty())
    return llvm::json::Object{{"uri", encodeUriPath(Rel)}, {"uriBaseId", "%SRCROOT%"}};
  llvm::SmallString<256> Abs(File);
  llvm::sys::fs::make_absolute(Abs);
  return llvm::json::Object{{"uri", "file://" + encodeUriPath(llvm::sys::path::convert_to_slash(Abs))}};
}

llvm::json::Object physicalLocation(const SourcePoint &P, unsigned RangeLength, const OutputContext &Ctx) {
  return llvm::json::Object{
      {"physicalLocation",
       llvm::json::Object{{"artifactLocation", artifactLocation(P.File, Ctx)},
                          {"region", llvm::json::Object{{"startLine", P.Line},
                                                        {"startColumn", P.Column},
                                                        {"endColumn", P.Column + std::max(RangeLength, 1u)}}}}}};
}

} // namespace

void writeSarif(llvm::raw_ostream &OS, llvm::ArrayRef<ReportedFinding> Findings, OutputContext &Ctx) {
  llvm::json::Array Rules;
  llvm::StringMap<unsigned> RuleIndex;
  auto addRule = [&](const CheckInfo &C) {
    RuleIndex[C.Id] = Rules.size();
    Rules.push_back(llvm::json::Object{
        {"id", C.Id},
        {"name", C.Id},
        {"shortDescription", llvm::json::Object{{"text", C.Summary}}},
        {"fullDescription", llvm::json::Object{{"text", C.Description}}},
        {"help", llvm::json::Object{{"text", C.Help}}},
        {"defaultConfiguration", llvm::json::Object{{"level", "warning"}}},
    });
  };
  for (const CheckInfo &C : Ctx.Rules)
    addRule(C);
  // A finding of an id nobody registered (graphify-nolint) still needs a rule to point at.
  for (const ReportedFinding &R : Findings)
    if (!RuleIndex.count(R.F.CheckId))
      addRule(CheckInfo{R.F.CheckId, R.F.CheckId, R.F.CheckId, "", true});

  llvm::json::Array Results;
  for (const ReportedFinding &R : Findings) {
    const Finding &F = R.F;
    llvm::json::Object Result{
        {"ruleId", F.CheckId},
        {"ruleIndex", RuleIndex[F.CheckId]},
        {"level", R.Level == Severity::Error ? "error" : "warning"},
        {"message", llvm::json::Object{{"text", adviceLine(F).empty() ? F.Message
                                                                             : F.Message + " (" + adviceLine(F) + ")"}}},
        {"locations", llvm::json::Array{physicalLocation(F.Where, F.RangeLength, Ctx)}},
    };
    if (!F.Notes.empty()) {
      llvm::json::Array Related;
      unsigned Id = 0;
      for (const FindingNote &N : F.Notes) {
        llvm::json::Object L = physicalLocation(N.Where, 0, Ctx);
        L["id"] = Id++;
        L["message"] = llvm::json::Object{{"text", N.Message}};
        Related.push_back(std::move(L));
      }
      Result["relatedLocations"] = std::move(Related);
    }
    if (F.Fix) {
      // One artifactChange per file, replacements in offset order as SARIF requires them to be
      // applied to the original text.
      llvm::StringMap<llvm::json::Array> PerFile;
      std::vector<std::string> FileOrder;
      for (const Replacement &Rep : F.Fix->Replacements) {
        llvm::json::Object Deleted{{"byteOffset", Rep.Offset}, {"byteLength", Rep.Length}};
        auto Begin = Ctx.Sources.position(Rep.File, Rep.Offset);
        auto End = Ctx.Sources.position(Rep.File, Rep.Offset + Rep.Length);
        if (Begin && End) {
          Deleted["startLine"] = Begin->first;
          Deleted["startColumn"] = Begin->second;
          Deleted["endLine"] = End->first;
          Deleted["endColumn"] = End->second;
        }
        if (!PerFile.count(Rep.File))
          FileOrder.push_back(Rep.File);
        PerFile[Rep.File].push_back(llvm::json::Object{{"deletedRegion", std::move(Deleted)},
                                                       {"insertedContent", llvm::json::Object{{"text", Rep.Text}}}});
      }
      llvm::json::Array Changes;
      for (const std::string &File : FileOrder)
        Changes.push_back(llvm::json::Object{{"artifactLocation", artifactLocation(File, Ctx)},
                                             {"replacements", std::move(PerFile[File])}});
      Result["fixes"] = llvm::json::Array{llvm::json::Object{
          {"description", llvm::json::Object{{"text", F.Fix->Explanation}}}, {"artifactChanges", std::move(Changes)}}};
    }
    Results.push_back(std::move(Result));
  }

  std::string Root = "file://" + encodeUriPath(llvm::sys::path::convert_to_slash(Ctx.WorkingDir));
  if (!llvm::StringRef(Root).ends_with("/"))
    Root += "/";
  llvm::json::Object Driver{{"name", "graphify-lint"},
                            {"version", Ctx.ToolVersion},
                            {"semanticVersion", Ctx.ToolVersion},
                            {"informationUri", "https://github.com/graphify/graphify"},
                            {"rules", std::move(Rules)}};
  llvm::json::Object Run{{"tool", llvm::json::Object{{"driver", std::move(Driver)}}},
                         {"originalUriBaseIds", llvm::json::Object{{"%SRCROOT%", llvm::json::Object{{"uri", Root}}}}},
                         {"columnKind", "utf16CodeUnits"},
                         {"results", std::move(Results)}};
  llvm::json::Object Log{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                         {"version", "2.1.0"},
                         {"runs", llvm::json::Array{std::move(Run)}}};
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Log))) << "\n";
}

} // namespace graphify
