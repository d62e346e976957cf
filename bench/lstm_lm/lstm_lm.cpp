// Seed-001 benchmark: the stacked LSTM language model (vocab 10001, embedding 128, 3 layers,
// hidden 256, pre-softmax projection to the vocabulary, seq 50, batch 128), forward only
// (--mode forward, the default) or the entire training step (--mode train: forward, nll_loss,
// backward, SGD with momentum), with the LSTM cell written from fine-grained ops exactly as the
// seed describes:
//   gates = x_t·W_i + h·W_h + b;  i, f, g, o = chunk(gates, 4);  c = σ(f)c + σ(i)tanh(g);  h = σ(o)tanh(c)
//
// Written once against `torch::` and built twice: against LibTorch (lstm_lm_libtorch) and against
// the bundled runtime through graphify::torch_compat (lstm_lm_gfy). The gfy build also times the
// same forward captured once with gfy::capture and replayed, with the post-capture optimizations
// (docs/runtime.md, "Graph optimizations") and without them; its variants are timed interleaved,
// batch by batch, so their ratios survive a loaded machine. Both binaries fill the weights and
// the token ids from the same fixed formula, so their checksums must agree: a fast wrong answer
// is visible in the table (bench/lstm_lm/run compares them).
//
// In training mode each variant trains its own copy of the model from the same weights on the same
// batch sequence, so the checksum (the sum of the timed batches' losses) must agree across
// variants and libraries too; the gfy build's captured variant runs one eager step (creating the
// gradients and momentum buffers), captures the next step (forward + backward + update) and
// replays it for every later batch, with the parameters updated in place.
//
// It prints the seed's table (wall time per batch, elapsed time, sequences per second) and, for
// the gfy build, the replay / eager ratio measured in the same run; bench/lstm_lm/run runs both
// binaries and adds the runtime / LibTorch ratio.
#include <torch/torch.h>
#if defined(GRAPHIFY_TORCH_COMPAT) && defined(GRAPHIFY_HAVE_CUDA_BACKEND)
#include <graphify/cuda/Cuda.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Config {
  int64_t vocab = 10001;
  int64_t embed = 128;
  int64_t layers = 3;
  int64_t hidden = 256;
  int64_t seq = 50;
  int64_t batch = 128;
  int warmup = 10;
  int batches = 50;
  int threads = 0;  // 0: leave the library default
  std::string device = "cpu";
  std::string json;  // write results here when set
  bool skip_eager = false;
  bool pass_rows = false;  // gfy build: one replay row per post-capture pass, with that pass left out
  std::string mode = "forward";  // forward | train
  double lr = 0.1;               // training: SGD learning rate (momentum 0.9)
};

/// Host-filled tensor from a fixed formula (a scrambled sawtooth in [-scale, scale]) so that
/// both builds compute on bit-identical weights without sharing a random generator.
torch::Tensor formula_tensor(std::vector<int64_t> shape, double scale, int64_t salt) {
  int64_t n = 1;
  for (auto d : shape) n *= d;
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const int64_t k = (i * 7919 + salt * 104729) % 10007;
    v[static_cast<size_t>(i)] = static_cast<float>((static_cast<double>(k) / 10006.0 * 2.0 - 1.0) * scale);
  }
  return torch::from_blob(v.data(), shape, torch::dtype(torch::kFloat)).clone();
}

/// Token ids of batch `b`: (batch, seq) long, in [0, vocab).
torch::Tensor batch_ids(const Config& cfg, int64_t b) {
  std::vector<int64_t> v(static_cast<size_t>(cfg.batch * cfg.seq));
  for (size_t i = 0; i < v.size(); ++i) v[i] = (static_cast<int64_t>(i) * 31 + b * 977 + 13) % cfg.vocab;
  return torch::from_blob(v.data(), {cfg.batch, cfg.seq}, torch::dtype(torch::kLong)).clone();
}

/// Targets of batch `b`: (batch * seq) long, the next-token ids of a shifted formula.
torch::Tensor batch_targets(const Config& cfg, int64_t b) { return batch_ids(cfg, b + 1000).reshape({-1}); }

/// The model. Plain tensors rather than nn::Linear/LSTM: the point of seed 001 is the cost of
/// fine-grained ops, so every op the cell runs is spelled out here.
struct LstmLm {
  Config cfg;
  torch::Tensor embedding;          // (V, E)
  std::vector<torch::Tensor> w_i;   // per layer (in, 4H)
  std::vector<torch::Tensor> w_h;   // per layer (H, 4H)
  std::vector<torch::Tensor> b;     // per layer (4H)
  torch::Tensor w_out;              // (H, V)
  torch::Tensor b_out;              // (V)

  LstmLm(const Config& c, torch::Device device) : cfg(c) {
    const double s = 1.0 / std::sqrt(static_cast<double>(c.hidden));
    embedding = formula_tensor({c.vocab, c.embed}, 1.0, 1).to(device);
    for (int64_t l = 0; l < c.layers; ++l) {
      const int64_t in = l == 0 ? c.embed : c.hidden;
      w_i.push_back(formula_tensor({in, 4 * c.hidden}, s, 10 + l).to(device));
      w_h.push_back(formula_tensor({c.hidden, 4 * c.hidden}, s, 20 + l).to(device));
      b.push_back(formula_tensor({4 * c.hidden}, s, 30 + l).to(device));
    }
    w_out = formula_tensor({c.hidden, c.vocab}, s, 40).to(device);
    b_out = formula_tensor({c.vocab}, s, 41).to(device);
  }

  std::vector<torch::Tensor> parameters() const {
    std::vector<torch::Tensor> p{embedding};
    for (size_t l = 0; l < w_i.size(); ++l) {
      p.push_back(w_i[l]);
      p.push_back(w_h[l]);
      p.push_back(b[l]);
    }
    p.push_back(w_out);
    p.push_back(b_out);
    return p;
  }

  /// ids: (B, T) long, targets (B*T) long → mean negative log-likelihood.
  torch::Tensor loss(const torch::Tensor& ids, const torch::Tensor& targets) const {
    return torch::nn::functional::nll_loss(forward(ids), targets);
  }

  /// ids: (B, T) long → log-probabilities (B*T, V).
  torch::Tensor forward(const torch::Tensor& ids) const {
    const int64_t B = ids.size(0);
    const int64_t T = ids.size(1);
    auto x = torch::embedding(embedding, ids);                  // x: (B, T, E)
    for (int64_t l = 0; l < cfg.layers; ++l) {
      auto h = torch::zeros({B, cfg.hidden}, x.options());      // h: (B, H)
      auto c = torch::zeros({B, cfg.hidden}, x.options());      // c: (B, H)
      std::vector<torch::Tensor> hs;
      hs.reserve(static_cast<size_t>(T));
      for (int64_t t = 0; t < T; ++t) {
        auto xt = x.select(1, t);                               // xt: (B, in)
        auto gates = torch::matmul(xt, w_i[l]) + torch::matmul(h, w_h[l]) + b[l];  // (B, 4H)
        auto g4 = gates.chunk(4, 1);
        auto i = torch::sigmoid(g4[0]);
        auto f = torch::sigmoid(g4[1]);
        auto g = torch::tanh(g4[2]);
        auto o = torch::sigmoid(g4[3]);
        c = f * c + i * g;
        h = o * torch::tanh(c);
        hs.push_back(h);
      }
      x = torch::stack(hs, 1);                                  // x: (B, T, H)
    }
    auto logits = torch::matmul(x.reshape({B * T, cfg.hidden}), w_out) + b_out;  // (B*T, V)
    return torch::log_softmax(logits, 1);
  }

#if defined(GRAPHIFY_TORCH_COMPAT) && defined(GRAPHIFY_HAVE_CUDA_BACKEND)
  /// forward() with each layer's time loop as gfy::while_loop on device state (t, h, c): under
  /// capture one WHILE conditional node per layer; the step writes h into row t of the layer's
  /// output in place.
  torch::Tensor forward_while(const torch::Tensor& ids) const {
    const int64_t B = ids.size(0);
    const int64_t T = ids.size(1);
    auto x = torch::embedding(embedding, ids);                  // x: (B, T, E)
    for (int64_t l = 0; l < cfg.layers; ++l) {
      auto hs = torch::empty({B, T, cfg.hidden}, x.options());  // hs: (B, T, H)
      const size_t k = static_cast<size_t>(l);
      const std::vector<torch::Tensor> start = {torch::zeros({1}, ids.options()), torch::zeros({B, cfg.hidden}, x.options()),
                                                torch::zeros({B, cfg.hidden}, x.options())};
      gfy::while_loop([T](const std::vector<torch::Tensor>& s) { return s[0] < T; },
                      [&](const std::vector<torch::Tensor>& s) {
                        auto xt = x.index_select(1, s[0]).squeeze(1);  // xt: (B, in)
                        auto gates = torch::matmul(xt, w_i[k]) + torch::matmul(s[1], w_h[k]) + b[k];
                        auto g4 = gates.chunk(4, 1);
                        auto c = torch::sigmoid(g4[1]) * s[2] + torch::sigmoid(g4[0]) * torch::tanh(g4[2]);
                        auto h = torch::sigmoid(g4[3]) * torch::tanh(c);
                        hs.index_copy_(1, s[0], h.unsqueeze(1));
                        return std::vector<torch::Tensor>{s[0] + 1, h, c};
                      },
                      start);
      x = hs;
    }
    auto logits = torch::matmul(x.reshape({B * T, cfg.hidden}), w_out) + b_out;
    return torch::log_softmax(logits, 1);
  }

  /// LibTorch's LSTM weight layout for cuDNN, per layer: w_ih (4H, in), w_hh (4H, H), b_ih, b_hh
  /// (this model has one bias: b_hh is zero).
  std::vector<torch::Tensor> cudnn_weights() const {
    std::vector<torch::Tensor> w;
    for (size_t l = 0; l < w_i.size(); ++l)
      w.insert(w.end(), {w_i[l].t().contiguous(), w_h[l].t().contiguous(), b[l], torch::zeros_like(b[l])});
    return w;
  }

  /// forward() with the three LSTM layers run by cuDNN (batch-first).
  torch::Tensor forward_with(gfy::cuda::CudnnLstm& lstm, const torch::Tensor& ids) const {
    const int64_t B = ids.size(0);
    const int64_t T = ids.size(1);
    auto y = std::get<0>(lstm.forward(torch::embedding(embedding, ids)));  // y: (B, T, H)
    auto logits = torch::matmul(y.reshape({B * T, cfg.hidden}), w_out) + b_out;
    return torch::log_softmax(logits, 1);
  }
#endif
};

struct Result {
  std::string name;
  double wall = 0;      // seconds per batch
  double elapsed = 0;   // seconds for all timed batches
  double seq_per_s = 0;
  double checksum = 0;  // sum over timed batches of one output element (also a device sync)
};

using Clock = std::chrono::steady_clock;

/// Reads one output element on the host: the sync point of every batch (on CUDA it waits for the
/// stream) and a cheap checksum that both builds must reproduce.
double probe(const torch::Tensor& out) { return out.index({0, 1}).item<double>(); }

/// A way to run one batch: returns the probe of its output.
struct Variant {
  std::string name;
  std::function<double(int)> step;
};

/// Warms every variant up, then times them batch by batch in rotation (batch i starts with
/// variant i mod n), so that load drifting on a shared machine hits every variant alike and
/// their ratios stay meaningful even when absolute times do not.
std::vector<Result> time_interleaved(const std::vector<Variant>& variants, const Config& cfg) {
  for (const Variant& v : variants)
    for (int i = 0; i < cfg.warmup; ++i) v.step(i);
  std::vector<Result> results(variants.size());
  for (size_t k = 0; k < variants.size(); ++k) results[k].name = variants[k].name;
  for (int i = 0; i < cfg.batches; ++i) {
    for (size_t j = 0; j < variants.size(); ++j) {
      const size_t k = (static_cast<size_t>(i) + j) % variants.size();
      const auto t0 = Clock::now();
      results[k].checksum += variants[k].step(cfg.warmup + i);
      results[k].elapsed += std::chrono::duration<double>(Clock::now() - t0).count();
    }
  }
  for (Result& r : results) {
    r.wall = r.elapsed / cfg.batches;
    r.seq_per_s = static_cast<double>(cfg.batch) / r.wall;
  }
  return results;
}

#ifdef GRAPHIFY_TORCH_COMPAT
/// The captured variants of the gfy build: the optimized replay, the unoptimized one (exactly the
/// recorded kernels: what the tape alone saves), and with --pass-rows one row per pass left out
/// (what each pass contributes, measured in the same run).
std::vector<std::pair<std::string, gfy::CaptureOptions>> replay_rows(const Config& cfg) {
  std::vector<std::pair<std::string, gfy::CaptureOptions>> rows = {{"graph replay", {}},
                                                                   {"replay, no opt.", {.optimize = false}}};
  if (cfg.pass_rows)
    for (const std::string& pass : gfy::optimization_passes())
      rows.push_back({"replay w/o " + pass, {.skip_passes = {pass}}});
  return rows;
}
#endif

/// The matrix products' floating-point operations of one batch (the elementwise work is a few
/// percent of it): per layer x·W_i and h·W_h at every step, then the vocabulary projection. The
/// training step's backward runs each product twice more (the input's and the weight's gradient).
double gemm_flops(const Config& cfg) {
  const double rows = static_cast<double>(cfg.batch * cfg.seq);
  double f = 0;
  for (int64_t l = 0; l < cfg.layers; ++l) {
    const int64_t in = l == 0 ? cfg.embed : cfg.hidden;
    f += 2.0 * rows * static_cast<double>((in + cfg.hidden) * 4 * cfg.hidden);
  }
  f += 2.0 * rows * static_cast<double>(cfg.hidden * cfg.vocab);
  return cfg.mode == "train" ? 3.0 * f : f;
}

/// What this library's matrix product reaches on this machine: the best of five 1536³ float
/// products, in GFLOP/s — the ceiling the benchmark's fraction of peak is measured against.
double sgemm_gflops(torch::Device device) {
  const int64_t n = 1536;
  auto a = torch::ones({n, n}, torch::dtype(torch::kFloat).device(device));
  auto b = torch::ones({n, n}, torch::dtype(torch::kFloat).device(device));
  double best = 0;
  for (int rep = 0; rep < 6; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    auto c = torch::mm(a, b);
    c.index({0, 0}).item<double>();  // waits for the device
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (rep > 0) best = std::max(best, 2.0 * n * n * n / s / 1e9);
  }
  return best;
}

using BatchFn = std::function<torch::Tensor(int)>;

/// Forward-only variants: eager and, in the gfy build, captured graphs with and without the
/// post-capture optimizations.
std::vector<Result> time_forward(const Config& cfg, torch::Device device, const std::string& prefix,
                                 const BatchFn& batch) {
  torch::NoGradGuard no_grad;  // forward only: no autograd history on either side
  LstmLm model(cfg, device);
  std::vector<Variant> variants;
  if (!cfg.skip_eager)
    variants.push_back({prefix + " eager (forward-only)", [&](int i) { return probe(model.forward(batch(i))); }});
#ifdef GRAPHIFY_TORCH_COMPAT
  // Captured once on a static input buffer; each batch copies its ids in and replays. The
  // unoptimized tape (exactly the recorded kernels) shows what the tape alone saves and what the
  // post-capture optimizations add.
  struct Captured {
    torch::Tensor ids, out;
    gfy::Graph graph;
  };
  std::vector<std::unique_ptr<Captured>> graphs;
  for (const auto& [row, options] : replay_rows(cfg)) {
    auto g = std::make_unique<Captured>();
    g->ids = batch(0).clone();
    Captured* c = g.get();
    c->graph = gfy::capture([&] { c->out = model.forward(c->ids); }, options);
    variants.push_back({prefix + " " + row + " (forward-only)",
                        [&batch, c](int i) {
                          c->ids.copy_(batch(i));
                          c->graph.replay();
                          return probe(c->out);
                        }});
    graphs.push_back(std::move(g));
  }
#ifdef GRAPHIFY_HAVE_CUDA_BACKEND
  // The seed's other GPU rows, CUDA only: the graph whose time loop is one WHILE conditional node
  // per layer (instead of T unrolled steps), and cuDNN's LSTM with the same weights, eager and
  // captured. A row that cannot be set up is left out with its reason; the others still run.
  std::unique_ptr<gfy::cuda::CudnnLstm> cudnn;
  if (device.is_cuda()) {
    auto add_captured = [&](const std::string& name, std::function<torch::Tensor(const torch::Tensor&)> fwd) {
      try {
        auto g = std::make_unique<Captured>();
        g->ids = batch(0).clone();
        Captured* c = g.get();
        c->out = fwd(c->ids);  // warm-up outside capture (cuDNN sizes its workspace here)
        c->graph = gfy::capture([&] { c->out = fwd(c->ids); });
        variants.push_back({name, [&batch, c](int i) {
                              c->ids.copy_(batch(i));
                              c->graph.replay();
                              return probe(c->out);
                            }});
        graphs.push_back(std::move(g));
      } catch (const std::exception& e) {
        std::fprintf(stderr, "lstm_lm: row '%s' left out: %s\n", name.c_str(), e.what());
      }
    };
    if (gfy::cuda::has_conditional_nodes())
      add_captured(prefix + " graph, WHILE node (forward-only)", [&](const torch::Tensor& ids) {
        // The capture-time loop is the device's: while_loop on CUDA state is a WHILE node.
        return model.forward_while(ids);
      });
    if (gfy::cuda::has_cudnn()) {
      try {
        gfy::cuda::LstmOptions o;
        o.batch_first = true;
        cudnn = std::make_unique<gfy::cuda::CudnnLstm>(cfg.embed, cfg.hidden, cfg.layers, torch::kFloat, o);
        cudnn->set_weights(model.cudnn_weights());
        auto* lstm = cudnn.get();
        auto fwd = [&model, lstm](const torch::Tensor& ids) { return model.forward_with(*lstm, ids); };
        fwd(batch(0));
        variants.push_back({prefix + " cuDNN LSTM (forward-only)", [&batch, fwd](int i) { return probe(fwd(batch(i))); }});
        add_captured(prefix + " cuDNN LSTM + graph (forward-only)", fwd);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "lstm_lm: cuDNN rows left out: %s\n", e.what());
      }
    }
  }
#endif
#endif
  return time_interleaved(variants, cfg);
}


/// One training step: gradients zeroed, forward, loss, backward, SGD update.
torch::Tensor train_step(LstmLm& model, torch::optim::SGD& opt, const torch::Tensor& ids, const torch::Tensor& targets) {
  opt.zero_grad();
  torch::Tensor loss = model.loss(ids, targets);
  loss.backward();
  opt.step();
  return loss;
}

/// A model being trained: its own parameters (requiring grad) and optimizer.
struct Trainer {
  LstmLm model;
  torch::optim::SGD opt;
  Trainer(const Config& cfg, torch::Device device)
      : model(cfg, device), opt(params(model), torch::optim::SGDOptions(cfg.lr).momentum(0.9)) {}
  static std::vector<torch::Tensor> params(const LstmLm& m) {
    for (auto p : m.parameters()) p.requires_grad_(true);
    return m.parameters();
  }
};

/// Entire-training variants: eager and, in the gfy build, the step captured once and replayed.
std::vector<Result> time_training(const Config& cfg, torch::Device device, const std::string& prefix,
                                  const BatchFn& batch, const BatchFn& target) {
  std::vector<Variant> variants;
  auto eager = std::make_shared<Trainer>(cfg, device);
  if (!cfg.skip_eager)
    variants.push_back({prefix + " eager (entire-training)", [&, eager](int i) {
                          return train_step(eager->model, eager->opt, batch(i), target(i)).item<double>();
                        }});
#ifdef GRAPHIFY_TORCH_COMPAT
  // Step 0 runs eagerly (it creates the gradients and the momentum buffers, as CUDA-graph training
  // needs warm-up too), step 1 is captured (capture runs it), every later step is a replay on the
  // static input buffers.
  struct Captured {
    Trainer trainer;
    torch::Tensor ids, targets, loss;
    gfy::Graph graph;
    Captured(const Config& cfg, torch::Device device) : trainer(cfg, device) {}
  };
  for (const auto& [row, options] : replay_rows(cfg)) {
  auto cap = std::make_shared<Captured>(cfg, device);
  variants.push_back({prefix + " " + row + " (entire-training)", [&, cap, options](int i) {
                        Captured& c = *cap;
                        if (i == 0) return train_step(c.trainer.model, c.trainer.opt, batch(i), target(i)).item<double>();
                        if (!c.graph.defined()) {
                          c.ids = batch(i).clone();
                          c.targets = target(i).clone();
                          c.graph = gfy::capture(
                              [&] { c.loss = train_step(c.trainer.model, c.trainer.opt, c.ids, c.targets); }, options);
                          return c.loss.item<double>();
                        }
                        c.ids.copy_(batch(i));
                        c.targets.copy_(target(i));
                        c.graph.replay();
                        return c.loss.item<double>();
                      }});
  }
#endif
  return time_interleaved(variants, cfg);
}

void usage(const char* argv0) {
  std::printf(
      "usage: %s [--batches N] [--warmup N] [--threads N] [--device cpu|cuda] [--json FILE]\n"
      "          [--skip-eager] [--small] [--mode forward|train] [--lr X] [--pass-rows]\n"
      "  --batches N   timed batches (default 50), after --warmup N untimed ones (default 10)\n"
      "  --threads N   intra-op threads for both libraries (LibTorch: set_num_threads; gfy: OpenBLAS)\n"
      "  --small       a tiny configuration, for smoke tests\n"
      "  --mode        forward (default): inference; train: forward + nll_loss + backward + SGD step\n"
      "  --pass-rows   graphify: also one replay row per post-capture pass, with that pass left out\n",
      argv0);
}

}  // namespace

int main(int argc, char** argv) {
  Config cfg;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        usage(argv[0]);
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--batches") cfg.batches = std::stoi(next());
    else if (a == "--warmup") cfg.warmup = std::stoi(next());
    else if (a == "--threads") cfg.threads = std::stoi(next());
    else if (a == "--device") cfg.device = next();
    else if (a == "--json") cfg.json = next();
    else if (a == "--skip-eager") cfg.skip_eager = true;
    else if (a == "--pass-rows") cfg.pass_rows = true;
    else if (a == "--mode") cfg.mode = next();
    else if (a == "--lr") cfg.lr = std::stod(next());
    else if (a == "--small") {
      cfg.vocab = 101; cfg.embed = 16; cfg.hidden = 32; cfg.seq = 5; cfg.batch = 4;
    } else if (a == "--help" || a == "-h") {
      usage(argv[0]);
      return 0;
    } else {
      usage(argv[0]);
      return 2;
    }
  }
  if (cfg.batches < 1 || cfg.warmup < 0 || (cfg.mode != "forward" && cfg.mode != "train") ||
      (cfg.mode == "train" && cfg.warmup < 2)) {
    usage(argv[0]);
    return 2;
  }
#ifdef GRAPHIFY_TORCH_COMPAT
  const char* library = "graphify";
  const std::string cpu_isa(gfy::cpu_isa());  // the level its CPU kernels run at
#else
  const char* library = "libtorch";
  const std::string cpu_isa;  // LibTorch chooses its own (ATEN_CPU_CAPABILITY)
#endif
  if (cfg.threads > 0) torch::set_num_threads(cfg.threads);
  const int threads = torch::get_num_threads();

  torch::Device device(torch::kCPU);
  if (cfg.device == "cuda") {
    if (!torch::cuda::is_available()) {
      std::fprintf(stderr, "%s: --device cuda, but no CUDA device/backend is available\n", library);
      return 2;
    }
    device = torch::Device(torch::kCUDA);
  } else if (cfg.device != "cpu") {
    usage(argv[0]);
    return 2;
  }

  const bool train = cfg.mode == "train";
  // A few distinct batches, built up front so that host-side data generation is never timed.
  std::vector<torch::Tensor> inputs, targets;
  for (int64_t b = 0; b < 4; ++b) {
    inputs.push_back(batch_ids(cfg, b).to(device));
    targets.push_back(batch_targets(cfg, b).to(device));
  }
  auto batch = [&](int i) { return inputs[static_cast<size_t>(i) % inputs.size()]; };
  auto target = [&](int i) { return targets[static_cast<size_t>(i) % targets.size()]; };
  const std::string prefix = std::string(library == std::string("graphify") ? "graphify" : "LibTorch");
  std::vector<Result> results;
  if (train)
    results = time_training(cfg, device, prefix, batch, target);
  else
    results = time_forward(cfg, device, prefix, batch);

  std::printf("# seed-001 stacked LSTM LM (%s), %s, device %s, %d thread(s)%s%s\n", train ? "entire training" : "forward only",
              library, cfg.device.c_str(), threads, cpu_isa.empty() ? "" : ", CPU kernels ", cpu_isa.c_str());
  std::printf("# vocab %lld, embedding %lld, %lld layers, hidden %lld, seq %lld, batch %lld; %d warm-up + %d timed batches\n\n",
              static_cast<long long>(cfg.vocab), static_cast<long long>(cfg.embed), static_cast<long long>(cfg.layers),
              static_cast<long long>(cfg.hidden), static_cast<long long>(cfg.seq), static_cast<long long>(cfg.batch),
              cfg.warmup, cfg.batches);
  std::printf("| %-40s | %-13s | %-16s | %-19s |\n", "", "Wall Time (s)", "Elapsed Time (s)", "Sequence per Second");
  std::printf("|:%s|:%s|:%s|:%s|\n", std::string(41, '-').c_str(), std::string(14, '-').c_str(),
              std::string(17, '-').c_str(), std::string(20, '-').c_str());
  for (const auto& r : results)
    std::printf("| %-40s | %-13.4f | %-16.4f | %-19.4f |\n", r.name.c_str(), r.wall, r.elapsed, r.seq_per_s);
  if (!cfg.skip_eager && results.size() >= 2)
    std::printf("\nreplay / eager wall time: %.3f (%.2fx speed-up)\n", results[1].wall / results[0].wall,
                results[0].wall / results[1].wall);
  if (!cfg.skip_eager && results.size() >= 3)
    std::printf("unoptimized replay / eager wall time: %.3f\n", results[2].wall / results[0].wall);
  for (const auto& r : results) std::printf("checksum %s: %.9g\n", r.name.c_str(), r.checksum);

  if (!cfg.json.empty()) {
    FILE* f = std::fopen(cfg.json.c_str(), "w");
    if (!f) {
      std::perror(cfg.json.c_str());
      return 1;
    }
    std::fprintf(f, "{\n  \"library\": \"%s\",\n  \"mode\": \"%s\",\n  \"device\": \"%s\",\n  \"threads\": %d,\n", library,
                 cfg.mode.c_str(), cfg.device.c_str(), threads);
    std::fprintf(f, "  \"cpu_isa\": \"%s\",\n", cpu_isa.c_str());
    std::fprintf(f, "  \"gemm_flops_per_batch\": %.6g,\n  \"sgemm_gflops\": %.3f,\n", gemm_flops(cfg),
                 sgemm_gflops(device));
    std::fprintf(f, "  \"config\": {\"vocab\": %lld, \"embedding\": %lld, \"layers\": %lld, \"hidden\": %lld, \"seq\": %lld, \"batch\": %lld, \"warmup\": %d, \"batches\": %d},\n",
                 static_cast<long long>(cfg.vocab), static_cast<long long>(cfg.embed), static_cast<long long>(cfg.layers),
                 static_cast<long long>(cfg.hidden), static_cast<long long>(cfg.seq), static_cast<long long>(cfg.batch),
                 cfg.warmup, cfg.batches);
    std::fprintf(f, "  \"variants\": [\n");
    for (size_t k = 0; k < results.size(); ++k) {
      const auto& r = results[k];
      std::fprintf(f, "    {\"name\": \"%s\", \"wall_s\": %.6f, \"elapsed_s\": %.6f, \"seq_per_s\": %.4f, \"checksum\": %.9g}%s\n",
                   r.name.c_str(), r.wall, r.elapsed, r.seq_per_s, r.checksum, k + 1 < results.size() ? "," : "");
    }
    std::fprintf(f, "  ]\n}\n");
    std::fclose(f);
  }
  return 0;
}
