// End-to-end tests of whole-program mode by summaries (docs/architecture.md, docs/ci.md):
// graphify-lint --emit-summaries / --program-summary and graphify-link, run as a CI job runs them,
// against the single-process whole-program mode on the same build.
#include "CliTestUtil.h"

#include <llvm/Support/FileSystem.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

using namespace graphify::test;

namespace {

RunResult link(const std::vector<std::string> &Args) { return run(GRAPHIFY_LINK_EXE, Args); }

/// A three-unit program whose region (run.cpp) reaches a device sync in another unit
/// (helper.cpp, through a parameter whose value comes from a third), with its
/// compile_commands.json; `build()` is the directory to pass to -p.
struct Program {
  ScratchDir D;
  std::vector<std::string> Env = {"XDG_CACHE_HOME=" + D.Path + "/cache"};
  Program() {
    D.file("api.h", "#pragma once\nvoid cudaDeviceSynchronize();\nvoid helper(int n);\nint level();\n");
    D.file("run.cpp", "#include \"api.h\"\n[[clang::annotate(\"graphify.graph_region\")]] void run() {\n"
                      "  helper(level());\n}\n");
    D.file("helper.cpp", "#include \"api.h\"\nvoid helper(int n) {\n  if (n > 0)\n"
                         "    cudaDeviceSynchronize();\n}\nvoid unused() { cudaDeviceSynchronize(); }\n");
    D.file("level.cpp", "#include \"api.h\"\nint level() { return 3; }\n");
    std::string Db = "[";
    for (const char *Unit : {"run.cpp", "helper.cpp", "level.cpp"})
      Db += std::string(Db.size() > 1 ? ",\n" : "\n") + "{\"directory\": \"" + D.Path + "\", \"file\": \"" + Unit +
            "\", \"command\": \"clang++ -std=c++17 -c " + Unit + "\"}";
    D.file("build/compile_commands.json", Db + "\n]\n");
  }
  std::string build() const { return D.Path + "/build"; }
  std::string summaries() const { return D.Path + "/summaries"; }
  std::string program() const { return D.Path + "/program.summary"; }
  RunResult lintWith(std::vector<std::string> Extra) const {
    std::vector<std::string> Args = {"-p", build()};
    Args.insert(Args.end(), Extra.begin(), Extra.end());
    return lint(Args, D.Path, Env);
  }
  /// Extract, link, extract again what the link names until it settles (at most 8 rounds).
  /// Returns the number of links.
  unsigned settle() const {
    RunResult E = lintWith({"--emit-summaries=" + summaries()});
    EXPECT_EQ(E.Code, 0) << E.Err;
    RunResult L = link({"-o", program(), summaries()});
    unsigned Links = 1;
    while (L.Code == 3 && Links < 8) {
      E = lintWith({"--emit-summaries=" + summaries(), "--program-summary=" + program()});
      EXPECT_EQ(E.Code, 0) << E.Err;
      L = link({"-o", program(), "--base=" + program(), summaries()});
      ++Links;
    }
    EXPECT_EQ(L.Code, 0) << L.Err;
    return Links;
  }
};

std::vector<std::string> summaryFiles(const std::string &Dir) { return filesEndingWith(Dir, ".summary"); }

TEST(Summaries, SettleToTheSingleProcessFindings) {
  Program P;
  RunResult OneProcess = P.lintWith({});
  ASSERT_EQ(OneProcess.Code, 1) << OneProcess.Err;
  ASSERT_NE(OneProcess.Out.find("helper.cpp:4:5: warning: 'cudaDeviceSynchronize'"), std::string::npos)
      << OneProcess.Out;

  // The first extraction writes every unit's summary and checks nothing: it says so.
  RunResult First = P.lintWith({"--emit-summaries=" + P.summaries()});
  EXPECT_EQ(First.Code, 0) << First.Err;
  EXPECT_EQ(First.Out, "");
  EXPECT_NE(First.Err.find("summaries of 3 units in '" + P.summaries() + "': 3 written, 0 unchanged"),
            std::string::npos)
      << First.Err;
  EXPECT_NE(First.Err.find("nothing is checked"), std::string::npos) << First.Err;
  ASSERT_EQ(summaryFiles(P.summaries()).size(), 3u);

  // The facts of level() and helper() cross units: the first link names the units that looked
  // them up, and the later rounds settle.
  RunResult Link = link({"-o", P.program(), P.summaries()});
  EXPECT_EQ(Link.Code, 3) << Link.Err;
  EXPECT_NE(Link.Err.find("extract them again with --program-summary='" + P.program() + "'"), std::string::npos)
      << Link.Err;
  EXPECT_NE(Link.Err.find(P.D.Path + "/run.cpp\n"), std::string::npos) << Link.Err;
  EXPECT_GE(P.settle(), 2u);

  RunResult Check = P.lintWith({"--program-summary=" + P.program()});
  EXPECT_EQ(Check.Code, OneProcess.Code) << Check.Err;
  EXPECT_EQ(Check.Out, OneProcess.Out);
  EXPECT_EQ(Check.Err.find("not settled"), std::string::npos) << Check.Err;

  // One unit checked alone against the program summary keeps the finding another unit's region
  // gives it; without the summary it has none.
  RunResult Alone = P.lintWith({"--program-summary=" + P.program(), P.D.Path + "/helper.cpp"});
  EXPECT_EQ(Alone.Code, 1) << Alone.Err;
  EXPECT_NE(Alone.Out.find("helper.cpp:4:5: warning: 'cudaDeviceSynchronize'"), std::string::npos) << Alone.Out;
  RunResult Unlinked = P.lintWith({P.D.Path + "/helper.cpp"});
  EXPECT_EQ(Unlinked.Code, 0) << Unlinked.Out;
}

TEST(Summaries, UnchangedSummariesKeepTheirFiles) {
  // A build system re-runs what depends on a summary only when its bytes change.
  Program P;
  ASSERT_EQ(P.lintWith({"--emit-summaries=" + P.summaries()}).Code, 0);
  std::vector<std::string> Files = summaryFiles(P.summaries());
  ASSERT_EQ(Files.size(), 3u);
  const auto Old = std::filesystem::file_time_type(std::chrono::hours(24 * 365));
  std::filesystem::last_write_time(Files[0], Old);
  std::string Text = readFile(Files[0]);
  RunResult Again = P.lintWith({"--emit-summaries=" + P.summaries()});
  EXPECT_EQ(Again.Code, 0) << Again.Err;
  EXPECT_NE(Again.Err.find("0 written, 3 unchanged"), std::string::npos) << Again.Err;
  EXPECT_TRUE(std::filesystem::last_write_time(Files[0]) == Old) << "an unchanged summary was rewritten";
  EXPECT_EQ(readFile(Files[0]), Text);
}

TEST(Summaries, SummariesOfUnitsNoLongerBuiltAreRemoved) {
  Program P;
  std::string Stale = P.D.file("summaries/gone.cpp.0123456789abcdef.summary", "{}");
  std::string Other = P.D.file("summaries/notes.txt", "kept");
  RunResult E = P.lintWith({"--emit-summaries=" + P.summaries()});
  EXPECT_EQ(E.Code, 0) << E.Err;
  EXPECT_NE(E.Err.find("1 of units no longer built removed"), std::string::npos) << E.Err;
  EXPECT_FALSE(llvm::sys::fs::exists(Stale));
  EXPECT_TRUE(llvm::sys::fs::exists(Other)) << "only *.summary files are the tool's";
}

TEST(Summaries, OneUnitAtATimeGivesTheSameSummaries) {
  // --emit-summary writes one unit's summary where a build system wants it: with the project's
  // root named, the bytes are those of a whole-build extraction (summaries are per unit, not per
  // run), and graphify-link takes files as well as directories.
  Program P;
  ASSERT_EQ(P.lintWith({"--emit-summaries=" + P.summaries()}).Code, 0);
  std::vector<std::string> Whole = summaryFiles(P.summaries()); // helper, level, run
  ASSERT_EQ(Whole.size(), 3u);
  std::vector<std::string> Args = {"-o", P.D.Path + "/from-parts.summary"};
  for (const char *Unit : {"helper.cpp", "level.cpp", "run.cpp"}) {
    std::string Part = P.D.Path + "/parts/" + Unit + ".summary";
    RunResult E = P.lintWith({"--emit-summary=" + Part, "--project-root=" + P.D.Path, P.D.Path + "/" + Unit});
    EXPECT_EQ(E.Code, 0) << E.Err;
    EXPECT_EQ(readFile(Part), readFile(Whole[Args.size() - 2])) << Unit;
    Args.push_back(Part);
  }
  EXPECT_EQ(link(Args).Code, 3);
  EXPECT_EQ(link({"-o", P.program(), P.summaries()}).Code, 3);
  EXPECT_EQ(readFile(P.D.Path + "/from-parts.summary"), readFile(P.program()));
}

TEST(Summaries, UnsettledProgramSummaryWarns) {
  Program P;
  ASSERT_EQ(P.lintWith({"--emit-summaries=" + P.summaries()}).Code, 0);
  ASSERT_EQ(link({"-o", P.program(), P.summaries()}).Code, 3);
  RunResult Check = P.lintWith({"--program-summary=" + P.program()});
  EXPECT_NE(Check.Err.find("is not settled (graphify-link exited 3)"), std::string::npos) << Check.Err;
}

TEST(Summaries, UnitsOutsideTheProgramAreNamed) {
  Program P;
  P.settle();
  std::string Extra = P.D.file("extra.cpp", "void cudaDeviceSynchronize();\nvoid extra() {}\n");
  RunResult Check = lint({"--program-summary=" + P.program(), Extra, "--", "-std=c++17"}, P.D.Path, P.Env);
  EXPECT_NE(Check.Err.find("'" + Extra + "' is not among the units"), std::string::npos) << Check.Err;
}

TEST(Summaries, CompileErrorsFailTheExtraction) {
  Program P;
  P.D.file("level.cpp", "#include \"api.h\"\nint level() { return undeclared; }\n");
  RunResult E = P.lintWith({"--emit-summaries=" + P.summaries()});
  EXPECT_EQ(E.Code, 2);
  EXPECT_NE(E.Err.find("level.cpp:2:22: error: use of undeclared identifier 'undeclared'"), std::string::npos)
      << E.Err;
  EXPECT_NE(E.Err.find("1 not extracted (compile errors)"), std::string::npos) << E.Err;
  EXPECT_EQ(summaryFiles(P.summaries()).size(), 2u) << "the units that compile are written";
}

TEST(Summaries, MalformedSummariesAreLocated) {
  ScratchDir D;
  std::string Version = link({"--version"}).Out;
  ASSERT_EQ(Version.rfind("graphify-link version ", 0), 0u) << Version;
  Version = llvm::StringRef(Version).substr(22).trim().str();

  std::string Bad = D.file("bad.summary", "{\n  \"format\": x");
  RunResult R = link({"-o", D.Path + "/p.summary", Bad});
  EXPECT_EQ(R.Code, 2);
  EXPECT_NE(R.Err.find(Bad + ":2:14: error: invalid JSON"), std::string::npos) << R.Err;
  EXPECT_FALSE(llvm::sys::fs::exists(D.Path + "/p.summary")) << "nothing is written on an error";

  D.file("bad.summary",
         "{\"format\": \"graphify-unit-summary\", \"graphify\": \"" + Version + "\", \"version\": 1}");
  R = link({"-o", D.Path + "/p.summary", Bad});
  EXPECT_EQ(R.Code, 2);
  EXPECT_NE(R.Err.find(Bad + ": error: missing value at summary.file"), std::string::npos) << R.Err;

  D.file("bad.summary", "{\"format\": \"graphify-unit-summary\", \"graphify\": \"0.0.1-old\", \"version\": 1}");
  R = link({"-o", D.Path + "/p.summary", Bad});
  EXPECT_EQ(R.Code, 2);
  EXPECT_NE(R.Err.find("written by graphify 0.0.1-old, this is graphify " + Version + ": extract the summaries again"),
            std::string::npos)
      << R.Err;

  D.file("bad.summary", "{\"format\": \"graphify-program-summary\", \"graphify\": \"" + Version + "\"}");
  R = link({"-o", D.Path + "/p.summary", Bad});
  EXPECT_EQ(R.Code, 2);
  EXPECT_NE(R.Err.find("not a graphify-unit-summary file"), std::string::npos) << R.Err;

  // graphify-lint reads a program summary the same way; a unit summary is not one.
  RunResult L = lint({"--program-summary=" + Bad, D.file("a.cpp", "int a;\n"), "--", "-std=c++17"});
  EXPECT_EQ(L.Code, 2);
  EXPECT_NE(L.Err.find(Bad + ": error: graphify-program-summary without a \"version\""), std::string::npos) << L.Err;
  std::string Unit = D.file("unit.summary", "{\"format\": \"graphify-unit-summary\"}");
  L = lint({"--program-summary=" + Unit, D.Path + "/a.cpp", "--", "-std=c++17"});
  EXPECT_EQ(L.Code, 2);
  EXPECT_NE(L.Err.find("not a graphify-program-summary file (its \"format\" is \"graphify-unit-summary\")"),
            std::string::npos)
      << L.Err;
  L = lint({"--program-summary=" + D.Path + "/missing.summary", D.Path + "/a.cpp", "--", "-std=c++17"});
  EXPECT_EQ(L.Code, 2);
  EXPECT_NE(L.Err.find("missing.summary"), std::string::npos) << L.Err;
}

TEST(Summaries, LinkRefusesWhatWouldMislead) {
  Program P;
  ASSERT_EQ(P.lintWith({"--emit-summaries=" + P.summaries()}).Code, 0);
  std::vector<std::string> Files = summaryFiles(P.summaries());
  ASSERT_EQ(Files.size(), 3u);

  // The same unit twice (a copy from another run).
  std::string Copy = P.D.file("copy.summary", readFile(Files[0]));
  RunResult R = link({"-o", P.program(), P.summaries(), Copy});
  EXPECT_EQ(R.Code, 2);
  EXPECT_NE(R.Err.find("summarise the same translation unit"), std::string::npos) << R.Err;

  // A base of other units: a round grows one settling's facts only.
  ASSERT_EQ(link({"-o", P.program(), P.summaries()}).Code, 3);
  R = link({"-o", P.D.Path + "/two.summary", "--base=" + P.program(), Files[0], Files[1]});
  EXPECT_EQ(R.Code, 2);
  EXPECT_NE(R.Err.find("links other units (3 there, 2 here)"), std::string::npos) << R.Err;

  EXPECT_EQ(link({P.summaries()}).Code, 2);
  EXPECT_NE(link({P.summaries()}).Err.find("-o <file> is required"), std::string::npos);
  EXPECT_NE(link({"-o", P.program()}).Err.find("no summaries to link"), std::string::npos);
  ScratchDir Empty;
  EXPECT_NE(link({"-o", P.program(), Empty.Path}).Err.find("no *.summary file in the inputs"), std::string::npos);
  EXPECT_NE(link({"-o", P.program(), P.D.Path + "/nothere"}).Err.find("no such file"), std::string::npos);
}

TEST(Summaries, LintFlagsThatCannotGoTogether) {
  Program P;
  auto errOf = [&](std::vector<std::string> Extra) {
    RunResult R = P.lintWith(std::move(Extra));
    EXPECT_EQ(R.Code, 2) << R.Err;
    return R.Err;
  };
  EXPECT_NE(errOf({"--emit-summary=a.summary", "--emit-summaries=s"}).find("are exclusive"), std::string::npos);
  EXPECT_NE(errOf({"--emit-summaries=s", "--fix"}).find("there is nothing to fix"), std::string::npos);
  EXPECT_NE(errOf({"--emit-summary=a.summary"}).find("writes one translation unit's summary and there are 3"),
            std::string::npos);
  EXPECT_NE(errOf({"--emit-summaries=s", "--project-root=" + P.D.Path + "/nothere"}).find("is not a directory"),
            std::string::npos);
}

TEST(Summaries, LinkHelpAndVersion) {
  RunResult Help = link({"--help"});
  EXPECT_EQ(Help.Code, 0);
  for (const char *Flag : {"-o", "--base", "--quiet", "--version"})
    EXPECT_NE(Help.Out.find(Flag), std::string::npos) << Flag;
  EXPECT_NE(Help.Out.find("EXIT STATUS"), std::string::npos);
  RunResult Lint = lint({"--help"});
  for (const char *Flag : {"--emit-summary", "--emit-summaries", "--program-summary", "--project-root"})
    EXPECT_NE(Lint.Out.find(Flag), std::string::npos) << Flag;
}

} // namespace
