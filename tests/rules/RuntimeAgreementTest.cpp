// The runtime refuses under capture exactly what the rule packs say needs the host: each op the
// packs tag host_sync or dynamic_output_shape (or bool_mask_index, when indexed by a mask) that
// the runtime implements throws gfy::CaptureError inside gfy::capture, and no other op does.
// The expectation comes from the packs; this file only says how to call each runtime op.
#include "graphify/rules/RuleSet.h"

#include <graphify/graphify.h>
#include <gtest/gtest.h>

#include <functional>
#include <set>
#include <sstream>

using namespace graphify;
using gfy::Tensor;

namespace {

struct Inputs {
  Tensor X = gfy::arange(-2, 2, gfy::kFloat);      // -2 -1 0 1
  Tensor Mask = X > 0;                             // bool
  Tensor Long = gfy::argsort(X, true, 0, false);   // long indices
  std::vector<Tensor> Params = withGradient();      // a parameter that has a gradient

  static std::vector<Tensor> withGradient() {
    Tensor P = gfy::ones({2}).requires_grad_();
    P.sum().backward();
    return {P};
  }
};

/// How to call one runtime op. `Arity`: argument count to match pack entries that have one
/// (0: any). `UsesMask`: the call indexes with a boolean mask. Entries that match only calls
/// given tensors at some positions (tensor_args: LibTorch's `x[index_tensor]`) are not about a
/// probe that passes none there.
struct Probe {
  std::string Name;
  unsigned Arity;
  bool UsesMask;
  std::function<void(Inputs &)> Call;
  bool TensorArgs = false;
};

// LibTorch's deprecated spelling, which old detection kernels still use: the pack entry `data`
// (returns_pointer) must be refused by the runtime as data_ptr is.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
float *oldSpellingOfDataPtr(const gfy::Tensor &X) { return X.data<float>(); }
#pragma GCC diagnostic pop

std::vector<Probe> probes() {
  return {
      {"item", 0, false, [](Inputs &I) { (void)I.X.sum().item<float>(); }},
      {"is_nonzero", 0, false, [](Inputs &I) { (void)I.X.sum().is_nonzero(); }},
      {"equal", 0, false, [](Inputs &I) { (void)I.X.equal(I.X); }},
      {"allclose", 0, false, [](Inputs &I) { (void)gfy::allclose(I.X, I.X); }},
      {"data_ptr", 0, false, [](Inputs &I) { (void)I.X.data_ptr<float>(); }},
      {"data", 0, false, [](Inputs &I) { (void)oldSpellingOfDataPtr(I.X); }},
      {"operator<<", 0, false, [](Inputs &I) { std::ostringstream S; S << I.X; }},
      {"cpu", 0, false, [](Inputs &I) { (void)I.X.cpu(); }},
      {"nonzero", 0, false, [](Inputs &I) { (void)I.Mask.nonzero(); }},
      {"masked_select", 0, false, [](Inputs &I) { (void)I.X.masked_select(I.Mask); }},
      {"unique_consecutive", 0, false, [](Inputs &I) { (void)gfy::unique_consecutive(I.X); }},
      {"_unique", 0, false, [](Inputs &I) { (void)gfy::_unique(I.X); }},
      {"_unique2", 0, false, [](Inputs &I) { (void)gfy::_unique2(I.X); }},
      {"linalg_inv", 0, false, [](Inputs &) { (void)gfy::linalg_inv(gfy::eye(2)); }},
      {"inverse", 0, false, [](Inputs &) { (void)gfy::eye(2).inverse(); }},
      {"torch::linalg::inv", 0, false, [](Inputs &) { (void)gfy::linalg::inv(gfy::eye(2)); }},
      {"torch::nn::utils::clip_grad_norm_", 0, false, [](Inputs &I) { gfy::nn::utils::clip_grad_norm_(I.Params, 1.0); }},
      // One sample: the probabilities' check is read back first, as LibTorch's is.
      {"multinomial", 2, false, [](Inputs &I) { (void)gfy::multinomial(gfy::softmax(I.X, 0), 1); }},
      // With replacement given, one sample takes the same checked path (the arg_equals entry).
      {"multinomial", 3, false, [](Inputs &I) { (void)gfy::multinomial(gfy::softmax(I.X, 0), 1, true); }},
      {"where", 1, false, [](Inputs &I) { (void)gfy::where(I.Mask); }},
      // Refused before the file is opened: the path is never written.
      {"torch::save", 0, false, [](Inputs &I) { gfy::save(I.X, "/nonexistent-dir/x.gfy"); }},
      {"index", 0, true, [](Inputs &I) { (void)I.X.index({I.Mask}); }},
      {"index_put_", 0, true, [](Inputs &I) { I.X.index_put_({I.Mask}, 0.0); }},
      // Not host-needing: must be recorded, not refused.
      {"index", 0, false, [](Inputs &I) { (void)I.X.index({I.Long}); }},
      {"index_put_", 0, false, [](Inputs &I) { I.X.index_put_({I.Long}, I.X); }},
      // The runtime's operator[] takes a position (select(0, i)); indexing by a mask goes through index().
      // LibTorch's operator[](Tensor), which reads its index back (the pack's tensor_args entry),
      // has no counterpart in the runtime.
      {"operator[]", 0, false, [](Inputs &I) { (void)I.X[1]; }},
      {"where", 3, false, [](Inputs &I) { (void)gfy::where(I.Mask, I.X, I.X * 2); }},
      {"sum", 0, false, [](Inputs &I) { (void)I.X.sum(); }},
      {"mean", 0, false, [](Inputs &I) { (void)I.X.mean(); }},
      {"argsort", 0, false, [](Inputs &I) { (void)gfy::argsort(I.X, true, 0, false); }},
      {"argmax", 0, false, [](Inputs &I) { (void)I.X.argmax(); }},
      {"masked_fill", 0, false, [](Inputs &I) { (void)I.X.masked_fill(I.Mask, 0.0); }},
      {"masked_fill_", 0, false, [](Inputs &I) { I.X.masked_fill_(I.Mask, 0.0); }},
      {"index_select", 0, false, [](Inputs &I) { (void)I.X.index_select(0, I.Long); }},
      {"cat", 0, false, [](Inputs &I) { (void)gfy::cat({I.X, I.X}); }},
      {"zeros", 0, false, [](Inputs &) { (void)gfy::zeros({2, 3}); }},
      {"topk", 0, false, [](Inputs &I) { (void)gfy::topk(I.X, 2); }},
      {"to", 0, false, [](Inputs &I) { (void)I.X.to(gfy::kDouble); }},
      {"gt", 0, false, [](Inputs &I) { (void)gfy::gt(I.X, I.X); }},
      {"softmax", 0, false, [](Inputs &I) { (void)gfy::softmax(I.X, 0); }},
      {"matmul", 0, false, [](Inputs &I) { (void)gfy::matmul(I.X, I.X); }},
      {"cumsum", 0, false, [](Inputs &I) { (void)gfy::cumsum(I.X, 0); }},
  };
}

/// Pack entries with a host-needing tag that the runtime does not implement (nothing to refuse).
const std::set<std::string> kNotInRuntime = {
    "const_data_ptr", "accessor", "_local_scalar_dense", "argwhere", "unique_dim",
    "bincount",       "print",    "torch::cuda::synchronize",
    "vision::ops::nms", "nms", "repeat_interleave",
    // Factorisations beyond the inverse: the runtime has none.
    "linalg_cholesky", "cholesky", "torch::linalg::cholesky", "linalg_solve", "torch::linalg::solve",
    "linalg_lu_factor", "torch::linalg::lu_factor",
    // The runtime has no IValue: printing a TorchScript model's outputs is LibTorch's alone.
    "c10::operator<<"};

bool needsHost(const ApiEntry &E, bool UsesMask) {
  return E.hasTag("host_sync") || E.hasTag("dynamic_output_shape") || (E.hasTag("bool_mask_index") && UsesMask);
}

const RuleSet &rules() {
  static RuleSet R = [] {
    auto Loaded = RuleSet::loadFromDirectory(GRAPHIFY_RULES_DIR);
    if (!Loaded) {
      ADD_FAILURE() << llvm::toString(Loaded.takeError());
      return RuleSet();
    }
    return std::move(*Loaded);
  }();
  return R;
}

/// The libtorch-pack entry for a probe (functions in at::, methods on tensors).
std::vector<const ApiEntry *> entriesFor(const std::string &Name, unsigned NumArgs) {
  if (Name.find("::") != std::string::npos) return rules().lookupFunction(Name, NumArgs); // named qualified
  auto M = rules().lookupMethod(Name, NumArgs);
  auto F = rules().lookupFunction("at::" + Name, NumArgs);
  M.insert(M.end(), F.begin(), F.end());
  return M;
}

} // namespace

TEST(RuntimeAgreesWithPacks, RefusesExactlyTheHostNeedingOps) {
  for (const Probe &P : probes()) {
    std::vector<const ApiEntry *> Entries;
    for (unsigned N = 0; N <= 4; ++N)
      for (const ApiEntry *E : entriesFor(P.Name, N))
        if ((P.Arity == 0 || !E->Arity || *E->Arity == P.Arity) && (E->TensorArgs.empty() || P.TensorArgs) &&
            std::find(Entries.begin(), Entries.end(), E) == Entries.end())
          Entries.push_back(E);
    ASSERT_FALSE(Entries.empty()) << "no pack entry for runtime op '" << P.Name << "'";
    bool Expected = false;
    for (const ApiEntry *E : Entries)
      Expected |= needsHost(*E, P.UsesMask);

    Inputs I;
    bool Refused = false;
    std::string Message;
    try {
      gfy::Graph G = gfy::capture([&] { P.Call(I); });
    } catch (const gfy::CaptureError &E) {
      Refused = true;
      Message = E.what();
    }
    EXPECT_EQ(Refused, Expected) << "op '" << P.Name << "'" << (P.UsesMask ? " with a mask" : "")
                                 << (Expected ? " is tagged as needing the host but was recorded"
                                              : " is not tagged as needing the host but was refused: " + Message);
    // The message names the caller's location: this file. A binary operator cannot take a
    // defaulted std::source_location, so printing names the runtime's own line instead.
    if (Refused && P.Name != "operator<<") {
      EXPECT_NE(Message.find("RuntimeAgreementTest.cpp"), std::string::npos) << Message;
    }
  }
}

TEST(RuntimeAgreesWithPacks, EveryHostNeedingEntryIsProbedOrAbsent) {
  std::set<std::string> Probed;
  for (const Probe &P : probes())
    Probed.insert(P.Name);
  for (const ApiEntry &E : rules().entries()) {
    if (E.Pack != "libtorch" || !(E.hasTag("host_sync") || E.hasTag("dynamic_output_shape") ||
                                  E.hasTag("bool_mask_index")))
      continue;
    EXPECT_TRUE(Probed.count(E.Name) || kNotInRuntime.count(E.Name))
        << E.File << ":" << E.Line << ": entry '" << E.Name
        << "' needs the host but this test neither probes the runtime's version nor lists it as absent";
  }
}
