// ResNet-style CNN forward on the CPU: a conv-bn-relu stem, three stages of two BasicBlocks
// (16, 32, 64 channels; the later stages stride 2 with a 1x1 projection shortcut), global
// average pooling and a linear head, on (batch 16, 3, 64, 64) images, eval mode.
//
// Written once against `torch::` and built twice: against LibTorch (cnn_forward_libtorch) and
// against the bundled runtime through graphify::torch_compat (cnn_forward_gfy). The gfy build
// also times the same forward captured once with gfy::capture and replayed; its two variants are
// timed interleaved, batch by batch, so their ratio survives a loaded machine. Weights and inputs
// come from one host formula, so the checksums of all variants must agree (bench/cnn_forward/run
// compares them and prints the ratios against LibTorch measured in the same run).
#include <torch/torch.h>

#include <chrono>
#include <functional>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Config {
  int64_t batch = 16;
  int64_t size = 64;
  int warmup = 3;
  int batches = 20;
  int threads = 0;  // 0: the library default
  std::string json;
  bool pass_rows = false;  // gfy build: also the unoptimized replay and one replay per pass left out
};

/// Host-filled tensor (a scrambled sawtooth in [-scale, scale]): both builds compute on
/// bit-identical weights and inputs without sharing a random generator.
torch::Tensor formula_tensor(const std::vector<int64_t>& shape, double scale, int64_t salt) {
  int64_t n = 1;
  for (auto d : shape) n *= d;
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const int64_t k = (i * 7919 + salt * 104729) % 10007;
    v[static_cast<size_t>(i)] = static_cast<float>((static_cast<double>(k) / 10006.0 * 2.0 - 1.0) * scale);
  }
  return torch::from_blob(v.data(), shape, torch::kFloat).clone();
}

struct BasicBlockImpl : torch::nn::Module {
  BasicBlockImpl(int64_t in, int64_t out, int64_t stride)
      : conv1(register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, 3).stride(stride).padding(1).bias(false)))),
        bn1(register_module("bn1", torch::nn::BatchNorm2d(out))),
        conv2(register_module("conv2", torch::nn::Conv2d(torch::nn::Conv2dOptions(out, out, 3).padding(1).bias(false)))),
        bn2(register_module("bn2", torch::nn::BatchNorm2d(out))) {
    if (stride != 1 || in != out) {
      shortcut = register_module("shortcut", torch::nn::Sequential(
                                                 torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, 1).stride(stride).bias(false)),
                                                 torch::nn::BatchNorm2d(out)));
    }
  }
  torch::Tensor forward(const torch::Tensor& x) {
    auto y = torch::relu(bn1(conv1(x)));
    y = bn2(conv2(y));
    return torch::relu(y + (shortcut ? shortcut->forward(x) : x));
  }
  torch::nn::Conv2d conv1, conv2;
  torch::nn::BatchNorm2d bn1, bn2;
  torch::nn::Sequential shortcut{nullptr};
};
TORCH_MODULE(BasicBlock);

struct ResNetImpl : torch::nn::Module {
  ResNetImpl() {
    stem = register_module("stem", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 16, 3).padding(1).bias(false)));
    bn = register_module("bn", torch::nn::BatchNorm2d(16));
    const int64_t widths[] = {16, 32, 64};
    int64_t in = 16;
    for (int s = 0; s < 3; ++s) {
      for (int b = 0; b < 2; ++b) {
        blocks->push_back(BasicBlock(in, widths[s], (s > 0 && b == 0) ? 2 : 1));
        in = widths[s];
      }
    }
    register_module("blocks", blocks);
    fc = register_module("fc", torch::nn::Linear(64, 10));
  }
  torch::Tensor forward(const torch::Tensor& x) {
    auto y = torch::relu(bn(stem(x)));
    y = blocks->forward(y);
    y = torch::adaptive_avg_pool2d(y, {1, 1}).flatten(1);
    return fc(y);
  }
  torch::nn::Conv2d stem{nullptr};
  torch::nn::BatchNorm2d bn{nullptr};
  torch::nn::Sequential blocks;
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(ResNet);

void fix_weights(torch::nn::Module& m) {
  torch::NoGradGuard no_grad;
  int64_t salt = 1;
  for (auto& p : m.named_parameters()) {
    auto& t = p.value();
    std::vector<int64_t> shape(t.sizes().begin(), t.sizes().end());
    const double scale = t.dim() > 1 ? 1.0 / std::sqrt(static_cast<double>(t.numel() / t.size(0))) : 0.1;
    t.copy_(formula_tensor(shape, scale, salt++) + (t.dim() == 1 && p.key().find("weight") != std::string::npos ? 1.0 : 0.0));
  }
}

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct Variant {
  std::string name;
  double elapsed = 0;
  double checksum = 0;
};

}  // namespace

int main(int argc, char** argv) {
  Config cfg;
  for (int i = 1; i < argc; ++i) {
    auto arg = [&](const char* name) { return std::strcmp(argv[i], name) == 0 && i + 1 < argc; };
    if (arg("--batches")) cfg.batches = std::atoi(argv[++i]);
    else if (arg("--warmup")) cfg.warmup = std::atoi(argv[++i]);
    else if (arg("--threads")) cfg.threads = std::atoi(argv[++i]);
    else if (arg("--batch")) cfg.batch = std::atoll(argv[++i]);
    else if (arg("--size")) cfg.size = std::atoll(argv[++i]);
    else if (arg("--json")) cfg.json = argv[++i];
    else if (std::strcmp(argv[i], "--small") == 0) cfg.batch = 2, cfg.size = 16;
    else if (std::strcmp(argv[i], "--pass-rows") == 0) cfg.pass_rows = true;
    else {
      std::fprintf(stderr, "usage: %s [--batches N] [--warmup N] [--threads N] [--batch N] [--size N] [--small] [--pass-rows] [--json FILE]\n", argv[0]);
      return 2;
    }
  }
  if (cfg.threads > 0) torch::set_num_threads(cfg.threads);
  torch::NoGradGuard no_grad;
  ResNet net;
  fix_weights(*net);
  net->eval();
  // Two input batches alternate, so that a replay reads new data each time.
  std::vector<torch::Tensor> inputs = {formula_tensor({cfg.batch, 3, cfg.size, cfg.size}, 1.0, 7),
                                       formula_tensor({cfg.batch, 3, cfg.size, cfg.size}, 1.0, 8)};

  std::vector<Variant> variants;
#ifdef GRAPHIFY_TORCH_COMPAT
  variants.push_back({"graphify eager"});
  // The optimized replay, then (--pass-rows) the unoptimized one and one per pass left out: what
  // each post-capture pass contributes, timed in the same loop.
  struct Replay {
    torch::Tensor in, out;
    gfy::Graph graph;
  };
  std::vector<std::pair<std::string, gfy::CaptureOptions>> rows = {{"graphify graph replay", {}}};
  if (cfg.pass_rows) {
    rows.push_back({"graphify replay, no opt.", {.optimize = false}});
    for (const std::string& pass : gfy::optimization_passes())
      rows.push_back({"graphify replay w/o " + pass, {.skip_passes = {pass}}});
  }
  std::vector<Replay> replays(rows.size());
  for (size_t k = 0; k < rows.size(); ++k) {
    variants.push_back({rows[k].first});
    Replay& r = replays[k];
    r.in = inputs[0].clone();
    r.graph = gfy::capture([&] { r.out = net->forward(r.in); }, rows[k].second);
  }
#else
  variants.push_back({"LibTorch eager"});
#endif
  // Every variant runs once per batch; batch b starts with variant b mod n, so no variant always
  // runs right after another (a fixed order gave the last one warmer caches and clocks: ~7%).
  std::vector<std::function<double(const torch::Tensor&)>> runs = {
      [&](const torch::Tensor& x) { return net->forward(x).sum().item<double>(); }};
#ifdef GRAPHIFY_TORCH_COMPAT
  for (Replay& r : replays)
    runs.push_back([&r](const torch::Tensor& x) {
      r.in.copy_(x);
      r.graph.replay();
      return r.out.sum().item<double>();
    });
#endif
  for (int b = -cfg.warmup; b < cfg.batches; ++b) {
    const auto& x = inputs[static_cast<size_t>((b + cfg.warmup) % 2)];
    for (size_t j = 0; j < runs.size(); ++j) {
      const size_t k = (static_cast<size_t>(b + cfg.warmup) + j) % runs.size();
      const double t0 = now();
      const double sum = runs[k](x);
      const double t1 = now();
      if (b >= 0) variants[k].elapsed += t1 - t0, variants[k].checksum += sum;
    }
  }
  std::printf("ResNet-style CNN forward, batch %lld, 3x%lldx%lld, %d timed batches, %d threads\n",
              static_cast<long long>(cfg.batch), static_cast<long long>(cfg.size), static_cast<long long>(cfg.size),
              cfg.batches, torch::get_num_threads());
#ifdef GRAPHIFY_TORCH_COMPAT
  std::printf("graphify CPU kernels: %s\n", std::string(gfy::cpu_isa()).c_str());
#endif
  std::printf("| %-24s | %-13s | %-16s | %-15s |\n", "", "Wall Time (s)", "Elapsed Time (s)", "Images per Second");
  for (const auto& v : variants) {
    const double wall = v.elapsed / cfg.batches;
    std::printf("| %-24s | %-13.5f | %-16.4f | %-15.1f |\n", v.name.c_str(), wall, v.elapsed,
                static_cast<double>(cfg.batch) / wall);
  }
  if (variants.size() >= 2)
    std::printf("replay / eager (wall time): %.3f\n", variants[1].elapsed / variants[0].elapsed);
  if (!cfg.json.empty()) {
    FILE* f = std::fopen(cfg.json.c_str(), "w");
    if (!f) return 1;
#ifdef GRAPHIFY_TORCH_COMPAT
    std::fprintf(f, "{\"cpu_isa\": \"%s\", ", std::string(gfy::cpu_isa()).c_str());
#else
    std::fprintf(f, "{\"cpu_isa\": \"\", ");
#endif
    std::fprintf(f, "\"threads\": %d, \"config\": {\"batch\": %lld, \"size\": %lld, \"batches\": %d}, \"variants\": [",
                 torch::get_num_threads(), static_cast<long long>(cfg.batch), static_cast<long long>(cfg.size), cfg.batches);
    for (size_t i = 0; i < variants.size(); ++i)
      std::fprintf(f, "%s{\"name\": \"%s\", \"elapsed_s\": %.9g, \"checksum\": %.17g}", i ? ", " : "",
                   variants[i].name.c_str(), variants[i].elapsed, variants[i].checksum);
    std::fprintf(f, "]}\n");
    std::fclose(f);
  }
  return 0;
}
