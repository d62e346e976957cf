// The shipped packs load, lookups follow the pack's naming rules, and every malformed pack is
// rejected with file:line:col so that a typo can never silently disable a check.
#include "../support/TestScratch.h"
#include "graphify/rules/RuleSet.h"

#include <gtest/gtest.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <fstream>

using namespace graphify;

namespace {

std::string writeTemp(const std::string &Name, const std::string &Text) {
  std::string Path = graphify::testing::scratchDirectory("graphify-rules-test") + "/" + Name;
  std::ofstream(Path) << Text;
  return Path;
}

const char *kTags = "tags:\n"
                    "  - {name: host_sync, doc: reads values}\n"
                    "  - {name: size_argument, doc: sizes}\n"
                    "  - {name: pure, doc: no side effects}\n"
                    "  - {name: capture_begin, doc: opens a window}\n"
                    "  - {name: capture_end, doc: closes a window}\n"
                    "  - {name: stream_ordered, doc: enqueues on a stream}\n"
                    "  - {name: capture_status_query, doc: tells whether a capture runs}\n"
                    "  - {name: capture_mode_exchange, doc: swaps the thread's capture mode}\n"
                    "  - {name: runs_callables, doc: runs the callables it is given}\n"
                    "  - {name: capture_mode_guard, doc: sets the thread's capture mode for its scope}\n"
                    "  - {name: runs_on_new_thread, doc: runs a callable on a new thread}\n"
                    "  - {name: current_stream_guard, doc: makes a stream current for its scope}\n"
                    "  - {name: host_array_shape, doc: shapes the host arrays it writes}\n";

std::string loadError(const std::string &Pack) {
  std::string Tags = writeTemp("tags.yaml", kTags);
  std::string P = writeTemp("pack.yaml", Pack);
  auto R = RuleSet::load(Tags, {P});
  if (R)
    return "";
  std::string Msg = llvm::toString(R.takeError());
  // Strip the temporary directory so expectations read as file:line:col.
  return Msg.substr(Msg.rfind('/') + 1);
}

} // namespace

TEST(RuleSet, ShippedPacksLoad) {
  auto R = RuleSet::loadFromDirectory(GRAPHIFY_RULES_DIR);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_GE(R->tags().size(), 10u);
  EXPECT_GE(R->packFiles().size(), 2u);
  for (const TagInfo &T : R->tags())
    EXPECT_FALSE(T.Doc.empty()) << "tag " << T.Name << " is undocumented";
}

TEST(RuleSet, LookupsFollowNamespacesAndArity) {
  auto R = RuleSet::loadFromDirectory(GRAPHIFY_RULES_DIR);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  auto Item = R->lookupMethod("item", 1);
  ASSERT_EQ(Item.size(), 1u);
  EXPECT_TRUE(Item[0]->hasTag("host_sync"));
  EXPECT_FALSE(R->lookupFunction("at::nonzero", 1).empty());
  EXPECT_FALSE(R->lookupFunction("gfy::nonzero", 1).empty());
  EXPECT_TRUE(R->lookupFunction("mylib::nonzero", 1).empty());
  // A user's global function does not inherit a tensor op's tags.
  EXPECT_TRUE(R->lookupFunction("print", 1).empty());
  EXPECT_TRUE(R->lookupFunction("nonzero", 1).empty());
  // where: one argument is dynamic, three arguments is the select rewrites emit.
  auto Where1 = R->lookupFunction("at::where", 1);
  ASSERT_EQ(Where1.size(), 1u);
  EXPECT_TRUE(Where1[0]->hasTag("dynamic_output_shape"));
  auto Where3 = R->lookupFunction("torch::where", 3);
  ASSERT_EQ(Where3.size(), 1u);
  EXPECT_TRUE(Where3[0]->hasTag("where_select"));
  EXPECT_FALSE(R->lookupConstructor("at::indexing::Slice", 2).empty());
  EXPECT_FALSE(R->lookupFunction("cudaDeviceSynchronize", 0).empty());
  EXPECT_FALSE(R->lookupFunction("torch::cuda::synchronize", 0).empty());
  EXPECT_FALSE(R->lookupFunction("gfy::capture", 1).empty());
  ASSERT_NE(R->flavorOfTensorType("at::Tensor"), nullptr);
  EXPECT_EQ(R->flavorOfTensorType("gfy::Tensor")->Spelling, "gfy::");
  EXPECT_EQ(R->spellFunction(*R->flavorOfTensorType("at::Tensor"), "where"), "torch::where");
  EXPECT_NE(R->flavorOfModuleBase("torch::nn::Module"), nullptr);
  // torchvision <= 0.7's global nms: filed under its bare name, tied to torchvision's headers.
  auto LegacyNms = R->lookupFunction("nms", 3);
  ASSERT_EQ(LegacyNms.size(), 1u);
  EXPECT_TRUE(LegacyNms[0]->hasTag("greedy_suppression"));
  EXPECT_EQ(LegacyNms[0]->DeclaredIn, std::vector<std::string>{"torchvision/"});
}

TEST(RuleSet, ExtraPackExtendsShipped) {
  std::string P = writeTemp("mine.yaml", "pack: mine\nnamespaces: [mylib]\n"
                                         "entries:\n  - {name: read_scalar, kind: function, tags: [host_sync]}\n");
  auto R = RuleSet::loadFromDirectory(GRAPHIFY_RULES_DIR, {P});
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_FALSE(R->lookupFunction("mylib::read_scalar", 1).empty());
}

TEST(RuleSet, AssertionMacrosComeFromThePacks) {
  auto Shipped = RuleSet::loadFromDirectory(GRAPHIFY_RULES_DIR);
  ASSERT_TRUE(bool(Shipped)) << llvm::toString(Shipped.takeError());
  const std::vector<std::string> &M = Shipped->assertionMacros();
  EXPECT_NE(std::find(M.begin(), M.end(), "assert"), M.end());
  EXPECT_NE(std::find(M.begin(), M.end(), "TORCH_CHECK"), M.end());
  std::string P = writeTemp("mine.yaml", "pack: mine\nassertion_macros: [MY_CHECK]\n"
                                         "entries:\n  - {name: read_scalar, kind: function, tags: [host_sync]}\n");
  auto R = RuleSet::loadFromDirectory(GRAPHIFY_RULES_DIR, {P});
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->assertionMacros().back(), "MY_CHECK");
  EXPECT_EQ(loadError("pack: p\nassertion_macros: MY_CHECK\nentries:\n  - {name: item, tags: [pure]}\n"),
            "pack.yaml:2:19: error: 'assertion_macros' in rule pack must be a list of strings");
}

TEST(RuleSetErrors, UnknownKeySuggestsTheKnownOne) {
  EXPECT_EQ(loadError("pack: p\nentries:\n  - name: item\n    tagz: [host_sync]\n"),
            "pack.yaml:3:5: error: entry is missing the required key 'tags'");
  EXPECT_EQ(loadError("pack: p\nentries:\n  - name: item\n    tags: [host_sync]\n    doc_: x\n"),
            "pack.yaml:5:5: error: unknown key 'doc_' in entry; did you mean 'doc'?");
  EXPECT_EQ(loadError("pack: p\nentry:\n  - {name: item, tags: [host_sync]}\n"),
            "pack.yaml:1:1: error: rule pack is missing the required key 'entries'");
}

TEST(RuleSetErrors, UnknownTagSuggestsTheKnownOne) {
  EXPECT_EQ(loadError("pack: p\nentries:\n  - {name: item, tags: [host_synk]}\n"),
            "pack.yaml:3:24: error: unknown tag 'host_synk' in entry 'item'; did you mean 'host_sync'? "
            "(tags are listed in tags.yaml)");
}

TEST(RuleSetErrors, WrongTypes) {
  EXPECT_EQ(loadError("pack: p\nentries:\n  - {name: item, tags: host_sync}\n"),
            "pack.yaml:3:24: error: 'tags' in entry must be a list of strings");
  EXPECT_EQ(loadError("pack: p\nentries:\n  - {name: zeros, tags: [size_argument], size_args: [x]}\n"),
            "pack.yaml:3:54: error: each item of 'size_args' in entry must be an integer");
  EXPECT_EQ(loadError("pack: p\nentries:\n  - {name: item, kind: metod, tags: [pure]}\n"),
            "pack.yaml:3:24: error: unknown kind 'metod' (expected method, function, constructor or member); "
            "did you mean 'method'?");
  EXPECT_EQ(loadError("pack: p\nentries: {name: item}\n"), "pack.yaml:2:10: error: 'entries' must be a list");
  EXPECT_EQ(loadError("- just\n- a list\n"), "pack.yaml:1:1: error: rule pack must be a mapping (key: value)");
}

TEST(RuleSetErrors, DuplicatesAndMissingPositions) {
  EXPECT_EQ(loadError("pack: p\nentries:\n  - {name: item, tags: [pure], name: other}\n"),
            "pack.yaml:3:32: error: duplicate key 'name' in entry");
  EXPECT_EQ(loadError("pack: p\nentries:\n  - {name: zeros, tags: [size_argument]}\n"),
            "pack.yaml:3:5: error: entry 'zeros' is tagged size_argument but has no 'size_args' or 'length_args'");
}

TEST(RuleSetErrors, CaptureWindowEntriesNeedTheirPositions) {
  EXPECT_EQ(loadError("pack: p\nentries:\n  - {name: beginCap, kind: function, tags: [capture_begin]}\n"),
            "pack.yaml:3:5: error: entry 'beginCap' is tagged capture_begin but has no 'stream_arg'");
  EXPECT_EQ(loadError("pack: p\nentries:\n  - {name: endCap, kind: function, tags: [capture_end]}\n"),
            "pack.yaml:3:5: error: entry 'endCap' is tagged capture_end but has no 'stream_arg'");
  EXPECT_EQ(loadError("pack: p\nentries:\n  - {name: b, kind: function, tags: [capture_begin], stream_arg: 0,\n"
                      "     relaxed_modes: [Relaxed]}\n"),
            "pack.yaml:3:5: error: entry 'b' has 'relaxed_modes' but no 'mode_arg'");
  // An exchange that names no relaxed mode could never switch a thread to relaxed mode.
  EXPECT_EQ(loadError("pack: p\nentries:\n  - {name: swapMode, kind: function, tags: [capture_mode_exchange], "
                      "mode_arg: 0}\n"),
            "pack.yaml:3:5: error: entry 'swapMode' is tagged capture_mode_exchange but has no 'relaxed_modes'");
  EXPECT_EQ(loadError("pack: p\nentries:\n  - {name: b, kind: function, tags: [capture_begin], stream_arg: 0,\n"
                      "     thread_local_modes: [ThreadLocal]}\n"),
            "pack.yaml:3:5: error: entry 'b' has 'thread_local_modes' but no 'mode_arg'");
  // A mode guard whose mode argument is unknown could never be read.
  EXPECT_EQ(loadError("pack: p\nentries:\n  - {name: ModeGuard, kind: constructor, tags: [capture_mode_guard]}\n"),
            "pack.yaml:3:5: error: entry 'ModeGuard' is tagged capture_mode_guard but has no 'mode_arg'");
  // A stream guard whose stream argument is unknown could never be read.
  EXPECT_EQ(loadError("pack: p\nentries:\n  - {name: StreamGuard, kind: constructor, tags: [current_stream_guard]}\n"),
            "pack.yaml:3:5: error: entry 'StreamGuard' is tagged current_stream_guard but has no 'stream_arg'");
  EXPECT_EQ(loadError("pack: p\nentries:\n  - {name: spawn, kind: function, tags: [runs_on_new_thread]}\n"),
            "pack.yaml:3:5: error: entry 'spawn' is tagged runs_on_new_thread but has no 'callable_args'");
  // A callable runner that names no callable would run nothing in the window.
  EXPECT_EQ(loadError("pack: p\nentries:\n  - {name: visit, kind: function, tags: [runs_callables]}\n"),
            "pack.yaml:3:5: error: entry 'visit' is tagged runs_callables but has no 'callable_args'");
  // A status query without the statuses that mean idle would never exclude guarded code.
  EXPECT_EQ(loadError("pack: p\nentries:\n  - {name: isCap, kind: function, tags: [capture_status_query]}\n"),
            "pack.yaml:3:5: error: entry 'isCap' must have 'idle_statuses' exactly when tagged capture_status_query");
  EXPECT_EQ(loadError("pack: p\nentries:\n  - {name: q, kind: function, tags: [pure], idle_statuses: [None]}\n"),
            "pack.yaml:3:5: error: entry 'q' must have 'idle_statuses' exactly when tagged capture_status_query");
  EXPECT_EQ(loadError("pack: p\nentries:\n  - {name: b, kind: function, tags: [capture_begin], stream_arg: -1}\n"),
            "pack.yaml:3:66: error: 'stream_arg' must be a position between 0 and 64");
  EXPECT_EQ(loadError("pack: p\nentries:\n  - {name: capture_begin, kind: member, tags: [pure]}\n"),
            "pack.yaml:3:5: error: entry 'capture_begin' is of kind member but its name is not qualified (Class::method)");
}

// A stream_ordered entry without its stream position would never report a legacy-stream call.
TEST(RuleSetErrors, StreamOrderedEntriesNeedTheirStream) {
  EXPECT_EQ(loadError("pack: p\nentries:\n  - {name: copyAsync, kind: function, tags: [stream_ordered]}\n"),
            "pack.yaml:3:5: error: entry 'copyAsync' is tagged stream_ordered but has no 'stream_arg'");
  EXPECT_EQ(loadError("pack: p\nentries:\n  - {name: copy, kind: function, tags: [pure], legacy_streams: [L]}\n"),
            "pack.yaml:3:5: error: entry 'copy' has 'legacy_streams' but is not tagged stream_ordered");
  EXPECT_EQ(loadError("pack: p\nentries:\n  - {name: c, kind: function, tags: [stream_ordered], stream_arg: 1,\n"
                      "     legacy_streams: [L]}\n"),
            "");
}

// A copy's destination is device memory only under a direction its kind argument names.
TEST(RuleSetErrors, DestinationKindsNeedTheKindArgument) {
  EXPECT_EQ(loadError("pack: p\nentries:\n  - {name: c, kind: function, tags: [stream_ordered], stream_arg: 4,\n"
                      "     pointer_args: [0, 1], dst_device_kinds: [H2D]}\n"),
            "pack.yaml:3:5: error: entry 'c' has 'dst_device_kinds' but no 'kind_arg'");
  EXPECT_EQ(loadError("pack: p\nentries:\n  - {name: c, kind: function, tags: [stream_ordered], stream_arg: 4,\n"
                      "     pointer_args: [0, 1], kind_arg: 3, device_kinds: [D2D], dst_device_kinds: [H2D]}\n"),
            "");
}

TEST(RuleSetErrors, HostArrayShapesNeedTheirPositions) {
  EXPECT_EQ(loadError("pack: p\nentries:\n  - {name: cv::resize, kind: function, tags: [host_array_shape]}\n"),
            "pack.yaml:3:5: error: entry 'cv::resize' must have 'shape_args' exactly when tagged host_array_shape");
  EXPECT_EQ(loadError("pack: p\nentries:\n  - {name: cv::resize, kind: function, tags: [pure], shape_args: [2]}\n"),
            "pack.yaml:3:5: error: entry 'cv::resize' must have 'shape_args' exactly when tagged host_array_shape");
  EXPECT_EQ(loadError("pack: p\nentries:\n  - {name: cv::resize, kind: function, tags: [pure], fallback_shape_args: [0]}\n"),
            "pack.yaml:3:5: error: entry 'cv::resize' has 'fallback_shape_args' but no 'shape_args'");
  EXPECT_EQ(loadError("pack: p\nhost_arrays: cv::Mat\nentries:\n  - {name: item, tags: [pure]}\n"),
            "pack.yaml:2:14: error: 'host_arrays' in rule pack must be a list of strings");
  EXPECT_EQ(loadError("pack: p\ndispatch_macros: AT_DISPATCH\nentries:\n  - {name: item, tags: [pure]}\n"),
            "pack.yaml:2:18: error: 'dispatch_macros' in rule pack must be a list of strings");
  EXPECT_EQ(loadError("pack: p\nhost_arrays: [cv::Mat]\nentries:\n  - {name: cv::resize, kind: function,\n"
                      "     tags: [host_array_shape], shape_args: [2], fallback_shape_args: [0, 3, 4]}\n"),
            "");
}

TEST(RuleSet, HostArraysComeFromThePacks) {
  auto Shipped = RuleSet::loadFromDirectory(GRAPHIFY_RULES_DIR);
  ASSERT_TRUE(bool(Shipped)) << llvm::toString(Shipped.takeError());
  const std::vector<std::string> &A = Shipped->hostArrays();
  EXPECT_NE(std::find(A.begin(), A.end(), "cv::Mat"), A.end());
  const std::vector<std::string> &D = Shipped->dispatchMacros();
  EXPECT_NE(std::find(D.begin(), D.end(), "AT_DISPATCH_FLOATING_TYPES"), D.end());
  auto Resize = Shipped->lookupFunction("cv::resize", 3);
  ASSERT_EQ(Resize.size(), 1u);
  EXPECT_EQ(Resize.front()->ShapeArgs, std::vector<unsigned>{2});
  EXPECT_EQ(Resize.front()->FallbackShapeArgs, (std::vector<unsigned>{0, 3, 4}));
}

TEST(RuleSet, MemberEntriesAreFoundByQualifiedNameOnly) {
  std::string Tags = writeTemp("tags.yaml", kTags);
  std::string P = writeTemp("pack.yaml", "pack: p\nentries:\n"
                                         "  - {name: ns::Graph::capture_begin, kind: member, tags: [capture_begin],\n"
                                         "     stream_arg: 0, mode_arg: 2, relaxed_modes: [Relaxed]}\n");
  auto R = RuleSet::load(Tags, {P});
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  auto Found = R->lookupMember("ns::Graph::capture_begin", 1);
  ASSERT_EQ(Found.size(), 1u);
  EXPECT_EQ(Found[0]->StreamArg, 0u);
  EXPECT_EQ(Found[0]->ModeArg, 2u);
  EXPECT_EQ(Found[0]->RelaxedModes, std::vector<std::string>{"Relaxed"});
  EXPECT_TRUE(R->lookupMethod("capture_begin", 1).empty());
  EXPECT_TRUE(R->lookupFunction("ns::Graph::capture_begin", 1).empty());
}

TEST(RuleSetErrors, SyntaxErrorIsLocated) {
  std::string E = loadError("pack: p\nentries:\n  - {name: item, tags: [pure]\n");
  EXPECT_EQ(E.rfind("pack.yaml:", 0), 0u) << E;
  EXPECT_NE(E.find("error: invalid YAML"), std::string::npos) << E;
}

TEST(RuleSetErrors, DuplicateTagInTagList) {
  std::string Tags = writeTemp("tags.yaml", "tags:\n  - {name: a, doc: x}\n  - {name: a, doc: y}\n");
  auto R = RuleSet::load(Tags, {});
  ASSERT_FALSE(bool(R));
  std::string Msg = llvm::toString(R.takeError());
  EXPECT_NE(Msg.find("tags.yaml:3:5: error: duplicate tag 'a'"), std::string::npos) << Msg;
}

TEST(RuleSetErrors, EmptyDeclaredInPathIsLocated) {
  std::string P = writeTemp("mine.yaml", "pack: mine\nnamespaces: [mylib]\n"
                                         "entries:\n  - {name: nms, kind: function, declared_in: [''], tags: [pure]}\n");
  auto R = RuleSet::loadFromDirectory(GRAPHIFY_RULES_DIR, {P});
  ASSERT_FALSE(bool(R));
  std::string Msg = llvm::toString(R.takeError());
  EXPECT_NE(Msg.find("mine.yaml:4:5: error: entry 'nms' has an empty path in 'declared_in'"), std::string::npos) << Msg;
}

TEST(RuleSetErrors, LazyResourceNeedsFirstCallTag) {
  std::string P = writeTemp("mine.yaml", "pack: mine\nnamespaces: [mylib]\n"
                                         "entries:\n  - {name: gemm, kind: function, lazy_resource: blas, tags: [pure]}\n");
  auto R = RuleSet::loadFromDirectory(GRAPHIFY_RULES_DIR, {P});
  ASSERT_FALSE(bool(R));
  std::string Msg = llvm::toString(R.takeError());
  EXPECT_NE(Msg.find("mine.yaml:4:5: error: entry 'gemm' has 'lazy_resource' but is not tagged first_call_allocates"),
            std::string::npos)
      << Msg;
}

TEST(RuleSetErrors, MissingDirectoryIsClear) {
  auto R = RuleSet::loadFromDirectory("/nonexistent/rules");
  ASSERT_FALSE(bool(R));
  EXPECT_NE(llvm::toString(R.takeError()).find("has no tags.yaml"), std::string::npos);
}

TEST(RuleSetErrors, ArgEqualsNeedsPairs) {
  std::string P = writeTemp("mine.yaml", "pack: mine\nnamespaces: [mylib]\n"
                                         "entries:\n  - {name: draw, kind: function, arg_equals: [1], tags: [host_sync]}\n");
  auto R = RuleSet::loadFromDirectory(GRAPHIFY_RULES_DIR, {P});
  ASSERT_FALSE(bool(R));
  std::string Msg = llvm::toString(R.takeError());
  EXPECT_NE(Msg.find("mine.yaml:4:46: error: 'arg_equals' must hold (position, value) pairs"), std::string::npos) << Msg;
}

TEST(RuleSet, ArgEqualsKeepsItsPairs) {
  std::string P = writeTemp("mine.yaml", "pack: mine\nnamespaces: [mylib]\n"
                                         "entries:\n  - {name: draw, kind: function, arg_equals: [1, 1, 2, 0], tags: [host_sync]}\n");
  auto R = RuleSet::loadFromDirectory(GRAPHIFY_RULES_DIR, {P});
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  auto Found = R->lookupFunction("mylib::draw", 3);
  ASSERT_EQ(Found.size(), 1u);
  std::vector<std::pair<unsigned, int64_t>> Want = {{1, 1}, {2, 0}};
  EXPECT_EQ(Found.front()->ArgEquals, Want);
}
