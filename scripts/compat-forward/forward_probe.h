// The forward-match probe of `scripts/compat-survey --forward-match`: constructs one module of a
// user's translation unit (its default constructor, or up to four integer arguments), sets every parameter and running
// statistic from its name (tests/differential/model_inputs.h: a host-side formula, so both
// libraries see the same weights whatever their random generators or registration order),
// runs one input through `forward` in eval mode, and writes what came out.
//
// The same file is compiled twice, against LibTorch and against graphify's compat headers; the
// survey compares the two output files. The input is guessed from the module's own layers: the
// first convolutions, linear layers, embeddings, recurrent layers and norms say which channel
// count or feature size the model takes; a few common image sizes follow. The first input the
// module accepts wins, in the same order on both sides, and every refusal is written down, so
// an input LibTorch accepts and the runtime refuses shows as such rather than as a mismatch.
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <fstream>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "model_inputs.h"

namespace gfy_forward_probe {

/// A candidate input and how it was guessed (written to the result file).
struct Input {
  std::string origin;
  torch::Tensor x;
};

template <class M, class = void>
struct takes_one_tensor : std::false_type {};
template <class M>
struct takes_one_tensor<M, std::void_t<decltype(std::declval<M &>().forward(std::declval<torch::Tensor>()))>>
    : std::true_type {};

inline std::string one_line(const std::string &text) {
  std::string out;
  for (char ch : text) {
    if (ch == '\n') break;  // LibTorch appends a backtrace after the first line
    out += ch;
  }
  return out.substr(0, 300);
}

inline std::string shape_text(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

inline Input image(const std::string &layer, std::vector<int64_t> shape) {
  return {layer + " " + shape_text(shape), diff::model_inputs::wave(shape, 1.0, 0.3)};
}

/// Inputs suggested by one layer; empty when the layer says nothing about the model's input.
inline std::vector<Input> inputs_for_layer(torch::nn::Module &layer) {
  namespace nn = torch::nn;
  if (auto *c = layer.as<nn::Conv2d>()) {
    const int64_t ch = c->options.in_channels();
    return {image("conv2d", {2, ch, 32, 32}), image("conv2d", {2, ch, 64, 64}), image("conv2d", {1, ch, 224, 224})};
  }
  if (auto *c = layer.as<nn::Conv1d>()) return {image("conv1d", {2, c->options.in_channels(), 64})};
  if (auto *c = layer.as<nn::ConvTranspose2d>()) return {image("conv_transpose2d", {2, c->options.in_channels(), 8, 8})};
  if (auto *l = layer.as<nn::Linear>()) {
    const int64_t f = l->options.in_features();
    return {image("linear", {2, f}), image("linear", {2, 5, f})};
  }
  if (auto *e = layer.as<nn::Embedding>()) {
    const int64_t vocab = e->options.num_embeddings();
    return {{"embedding [2,8]", diff::model_inputs::tokens({2, 8}, vocab, 1)}};
  }
  if (auto *r = layer.as<nn::LSTM>()) {
    const auto &o = r->options;
    return {image("lstm", o.batch_first() ? std::vector<int64_t>{2, 6, o.input_size()}
                                          : std::vector<int64_t>{6, 2, o.input_size()})};
  }
  if (auto *r = layer.as<nn::GRU>()) {
    const auto &o = r->options;
    return {image("gru", o.batch_first() ? std::vector<int64_t>{2, 6, o.input_size()}
                                         : std::vector<int64_t>{6, 2, o.input_size()})};
  }
  if (auto *b = layer.as<nn::BatchNorm2d>()) return {image("batch_norm2d", {2, b->options.num_features(), 16, 16})};
  if (auto *b = layer.as<nn::BatchNorm1d>()) return {image("batch_norm1d", {2, b->options.num_features()})};
  return {};
}

/// The first layers' suggestions in registration order, then common image sizes.
inline std::vector<Input> candidate_inputs(torch::nn::Module &m) {
  std::vector<Input> out;
  int layers = 0;
  for (auto &sub : m.modules(/*include_self=*/false)) {
    auto more = inputs_for_layer(*sub);
    if (more.empty()) continue;
    out.insert(out.end(), more.begin(), more.end());
    if (++layers == 3) break;  // the input layer is nearly always among the first registered
  }
  for (auto shape : {std::vector<int64_t>{2, 3, 32, 32}, {2, 3, 64, 64}, {1, 3, 224, 224}, {2, 1, 28, 28}})
    out.push_back(image("fallback", shape));
  return out;
}

inline const char *dtype_name(const torch::Tensor &t) {
  switch (t.scalar_type()) {
    case torch::kFloat: return "float";
    case torch::kDouble: return "double";
    case torch::kLong: return "long";
    case torch::kInt: return "int";
    case torch::kBool: return "bool";
    case torch::kByte: return "uint8";
    default: return "other";
  }
}

/// One output tensor: dtype, shape, then its values (the first 20000; the sums cover the rest).
inline void write_tensor(std::ostream &os, const torch::Tensor &t) {
  if (!t.defined()) {
    os << "tensor undefined\n";
    return;
  }
  std::vector<int64_t> shape(t.sizes().begin(), t.sizes().end());
  auto d = t.detach().to(torch::kDouble).contiguous().reshape({-1});
  const double *v = d.data_ptr<double>();
  const int64_t n = d.numel();
  double sum = 0, abs_sum = 0;
  for (int64_t i = 0; i < n; ++i) sum += v[i], abs_sum += v[i] < 0 ? -v[i] : v[i];
  os.precision(9);
  os << "tensor " << dtype_name(t) << " " << shape_text(shape) << " sum " << sum << " abs_sum " << abs_sum << "\n";
  for (int64_t i = 0; i < n && i < 20000; ++i) os << v[i] << (i % 16 == 15 ? "\n" : " ");
  os << "\n";
}

inline void write_output(std::ostream &os, const torch::Tensor &t) { write_tensor(os, t); }
inline void write_output(std::ostream &os, const std::vector<torch::Tensor> &ts) {
  for (const auto &t : ts) write_tensor(os, t);
}
template <class A, class B>
void write_output(std::ostream &os, const std::pair<A, B> &p) {
  write_output(os, p.first);
  write_output(os, p.second);
}
template <class... Ts>
void write_output(std::ostream &os, const std::tuple<Ts...> &t) {
  std::apply([&os](const auto &...items) { (write_output(os, items), ...); }, t);
}
template <class T>
void write_output(std::ostream &os, const T &) {
  os << "opaque output\n";  // not a tensor, a pair, a tuple or a vector of tensors: not compared
}

/// Whether `Impl` can be built by construct() below.
template <class Impl>
constexpr bool constructible =
    !std::is_abstract<Impl>::value &&
    (std::is_default_constructible<Impl>::value || std::is_constructible<Impl, int64_t>::value ||
     std::is_constructible<Impl, int64_t, int64_t>::value || std::is_constructible<Impl, int64_t, int64_t, int64_t>::value ||
     std::is_constructible<Impl, int64_t, int64_t, int64_t, int64_t>::value);

/// The module with its default constructor, or else with the first of (8), (8, 8), (8, 8, 3),
/// (8, 8, 3, 1) it takes: channel counts first, then a kernel size and a stride, which is how
/// layer blocks order their arguments. `how` says which.
template <class Impl>
std::shared_ptr<Impl> construct(std::string &how) {
  if constexpr (std::is_default_constructible<Impl>::value) {
    how = "()";
    return std::make_shared<Impl>();
  } else if constexpr (std::is_constructible<Impl, int64_t>::value) {
    how = "(8)";
    return std::make_shared<Impl>(int64_t{8});
  } else if constexpr (std::is_constructible<Impl, int64_t, int64_t>::value) {
    how = "(8, 8)";
    return std::make_shared<Impl>(int64_t{8}, int64_t{8});
  } else if constexpr (std::is_constructible<Impl, int64_t, int64_t, int64_t>::value) {
    how = "(8, 8, 3)";
    return std::make_shared<Impl>(int64_t{8}, int64_t{8}, int64_t{3});
  } else {
    how = "(8, 8, 3, 1)";
    return std::make_shared<Impl>(int64_t{8}, int64_t{8}, int64_t{3}, int64_t{1});
  }
}

/// Runs `Impl` as described above and writes the result file; returns 0 unless the file cannot
/// be written (every verdict about the module is in the file).
template <class Impl>
int run(const char *out_path) {
  std::ofstream os(out_path);
  if (!os) return 1;
  if constexpr (!constructible<Impl>) {
    os << "skip needs constructor arguments other than up to four integers\n";
  } else if constexpr (!takes_one_tensor<Impl>::value) {
    os << "skip forward does not take one tensor\n";
  } else {
    std::shared_ptr<Impl> m;
    std::string how;
    try {
      m = construct<Impl>(how);
    } catch (const std::exception &e) {
      os << "error constructor " << how << " threw: " << one_line(e.what()) << "\n";
      return 0;
    }
    os << "constructed " << how << "\n";
    diff::model_inputs::fix_model(*m);
    m->eval();
    torch::NoGradGuard no_grad;
    const auto inputs = candidate_inputs(*m);
    for (size_t i = 0; i < inputs.size(); ++i) {
      try {
        auto y = m->forward(inputs[i].x.clone());
        os << "input " << i << " " << inputs[i].origin << "\n";
        write_output(os, y);
        return 0;
      } catch (const std::exception &e) {
        os << "refused " << i << " " << inputs[i].origin << ": " << one_line(e.what()) << "\n";
      }
    }
    os << "error no input accepted\n";
  }
  return 0;
}

}  // namespace gfy_forward_probe
