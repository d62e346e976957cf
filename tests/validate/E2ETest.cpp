// End-to-end: the built graphify-validate on the seed models and on small broken models. Each
// test runs the binary as a user would (through the same process runner the tool uses for
// harnesses) and reads its JSON report or its stderr.
#include "../support/TestScratch.h"
#include "E2ESupport.h"
#include "graphify/validate/Runner.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/Path.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <fstream>
#include <iterator>
#include <map>
#include <sys/stat.h>
#include <unistd.h>

using namespace graphify::validate;

namespace {

const std::string Models = GRAPHIFY_VALIDATE_TEST_MODELS;
const std::string GradModels = GRAPHIFY_VALIDATE_TEST_GRAD_MODELS;
const std::string EntryModels = GRAPHIFY_VALIDATE_TEST_ENTRY_MODELS;
const std::string RefusedModels = GRAPHIFY_VALIDATE_TEST_REFUSED_MODELS;

RunResult validate(std::vector<std::string> Args, unsigned Timeout = 1500) {
  return graphify::validate::e2e::runValidate(std::move(Args), Timeout);
}

std::string writeModel(const std::string &Name, const std::string &Text) {
  std::string Path = graphify::testing::scratchDirectory("graphify-validate-e2e") + "/" + Name;
  std::ofstream(Path) << Text;
  return Path;
}

struct Row {
  int64_t Equivalent = -1, Trials = -1, Replay = -1;
  std::optional<bool> OrigCapturable, RewCapturable, TraceDiverges;
  std::string OrigOp;
  int64_t OrigLine = 0;
  bool Passed = false;
  bool Rewrote = false;
  std::string Gradients; ///< "checked", "not checked", "not supported"
  int64_t GradMatches = -1, GradTrials = -1;
  std::string GradNote;
  std::vector<std::string> Fixes, Problems, Notes;
};

std::map<std::string, Row> parseReport(const std::string &Json) {
  std::map<std::string, Row> Rows;
  auto V = llvm::json::parse(Json);
  if (!V) {
    ADD_FAILURE() << llvm::toString(V.takeError()) << "\n" << Json;
    return Rows;
  }
  for (const llvm::json::Value &EV : *V->getAsObject()->getArray("entries")) {
    const llvm::json::Object *E = EV.getAsObject();
    Row R;
    R.Equivalent = *E->getInteger("equivalent_trials");
    R.Trials = *E->getInteger("trials");
    R.Replay = E->getInteger("replay_matches").value_or(-1);
    R.OrigCapturable = E->getObject("original")->getBoolean("capturable");
    R.RewCapturable = E->getObject("rewritten")->getBoolean("capturable");
    R.TraceDiverges = E->getBoolean("trace_diverges");
    if (const llvm::json::Object *B = E->getObject("original")->getObject("blocking")) {
      R.OrigOp = B->getString("op").value_or("").str();
      R.OrigLine = B->getInteger("line").value_or(0);
    }
    R.Passed = *E->getBoolean("passed");
    R.Rewrote = *E->getBoolean("rewrote");
    R.Gradients = E->getString("gradients").value_or("").str();
    R.GradMatches = E->getInteger("gradient_matches").value_or(-1);
    R.GradTrials = E->getInteger("gradient_trials").value_or(-1);
    R.GradNote = E->getString("gradient_note").value_or("").str();
    for (const llvm::json::Value &F : *E->getArray("fixes"))
      R.Fixes.push_back(F.getAsString().value_or("").str());
    for (const llvm::json::Value &P : *E->getArray("problems"))
      R.Problems.push_back(P.getAsString().value_or("").str());
    for (const llvm::json::Value &N : *E->getArray("notes"))
      R.Notes.push_back(N.getAsString().value_or("").str());
    Rows[E->getString("name")->str()] = R;
  }
  return Rows;
}

TEST(E2EModels, EveryTestdataModelValidates) {
  std::vector<std::string> Args;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Models, EC), End; It != End && !EC; It.increment(EC))
    if (llvm::sys::path::extension(It->path()) == ".cpp")
      Args.push_back(It->path());
  std::sort(Args.begin(), Args.end());
  Args.push_back("--format=json");
  Args.push_back("--quiet");
  RunResult R = validate(Args);
  ASSERT_EQ(R.Status, RunResult::State::Exited) << R.describe() << "\n" << R.Stderr;
  auto Rows = parseReport(R.Stdout);
  ASSERT_EQ(Rows.size(), 52u) << R.Stdout << R.Stderr;

  // The seed-002 `if`: original blocked at item(), rewrite captured and replayed on every other
  // trial, and the original's trace silently diverges.
  const Row &Seed = Rows["NonTraceableModel"];
  EXPECT_EQ(Seed.Equivalent, 8);
  EXPECT_EQ(Seed.OrigCapturable, false);
  EXPECT_EQ(Seed.OrigOp, "item");
  EXPECT_EQ(Seed.OrigLine, 8);
  EXPECT_EQ(Seed.RewCapturable, true);
  EXPECT_EQ(Seed.Replay, 7);
  EXPECT_EQ(Seed.TraceDiverges, true);

  // Host reads feeding a branch, a loop, a position or tensor math: the trace freezes them and
  // diverges.
  for (const char *Name : {"IfElseAssign", "ElseIfChain", "TernarySelect", "ScalarReadScale", "BranchLocals",
                           "HostPositions", "BeamSources", "ShrinkWhileLarge", "DrainUntilEmpty", "GuardedSqrt"}) {
    const Row &E = Rows[Name];
    EXPECT_EQ(E.OrigCapturable, false) << Name;
    EXPECT_EQ(E.OrigOp, "item") << Name;
    EXPECT_EQ(E.TraceDiverges, true) << Name;
  }
  // Dynamic shapes: neither capturable nor traceable (so no divergence verdict).
  for (const char *Name :
       {"PartitionPositiveFirst", "replace_zeros_then_project", "MaskedSum", "MaskedMean", "SelectionLocals",
        "confident_boxes", "top_detections", "split_corners", "detect", "batched_detect", "strong_rows",
        "ThresholdFilter", "ranked_detections", "per_image_detections", "best_class_per_image", "per_image_on_host",
        "PerImageSuppressor"}) {
    const Row &E = Rows[Name];
    EXPECT_EQ(E.OrigCapturable, false) << Name;
    EXPECT_FALSE(E.TraceDiverges.has_value()) << Name;
  }
  // A split entry (selection-to-padded): the epilogue is compared with the original, and the
  // padded core is what is captured and replayed.
  // Tuples and vectors of padded outputs (padded_detections.cpp) are compared element by element;
  // NMS in its fixed-size form (padded_nms.cpp) is captured with the rest of the core, and so is
  // batched NMS's maximum over the selected boxes (batched_detect), and a loop over the images
  // of a batch collects each image's padded rows (per_image_detections), and so is a project's
  // own copy of torchvision's NMS kernel, recognized by its structure (kernel_detect).
  for (const char *Name :
       {"confident_boxes", "top_detections", "split_corners", "detect", "batched_detect", "kernel_detect", "strong_rows",
        "ThresholdFilter", "ranked_detections", "per_image_detections", "best_class_per_image", "per_image_on_host",
        "PerImageSuppressor"}) {
    const Row &E = Rows[Name];
    // strong_rows, best_class_per_image and PerImageSuppressor select with nonzero positions; the
    // others index with a boolean mask.
    const std::string N = Name;
    const bool Positions = N == "strong_rows" || N == "best_class_per_image" || N == "PerImageSuppressor";
    EXPECT_EQ(E.OrigOp, Positions ? "nonzero" : "index() with a boolean mask") << Name;
    EXPECT_EQ(E.Equivalent, E.Trials) << Name;
    EXPECT_EQ(E.RewCapturable, true) << Name;
    EXPECT_EQ(E.Replay, 7) << Name;
    bool CoreNoted = false;
    for (const std::string &Note : E.Notes)
      // A module's forward has the core 'forward_padded', a static member; PerImageSuppressor's
      // host part calls its private methods from forward, the epilogue.
      CoreNoted |= Note.find("rewritten capture: the padded core '" +
                             (N == "ThresholdFilter" || N == "PerImageSuppressor" ? std::string("forward") : N) +
                             "_padded'") != std::string::npos;
    EXPECT_TRUE(CoreNoted) << Name;
  }
  // A greedy decode that grows its sequence and stops after the end token (early_exit_loop.cpp):
  // the fixed-trip loop keeps growing it, the core 'greedy_tokens_padded' returns it with the
  // length the original reached and is captured; the epilogue slices it.
  // With a host sum of the steps' scores read after the loop, the sum is a 0-d tensor of the core.
  // With a step count read from the data and bounded by GRAPHIFY_STATIC_BOUND, the loop runs to
  // the bound (bounded_decode). An optional end token tested on the host beside the token read
  // (`end.end_id() != -1 && tok.item<int64_t>() == end.end_id()`) keeps the host test on the
  // host (greedy_optional_end).
  for (const char *Name : {"greedy_tokens", "greedy_scored", "bounded_decode", "greedy_optional_end"}) {
    const Row &E = Rows[Name];
    EXPECT_EQ(E.OrigCapturable, false) << Name;
    EXPECT_EQ(E.OrigOp, "item") << Name;
    EXPECT_EQ(E.Equivalent, E.Trials) << Name;
    EXPECT_EQ(E.RewCapturable, true) << Name;
    EXPECT_EQ(E.Replay, 7) << Name;
    bool CoreNoted = false;
    for (const std::string &Note : E.Notes)
      CoreNoted |= Note.find("'" + std::string(Name) + "_padded'") != std::string::npos;
    EXPECT_TRUE(CoreNoted) << Name;
  }
  // The `||` form whose host side is true (`!keep_going || ...`): the original stops after one
  // step without reading the token, the rewrite's constant mask does the same and is captured.
  {
    const Row &E = Rows["greedy_first_only"];
    EXPECT_EQ(E.Equivalent, E.Trials);
    EXPECT_EQ(E.RewCapturable, true);
    EXPECT_EQ(E.Replay, 7);
  }
  // Post-processing that finishes on the host (host_epilogue.cpp): split at the copy to the CPU,
  // the device work before it is captured as the core 'confident_classes_graph'.
  {
    const Row &E = Rows["confident_classes"];
    EXPECT_EQ(E.OrigCapturable, false);
    EXPECT_EQ(E.OrigOp, "to(kCPU)");
    EXPECT_EQ(E.Equivalent, E.Trials);
    EXPECT_EQ(E.RewCapturable, true);
    EXPECT_EQ(E.Replay, 7);
    bool CoreNoted = false;
    for (const std::string &N : E.Notes)
      CoreNoted |= N.find("rewritten capture: the core 'confident_classes_graph'") != std::string::npos;
    EXPECT_TRUE(CoreNoted);
  }
  // A host-to-device copy of a factory's tensor: the CPU capture sees the pageable host memory
  // (runtime Device marks) and refuses it; created on the device, it captures, and a trace of the
  // original is fine (the copied values are the same every call). One number (offset_scores:
  // torch::tensor(conf).to(device)) is host memory too, filled on the device by the rewrite.
  for (const char *Name : {"causal_scores", "offset_scores"}) {
    const Row &E = Rows[Name];
    EXPECT_EQ(E.OrigCapturable, false) << Name;
    EXPECT_EQ(E.OrigOp, "to(device)") << Name;
    EXPECT_EQ(E.TraceDiverges, false) << Name;
    EXPECT_EQ(E.RewCapturable, true) << Name;
    EXPECT_EQ(E.Replay, 7) << Name;
  }
  // Clean models: capturable before and after, and the trace generalises.
  for (const char *Name : {"ArgmaxPickImpl", "TinyLstmLm"}) {
    const Row &E = Rows[Name];
    EXPECT_EQ(E.OrigCapturable, true) << Name;
    EXPECT_EQ(E.TraceDiverges, false) << Name;
  }
  // Gradients are compared by default for the entries with parameters, and only for them.
  for (const auto &[Name, E] : Rows) {
    if (Name == "ArgmaxPickImpl" || Name == "TinyLstmLm") {
      EXPECT_EQ(E.Gradients, "checked") << Name;
      EXPECT_EQ(E.GradMatches, 8) << Name;
    } else {
      EXPECT_EQ(E.Gradients, "not checked") << Name;
    }
  }
  // Every rewrite is equivalent on all trials, captures, and replays correctly.
  for (const auto &[Name, E] : Rows) {
    if (E.OrigCapturable == false)
      EXPECT_TRUE(E.Rewrote) << Name << ": the rewriter offered no fix for this model";
    EXPECT_EQ(E.Equivalent, 8) << Name;
    EXPECT_EQ(E.RewCapturable, true) << Name;
    EXPECT_EQ(E.Replay, 7) << Name;
    EXPECT_TRUE(E.Passed) << Name;
  }
  EXPECT_EQ(R.ExitCode, 0) << R.Stdout;
}

TEST(E2EModels, TextTableForTheSeedModel) {
  RunResult R = validate({Models + "/non_traceable.cpp", "--trials=4", "--seed=1", "--quiet"});
  EXPECT_NE(R.Stdout.find("entry              equivalent"), std::string::npos) << R.Stdout << R.Stderr;
  EXPECT_NE(R.Stdout.find("NonTraceableModel  4/4"), std::string::npos) << R.Stdout << R.Stderr;
  EXPECT_NE(R.Stdout.find("no: item at non_traceable.cpp:8"), std::string::npos) << R.Stdout;
}

TEST(E2EModels, ExplicitEntryAndInputs) {
  RunResult R = validate({Models + "/partition_positive_first.cpp", "--entry", "PartitionPositiveFirst", "--input",
                          "w=f32[3,3]", "--input=x=f32[3]@-1:1", "--trials=3", "--format=json", "--quiet"});
  auto Rows = parseReport(R.Stdout);
  ASSERT_EQ(Rows.size(), 1u) << R.Stderr;
  EXPECT_EQ(Rows["PartitionPositiveFirst"].Trials, 3);
}

// A model file that is also a program (its own main(), as inference samples are) validates: the
// harness renames that main() out of its own way, and the libraries its main() needs, given
// after `--`, go after the harness source on the link line.
TEST(E2EModels, AModelWithItsOwnMainValidates) {
  const std::string Model = writeModel("with_main.cpp", "#include <torch/torch.h>\n"
                                                        "extern \"C\" const char *zlibVersion(void);\n"
                                                        "// graphify-entry: x: f32[4]\n"
                                                        "torch::Tensor doubled(torch::Tensor x) { return x * 2; }\n"
                                                        "int main() { return zlibVersion()[0] == '1' ? 0 : 1; }\n");
  RunResult R = validate({Model, "--trials=2", "--format=json", "--quiet", "--", "-lz"});
  ASSERT_EQ(R.Status, RunResult::State::Exited) << R.describe() << "\n" << R.Stderr;
  auto Rows = parseReport(R.Stdout);
  ASSERT_EQ(Rows.size(), 1u) << R.Stdout << R.Stderr;
  EXPECT_EQ(Rows["doubled"].Equivalent, 2);
  EXPECT_EQ(Rows["doubled"].Trials, 2);
}

/// The fixes' rule names, without lines and explanations (`line 8: if-return-to-where: ...`).
std::vector<std::string> ruleLines(const std::vector<std::string> &Fixes) {
  std::vector<std::string> Out;
  for (const std::string &F : Fixes) {
    llvm::StringRef Rest(F);
    auto [Line, Tail] = Rest.split(": ");
    Out.push_back(Line.str() + ": " + Tail.split(':').first.str());
  }
  return Out;
}

// A guard the rewriter must not predicate away (#32): `if (ids.max() < 4) return
// w.index_select(0, ids)...` as a where() would raise on the ids the guard excluded (it gave
// 2/8 before). Nothing is rewritten, the note says why, and the entry fails only because the
// original itself cannot be captured.
TEST(E2ERefusals, GuardedIndexSelectIsNotRewritten) {
  RunResult R = validate({RefusedModels + "/guarded_lookup.cpp", "--format=json", "--quiet"});
  ASSERT_EQ(R.Status, RunResult::State::Exited) << R.describe() << "\n" << R.Stderr;
  auto Rows = parseReport(R.Stdout);
  ASSERT_EQ(Rows.size(), 1u) << R.Stdout << R.Stderr;
  const Row &E = Rows["GuardedLookup"];
  EXPECT_FALSE(E.Rewrote);
  EXPECT_EQ(E.Equivalent, E.Trials);
  EXPECT_EQ(E.OrigCapturable, false);
  EXPECT_EQ(E.OrigOp, "item");
  bool Explained = std::any_of(E.Notes.begin(), E.Notes.end(), [](const std::string &N) {
    return N.find("calls 'index_select', which raises on some values of its inputs") != std::string::npos;
  });
  EXPECT_TRUE(Explained) << ::testing::PrintToString(E.Notes);
  EXPECT_FALSE(E.Passed);
}

// Each entry's row lists the fixes in the code it runs (a callee's included) and no other entry's,
// however the file interleaves them.
TEST(E2EModels, EachEntryListsOnlyTheRewritesInItsOwnCode) {
  const std::string Model = EntryModels + "/three_entries_one_file.cpp";
  RunResult R = validate({Model, "--trials=2", "--format=json", "--quiet"});
  ASSERT_EQ(R.ExitCode, 0) << R.Stdout << R.Stderr;
  auto Rows = parseReport(R.Stdout);
  ASSERT_EQ(Rows.size(), 3u) << R.Stdout;
  EXPECT_EQ(ruleLines(Rows["First"].Fixes), (std::vector<std::string>{"line 8: if-return-to-where"}))
      << "the helper's rewrite, and not Second's";
  EXPECT_TRUE(Rows["First"].Rewrote);
  ASSERT_EQ(Rows["Second"].Fixes.size(), 1u) << ::testing::PrintToString(Rows["Second"].Fixes);
  EXPECT_EQ(llvm::StringRef(Rows["Second"].Fixes[0]).split(':').first, "line 22");
  EXPECT_TRUE(Rows["Second"].Rewrote);
  EXPECT_EQ(Rows["untouched"].Fixes, std::vector<std::string>{});
  EXPECT_FALSE(Rows["untouched"].Rewrote) << "another entry's rewrite is not this entry's";
  for (const auto &[Name, E] : Rows) {
    EXPECT_EQ(E.Equivalent, 2) << Name;
    EXPECT_EQ(E.RewCapturable, true) << Name;
  }

  // The text report: First's details name its helper's fix and not Second's; `untouched` has no
  // details at all (nothing rewritten, nothing blocked).
  RunResult Text = validate({Model, "--trials=2", "--quiet"});
  size_t First = Text.Stdout.find("\nFirst (" + Model + "): passed\n");
  size_t Second = Text.Stdout.find("\nSecond (" + Model + "): passed\n");
  ASSERT_NE(First, std::string::npos) << Text.Stdout;
  ASSERT_NE(Second, std::string::npos) << Text.Stdout;
  const std::string FirstDetails = Text.Stdout.substr(First, Second - First);
  EXPECT_NE(FirstDetails.find("  rewrite: line 8: if-return-to-where: "), std::string::npos) << FirstDetails;
  EXPECT_EQ(FirstDetails.find("line 22"), std::string::npos) << FirstDetails;
  EXPECT_EQ(Text.Stdout.find("\nuntouched ("), std::string::npos) << Text.Stdout;
}

// Large inputs are cheap: tensors travel between the validator and the
// harnesses as binary payloads, read and compared in place (the text format of before took 248 s
// and 1.86 GB for this 2048x2048 input). The harness is built by a small run first, so that the
// large run's limit measures running and comparing, not compiling.
TEST(E2EModels, LargeInputValidatesInSeconds) {
  const std::vector<std::string> Entry = {Models + "/non_traceable.cpp", "--entry", "NonTraceableModel"};
  std::vector<std::string> Small = Entry;
  for (const char *A : {"--input", "x=f32[3]", "--trials=1", "--quiet"})
    Small.push_back(A);
  RunResult Warm = validate(Small);
  ASSERT_EQ(Warm.ExitCode, 0) << Warm.Stdout << Warm.Stderr;

  std::vector<std::string> Large = Entry;
  for (const char *A : {"--input", "x=f32[2048,2048]", "--format=json", "--quiet", "-j", "2"})
    Large.push_back(A);
  auto Start = std::chrono::steady_clock::now();
  RunResult R = validate(Large, /*Timeout=*/120);
  double Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  ASSERT_EQ(R.Status, RunResult::State::Exited) << R.describe() << " after " << Seconds << " s\n" << R.Stderr;
  EXPECT_EQ(R.ExitCode, 0) << R.Stdout << R.Stderr;
  auto Rows = parseReport(R.Stdout);
  const Row &E = Rows["NonTraceableModel"];
  EXPECT_EQ(E.Equivalent, 8);
  EXPECT_EQ(E.Replay, 7);
  EXPECT_EQ(E.TraceDiverges, true);
  RecordProperty("seconds", std::to_string(Seconds));
}

// Gradient validation (--grad, and by default for entries with parameters): the models are in
// testdata/validate/grad, one per case.

bool anyContains(const std::vector<std::string> &Lines, const std::string &Text) {
  return llvm::any_of(Lines, [&](const std::string &L) { return L.find(Text) != std::string::npos; });
}

/// A rewrite that keeps outputs and gradients on all 8 trials.
void expectRewriteKeepsGradients(const Row &E) {
  EXPECT_TRUE(E.Rewrote);
  EXPECT_EQ(E.Equivalent, 8);
  EXPECT_EQ(E.Gradients, "checked");
  EXPECT_EQ(E.GradMatches, 8) << ::testing::PrintToString(E.Problems);
  EXPECT_EQ(E.GradTrials, 8);
  EXPECT_TRUE(E.Passed);
}

TEST(E2EGradients, WhereRewriteOfAPlainBranchKeepsTheGradients) {
  RunResult R = validate({GradModels + "/plain_branch.cpp", "--grad", "--format=json", "--quiet"});
  auto Rows = parseReport(R.Stdout);
  ASSERT_EQ(Rows.size(), 1u) << R.Stdout << R.Stderr;
  expectRewriteKeepsGradients(Rows["scale_or_shift"]);
  EXPECT_EQ(R.ExitCode, 0) << R.Stdout;
  // Without --grad a function has no parameters, so its gradients are not checked.
  RunResult Default = validate({GradModels + "/plain_branch.cpp", "--format=json", "--quiet"});
  EXPECT_EQ(parseReport(Default.Stdout)["scale_or_shift"].Gradients, "not checked") << Default.Stdout;
}

// The seed model of the double-where problem: `where(c, x.sqrt() * 2, x * 0.5)` would give NaN
// gradients at x <= 0; the rewriter guards sqrt's input (`where(c, where(c, x, 1).sqrt() * 2, ...)`),
// so the gradients w.r.t. x agree on every trial, those that take either arm.
TEST(E2EGradients, GuardedSqrtSeedModelKeepsItsGradients) {
  RunResult R = validate({Models + "/guarded_sqrt.cpp", "--grad", "--format=json", "--quiet"});
  auto Rows = parseReport(R.Stdout);
  ASSERT_EQ(Rows.size(), 1u) << R.Stdout << R.Stderr;
  const Row &E = Rows["GuardedSqrt"];
  expectRewriteKeepsGradients(E);
  EXPECT_EQ(E.RewCapturable, true);
  EXPECT_EQ(R.ExitCode, 0) << R.Stdout;
}

// The same seed model rewritten without the guard: a copy of the shipped rule packs in which sqrt
// is not tagged domain_restricted makes the rewriter emit `where(x.min() > 0, x.sqrt() * 2,
// x * 0.5)`, whose outputs agree and whose gradient w.r.t. x is NaN wherever x <= 0.
TEST(E2EGradients, UnguardedSqrtArmHasNaNGradients) {
  const std::string Rules = graphify::testing::scratchDirectory("graphify-validate-rules");
  ASSERT_FALSE(Rules.empty());
  const std::string SqrtRule =
      "  - {name: sqrt, domain_args: [0], safe_value: 1, tags: [floating_output, domain_restricted, pure, elementwise]}\n";
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(GRAPHIFY_VALIDATE_TEST_RULES_DIR, EC), End; It != End && !EC;
       It.increment(EC)) {
    if (llvm::sys::path::extension(It->path()) != ".yaml")
      continue;
    std::ifstream In(It->path());
    std::string Text((std::istreambuf_iterator<char>(In)), std::istreambuf_iterator<char>());
    if (llvm::sys::path::filename(It->path()) == "libtorch.yaml") {
      size_t At = Text.find(SqrtRule);
      ASSERT_NE(At, std::string::npos) << "the shipped rule for sqrt changed; update this test";
      Text.replace(At, SqrtRule.size(), "  - {name: sqrt, tags: [floating_output, pure, elementwise]}\n");
    }
    std::ofstream(std::string(Rules) + "/" + llvm::sys::path::filename(It->path()).str()) << Text;
  }
  RunResult R = validate({Models + "/guarded_sqrt.cpp", "--grad", "--rules-dir=" + std::string(Rules),
                          "--format=json", "--quiet"});
  llvm::sys::fs::remove_directories(Rules);
  auto Rows = parseReport(R.Stdout);
  ASSERT_EQ(Rows.size(), 1u) << R.Stdout << R.Stderr;
  const Row &E = Rows["GuardedSqrt"];
  EXPECT_TRUE(E.Rewrote);
  EXPECT_EQ(E.Equivalent, 8) << "forward-only validation cannot see the problem";
  EXPECT_EQ(E.Gradients, "checked");
  EXPECT_LT(E.GradMatches, 8);
  EXPECT_FALSE(E.Passed);
  EXPECT_EQ(R.ExitCode, 1) << R.Stdout;
  EXPECT_TRUE(anyContains(E.Problems, "trial 0 (random): the rewritten entry's gradients differ from the original's: "
                                      "the gradient w.r.t. input 'x': element ["))
      << ::testing::PrintToString(E.Problems);
  EXPECT_TRUE(anyContains(E.Problems, "] is nan, expected ")) << ::testing::PrintToString(E.Problems);
}

// A rewrite whose outputs agree and whose gradients do not (overflowing_exp.cpp: the unselected
// exp arm overflows, 0 * inf = NaN), checked by default because the module has a parameter; the
// first differing gradient is named by its input and element. --no-grad does not look.
TEST(E2EGradients, UnguardedOverflowingArmChangesTheGradients) {
  const std::string Model = GradModels + "/overflowing_exp.cpp";
  RunResult R = validate({Model, "--grad", "--format=json", "--quiet"});
  auto Rows = parseReport(R.Stdout);
  ASSERT_EQ(Rows.size(), 1u) << R.Stdout << R.Stderr;
  const Row &E = Rows["ExpWhileSmall"];
  EXPECT_TRUE(E.Rewrote);
  EXPECT_EQ(E.Equivalent, 8) << "forward-only validation cannot see the problem";
  EXPECT_EQ(E.RewCapturable, true);
  EXPECT_EQ(E.Gradients, "checked");
  EXPECT_EQ(E.GradTrials, 8);
  EXPECT_LT(E.GradMatches, 8);
  EXPECT_GT(E.GradMatches, 0) << "trials that take the exp arm, or where nothing overflows, agree";
  EXPECT_FALSE(E.Passed);
  EXPECT_EQ(R.ExitCode, 1) << R.Stdout;
  EXPECT_TRUE(anyContains(E.Problems, "the rewritten entry's gradients differ from the original's: "
                                      "the gradient w.r.t. input 'x': element ["))
      << ::testing::PrintToString(E.Problems);
  EXPECT_TRUE(anyContains(E.Problems, "] is nan, expected ")) << ::testing::PrintToString(E.Problems);

  // The text report: the column and the problem.
  RunResult Text = validate({Model, "--quiet"});
  EXPECT_EQ(Text.ExitCode, 1) << "checked without --grad: the module has a parameter\n" << Text.Stdout;
  EXPECT_NE(Text.Stdout.find("ExpWhileSmall  8/8         " + std::to_string(E.GradMatches) + "/8"), std::string::npos)
      << Text.Stdout;
  EXPECT_NE(Text.Stdout.find("ExpWhileSmall (" + Model + "): FAILED\n"), std::string::npos) << Text.Stdout;
  EXPECT_NE(Text.Stdout.find("  problem: trial "), std::string::npos) << Text.Stdout;
  EXPECT_NE(Text.Stdout.find("gradients differ from the original's: the gradient w.r.t. input 'x': element ["),
            std::string::npos)
      << Text.Stdout;

  RunResult Off = validate({Model, "--no-grad", "--format=json", "--quiet"});
  const Row NoGrad = parseReport(Off.Stdout)["ExpWhileSmall"];
  EXPECT_EQ(NoGrad.Gradients, "not checked") << Off.Stdout << Off.Stderr;
  EXPECT_EQ(NoGrad.GradMatches, -1) << "null in JSON";
  EXPECT_TRUE(NoGrad.Passed) << "--no-grad compares outputs only";
  EXPECT_EQ(Off.ExitCode, 0) << Off.Stdout;
}

TEST(E2EGradients, EntriesWithParametersAreCheckedByDefault) {
  RunResult R = validate({GradModels + "/gated_projection.cpp", "--format=json", "--quiet"});
  auto Rows = parseReport(R.Stdout);
  ASSERT_EQ(Rows.size(), 1u) << R.Stdout << R.Stderr;
  const Row &E = Rows["GatedProjection"];
  EXPECT_TRUE(E.Rewrote);
  EXPECT_EQ(E.TraceDiverges, true) << "the trials take both arms of the branch";
  EXPECT_EQ(E.Gradients, "checked");
  EXPECT_EQ(E.GradMatches, 8) << ::testing::PrintToString(E.Problems);
  EXPECT_TRUE(E.Passed);
  EXPECT_EQ(R.ExitCode, 0);

  RunResult Text = validate({GradModels + "/gated_projection.cpp", "--quiet"});
  EXPECT_NE(Text.Stdout.find("GatedProjection  8/8         8/8        no: item at gated_projection.cpp:14"),
            std::string::npos)
      << Text.Stdout;
  RunResult Off = validate({GradModels + "/gated_projection.cpp", "--no-grad", "--format=json", "--quiet"});
  const Row NoGrad = parseReport(Off.Stdout)["GatedProjection"];
  EXPECT_EQ(NoGrad.Gradients, "not checked");
  EXPECT_EQ(NoGrad.GradMatches, -1) << "null in JSON";
}

TEST(E2EGradients, OpWithoutADerivativeIsReportedNotSupported) {
  RunResult R = validate({GradModels + "/no_derivative.cpp", "--format=json", "--quiet"});
  auto Rows = parseReport(R.Stdout);
  ASSERT_EQ(Rows.size(), 1u) << R.Stdout << R.Stderr;
  const Row &E = Rows["RunningProduct"];
  EXPECT_EQ(E.Equivalent, 8);
  EXPECT_EQ(E.Gradients, "not supported");
  EXPECT_EQ(E.GradNote, "the derivative for 'floor_divide' is not implemented.");
  EXPECT_TRUE(E.Passed) << "by default an entry whose backward cannot run does not fail";
  EXPECT_EQ(R.ExitCode, 0) << R.Stdout;

  RunResult Text = validate({GradModels + "/no_derivative.cpp", "--quiet"});
  EXPECT_NE(Text.Stdout.find("RunningProduct  8/8         not supported"), std::string::npos) << Text.Stdout;
  EXPECT_NE(Text.Stdout.find("  gradients: not supported (the derivative for 'floor_divide' is not implemented.)\n"),
            std::string::npos)
      << Text.Stdout;

  RunResult Forced = validate({GradModels + "/no_derivative.cpp", "--grad", "--format=json", "--quiet"});
  EXPECT_EQ(Forced.ExitCode, 1) << "with --grad it is a failure: " << Forced.Stdout;
  const Row F = parseReport(Forced.Stdout)["RunningProduct"];
  EXPECT_FALSE(F.Passed);
  EXPECT_TRUE(anyContains(F.Problems, "--grad asks for gradients, but the runtime cannot run the original's backward "
                                      "pass: the derivative for 'floor_divide' is not implemented.")) << ::testing::PrintToString(F.Problems);
}

TEST(E2EErrors, UnknownEntry) {
  RunResult R = validate({Models + "/non_traceable.cpp", "--entry", "NonTracableModel", "--quiet"});
  EXPECT_EQ(R.ExitCode, 2);
  EXPECT_NE(R.Stderr.find("unknown entry 'NonTracableModel'; did you mean 'NonTraceableModel'?"), std::string::npos)
      << R.Stderr;
}

/// A directory that removes itself.
struct ScratchDir {
  std::string Path;
  ScratchDir() {
    llvm::SmallString<256> P;
    llvm::sys::fs::createUniqueDirectory("graphify-validate-inputs", P);
    Path = std::string(P);
  }
  ~ScratchDir() { llvm::sys::fs::remove_directories(Path); }
};

// Model paths that are not source files are refused before anything is opened: a FIFO would block
// the read forever, /dev/zero would fill memory, /dev/null and a directory would reach the compiler.
// The limit of each run is short: a run that reads one of these would not finish in it.
TEST(E2EErrors, InputsThatAreNotSourceFiles) {
  ScratchDir D;
  const std::string Fifo = D.Path + "/model.cpp";
  ASSERT_EQ(::mkfifo(Fifo.c_str(), 0600), 0);
  llvm::sys::fs::create_directories(D.Path + "/dir.cpp");
  const std::string Huge = D.Path + "/huge.cpp";
  std::ofstream(Huge) << "// graphify-entry: x: f32[3]\n";
  ASSERT_EQ(::truncate(Huge.c_str(), int64_t(1) << 30), 0) << "a sparse file: no disk is used";
  const std::vector<std::pair<std::string, std::string>> Cases = {
      {Fifo, "error: '" + Fifo + "' is not a source file (not a regular file: a FIFO)"},
      {"/dev/zero", "error: '/dev/zero' is not a source file (not a regular file: a character device)"},
      {"/dev/null", "error: '/dev/null' is not a source file (not a regular file: a character device)"},
      {D.Path + "/dir.cpp", "error: '" + D.Path + "/dir.cpp' is not a source file (a directory)"},
      {Huge, "error: '" + Huge + "' is not a model source: 1024 MiB, over the limit of 64 MiB"},
      {D.Path + "/missing.cpp", "error: no such file: '" + D.Path + "/missing.cpp'"},
  };
  for (const auto &[Path, Message] : Cases) {
    // Named after a good model too: the bad one is refused before the good one is parsed.
    RunResult R = validate({Models + "/non_traceable.cpp", Path, "--quiet"}, /*Timeout=*/20);
    ASSERT_EQ(R.Status, RunResult::State::Exited) << Path << ": " << R.describe();
    EXPECT_EQ(R.ExitCode, 2) << Path;
    EXPECT_EQ(R.Stderr, "graphify-validate: " + Message + "\n") << Path;
    EXPECT_EQ(R.Stdout, "") << Path;
  }
}

TEST(E2EErrors, BadInputSpecPointsAtTheToken) {
  RunResult R = validate({Models + "/non_traceable.cpp", "--entry", "NonTraceableModel", "--input", "x=f32[3;]"});
  EXPECT_EQ(R.ExitCode, 2);
  EXPECT_EQ(R.Stderr, "graphify-validate: --input:8: error: expected ',' or ']' after a dimension, found ';'\n"
                      "  x=f32[3;]\n"
                      "         ^\n");
}

TEST(E2EErrors, InputNameMustMatchTheParameter) {
  RunResult R = validate({Models + "/non_traceable.cpp", "--entry", "NonTraceableModel", "--input", "y=f32[3]",
                          "--quiet"});
  EXPECT_EQ(R.ExitCode, 2);
  EXPECT_NE(R.Stderr.find("input 'y' does not match parameter 1 of 'NonTraceableModel', which is 'x'"),
            std::string::npos)
      << R.Stderr;
}

TEST(E2EErrors, BadCommentSpecNamesFileAndLine) {
  std::string Path = writeModel("bad_comment.cpp", "#include <torch/torch.h>\n"
                                                   "// graphify-entry: x: f32[3\n"
                                                   "torch::Tensor twice(torch::Tensor x) { return x * 2; }\n");
  RunResult R = validate({Path, "--quiet"});
  EXPECT_EQ(R.ExitCode, 2);
  EXPECT_NE(R.Stderr.find("bad_comment.cpp:2:28: error: expected ',' or ']' after a dimension, found the end of "
                          "the text"),
            std::string::npos)
      << R.Stderr;
}

TEST(E2EErrors, EntryThatDoesNotCompile) {
  std::string Path = writeModel("broken.cpp", "#include <torch/torch.h>\n"
                                              "// graphify-entry: x: f32[3]\n"
                                              "torch::Tensor broken(torch::Tensor x) { return x.no_such_op(); }\n");
  RunResult R = validate({Path, "--quiet"});
  EXPECT_EQ(R.ExitCode, 2);
  EXPECT_NE(R.Stderr.find("broken.cpp does not compile"), std::string::npos) << R.Stderr;
  EXPECT_NE(R.Stderr.find("no_such_op"), std::string::npos) << "the compiler's own message is shown";
}

TEST(E2EErrors, CrashingAndHangingModelsAreReportedNotFatal) {
  std::string Path = writeModel("crashes.cpp", "#include <torch/torch.h>\n"
                                               "#include <cstdlib>\n"
                                               "// graphify-entry: x: f32[3]\n"
                                               "torch::Tensor aborts(torch::Tensor x) { std::abort(); return x; }\n"
                                               "// graphify-entry: x: f32[3]\n"
                                               "torch::Tensor hangs(torch::Tensor x) {\n"
                                               "  volatile bool spin = true;\n"
                                               "  while (spin) {}\n"
                                               "  return x;\n"
                                               "}\n"
                                               "// graphify-entry: x: f32[3]\n"
                                               "torch::Tensor throws(torch::Tensor x) { return x.view({7}); }\n");
  RunResult R = validate({Path, "--timeout=2", "--trials=2", "--quiet"});
  EXPECT_EQ(R.ExitCode, 1) << R.Stdout << R.Stderr;
  EXPECT_NE(R.Stdout.find("crashed with signal 6 (Aborted)"), std::string::npos) << R.Stdout;
  EXPECT_NE(R.Stdout.find("timed out after 2 s"), std::string::npos) << R.Stdout;
  EXPECT_NE(R.Stdout.find("trial 0 (random): the original and the rewritten entry both raised"), std::string::npos)
      << R.Stdout;
}

TEST(E2EErrors, NonTensorReturnIsAClearError) {
  std::string Path = writeModel("named.cpp", "#include <torch/torch.h>\n"
                                             "#include <string>\n"
                                             "// graphify-entry: x: f32[3]\n"
                                             "struct Named : torch::nn::Module {\n"
                                             "  std::string forward(torch::Tensor x) { return \"n\"; }\n"
                                             "};\n"
                                             "// graphify-entry: x: f32[3]\n"
                                             "std::tuple<torch::Tensor, std::vector<torch::Tensor>, double> fine(torch::Tensor x) {\n"
                                             "  return {x, {x, x}, 1.0};\n"
                                             "}\n");
  RunResult R = validate({Path, "--quiet", "--entry=Named"});
  EXPECT_EQ(R.ExitCode, 2);
  EXPECT_NE(R.Stderr.find("named.cpp:3: error: entry 'Named' returns 'std::string'; graphify-validate compares "
                          "tensors"),
            std::string::npos)
      << R.Stderr;
  EXPECT_EQ(R.Stderr.find("static assertion"), std::string::npos) << "no template backtrace: " << R.Stderr;
  RunResult Fine = validate({Path, "--quiet", "--entry=fine", "--trials=1"});
  EXPECT_EQ(Fine.ExitCode, 0) << Fine.Stdout << Fine.Stderr;
}

TEST(E2EModels, TruncatedCachedHarnessAndPrefixAreRebuilt) {
  const std::string Cache = graphify::testing::scratchDirectory("graphify-validate-cache");
  const std::vector<std::string> Args = {GRAPHIFY_VALIDATE_EXE, Models + "/scalar_read.cpp", "--quiet", "--trials=2",
                                         "--cache-dir=" + std::string(Cache)};
  RunResult First = runIsolated(Args, 1500);
  ASSERT_EQ(First.ExitCode, 0) << First.Stdout << First.Stderr;
  unsigned Truncated = 0;
  std::string Prefix; // the precompiled <torch/torch.h> every harness was compiled with
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator I(Cache, EC), E; I != E && !EC; I.increment(EC)) {
    if (llvm::StringRef(I->path()).ends_with(".harness")) {
      ASSERT_EQ(::truncate(I->path().c_str(), 4096), 0);
      ++Truncated;
    }
    if (llvm::StringRef(I->path()).ends_with("/torch-prefix.h.gch"))
      Prefix = I->path();
  }
  ASSERT_GT(Truncated, 0u);
  ASSERT_FALSE(Prefix.empty()) << "no precompiled harness prefix in the cache";
  ASSERT_EQ(::truncate(Prefix.c_str(), 4096), 0);
  RunResult Second = runIsolated(Args, 1500);
  EXPECT_EQ(Second.ExitCode, 0) << Second.Stdout << Second.Stderr;
  uint64_t Rebuilt = 0;
  EXPECT_FALSE(llvm::sys::fs::file_size(Prefix, Rebuilt));
  EXPECT_GT(Rebuilt, 4096u) << "a damaged prefix must be rebuilt, never given to the compiler";
  llvm::sys::fs::remove_directories(Cache);
}

TEST(E2EErrors, SigtermStopsTheHarnessAndRemovesTemporaryFiles) {
  llvm::SmallString<256> Tmp;
  llvm::sys::fs::createUniqueDirectory("graphify-validate-tmpdir", Tmp);
  const std::string PidFile = std::string(Tmp) + "/harness.pid";
  std::string Path = writeModel("spins.cpp", "#include <torch/torch.h>\n"
                                             "#include <fstream>\n"
                                             "#include <unistd.h>\n"
                                             "// graphify-entry: x: f32[3]\n"
                                             "torch::Tensor spins(torch::Tensor x) {\n"
                                             "  std::ofstream(\"" + PidFile + ".part\") << getpid() << std::endl;\n"
                                             "  std::rename(\"" + PidFile + ".part\", \"" + PidFile + "\");\n"
                                             "  volatile bool spin = true;\n"
                                             "  while (spin) {}\n"
                                             "  return x;\n"
                                             "}\n");
  const std::string ScratchDir = std::string(Tmp) + "/scratch";
  llvm::sys::fs::create_directory(ScratchDir);
  // The validator under a shell that sends SIGTERM once the harness has started.
  const std::string Script = "TMPDIR='" + ScratchDir + "' '" GRAPHIFY_VALIDATE_EXE "' '" + Path +
                             "' --timeout=600 --quiet --cache-dir=" GRAPHIFY_VALIDATE_TEST_CACHE " & v=$!; "
                             "i=0; while [ ! -s '" + PidFile + "' ] && [ $i -lt 3000 ]; do sleep 0.1; i=$((i+1)); done; "
                             "kill -TERM $v; wait $v; echo \"validate exit $?\"";
  RunResult R = runIsolated({"/bin/sh", "-c", Script}, 900);
  ASSERT_TRUE(R.succeeded()) << R.describe() << R.Stderr;
  EXPECT_NE(R.Stdout.find("validate exit 143"), std::string::npos) << R.Stdout << R.Stderr;
  EXPECT_NE(R.Stderr.find("interrupted by SIGTERM"), std::string::npos) << R.Stderr;
  std::ifstream In(PidFile);
  pid_t Harness = 0;
  In >> Harness;
  ASSERT_GT(Harness, 0);
  bool Gone = false;
  for (int I = 0; I < 100 && !Gone; ++I) { // SIGKILL is delivered asynchronously
    Gone = ::kill(Harness, 0) != 0;
    if (!Gone)
      ::usleep(50000);
  }
  EXPECT_TRUE(Gone) << "the harness " << Harness << " is still running";
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator I(ScratchDir, EC), E; I != E && !EC; I.increment(EC))
    ADD_FAILURE() << "left behind: " << I->path();
  llvm::sys::fs::remove_directories(Tmp);
}

// Without the runtime's CUDA backend, or with it and no GPU, --device=cuda is an error that says
// so. Where both are present there is nothing to test: that is decided before the run, never from
// what the run printed.
TEST(E2EErrors, CudaWithoutADeviceIsAClearError) {
  if (GRAPHIFY_VALIDATE_TEST_HAVE_CUDA && llvm::sys::fs::exists("/dev/nvidia0"))
    GTEST_SKIP() << "this machine has a CUDA backend and a GPU";
  RunResult R = validate({Models + "/non_traceable.cpp", "--device=cuda", "--quiet"});
  EXPECT_EQ(R.ExitCode, 2) << R.Stdout << R.Stderr;
  EXPECT_NE(R.Stderr.find("no CUDA device available ("), std::string::npos) << R.Stderr;
}

#if GRAPHIFY_VALIDATE_TEST_HAVE_LIBTORCH
TEST(E2EGradients, LibTorchRuntimeComparesLibTorchsGradients) {
  RunResult R = validate({GradModels + "/plain_branch.cpp", Models + "/guarded_sqrt.cpp",
                          GradModels + "/overflowing_exp.cpp", GradModels + "/gated_projection.cpp",
                          "--runtime=libtorch", "--grad", "--format=json", "--quiet"});
  ASSERT_EQ(R.Status, RunResult::State::Exited) << R.describe();
  auto Rows = parseReport(R.Stdout);
  ASSERT_EQ(Rows.size(), 4u) << R.Stdout << R.Stderr;
  // Inputs and (GatedProjection) the parameters of a Linear layer and a registered tensor.
  for (const char *Name : {"scale_or_shift", "GuardedSqrt", "GatedProjection"}) {
    const Row &E = Rows[Name];
    EXPECT_EQ(E.Gradients, "checked") << Name;
    EXPECT_EQ(E.GradMatches, 8) << Name << ": " << ::testing::PrintToString(E.Problems);
    EXPECT_TRUE(E.Passed) << Name;
  }
  // LibTorch's exp and where backward make the same 0 * inf = NaN as the bundled runtime's.
  const Row &Exp = Rows["ExpWhileSmall"];
  EXPECT_EQ(Exp.Equivalent, 8);
  EXPECT_EQ(Exp.Gradients, "checked");
  EXPECT_LT(Exp.GradMatches, 8);
  EXPECT_TRUE(anyContains(Exp.Problems, "the gradient w.r.t. input 'x': element ["))
      << ::testing::PrintToString(Exp.Problems);
  EXPECT_FALSE(Exp.Passed);
  EXPECT_EQ(R.ExitCode, 1);
}

TEST(E2EModels, LibTorchRuntimeChecksEquivalenceOnly) {
  RunResult R = validate({Models + "/non_traceable.cpp", "--runtime=libtorch", "--trials=4", "--format=json",
                          "--quiet"});
  ASSERT_EQ(R.Status, RunResult::State::Exited) << R.describe();
  auto Rows = parseReport(R.Stdout);
  ASSERT_EQ(Rows.size(), 1u) << R.Stderr;
  const Row &E = Rows["NonTraceableModel"];
  EXPECT_EQ(E.Equivalent, 4);
  EXPECT_EQ(E.Replay, -1);
  EXPECT_FALSE(E.OrigCapturable.has_value());
}
#endif

} // namespace
