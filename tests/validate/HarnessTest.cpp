#include "graphify/validate/Harness.h"

#include <gtest/gtest.h>

using namespace graphify::validate;

namespace {

TEST(Harness, ModuleEntriesAreDefaultConstructedAndCalledThroughForward) {
  std::string S = generateHarness({"ns::Net", EntryKind::Module, 2, "/abs/model.cpp", "rewritten"});
  EXPECT_NE(S.find("#include \"/abs/model.cpp\""), std::string::npos);
  EXPECT_NE(S.find("EntryObject<ns::Net> entry;"), std::string::npos);
  EXPECT_NE(S.find("return entry.obj->forward(in[0], in[1]);"), std::string::npos);
  EXPECT_NE(S.find("the rewritten harness for entry 'ns::Net'"), std::string::npos);
  EXPECT_EQ(S.find('@'), std::string::npos) << "every placeholder is filled";
}

TEST(Harness, AModuleSplitForwardCapturesItsCoreWithTheModulesFields) {
  HarnessSpec Spec{"ns::Net", EntryKind::Module, 1, "/abs/model.cpp", "rewritten"};
  Spec.CaptureName = "forward_padded";
  Spec.CaptureFields = {"threshold", "scale_"};
  std::string S = generateHarness(Spec);
  EXPECT_NE(S.find("return std::remove_reference_t<decltype(*entry.obj)>::forward_padded(in[0], "
                   "entry.obj->threshold, entry.obj->scale_);"),
            std::string::npos)
      << S;
  EXPECT_NE(S.find("return entry.obj->forward(in[0]);"), std::string::npos) << "the entry itself is still compared";
  EXPECT_NE(S.find("constexpr bool captures_core = true;"), std::string::npos);
}

TEST(Harness, FunctionEntriesAreCalledDirectly) {
  std::string S = generateHarness({"replace_zeros_then_project", EntryKind::Function, 2, "/m.cpp", "original"});
  EXPECT_NE(S.find("return replace_zeros_then_project(in[0], in[1]);"), std::string::npos);
  EXPECT_EQ(S.find(" entry;"), std::string::npos) << "no module object for functions";
}

TEST(Harness, CaptureAndTraceOnlyWithTheBundledRuntime) {
  std::string S = generateHarness({"F", EntryKind::Function, 0, "/m.cpp", "original"});
  size_t Guard = S.find("#ifdef GRAPHIFY_TORCH_COMPAT\n  if (mode == \"capture\"");
  ASSERT_NE(Guard, std::string::npos);
  EXPECT_LT(Guard, S.find("gfy::capture("));
  EXPECT_LT(Guard, S.find("gfy::trace("));
  EXPECT_NE(S.find("return F();"), std::string::npos);
}

TEST(Harness, GradientModeTakesModuleParametersAndRunsWithGradModeOn) {
  std::string S = generateHarness({"ns::Net", EntryKind::Module, 1, "/abs/model.cpp", "original"});
  size_t Mode = S.find("if (mode == \"grad\" || mode == \"grad-if-params\")");
  ASSERT_NE(Mode, std::string::npos);
  EXPECT_NE(S.find("for (const auto &p : entry.obj->named_parameters())", Mode), std::string::npos);
  EXPECT_NE(S.find("torch::AutoGradMode enable_grad(true);", Mode), std::string::npos);
  EXPECT_NE(S.find("torch::autograd::grad(roots, wrt, seeds", Mode), std::string::npos);
  EXPECT_NE(S.find("in.push_back(leaves[k].clone());", Mode), std::string::npos)
      << "the model gets clones of the leaves, so in-place ops on its inputs stay legal";
  // Every other mode runs without autograd, on both runtimes.
  size_t Guard = S.find("  torch::NoGradGuard no_grad;\n  torch::set_num_threads(1);");
  ASSERT_NE(Guard, std::string::npos);
  EXPECT_EQ(S.rfind("#ifndef GRAPHIFY_TORCH_COMPAT", Guard), std::string::npos);
}

TEST(Harness, FunctionsHaveNoParametersToDifferentiate) {
  std::string S = generateHarness({"f", EntryKind::Function, 2, "/m.cpp", "original"});
  EXPECT_EQ(S.find("named_parameters"), std::string::npos);
  EXPECT_NE(S.find("std::fprintf(out, \"params %zu\\n\", params.size());"), std::string::npos);
}

// Tensors cross the process boundary as binary payloads (Values.h): read into the input tensor's
// memory when its trial runs, written from the output's; no element is printed or parsed as text.
TEST(Harness, TensorsTravelAsBinaryPayloads) {
  std::string S = generateHarness({"f", EntryKind::Function, 1, "/m.cpp", "original"});
  EXPECT_NE(S.find("line != \"graphify-inputs 2\""), std::string::npos);
  EXPECT_NE(S.find("std::fread(t.data_ptr(), 1, r.bytes, in.f)"), std::string::npos);
  EXPECT_NE(S.find("std::fwrite(r.data.data_ptr(), 1,"), std::string::npos);
  EXPECT_NE(S.find("\"graphify-results 2\\n\""), std::string::npos);
  EXPECT_EQ(S.find("%.17g"), std::string::npos) << "no per-element text";
  EXPECT_EQ(S.find("strtod"), std::string::npos) << "no per-element text";
}

} // namespace

namespace {

// A wrapper as split-at-host-boundary writes it when the copies of host data are the function's
// only host work: the stage is its text, renamed, returning the core's arguments.
const char *const PrologueFile = R"cpp(#include <torch/torch.h>
namespace det {
static at::Tensor scale_graph(torch::Tensor x, at::Tensor &mean) {
  return (x - mean).relu();
}

/// graphify: host prologue of 'scale_graph' (copies host data to the device, then runs the core, the function's work from line 4; not a graph region)
GRAPHIFY_GRAPH_REGION torch::Tensor scale(torch::Tensor x) {
  auto mean = torch::tensor({0.5f, 0.25f}).to(x.device()); // a '}' in a comment
  return scale_graph(x, mean);
}
} // namespace det
)cpp";

TEST(PrologueStage, TheWrappersTextReturnsTheCoresArguments) {
  auto Stage = prologueStageOf("det::scale", PrologueFile);
  ASSERT_TRUE(Stage.has_value());
  EXPECT_EQ(Stage->Core, "det::scale_graph");
  EXPECT_EQ(Stage->Function, "det::scale__graphify_stage");
  EXPECT_NE(Stage->Text.find("namespace det {\nstatic auto scale__graphify_stage(torch::Tensor x) {\n"
                             "  auto mean = torch::tensor({0.5f, 0.25f}).to(x.device()); // a '}' in a comment\n"
                             "  return std::make_tuple(x, mean);\n}"),
            std::string::npos)
      << Stage->Text;
}

TEST(PrologueStage, OnlyAHostPrologueOfTheEntryHasOne) {
  EXPECT_FALSE(prologueStageOf("det::other", PrologueFile).has_value()) << "another entry's wrapper";
  std::string Epilogue = PrologueFile;
  Epilogue.replace(Epilogue.find("host prologue"), 13, "host epilogue");
  EXPECT_FALSE(prologueStageOf("det::scale", Epilogue).has_value()) << "an epilogue is captured by its core alone";
}

TEST(Harness, AHostProloguesCoreIsCapturedAfterItsCopies) {
  HarnessSpec Spec{"det::scale", EntryKind::Function, 1, "/m.cpp", "rewritten"};
  Spec.CaptureName = "det::scale_graph";
  Spec.StageFunction = "det::scale__graphify_stage";
  Spec.StageText = "static auto scale__graphify_stage(torch::Tensor x) { return std::make_tuple(x); }";
  std::string S = generateHarness(Spec);
  EXPECT_NE(S.find(Spec.StageText), std::string::npos);
  const size_t Stage = S.find("staged.emplace(stage(in));"), Capture = S.find("g = gfy::capture(");
  ASSERT_NE(Stage, std::string::npos) << S;
  EXPECT_LT(Stage, Capture) << "the copies run before the capture";
  EXPECT_NE(S.find("return std::apply([&](auto &...a) { return det::scale_graph(a...); }, *staged);"),
            std::string::npos);
  EXPECT_NE(S.find("return det::scale(in[0]);"), std::string::npos) << "the entry itself is still compared";
  EXPECT_EQ(S.find('@'), std::string::npos) << "every placeholder is filled";
}

} // namespace
