#include "graphify/validate/Report.h"

#include <llvm/Support/JSON.h>

#include <gtest/gtest.h>

using namespace graphify::validate;

namespace {

RunSummary seedSummary() {
  RunSummary S;
  S.Trials = 8;
  EntryReport E;
  E.File = "testdata/models/non_traceable.cpp";
  E.Name = "NonTraceableModel";
  E.Trials = 8;
  E.EquivalentTrials = 8;
  E.Original = {CaptureVerdict::State::NotCapturable, "item", "/abs/testdata/models/non_traceable.cpp", 8,
                "'item' reads a tensor value on the host"};
  E.Rewritten.Status = CaptureVerdict::State::Capturable;
  E.ReplayChecked = true;
  E.ReplayMatches = 7;
  E.ReplayTrials = 7;
  E.Trace.Status = TraceVerdict::State::Diverges;
  E.Trace.DivergentTrials = 4;
  E.Trace.Trials = 7;
  E.Rewrote = true;
  E.Fixes = {"line 8: if-return-to-where"};
  S.Entries.push_back(E);
  return S;
}

TEST(Report, TextTable) {
  RunSummary S = seedSummary();
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  writeTextReport(OS, S);
  EXPECT_EQ(Out, "graphify-validate: runtime gfy (cpu), 8 trials, seed 0\n"
                 "\n"
                 "entry              equivalent  gradients  original capturable              rewritten capturable  "
                 "replay matches  traced original diverges\n"
                 "NonTraceableModel  8/8         -          no: item at non_traceable.cpp:8  yes                   "
                 "7/7             yes (4/7)\n"
                 "\n"
                 "NonTraceableModel (testdata/models/non_traceable.cpp): passed\n"
                 "  rewrite: line 8: if-return-to-where\n"
                 "  original capture: 'item' reads a tensor value on the host\n"
                 "\n"
                 "1 entry: 1 passed, 0 failed\n");
}

TEST(Report, PassedNeedsEquivalenceCaptureAndReplay) {
  RunSummary S = seedSummary();
  EXPECT_TRUE(S.passed());
  S.Entries[0].ReplayMatches = 6;
  EXPECT_FALSE(S.passed());
  S = seedSummary();
  S.Entries[0].EquivalentTrials = 7;
  EXPECT_FALSE(S.passed());
  S = seedSummary();
  S.Entries[0].Rewritten.Status = CaptureVerdict::State::NotCapturable;
  EXPECT_FALSE(S.passed());
  // LibTorch: capture is not checked, equivalence alone decides.
  S = seedSummary();
  S.Entries[0].ReplayChecked = false;
  S.Entries[0].Rewritten.Status = CaptureVerdict::State::NotChecked;
  EXPECT_TRUE(S.passed());
}

TEST(Report, JsonFields) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  writeJsonReport(OS, seedSummary());
  auto V = llvm::json::parse(Out);
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  const llvm::json::Object *Top = V->getAsObject();
  EXPECT_EQ(Top->getBoolean("passed"), true);
  const llvm::json::Object *E = Top->getArray("entries")->front().getAsObject();
  EXPECT_EQ(E->getString("name"), "NonTraceableModel");
  EXPECT_EQ(E->getInteger("trials"), 8);
  EXPECT_EQ(E->getInteger("equivalent_trials"), 8);
  EXPECT_EQ(E->getInteger("replay_matches"), 7);
  EXPECT_EQ(E->getBoolean("trace_diverges"), true);
  const llvm::json::Object *O = E->getObject("original");
  EXPECT_EQ(O->getBoolean("capturable"), false);
  EXPECT_EQ(O->getObject("blocking")->getString("op"), "item");
  EXPECT_EQ(O->getObject("blocking")->getInteger("line"), 8);
  const llvm::json::Object *R = E->getObject("rewritten");
  EXPECT_EQ(R->getBoolean("capturable"), true);
  EXPECT_TRUE(R->get("blocking")->getAsNull());
}

TEST(Report, NotCheckedIsNullInJson) {
  RunSummary S = seedSummary();
  S.Runtime = "libtorch";
  S.Entries[0].ReplayChecked = false;
  S.Entries[0].Original = {};
  S.Entries[0].Rewritten = {};
  S.Entries[0].Trace = {};
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  writeJsonReport(OS, S);
  auto V = llvm::json::parse(Out);
  ASSERT_TRUE(bool(V));
  const llvm::json::Object *E = V->getAsObject()->getArray("entries")->front().getAsObject();
  EXPECT_TRUE(E->get("replay_matches")->getAsNull());
  EXPECT_TRUE(E->get("trace_diverges")->getAsNull());
  EXPECT_TRUE(E->getObject("original")->get("capturable")->getAsNull());
}

TEST(Report, GradientColumnAndMismatch) {
  RunSummary S = seedSummary();
  EntryReport &E = S.Entries[0];
  E.Gradients.Status = GradientVerdict::State::Checked;
  E.Gradients.Trials = 8;
  E.Gradients.Matches = 5;
  E.Problems = {"trial 0 (random): the rewritten entry's gradients differ from the original's: the gradient w.r.t. "
                "input 'x': element [1] is nan, expected 0.5"};
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  writeTextReport(OS, S);
  EXPECT_NE(Out.find("NonTraceableModel  8/8         5/8        no: item"), std::string::npos) << Out;
  EXPECT_NE(Out.find("NonTraceableModel (testdata/models/non_traceable.cpp): FAILED\n"), std::string::npos) << Out;
  EXPECT_NE(Out.find("  problem: trial 0 (random): the rewritten entry's gradients differ from the original's: the "
                     "gradient w.r.t. input 'x': element [1] is nan, expected 0.5\n"),
            std::string::npos)
      << Out;
  EXPECT_FALSE(S.passed()) << "a gradient mismatch fails the entry, as an output mismatch does";
  E.Gradients.Matches = 8;
  EXPECT_TRUE(S.passed());
}

TEST(Report, GradientsNotSupportedIsANoteUnlessRequired) {
  RunSummary S = seedSummary();
  EntryReport &E = S.Entries[0];
  E.Gradients.Status = GradientVerdict::State::NotSupported;
  E.Gradients.Message = "the derivative for 'floor_divide' is not implemented.";
  EXPECT_TRUE(S.passed());
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  writeTextReport(OS, S);
  EXPECT_NE(Out.find("NonTraceableModel  8/8         not supported  no: item"), std::string::npos) << Out;
  EXPECT_NE(Out.find("  gradients: not supported (the derivative for 'floor_divide' is not implemented.)\n"),
            std::string::npos)
      << Out;
  E.Gradients.Required = true; // --grad: a failure, which the validator states as a problem
  E.Problems = {"--grad asks for gradients, but the runtime cannot run the original's backward pass: the derivative "
                "for 'floor_divide' is not implemented."};
  EXPECT_FALSE(S.passed());
  Out.clear();
  writeTextReport(OS, S);
  EXPECT_NE(Out.find("NonTraceableModel (testdata/models/non_traceable.cpp): FAILED\n"), std::string::npos) << Out;
  EXPECT_EQ(Out.find("  gradients: not supported"), std::string::npos) << "said once, in the problem\n" << Out;
  EXPECT_NE(Out.find("  problem: --grad asks for gradients, but the runtime cannot run the original's backward pass: "
                     "the derivative for 'floor_divide' is not implemented.\n"),
            std::string::npos)
      << Out;
}

TEST(Report, GradientJsonFields) {
  RunSummary S = seedSummary();
  auto Entry = [&] {
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    writeJsonReport(OS, S);
    auto V = llvm::json::parse(Out);
    EXPECT_TRUE(bool(V)) << Out;
    return std::move(*V->getAsObject()->getArray("entries")->front().getAsObject());
  };
  llvm::json::Object E = Entry();
  EXPECT_EQ(E.getString("gradients"), "not checked");
  EXPECT_TRUE(E.get("gradient_matches")->getAsNull());
  EXPECT_TRUE(E.get("gradient_trials")->getAsNull());
  S.Entries[0].Gradients = {GradientVerdict::State::Checked, 7, 8, false, ""};
  E = Entry();
  EXPECT_EQ(E.getString("gradients"), "checked");
  EXPECT_EQ(E.getInteger("gradient_matches"), 7);
  EXPECT_EQ(E.getInteger("gradient_trials"), 8);
  EXPECT_EQ(E.getBoolean("passed"), false);
  S.Entries[0].Gradients = {GradientVerdict::State::NotSupported, 0, 0, false, "the derivative for 'floor_divide' is not "
                                                                                 "implemented."};
  E = Entry();
  EXPECT_EQ(E.getString("gradients"), "not supported");
  EXPECT_EQ(E.getString("gradient_note"), "the derivative for 'floor_divide' is not implemented.");
  EXPECT_TRUE(E.get("gradient_matches")->getAsNull());
  EXPECT_EQ(E.getBoolean("passed"), true);
}

} // namespace
