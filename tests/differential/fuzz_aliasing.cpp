// Differential fuzzer for aliasing: random programs of views, in-place ops (whose operands may
// share memory with what they write), out-of-place ops and a backward pass, written once against
// `torch::` and compiled twice like the dumpers (LibTorch, and the runtime through
// graphify::torch_compat). Program k is drawn from seed + k by a generator of its own (splitmix64,
// no tensor library RNG), so both sides run the same program as long as they agree on shapes;
// each program dumps the step at which it raised (or -1), every tensor it made and the leaves'
// gradients, in dump_main.h's format, and compare_dumps.cpp compares the two dumps case by case.
//
// What is generated, and what is left out on purpose (each a known difference, not a finding):
//   - in-place writes into a view while autograd records (LibTorch's CopySlices; the runtime
//     refuses them with its own error) are drawn only when no operand requires grad;
//   - an in-place op that gives history to a tensor without grad while views of it exist (the
//     runtime's views do not follow such a tensor; docs/runtime.md) is not drawn;
//   - a write whose operands overlap in a layout ATen calls too hard to judge (not dense, but
//     intersecting) has an order-dependent result in both libraries: such an operand is replaced
//     by a fresh tensor. Partial overlap of dense layouts and full overlap are generated.
//
// usage: graphify_fuzz_aliasing_<side> OUT_FILE [--seed S] [--count N]
#include "dump_main.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using diff::Out;
using diff::S;

/// splitmix64: the same stream on both sides (std distributions are not specified bit for bit).
struct Rng {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  int64_t below(int64_t n) { return n <= 0 ? 0 : static_cast<int64_t>(next() % static_cast<uint64_t>(n)); }
  bool coin(int64_t one_in) { return below(one_in) == 0; }
};

torch::Tensor seq(const std::vector<int64_t>& shape, double offset) {
  int64_t n = 1;
  for (auto d : shape) n *= d;
  auto flat = torch::arange(n, torch::dtype(torch::kFloat)) * 0.25 + offset;
  auto sign = 1.0 - 2.0 * (torch::remainder(torch::arange(n), 3) == 1).to(torch::kFloat);
  // clone: a tensor of its own, not a view of a temporary. (A leaf that is a view of a tensor
  // without grad loses, in LibTorch, the gradients of its own views once it is written in place
  // under NoGradGuard: their history is rebuilt over that base, which has none.)
  return (flat * sign).reshape(shape).clone();
}

struct Entry {
  torch::Tensor t;
  int group;    ///< entries of one group share memory (a base and its views)
  int id = -1;  ///< index in the pool (-1: a fresh operand), for the trace
};

struct Program {
  Rng rng;
  std::vector<Entry> pool;
  std::vector<torch::Tensor> leaves;
  int groups = 0;

  int64_t numel(const torch::Tensor& t) { return t.numel(); }
  const Entry& pick() { return pool[static_cast<size_t>(rng.below(static_cast<int64_t>(pool.size())))]; }

  void add(torch::Tensor t, int group) { pool.push_back({std::move(t), group, static_cast<int>(pool.size())}); }

  /// With FUZZ_ALIASING_VERBOSE=2, each step as it is drawn (to reduce a failing seed by hand).
  static void trace(const std::string& what) {
    const char* v = std::getenv("FUZZ_ALIASING_VERBOSE");
    if (v && std::strcmp(v, "2") == 0) std::fprintf(stderr, "  %s\n", what.c_str());
  }
  static std::string str(const torch::Tensor& t) {
    std::string s = "[";
    for (int64_t d = 0; d < t.dim(); ++d) s += (d ? "," : "") + std::to_string(t.size(d)) + "/" + std::to_string(t.stride(d));
    return s + "]@" + std::to_string(t.storage_offset());
  }
  void add_fresh(torch::Tensor t) { add(std::move(t), groups++); }

  /// ATen's layout test (c10's compute_non_overlapping_and_dense).
  static bool dense(const torch::Tensor& t) {
    std::vector<int64_t> dims;
    for (int64_t d = 0; d < t.dim(); ++d) {
      if (t.size(d) == 0) return true;
      if (t.size(d) >= 2) dims.push_back(d);
    }
    std::sort(dims.begin(), dims.end(), [&](int64_t a, int64_t b) { return t.stride(a) < t.stride(b); });
    int64_t require = 1;
    for (int64_t d : dims) {
      if (t.stride(d) != require) return false;
      require *= t.size(d);
    }
    return true;
  }
  /// Storage offsets [first, last] an operand reaches.
  static std::pair<int64_t, int64_t> span(const torch::Tensor& t) {
    int64_t lo = t.storage_offset(), hi = lo;
    for (int64_t d = 0; d < t.dim(); ++d) hi += (t.size(d) - 1) * t.stride(d);
    return {lo, hi};
  }
  /// Whether ATen's rule leaves the result of writing `out` from `in` to the loop order.
  static bool order_dependent(const torch::Tensor& out, const torch::Tensor& in) {
    if (out.numel() == 0 || in.numel() == 0) return false;
    if (dense(out) && dense(in)) return false;  // full (fine) or partial (raises on both sides)
    auto a = span(out), b = span(in);
    return a.first <= b.second && b.first <= a.second;
  }

  bool has_views(int group) const {
    int n = 0;
    for (const auto& e : pool) n += e.group == group;
    return n > 1;
  }

  /// An operand for writing `target`: a pool entry that broadcasts to it, or a fresh tensor.
  Entry operand_for(const Entry& target) {
    std::vector<size_t> fits;
    for (size_t i = 0; i < pool.size(); ++i) {
      const auto& c = pool[i].t;
      if (c.dim() > target.t.dim()) continue;
      bool ok = true;
      for (int64_t d = 1; d <= c.dim() && ok; ++d)
        ok = c.size(-d) == 1 || c.size(-d) == target.t.size(-d);
      if (ok) fits.push_back(i);
    }
    if (!fits.empty() && !rng.coin(4)) {
      const Entry& e = pool[fits[static_cast<size_t>(rng.below(static_cast<int64_t>(fits.size())))]];
      if (e.group != target.group || !order_dependent(target.t, e.t)) return e;
    }
    return {seq(target.t.sizes().vec(), 0.1 * static_cast<double>(rng.below(7))), -1};
  }

  void step_view() {
    const Entry& e = pick();
    const auto& t = e.t;
    const int64_t nd = t.dim();
    torch::Tensor v;
    const int64_t kind = rng.below(7);
    trace("view " + std::to_string(kind) + " of #" + std::to_string(e.id) + str(t));
    switch (kind) {
      case 0: v = t.reshape({-1}); break;
      case 1: v = nd >= 2 ? t.transpose(0, nd - 1) : t.unsqueeze(0); break;
      case 2:
        if (nd == 0) return;
        {
          const int64_t d = rng.below(nd), n = t.size(d);
          const int64_t a = rng.below(n + 1), b = a + rng.below(n - a + 1);
          v = t.slice(d, a, b, 1 + rng.below(2));
        }
        break;
      case 3:
        if (nd == 0 || t.size(0) == 0) return;
        v = t.select(0, rng.below(t.size(0)));
        break;
      case 4: v = t.unsqueeze(rng.below(nd + 1)); break;
      case 5: {
        std::vector<int64_t> to = t.sizes().vec();
        to.insert(to.begin(), 2);
        v = t.expand(to);
        break;
      }
      default:
        if (t.numel() % 2 != 0 || nd == 0) return;
        v = t.view({2, -1});  // may raise on non-viewable layouts, on both sides
        break;
    }
    trace("  -> #" + std::to_string(pool.size()) + str(v));
    add(v, e.group);
  }

  void step_out_of_place() {
    const Entry& e = pick();
    const Entry f = operand_for(e);
    const int64_t kind = rng.below(5);
    trace("op " + std::to_string(kind) + " #" + std::to_string(e.id) + " #" + std::to_string(f.id));
    switch (kind) {
      case 0: add_fresh(e.t * f.t); break;
      case 1: add_fresh(e.t + f.t * 0.5); break;
      case 2: add_fresh(e.t.tanh()); break;
      case 3: add_fresh(e.t.dim() > 0 ? e.t.sum(0) : e.t * 2); break;
      default: add_fresh(torch::sigmoid(e.t - f.t)); break;
    }
  }

  void step_in_place(bool no_grad) {
    const Entry& target = pick();
    Entry f = operand_for(target);
    // The runtime refuses in-place writes into views while autograd records (LibTorch's CopySlices
    // is not implemented): draw them only when nothing is recorded.
    if (!no_grad && target.t.is_view() && (target.t.requires_grad() || f.t.requires_grad())) return;
    // Writing a leaf that requires grad raises on both sides and ends the program: drawn rarely.
    if (!no_grad && target.t.is_leaf() && target.t.requires_grad() && !rng.coin(8)) return;
    // A view of a tensor without grad does not follow it in the runtime when an in-place op gives
    // that tensor history (docs/runtime.md, Autograd limits): such writes are not drawn while the
    // tensor has views in the pool.
    if (!no_grad && !target.t.requires_grad() && f.t.requires_grad() && has_views(target.group)) return;
    torch::Tensor t = target.t;
    const int64_t kind = rng.below(8);
    trace(std::string(no_grad ? "no_grad " : "") + "in_place " + std::to_string(kind) + " #" +
          std::to_string(target.id) + str(t) + " from #" + std::to_string(f.id) + str(f.t));
    switch (kind) {
      case 0: t.add_(f.t); break;
      case 1: t.sub_(f.t, 0.5); break;
      case 2: t.mul_(f.t.tanh()); break;
      case 3: t.copy_(f.t); break;
      case 4: t.tanh_(); break;
      case 5: t.mul_(-1.5); break;
      case 6: t.fill_(0.75); break;
      default: t.sigmoid_(); break;
    }
  }

  /// With FUZZ_ALIASING_VERBOSE set, why a program stopped (the dump keeps only where).
  static void note(uint64_t seed, const std::string& where, const char* what) {
    if (!std::getenv("FUZZ_ALIASING_VERBOSE")) return;
    std::string w(what);
    w = w.substr(0, w.find('\n')).substr(0, 160);
    std::fprintf(stderr, "seed %llu %s: %s\n", static_cast<unsigned long long>(seed), where.c_str(), w.c_str());
  }

  Out run(uint64_t seed) {
    rng.s = seed;
    for (int i = 0; i < 2; ++i) {
      auto shape = i == 0 ? std::vector<int64_t>{2, 3} : std::vector<int64_t>{4};
      leaves.push_back(seq(shape, 0.5 * i).requires_grad_());
      add_fresh(leaves.back());
    }
    add_fresh(seq({3, 2}, 0.3));       // without grad
    add_fresh(leaves[0] * 1.5);        // non-leaf
    add_fresh(leaves[1].tanh());
    const int steps = 4 + static_cast<int>(rng.below(9));
    double failed_at = -1;
    for (int s = 0; s < steps && failed_at < 0; ++s) {
      try {
        // First half mostly views and in-place writes, second half mostly new values: most
        // programs reach backward (an in-place write over a value saved for backward is an error
        // on both sides, and would end every program), while views still see their bases change.
        const int64_t kind = rng.below(10);
        const bool early = s < steps / 2;
        if (kind < 3) step_view();
        else if (kind < (early ? 4 : 8)) step_out_of_place();
        else if (kind < 9) step_in_place(false);
        else {
          torch::NoGradGuard guard;
          step_in_place(true);
        }
      } catch (const std::exception& e) {
        failed_at = s;
        note(seed, "step " + std::to_string(s), e.what());
      }
    }
    std::vector<Out::Item> items;
    if (failed_at < 0) {
      try {
        torch::Tensor loss = torch::zeros({});
        bool any = false;
        for (size_t i = 0; i < pool.size(); ++i) {
          if (!pool[i].t.requires_grad()) continue;
          trace("loss term #" + std::to_string(i) + " " + (pool[i].t.grad_fn() ? pool[i].t.grad_fn()->name() : "leaf"));
          loss = loss + (pool[i].t * seq(pool[i].t.sizes().vec(), 0.05 * static_cast<double>(i))).sum();
          any = true;
        }
        if (any) loss.backward();
      } catch (const std::exception& e) {
        failed_at = steps;
        note(seed, "backward", e.what());
      }
    }
    items.emplace_back(S{failed_at});
    for (const auto& e : pool) items.emplace_back(e.t.detach());
    for (const auto& l : leaves) items.emplace_back(l.grad());
    Out out(S{0});
    out.items = std::move(items);
    return out;
  }
};

uint64_t g_seed = 0;  // read by the case a forked child runs
Out run_program() { return Program{}.run(g_seed); }

}  // namespace

int main(int argc, char** argv) {
#ifdef GRAPHIFY_TORCH_COMPAT
  const char* side = "graphify";
#else
  torch::set_num_threads(1);
  const char* side = "libtorch";
#endif
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s OUT_FILE [--seed S] [--count N]\n", argv[0]);
    return 2;
  }
  uint64_t seed = 1;
  long count = 300;
  for (int i = 2; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--seed") == 0) seed = std::strtoull(argv[++i], nullptr, 10);
    else if (std::strcmp(argv[i], "--count") == 0) count = std::strtol(argv[++i], nullptr, 10);
  }
  std::string all = std::string("side ") + side + "\n";
  for (long k = 0; k < count; ++k) {
    g_seed = seed + static_cast<uint64_t>(k);
    all += "case fuzz_seed_" + std::to_string(g_seed) + "\n";
    all += diff::run_case_isolated(&run_program);
  }
  FILE* f = std::fopen(argv[1], "w");
  if (!f) {
    std::perror(argv[1]);
    return 1;
  }
  std::fwrite(all.data(), 1, all.size(), f);
  return std::fclose(f) == 0 ? 0 : 1;
}
