// The renderers on synthetic findings over a real file: exact clang-tidy text (golden), JSON
// shape, SARIF 2.1.0 required fields and 1-based regions, GitHub escaping.
#include "CliTestUtil.h"

#include <cctype>

#include "graphify/lint/Output.h"

#include <llvm/Support/JSON.h>

using namespace graphify;
using namespace graphify::test;

namespace {

const char *Model = "#include <torch/torch.h>\n"
                    "torch::Tensor f(torch::Tensor x) {\n"
                    "  float s = x.sum().item<float>();\n"
                    "  if (s > 0)\n"
                    "    return x;\n"
                    "  return -x;\n"
                    "}\n";

struct Fixture : ::testing::Test {
  ScratchDir D;
  std::string File;
  SourceCache Sources;
  std::vector<ReportedFinding> Findings;

  void SetUp() override {
    File = D.file("model.cpp", Model);
    Finding Branch;
    Branch.CheckId = "graphify-data-dependent-branch";
    Branch.Where = {File, 4, 7, 0};
    Branch.RangeLength = 5;
    Branch.Message = "condition depends on tensor values, so the traced graph keeps only one branch";
    Branch.Notes.push_back({{File, 3, 21, 0}, "value read from tensor here"});
    FixIt Fix;
    Fix.RuleName = "if-return-to-where";
    Fix.Explanation = "select with torch::where";
    Fix.Replacements.push_back({File, 101, 5, "x.sum() > 0"});
    Branch.Fix = Fix;
    Findings.push_back({Branch, Severity::Warning});
    Finding Sync;
    Sync.CheckId = "graphify-host-sync";
    Sync.Where = {File, 3, 21, 0};
    Sync.RangeLength = 4;
    Sync.Message = "'item' copies one element to the host: a device-to-host sync, 100%, a:b,c";
    Sync.NoFixReason = "the value is used as a host float";
    Findings.push_back({Sync, Severity::Error});
  }

  OutputContext context() {
    OutputContext Ctx{Sources};
    Ctx.WorkingDir = D.Path;
    Ctx.ToolVersion = "9.9.9";
    Ctx.Rules = {CheckInfo{"graphify-data-dependent-branch", "branch summary", "branch description", "branch help", true},
                 CheckInfo{"graphify-host-sync", "sync summary", "sync description", "sync help", true}};
    return Ctx;
  }
};

TEST_F(Fixture, TextIsClangTidyFormat) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OutputContext Ctx = context();
  writeText(OS, Findings, Ctx);
  std::string Expected =
      File + ":4:7: warning: condition depends on tensor values, so the traced graph keeps only one branch "
             "[graphify-data-dependent-branch]\n"
             "    4 |   if (s > 0)\n"
             "      |       ^~~~~\n"
             "      |       x.sum() > 0\n" +
      File + ":3:21: note: value read from tensor here\n"
             "    3 |   float s = x.sum().item<float>();\n"
             "      |                     ^\n" +
      File + ":4:7: note: fix: select with torch::where\n" + File +
      ":3:21: error: 'item' copies one element to the host: a device-to-host sync, 100%, a:b,c "
      "[graphify-host-sync,-warnings-as-errors]\n"
      "    3 |   float s = x.sum().item<float>();\n"
      "      |                     ^~~~\n" +
      File + ":3:21: note: no fix offered: the value is used as a host float\n";
  EXPECT_EQ(OS.str(), Expected);
}

TEST_F(Fixture, TextColorsOnlyWhenAsked) {
  std::string Plain, Colored;
  llvm::raw_string_ostream P(Plain), C(Colored);
  OutputContext Ctx = context();
  writeText(P, Findings, Ctx);
  Ctx.Color = true;
  writeText(C, Findings, Ctx);
  EXPECT_EQ(P.str().find('\033'), std::string::npos);
  EXPECT_NE(C.str().find("\033[1;35mwarning: "), std::string::npos);
}

TEST_F(Fixture, JsonSchema) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OutputContext Ctx = context();
  writeJson(OS, Findings, Ctx);
  auto V = llvm::json::parse(OS.str());
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  const llvm::json::Array *A = V->getAsArray();
  ASSERT_EQ(A->size(), 2u);
  const llvm::json::Object *F = (*A)[0].getAsObject();
  EXPECT_EQ(F->getString("file"), File);
  EXPECT_EQ(F->getInteger("line"), 4);
  EXPECT_EQ(F->getInteger("column"), 7);
  EXPECT_EQ(F->getInteger("endColumn"), 12);
  EXPECT_EQ(F->getString("check"), "graphify-data-dependent-branch");
  EXPECT_EQ(F->getString("severity"), "warning");
  EXPECT_EQ(F->getArray("notes")->size(), 1u);
  const llvm::json::Object *Rep = F->getObject("fix")->getArray("replacements")->front().getAsObject();
  EXPECT_EQ(Rep->getInteger("offset"), 101);
  EXPECT_EQ(Rep->getInteger("line"), 4);
  EXPECT_EQ(Rep->getInteger("column"), 7);
  const llvm::json::Object *G = (*A)[1].getAsObject();
  EXPECT_EQ(G->getString("severity"), "error");
  EXPECT_EQ(G->getString("noFixReason"), "the value is used as a host float");
  EXPECT_TRUE((*G->get("fix")) == nullptr);
}

TEST_F(Fixture, SarifRequiredFields) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OutputContext Ctx = context();
  writeSarif(OS, Findings, Ctx);
  auto V = llvm::json::parse(OS.str());
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  const llvm::json::Object *Log = V->getAsObject();
  EXPECT_TRUE(Log->getString("$schema"));
  EXPECT_EQ(Log->getString("version"), "2.1.0");
  const llvm::json::Object *Run = Log->getArray("runs")->front().getAsObject();
  const llvm::json::Object *Driver = Run->getObject("tool")->getObject("driver");
  EXPECT_EQ(Driver->getString("name"), "graphify-lint");
  EXPECT_EQ(Driver->getString("version"), "9.9.9");
  EXPECT_TRUE(Driver->getString("informationUri"));
  const llvm::json::Object *Rule = Driver->getArray("rules")->front().getAsObject();
  EXPECT_EQ(Rule->getString("id"), "graphify-data-dependent-branch");
  EXPECT_EQ(Rule->getObject("shortDescription")->getString("text"), "branch summary");
  EXPECT_EQ(Rule->getObject("fullDescription")->getString("text"), "branch description");
  EXPECT_EQ(Rule->getObject("help")->getString("text"), "branch help");

  const llvm::json::Array *Results = Run->getArray("results");
  ASSERT_EQ(Results->size(), 2u);
  const llvm::json::Object *R = (*Results)[0].getAsObject();
  EXPECT_EQ(R->getString("ruleId"), "graphify-data-dependent-branch");
  EXPECT_EQ(R->getInteger("ruleIndex"), 0);
  EXPECT_EQ(R->getString("level"), "warning");
  EXPECT_TRUE(R->getObject("message")->getString("text"));
  const llvm::json::Object *Phys = R->getArray("locations")->front().getAsObject()->getObject("physicalLocation");
  EXPECT_EQ(Phys->getObject("artifactLocation")->getString("uri"), "model.cpp");
  EXPECT_EQ(Phys->getObject("artifactLocation")->getString("uriBaseId"), "%SRCROOT%");
  const llvm::json::Object *Region = Phys->getObject("region");
  EXPECT_EQ(Region->getInteger("startLine"), 4);
  EXPECT_EQ(Region->getInteger("startColumn"), 7);
  EXPECT_EQ(Region->getInteger("endColumn"), 12);
  const llvm::json::Object *Related = R->getArray("relatedLocations")->front().getAsObject();
  EXPECT_EQ(Related->getObject("message")->getString("text"), "value read from tensor here");
  EXPECT_EQ(Related->getObject("physicalLocation")->getObject("region")->getInteger("startColumn"), 21);
  const llvm::json::Object *Change =
      R->getArray("fixes")->front().getAsObject()->getArray("artifactChanges")->front().getAsObject();
  const llvm::json::Object *Rep = Change->getArray("replacements")->front().getAsObject();
  EXPECT_EQ(Rep->getObject("deletedRegion")->getInteger("startLine"), 4);
  EXPECT_EQ(Rep->getObject("deletedRegion")->getInteger("startColumn"), 7);
  EXPECT_EQ(Rep->getObject("deletedRegion")->getInteger("endColumn"), 12);
  EXPECT_EQ(Rep->getObject("insertedContent")->getString("text"), "x.sum() > 0");
  const llvm::json::Object *Second = (*Results)[1].getAsObject();
  EXPECT_EQ(Second->getInteger("ruleIndex"), 1);
  EXPECT_EQ(Second->getString("level"), "error");
}

TEST_F(Fixture, SarifUsesAbsoluteUriOutsideWorkingDir) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OutputContext Ctx = context();
  Ctx.WorkingDir = "/somewhere/else";
  writeSarif(OS, Findings, Ctx);
  EXPECT_NE(OS.str().find("\"uri\": \"file://" + File + "\""), std::string::npos) << OS.str();
}

/// RFC 3986 percent-decoding, written independently of the encoder under test.
static std::string percentDecode(llvm::StringRef Uri) {
  std::string Out;
  for (size_t I = 0; I < Uri.size(); ++I) {
    unsigned Byte = 0;
    if (Uri[I] == '%' && I + 2 < Uri.size() && !Uri.substr(I + 1, 2).getAsInteger(16, Byte)) {
      Out += char(Byte);
      I += 2;
    } else {
      Out += Uri[I];
    }
  }
  return Out;
}

TEST_F(Fixture, SarifUrisPercentEncodeReservedCharacters) {
  std::string Odd = D.file("with space a+b%c#d.cpp", Model);
  std::vector<ReportedFinding> OddFindings = Findings;
  OddFindings[0].F.Where.File = Odd;
  for (const char *WorkingDir : {"", "/elsewhere"}) {
    OutputContext Ctx = context();
    if (*WorkingDir)
      Ctx.WorkingDir = WorkingDir;
    std::string S;
    llvm::raw_string_ostream OS(S);
    writeSarif(OS, OddFindings, Ctx);
    auto V = llvm::json::parse(OS.str());
    ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
    const llvm::json::Object *Run = V->getAsObject()->getArray("runs")->front().getAsObject();
    const llvm::json::Object *Loc = Run->getArray("results")->front().getAsObject()->getArray("locations")->front()
                                        .getAsObject()->getObject("physicalLocation")->getObject("artifactLocation");
    llvm::StringRef Uri = *Loc->getString("uri");
    EXPECT_EQ(Uri.find_first_of(" +#"), llvm::StringRef::npos) << Uri.str();
    EXPECT_EQ(Uri.find("0x"), llvm::StringRef::npos) << Uri.str();
    for (size_t P = Uri.find('%'); P != llvm::StringRef::npos; P = Uri.find('%', P + 1))
      EXPECT_TRUE(P + 2 < Uri.size() && std::isxdigit(Uri[P + 1]) && std::isxdigit(Uri[P + 2])) << Uri.str();
    if (Loc->getString("uriBaseId"))
      EXPECT_EQ(percentDecode(Uri), "with space a+b%c#d.cpp");
    else
      EXPECT_EQ(percentDecode(Uri), "file://" + Odd);
  }
}

TEST_F(Fixture, GithubWorkflowCommands) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OutputContext Ctx = context();
  writeGithub(OS, Findings, Ctx);
  std::string Expected =
      "::warning file=model.cpp,line=4,col=7,endColumn=12,title=graphify-data-dependent-branch::condition depends "
      "on tensor values, so the traced graph keeps only one branch%0A" +
      File + ":3:21: note: value read from tensor here\n" +
      "::error file=model.cpp,line=3,col=21,endColumn=25,title=graphify-host-sync::'item' copies one element to the "
      "host: a device-to-host sync, 100%25, a:b,c%0Ano fix offered: the value is used as a host float\n";
  EXPECT_EQ(OS.str(), Expected);
}

TEST(GithubEscape, PropertiesAndData) {
  EXPECT_EQ(escapeGithub("a%b\r\nc:d,e", false), "a%25b%0D%0Ac:d,e");
  EXPECT_EQ(escapeGithub("a%b\r\nc:d,e", true), "a%25b%0D%0Ac%3Ad%2Ce");
}

TEST(RelativePath, OnlyBeneathWorkingDir) {
  EXPECT_EQ(relativeToWorkingDir("/a/b/c.cpp", "/a"), "b/c.cpp");
  EXPECT_EQ(relativeToWorkingDir("/a/b/c.cpp", "/a/"), "b/c.cpp");
  EXPECT_EQ(relativeToWorkingDir("/ab/c.cpp", "/a"), "");
  EXPECT_EQ(relativeToWorkingDir("c.cpp", "/a"), "c.cpp");
}

} // namespace
