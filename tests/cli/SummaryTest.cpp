// End-to-end tests of whole-program mode by summaries (docs/architecture.md, docs/ci.md):
// graphify-lint --emit-summaries / --program-summary and graphify-link, run as a CI job runs them,
// against the single-process whole-program mode on the same build.
#include "CliTestUtil.h"
#include "graphify/lint/SummaryFile.h"

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
  /// Extract (with `Extra` flags), link, extract again what the link names until it settles (at
  /// most 8 rounds). Returns the number of links.
  unsigned settle(const std::vector<std::string> &Extra = {}) const {
    std::vector<std::string> Extract = Extra;
    Extract.push_back("--emit-summaries=" + summaries());
    RunResult E = lintWith(Extract);
    EXPECT_EQ(E.Code, 0) << E.Err;
    RunResult L = link({"-o", program(), summaries()});
    unsigned Links = 1;
    Extract.push_back("--program-summary=" + program());
    while (L.Code == 3 && Links < 8) {
      E = lintWith(Extract);
      EXPECT_EQ(E.Code, 0) << E.Err;
      L = link({"-o", program(), summaries()});
      ++Links;
    }
    EXPECT_EQ(L.Code, 0) << L.Err;
    return Links;
  }
};

/// The summaries under `Dir` (a summaries directory mirrors the sources: they are in subdirectories).
std::vector<std::string> summaryFiles(const std::string &Dir) {
  auto Files = graphify::summaryFilesIn(Dir);
  return Files ? *Files : (llvm::consumeError(Files.takeError()), std::vector<std::string>());
}

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
  EXPECT_NE(Link.Err.find("extract them with --program-summary='" + P.program() + "' and link again"), std::string::npos)
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

TEST(Summaries, EditsSinceTheLinkAreNamed) {
  Program P;
  P.settle();
  EXPECT_EQ(P.lintWith({"--program-summary=" + P.program()}).Err.find("changed since"), std::string::npos);
  // The main file of one unit...
  P.D.file("helper.cpp", readFile(P.D.Path + "/helper.cpp") + "// edited\n");
  RunResult One = P.lintWith({"--program-summary=" + P.program()});
  EXPECT_NE(One.Err.find("warning: '" + P.D.Path + "/helper.cpp' (or a project header it includes) changed since '" +
                         P.program() + "' was linked: findings may differ"),
            std::string::npos)
      << One.Err;
  // ...and a project header every unit includes.
  P.D.file("api.h", readFile(P.D.Path + "/api.h") + "// edited\n");
  RunResult All = P.lintWith({"--program-summary=" + P.program()});
  EXPECT_NE(All.Err.find("was linked, and 2 more units: findings may differ"), std::string::npos) << All.Err;
  // Settling again clears it.
  P.settle();
  EXPECT_EQ(P.lintWith({"--program-summary=" + P.program()}).Err.find("changed since"), std::string::npos);
}

TEST(Summaries, SummariesDoNotDependOnTheSharedPch) {
  Program P;
  ASSERT_EQ(P.lintWith({"--emit-summaries=" + P.summaries()}).Code, 0);
  ASSERT_EQ(P.lintWith({"--pch=off", "--emit-summaries=" + P.D.Path + "/plain"}).Code, 0);
  std::vector<std::string> WithPch = summaryFiles(P.summaries()), Plain = summaryFiles(P.D.Path + "/plain");
  ASSERT_EQ(WithPch.size(), 3u);
  ASSERT_EQ(Plain.size(), 3u);
  for (size_t I = 0; I < WithPch.size(); ++I)
    EXPECT_EQ(readFile(WithPch[I]), readFile(Plain[I])) << WithPch[I];
}

TEST(Summaries, UnchangedSummariesKeepTheirFiles) {
  // A build system re-runs what depends on a summary only when its bytes change: the directory's
  // summaries that still hold are not even parsed for, and --emit-summary does not rewrite a file
  // whose content it would not change.
  Program P;
  ASSERT_EQ(P.lintWith({"--emit-summaries=" + P.summaries()}).Code, 0);
  std::vector<std::string> Files = summaryFiles(P.summaries());
  ASSERT_EQ(Files.size(), 3u);
  const auto Old = std::filesystem::file_time_type(std::chrono::hours(24 * 365));
  std::filesystem::last_write_time(Files[0], Old);
  std::string Text = readFile(Files[0]);
  RunResult Again = P.lintWith({"--emit-summaries=" + P.summaries()});
  EXPECT_EQ(Again.Code, 0) << Again.Err;
  EXPECT_NE(Again.Err.find("0 written, 0 unchanged, 3 still holding"), std::string::npos) << Again.Err;
  EXPECT_TRUE(std::filesystem::last_write_time(Files[0]) == Old) << "an unchanged summary was rewritten";
  EXPECT_EQ(readFile(Files[0]), Text);

  std::string One = P.D.Path + "/level.summary";
  ASSERT_EQ(P.lintWith({"--emit-summary=" + One, P.D.Path + "/level.cpp"}).Code, 0);
  std::filesystem::last_write_time(One, Old);
  RunResult Rerun = P.lintWith({"--emit-summary=" + One, P.D.Path + "/level.cpp"});
  EXPECT_NE(Rerun.Err.find("0 written, 1 unchanged"), std::string::npos) << Rerun.Err;
  EXPECT_TRUE(std::filesystem::last_write_time(One) == Old) << "an unchanged summary was rewritten";
}

TEST(Summaries, AnEditReanalysesWhatItAffects) {
  // After an edit, the directory's summaries that are still of their sources and still analysed
  // with the facts the rounds reach are kept: an edit that changes no fact costs one parse, one
  // that does costs the units that looked the fact up. The findings stay the single process's.
  Program P;
  P.settle();
  auto extract = [&](std::vector<std::string> Extra = {}) {
    Extra.insert(Extra.begin(), "--emit-summaries=" + P.summaries());
    RunResult E = P.lintWith(Extra);
    EXPECT_EQ(E.Code, 0) << E.Err;
    return E.Err;
  };
  // A constant of level() changes, none of its facts: level.cpp is parsed for each round it takes
  // part in (the first, and the second: the region reaches it), the other units for none.
  P.D.file("level.cpp", "#include \"api.h\"\nint level() { return 4; }\n");
  EXPECT_NE(extract().find("1 written, 0 unchanged, 2 still holding, 1 removed"), std::string::npos);
  RunResult L = link({"-o", P.program(), P.summaries()});
  ASSERT_EQ(L.Code, 3) << L.Err;
  EXPECT_NE(L.Err.find("round 2: 1 of 3 units have no summary analysed with its facts"), std::string::npos) << L.Err;
  EXPECT_NE(L.Err.find("  " + P.D.Path + "/level.cpp\n"), std::string::npos) << L.Err;
  // --quiet counts them: a build system that extracts again whatever the link names needs no list.
  RunResult Quiet = link({"--quiet", "-o", P.program(), P.summaries()});
  EXPECT_EQ(Quiet.Code, 3) << Quiet.Err;
  EXPECT_NE(Quiet.Err.find("round 2: 1 of 3 units have no summary analysed with its facts; extract them with "
                           "--program-summary='" + P.program() + "' and link again (without --quiet, the link "
                           "names them)\n"),
            std::string::npos)
      << Quiet.Err;
  EXPECT_EQ(Quiet.Err.find("level.cpp"), std::string::npos) << Quiet.Err;
  EXPECT_NE(extract({"--program-summary=" + P.program()}).find("1 written, 0 unchanged, 2 still holding;"),
            std::string::npos);
  EXPECT_EQ(link({"-o", P.program(), P.summaries()}).Code, 0);
  EXPECT_EQ(P.lintWith({"--program-summary=" + P.program()}).Out, P.lintWith({}).Out);

  // run() stops being a region: the region facts go. The first-round analyses of helper.cpp and
  // level.cpp are again what the rounds need (no region reaches them, as before the region was
  // linked), so only run.cpp is analysed for the later round; the finding in helper.cpp goes.
  P.D.file("run.cpp", "#include \"api.h\"\nvoid run() {\n  helper(level());\n}\n");
  EXPECT_NE(extract().find("1 written, 0 unchanged, 2 still holding"), std::string::npos);
  L = link({"-o", P.program(), P.summaries()});
  ASSERT_EQ(L.Code, 3) << L.Err;
  EXPECT_NE(L.Err.find("round 2: 1 of 3 units have no summary analysed with its facts"), std::string::npos) << L.Err;
  EXPECT_NE(L.Err.find("  " + P.D.Path + "/run.cpp\n"), std::string::npos) << L.Err;
  EXPECT_NE(extract({"--program-summary=" + P.program()}).find("1 written, 0 unchanged, 2 still holding"),
            std::string::npos);
  EXPECT_EQ(link({"-o", P.program(), P.summaries()}).Code, 0);
  P.settle();
  RunResult OneProcess = P.lintWith({});
  EXPECT_EQ(OneProcess.Code, 0) << OneProcess.Out;
  EXPECT_EQ(P.lintWith({"--program-summary=" + P.program()}).Out, OneProcess.Out);
}

TEST(Summaries, SlicesChangeOnlyForTheUnitsAnEditAffects) {
  // graphify-link --slices writes each unit's slice of the settled program only when it changes: a
  // build system re-checks a unit when its slice or its files changed, and the rest not at all.
  Program P;
  const std::string Slices = P.D.Path + "/slices";
  auto settleWithSlices = [&] {
    P.settle();
    RunResult L = link({"-o", P.program(), "--slices=" + Slices, P.summaries()});
    EXPECT_EQ(L.Code, 0) << L.Err;
  };
  settleWithSlices();
  std::vector<std::string> Files = summaryFiles(Slices); // helper, level, run
  ASSERT_EQ(Files.size(), 3u);
  ASSERT_NE(Files[1].find("/level.cpp."), std::string::npos) << Files[1];
  const auto Old = std::filesystem::file_time_type(std::chrono::hours(24 * 365));
  for (const std::string &F : Files)
    std::filesystem::last_write_time(F, Old);
  // Each unit checked against its slice alone gives its findings against the whole program.
  RunResult Alone = P.lintWith({"--program-summary=" + Files[0], P.D.Path + "/helper.cpp"});
  EXPECT_EQ(Alone.Out, P.lintWith({"--program-summary=" + P.program(), P.D.Path + "/helper.cpp"}).Out);
  EXPECT_NE(Alone.Out.find("helper.cpp:4:5: warning"), std::string::npos) << Alone.Out;

  P.D.file("level.cpp", "#include \"api.h\"\nint level() { return 4; }\n");
  settleWithSlices();
  EXPECT_TRUE(std::filesystem::last_write_time(Files[0]) == Old) << "helper.cpp's slice changed";
  EXPECT_FALSE(std::filesystem::last_write_time(Files[1]) == Old) << "level.cpp's files changed";
  EXPECT_TRUE(std::filesystem::last_write_time(Files[2]) == Old) << "run.cpp's slice changed";
}

TEST(Summaries, SummariesOfUnitsNoLongerBuiltAreRemoved) {
  Program P;
  std::string Stale = P.D.file("summaries/gone.cpp.0123456789abcdef.summary", "{}");
  std::string Other = P.D.file("summaries/notes.txt", "kept");
  RunResult E = P.lintWith({"--emit-summaries=" + P.summaries()});
  EXPECT_EQ(E.Code, 0) << E.Err;
  EXPECT_NE(E.Err.find("1 removed (of other sources, or of no unit of this build)"), std::string::npos) << E.Err;
  EXPECT_FALSE(llvm::sys::fs::exists(Stale));
  EXPECT_TRUE(llvm::sys::fs::exists(Other)) << "only *.summary files are the tool's";
}

TEST(Summaries, AnotherConfigurationIsAnotherUnit) {
  // Graph regions change the facts: summaries made under other ones are never taken.
  Program P;
  ASSERT_EQ(P.lintWith({"--emit-summaries=" + P.summaries()}).Code, 0);
  RunResult Other = P.lintWith({"--graph-region=helper", "--emit-summaries=" + P.summaries()});
  EXPECT_EQ(Other.Code, 0) << Other.Err;
  EXPECT_NE(Other.Err.find("3 written, 0 unchanged, 3 removed"), std::string::npos) << Other.Err;
  EXPECT_EQ(summaryFiles(P.summaries()).size(), 3u);
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

TEST(Summaries, SummariesABuildSystemNamedTakePartInTheRounds) {
  // A build system extracts each unit as its own action, to a name it chose in the file's folder
  // of the directory (mirroredPath); the rounds after the first find each unit's summary there by
  // content, so the folder keeps one file per round.
  Program P;
  RunResult OneProcess = P.lintWith({});
  auto named = [&](const char *Unit) {
    return graphify::mirroredPath(P.summaries(), P.D.Path + "/" + Unit) + "/" + Unit + ".summary";
  };
  for (const char *Unit : {"run.cpp", "helper.cpp", "level.cpp"}) {
    RunResult E = P.lintWith({"--emit-summary=" + named(Unit), "--project-root=" + P.D.Path, P.D.Path + "/" + Unit});
    ASSERT_EQ(E.Code, 0) << E.Err;
  }
  RunResult L = link({"-o", P.program(), P.summaries()});
  for (int Round = 0; L.Code == 3 && Round < 8; ++Round) {
    RunResult E = P.lintWith({"--emit-summaries=" + P.summaries(), "--program-summary=" + P.program()});
    ASSERT_EQ(E.Code, 0) << E.Err;
    L = link({"-o", P.program(), P.summaries()});
  }
  ASSERT_EQ(L.Code, 0) << L.Err;
  // The build system's summaries are the first round's; the later rounds added theirs beside.
  std::vector<std::string> Files = summaryFiles(P.summaries());
  for (const char *Unit : {"run.cpp", "helper.cpp", "level.cpp"})
    EXPECT_TRUE(llvm::is_contained(Files, named(Unit))) << Unit;
  EXPECT_GT(Files.size(), 3u);
  EXPECT_EQ(P.lintWith({"--program-summary=" + P.program()}).Out, OneProcess.Out);

  // A run that names files extracts those (here: nothing to do) and leaves the others alone.
  RunResult One = P.lintWith({"--emit-summaries=" + P.summaries(), P.D.Path + "/level.cpp"});
  EXPECT_EQ(One.Code, 0) << One.Err;
  EXPECT_NE(One.Err.find("1 still holding"), std::string::npos) << One.Err;
  EXPECT_EQ(summaryFiles(P.summaries()), Files) << One.Err;
}

TEST(Summaries, TheDirectoryMirrorsTheSources) {
  // Each source file's summaries are in its own folder of the directory, so a build system names
  // them (and a file's slice) from the file's path, and graphify-link takes those folders.
  Program P;
  ASSERT_EQ(P.lintWith({"--emit-summaries=" + P.summaries()}).Code, 0);
  std::vector<std::string> Args = {"-o", P.D.Path + "/from-folders.summary", "--slices=" + P.D.Path + "/slices"};
  for (const char *Unit : {"helper.cpp", "level.cpp", "run.cpp"}) {
    const std::string Folder = graphify::mirroredPath(P.summaries(), P.D.Path + "/" + Unit);
    EXPECT_EQ(summaryFiles(Folder).size(), 1u) << Folder;
    Args.push_back(Folder);
  }
  // The folders through a response file, as a build system passes thousands of them.
  std::string Rsp = P.D.file("units.rsp", "\"" + Args[3] + "\"\n\"" + Args[4] + "\"\n" + Args[5] + "\n");
  EXPECT_EQ(link({Args[0], Args[1], Args[2], "@" + Rsp}).Code, 3);
  EXPECT_EQ(link({"-o", P.program(), P.summaries()}).Code, 3);
  EXPECT_EQ(readFile(P.D.Path + "/from-folders.summary"), readFile(P.program()));
  P.settle();
  ASSERT_EQ(link({"-o", P.program(), "--slices=" + P.D.Path + "/slices", P.summaries()}).Code, 0);
  for (const char *Unit : {"helper.cpp", "level.cpp", "run.cpp"})
    EXPECT_TRUE(llvm::sys::fs::exists(graphify::mirroredPath(P.D.Path + "/slices", P.D.Path + "/" + Unit) +
                                      ".program.summary"))
        << Unit;

  // An extraction of one file reads and writes that file's folder only.
  P.D.file("level.cpp", "#include \"api.h\"\nint level() { return 4; }\n");
  std::string Elsewhere = P.D.file("summaries/unreadable.summary", "{");
  RunResult One = P.lintWith({"--emit-summaries=" + P.summaries(), P.D.Path + "/level.cpp"});
  EXPECT_EQ(One.Code, 0) << One.Err;
  EXPECT_NE(One.Err.find("1 written, 0 unchanged, 1 removed"), std::string::npos) << One.Err;
  EXPECT_TRUE(llvm::sys::fs::exists(Elsewhere)) << "a run over some files prunes nothing else";
}

TEST(Summaries, DepfilesNameWhatARunReads) {
  // --depfile: an extraction depends on its unit's sources (headers included), a check on its
  // program summary (which records the sources' digests), both on the configuration and packs.
  Program P;
  const std::string Dep = P.D.Path + "/helper.d";
  RunResult E = P.lintWith({"--emit-summaries=" + P.summaries(), "--depfile=" + Dep,
                            "--depfile-target=" + P.D.Path + "/helper stamp", P.D.Path + "/helper.cpp"});
  ASSERT_EQ(E.Code, 0) << E.Err;
  std::string Rule = readFile(Dep);
  EXPECT_EQ(Rule.rfind(P.D.Path + "/helper\\ stamp: \\\n", 0), 0u) << Rule;
  // One prerequisite per line, in whatever order the paths sort (the packs may sort before the
  // sources); every line but the last continues the rule.
  llvm::SmallVector<llvm::StringRef> Lines;
  llvm::StringRef(Rule).rtrim('\n').split(Lines, '\n');
  std::vector<std::string> Prerequisites;
  for (llvm::StringRef Line : Lines)
    Prerequisites.push_back(Line.trim().str());
  ASSERT_GT(Prerequisites.size(), 1u) << Rule;
  Prerequisites.erase(Prerequisites.begin());
  for (size_t I = 0; I < Prerequisites.size(); ++I) {
    const bool Last = I + 1 == Prerequisites.size();
    EXPECT_EQ(llvm::StringRef(Prerequisites[I]).ends_with(" \\"), !Last) << Rule;
    Prerequisites[I] = llvm::StringRef(Prerequisites[I]).rtrim('\\').rtrim().str();
  }
  auto Has = [&](llvm::StringRef Suffix) {
    return std::any_of(Prerequisites.begin(), Prerequisites.end(),
                       [&](const std::string &Path) { return llvm::StringRef(Path).ends_with(Suffix); });
  };
  for (const std::string &In : {P.D.Path + "/api.h", P.D.Path + "/helper.cpp", std::string("/rules/tags.yaml")})
    EXPECT_TRUE(Has(In)) << In << " in\n" << Rule;
  EXPECT_EQ(Rule.find("run.cpp"), std::string::npos) << Rule;
  // The same when the memo holds and nothing is parsed.
  ASSERT_EQ(P.lintWith({"--emit-summaries=" + P.summaries(), "--depfile=" + P.D.Path + "/again.d",
                        "--depfile-target=" + P.D.Path + "/helper stamp", P.D.Path + "/helper.cpp"})
                .Code,
            0);
  EXPECT_EQ(readFile(P.D.Path + "/again.d"), Rule);

  P.settle();
  RunResult Check = P.lintWith({"--program-summary=" + P.program(), "--depfile=" + P.D.Path + "/check.d",
                                "--depfile-target=report.txt", P.D.Path + "/helper.cpp"});
  EXPECT_EQ(Check.Code, 1) << Check.Err;
  std::string CheckRule = readFile(P.D.Path + "/check.d");
  EXPECT_NE(CheckRule.find(P.program()), std::string::npos) << CheckRule;
  EXPECT_EQ(CheckRule.find("api.h"), std::string::npos) << CheckRule;

  RunResult NoTarget = P.lintWith({"--emit-summaries=" + P.summaries(), "--depfile=x.d"});
  EXPECT_EQ(NoTarget.Code, 2);
  EXPECT_NE(NoTarget.Err.find("--depfile needs --depfile-target=<path>"), std::string::npos) << NoTarget.Err;
  RunResult NoSummaries = P.lintWith({"--depfile=x.d", "--depfile-target=y"});
  EXPECT_EQ(NoSummaries.Code, 2);
  EXPECT_NE(NoSummaries.Err.find("--depfile needs --emit-summary, --emit-summaries or --program-summary"),
            std::string::npos)
      << NoSummaries.Err;
}

TEST(Summaries, ARegionGlobMatchedInAnotherUnitIsNoTypo) {
  // A check of one file against the program summary knows the globs the other units matched: a
  // region defined elsewhere draws no "names no function" warning; a misspelt one still does.
  Program P;
  auto settleWith = [&](const std::string &Glob) { P.settle({"--graph-region=" + Glob}); };
  settleWith("level");
  RunResult Helper = P.lintWith({"--graph-region=level", "--program-summary=" + P.program(), P.D.Path + "/helper.cpp"});
  EXPECT_EQ(Helper.Err.find("names no function"), std::string::npos) << Helper.Err;
  settleWith("levle");
  RunResult Typo = P.lintWith({"--graph-region=levle", "--program-summary=" + P.program(), P.D.Path + "/helper.cpp"});
  EXPECT_NE(Typo.Err.find("the graph-region glob 'levle' names no function defined in the program's units"),
            std::string::npos)
      << Typo.Err;
}

TEST(Summaries, AStaticBoundMatchedInAnotherUnitIsNoTypo) {
  // The same for StaticBounds: checking run.cpp alone against the program summary, the bound on
  // helper.cpp's parameter draws no "names no parameter" warning; a misspelt one still does.
  Program P;
  auto checkRunWith = [&](const std::string &Bound) {
    P.D.file(".graphify.yaml", "StaticBounds:\n  '" + Bound + "': 8\n");
    P.settle();
    return P.lintWith({"--program-summary=" + P.program(), P.D.Path + "/run.cpp"});
  };
  RunResult Named = checkRunWith("helper::n");
  EXPECT_EQ(Named.Err.find("names no parameter"), std::string::npos) << Named.Err;
  RunResult Typo = checkRunWith("helper::m");
  EXPECT_NE(Typo.Err.find("the static bound 'helper::m' names no parameter or local of a function defined in the "
                          "program's units"),
            std::string::npos)
      << Typo.Err;
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
         "{\"format\": \"graphify-unit-summary\", \"graphify\": \"" + Version + "\", \"version\": 4}");
  R = link({"-o", D.Path + "/p.summary", Bad});
  EXPECT_EQ(R.Code, 2);
  EXPECT_NE(R.Err.find(Bad + ": error: missing value at summary.file"), std::string::npos) << R.Err;

  D.file("bad.summary", "{\"format\": \"graphify-unit-summary\", \"graphify\": \"0.0.1-old\", \"version\": 4}");
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

  // The compact forms are checked as the objects are: a negative parameter count is no summary.
  auto FactsWith = [](const std::string &Summaries, const std::string &FlagRecords) {
    return "{\"summaries\": " + Summaries + ", \"param_entries\": {}, \"fields\": {}, "
           "\"field_shapes\": {}, \"field_sizes\": {}, \"globals\": {}, \"regions\": {}, "
           "\"captures\": {}, \"virtual_captures\": {}, \"callables\": {}, \"idle_helpers\": {}, "
           "\"setter_calls\": {}, \"flag_records\": " + FlagRecords + "}";
  };
  auto ProgramWith = [&](const std::string &Facts) {
    return D.file("program.summary", "{\"format\": \"graphify-program-summary\", \"graphify\": \"" + Version +
                                         "\", \"version\": 4, \"units\": [], \"sources\": {}, "
                                         "\"settled\": true, \"region_globs\": [], "
                                         "\"static_bounds\": [], \"facts\": " + Facts + "}");
  };
  L = lint({"--program-summary=" + ProgramWith(FactsWith("{\"c:@F@f#\": -1}", "{}")), D.Path + "/a.cpp", "--",
            "-std=c++17"});
  EXPECT_EQ(L.Code, 2);
  EXPECT_NE(L.Err.find("expected an array or a count of parameters at summary.facts.summaries"), std::string::npos)
      << L.Err;
  // A capture flag's record must say both whether its writes fit and whether one sets it.
  L = lint({"--program-summary=" + ProgramWith(FactsWith("{}", "{\"c:@flag\": {\"fits\": true}}")),
            D.Path + "/a.cpp", "--", "-std=c++17"});
  EXPECT_EQ(L.Code, 2);
  EXPECT_NE(L.Err.find("expected {\"fits\": boolean, \"sets\": boolean} at summary.facts.flag_records"),
            std::string::npos)
      << L.Err;
}

TEST(Summaries, LinkRefusesWhatWouldMislead) {
  Program P;
  ASSERT_EQ(P.lintWith({"--emit-summaries=" + P.summaries()}).Code, 0);
  std::vector<std::string> Files = summaryFiles(P.summaries());
  ASSERT_EQ(Files.size(), 3u);

  // Two versions of a unit's sources (a copy from another checkout).
  std::string Text = readFile(Files[0]);
  size_t At = Text.find("\"files\": {");
  ASSERT_NE(At, std::string::npos) << Text;
  At = Text.find(": \"", At + 10);
  ASSERT_NE(At, std::string::npos) << Text;
  Text.replace(At + 3, 16, "0123456789abcdef");
  std::string Copy = P.D.file("copy.summary", Text);
  RunResult R = link({"-o", P.program(), P.summaries(), Copy});
  EXPECT_EQ(R.Code, 2);
  EXPECT_NE(R.Err.find("summarise different versions of " + P.D.Path + "/"), std::string::npos) << R.Err;
  // The same summary twice is only a second copy of the same analysis.
  std::string Twin = P.D.file("twin.summary", readFile(Files[0]));
  EXPECT_EQ(link({"-o", P.program(), P.summaries(), Twin}).Code, 3);

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
  for (const char *Flag : {"-o", "--slices", "--quiet", "--version"})
    EXPECT_NE(Help.Out.find(Flag), std::string::npos) << Flag;
  EXPECT_NE(Help.Out.find("EXIT STATUS"), std::string::npos);
  RunResult Lint = lint({"--help"});
  for (const char *Flag : {"--emit-summary", "--emit-summaries", "--program-summary", "--project-root"})
    EXPECT_NE(Lint.Out.find(Flag), std::string::npos) << Flag;
}

} // namespace
