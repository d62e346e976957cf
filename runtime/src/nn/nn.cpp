// nn::Module bookkeeping and the layers. Parameters are leaves that require grad (unless
// registered with requires_grad = false), initialised under NoGradGuard; a module conversion
// (`to`) rewrites each parameter's TensorImpl in place, keeping its autograd state, so that every
// handle the user holds (e.g. `fc->weight`) sees the converted data, as LibTorch's set_data does.
#include <graphify/core/Backend.h>
#include <graphify/nn/Layers.h>

#include "Recurrence.h"

#include <cmath>
#include <cxxabi.h>
#include <cstdlib>
#include <ostream>
#include <typeinfo>

namespace gfy::nn {

std::string demangled_type_name(const std::type_info &type) {
  int status = 0;
  char *d = abi::__cxa_demangle(type.name(), nullptr, nullptr, &status);
  std::string out = status == 0 && d ? d : type.name();
  std::free(d);
  return out;
}

const std::string &Module::name() const {
  if (name_.empty()) name_ = demangled_type_name(typeid(*this));
  return name_;
}

// pretty_print itself is in pretty_print.cpp.

void Module::pretty_print_recursive(std::ostream &stream, const std::string &indentation) const {
  pretty_print(stream);
  if (children_.is_empty()) return;
  stream << "(\n";
  const std::string next = indentation + "  ";
  for (const auto &child : children_) {
    stream << next << "(" << child.key() << "): ";
    child.value()->pretty_print_recursive(stream, next);
    stream << '\n';
  }
  stream << indentation << ")";
}

std::ostream &operator<<(std::ostream &stream, const Module &module) {
  module.pretty_print_recursive(stream, "");
  return stream;
}

void Module::check_name(const std::string &name) const {
  GFY_CHECK(!name.empty(), "name must not be empty");
  GFY_CHECK(name.find('.') == std::string::npos, "name must not contain a dot (got \"", name, "\")");
  GFY_CHECK(!parameters_.contains(name) && !buffers_.contains(name) && !children_.contains(name),
            "attribute '", name, "' already defined");
}

Tensor &Module::register_parameter(std::string name, Tensor tensor, bool requires_grad) {
  check_name(name);
  if (tensor.defined()) tensor.set_requires_grad(requires_grad);
  parameters_.insert(name, std::move(tensor));
  return parameters_[name];
}

Tensor &Module::register_buffer(std::string name, Tensor tensor) {
  check_name(name);
  buffers_.insert(name, std::move(tensor));
  return buffers_[name];
}

void Module::collect(const std::string &prefix, bool recurse, bool buffers, OrderedDict<std::string, Tensor> &out) const {
  for (const auto &item : buffers ? buffers_ : parameters_)
    if (item.value().defined()) out.insert(prefix + item.key(), item.value());
  if (!recurse) return;
  for (const auto &child : children_) child.value()->collect(prefix + child.key() + ".", true, buffers, out);
}

OrderedDict<std::string, Tensor> Module::named_parameters(bool recurse) const {
  OrderedDict<std::string, Tensor> out;
  collect("", recurse, false, out);
  return out;
}
std::vector<Tensor> Module::parameters(bool recurse) const { return named_parameters(recurse).values(); }
OrderedDict<std::string, Tensor> Module::named_buffers(bool recurse) const {
  OrderedDict<std::string, Tensor> out;
  collect("", recurse, true, out);
  return out;
}
std::vector<Tensor> Module::buffers(bool recurse) const { return named_buffers(recurse).values(); }
std::vector<std::shared_ptr<Module>> Module::children() const { return children_.values(); }
std::vector<std::shared_ptr<Module>> Module::modules(bool include_self) {
  std::vector<std::shared_ptr<Module>> out;
  if (include_self) out.push_back(shared_from_this());
  for (auto &c : children_) {
    auto sub = c.value()->modules(true);
    out.insert(out.end(), sub.begin(), sub.end());
  }
  return out;
}

OrderedDict<std::string, std::shared_ptr<Module>> Module::named_modules(const std::string &name_prefix, bool include_self) {
  OrderedDict<std::string, std::shared_ptr<Module>> out;
  if (include_self) out.insert(name_prefix, shared_from_this());
  const std::string prefix = name_prefix.empty() ? "" : name_prefix + ".";
  for (auto &c : children_)
    for (auto &item : c.value()->named_modules(prefix + c.key(), true)) out.insert(item.key(), item.value());
  return out;
}

void Module::apply(const std::function<void(Module &)> &fn) {
  fn(*this);
  for (auto &c : children_) c.value()->apply(fn);
}

void Module::zero_grad(bool set_to_none) {
  for (auto &c : children_) c.value()->zero_grad(set_to_none);
  NoGradGuard no_grad;
  for (auto &p : parameters_) {
    Tensor &grad = p.value().mutable_grad();
    if (!grad.defined()) continue;
    grad = grad.detach();
    if (set_to_none) grad = Tensor();
    else grad.zero_();
  }
}

void Module::train(bool on) {
  training_ = on;
  for (auto &c : children_) c.value()->train(on);
}

namespace {
void convert_in_place(Tensor &t, const std::function<Tensor(const Tensor &)> &f) {
  if (!t.defined()) return;
  NoGradGuard no_grad;
  Tensor n = f(t);
  if (n.is_same(t)) return;
  auto meta = t.unsafeGetTensorImpl()->autograd_meta; // the parameter stays the same leaf
  *t.unsafeGetTensorImpl() = *n.unsafeGetTensorImpl();
  t.unsafeGetTensorImpl()->autograd_meta = std::move(meta);
}
} // namespace

void Module::to(Device device, ScalarType dtype, bool non_blocking) {
  const auto convert = [&](const Tensor &t) { return t.to(device).to(dtype); };
  for (auto &p : parameters_) convert_in_place(p.value(), convert);
  for (auto &b : buffers_) convert_in_place(b.value(), convert);
  for (auto &c : children_) c.value()->to(device, dtype, non_blocking);
}
void Module::to(ScalarType dtype, bool non_blocking) {
  for (auto &p : parameters_) convert_in_place(p.value(), [&](const Tensor &t) { return t.to(dtype); });
  for (auto &b : buffers_) convert_in_place(b.value(), [&](const Tensor &t) { return t.to(dtype); });
  for (auto &c : children_) c.value()->to(dtype, non_blocking);
}
void Module::to(Device device, bool non_blocking) {
  for (auto &p : parameters_) convert_in_place(p.value(), [&](const Tensor &t) { return t.to(device); });
  for (auto &b : buffers_) convert_in_place(b.value(), [&](const Tensor &t) { return t.to(device); });
  for (auto &c : children_) c.value()->to(device, non_blocking);
}

// --- layers -----------------------------------------------------------------------------------

LinearImpl::LinearImpl(const LinearOptions &o) : Module("Linear"), options(o) {
  GFY_CHECK(o.in_features() >= 0 && o.out_features() >= 0, "Linear: feature counts must be non-negative");
  weight = register_parameter("weight", gfy::empty({o.out_features(), o.in_features()}));
  if (o.bias()) bias = register_parameter("bias", gfy::empty({o.out_features()}));
  reset();
}
void LinearImpl::reset() {
  NoGradGuard no_grad; // initialisation is not part of any graph (LibTorch's reset does the same)
  // LibTorch: kaiming_uniform(a = sqrt(5)) on the weight, which is U(-1/sqrt(in), 1/sqrt(in)).
  const double bound = options.in_features() > 0 ? 1.0 / std::sqrt(double(options.in_features())) : 0.0;
  weight.uniform_(-bound, bound);
  if (bias.defined()) bias.uniform_(-bound, bound);
}
Tensor LinearImpl::forward(const Tensor &input) { return linear(input, weight, bias); }

EmbeddingImpl::EmbeddingImpl(const EmbeddingOptions &o) : Module("Embedding"), options(o) {
  weight = register_parameter("weight", gfy::empty({o.num_embeddings(), o.embedding_dim()}));
  reset();
}
void EmbeddingImpl::reset() {
  NoGradGuard no_grad; // initialisation is not part of any graph (LibTorch's reset does the same)
  weight.normal_(0, 1);
  if (auto p = options.padding_idx()) {
    const int64_t idx = *p < 0 ? *p + options.num_embeddings() : *p;
    weight.select(0, idx).fill_(0);
  }
}
Tensor EmbeddingImpl::forward(const Tensor &indices) {
  // padding_idx only matters to the gradient: its row receives none.
  const int64_t pad = options.padding_idx().has_value()
                          ? (*options.padding_idx() < 0 ? *options.padding_idx() + options.num_embeddings()
                                                        : *options.padding_idx())
                          : -1;
  return embedding(weight, indices, pad);
}

LayerNormImpl::LayerNormImpl(const LayerNormOptions &o) : Module("LayerNorm"), options(o) {
  if (o.elementwise_affine()) {
    weight = register_parameter("weight", gfy::empty(o.normalized_shape()));
    bias = register_parameter("bias", gfy::empty(o.normalized_shape()));
  }
  reset();
}
void LayerNormImpl::reset() {
  NoGradGuard no_grad; // initialisation is not part of any graph (LibTorch's reset does the same)
  if (weight.defined()) weight.fill_(1);
  if (bias.defined()) bias.fill_(0);
}
Tensor LayerNormImpl::forward(const Tensor &input) {
  return layer_norm(input, options.normalized_shape(), weight, bias, options.eps());
}

LSTMImpl::LSTMImpl(const LSTMOptions &o) : Module("LSTM"), options(o) {
  GFY_CHECK(o.num_layers() >= 1, "nn::LSTM: num_layers must be at least 1");
  GFY_CHECK(o.hidden_size() > 0, "nn::LSTM: hidden_size must be positive");
  GFY_CHECK(o.proj_size() >= 0 && o.proj_size() < o.hidden_size(),
            "proj_size has to be a positive integer, smaller than hidden_size or zero to disable projections");
  const int64_t H = o.hidden_size(), D = o.bidirectional() ? 2 : 1, P = o.proj_size(), R = P > 0 ? P : H;
  // LibTorch's order: layer by layer, the forward direction before the reverse one ("_reverse").
  for (int64_t l = 0; l < o.num_layers(); ++l) {
    const int64_t in = l == 0 ? o.input_size() : R * D;
    for (int64_t d = 0; d < D; ++d) {
      const std::string s = std::to_string(l) + (d == 1 ? "_reverse" : "");
      w_ih.push_back(register_parameter("weight_ih_l" + s, gfy::empty({4 * H, in})));
      w_hh.push_back(register_parameter("weight_hh_l" + s, gfy::empty({4 * H, R})));
      if (o.bias()) {
        b_ih.push_back(register_parameter("bias_ih_l" + s, gfy::empty({4 * H})));
        b_hh.push_back(register_parameter("bias_hh_l" + s, gfy::empty({4 * H})));
      }
      if (P > 0) w_hr.push_back(register_parameter("weight_hr_l" + s, gfy::empty({P, H})));
    }
  }
  reset();
}

void LSTMImpl::reset() {
  NoGradGuard no_grad; // initialisation is not part of any graph (LibTorch's reset does the same)
  const double bound = 1.0 / std::sqrt(double(options.hidden_size()));
  for (auto &p : parameters(false)) p.uniform_(-bound, bound);
}

std::tuple<Tensor, std::tuple<Tensor, Tensor>> LSTMImpl::forward(const Tensor &input,
                                                                 std::optional<std::tuple<Tensor, Tensor>> hx) {
  GFY_CHECK(input.defined(), "LSTM: input is undefined");
  GFY_CHECK(input.dim() == 3, "LSTM: Expected input to be 3-D, got ", input.dim(), "-D (unbatched input is not supported)");
  const int64_t H = options.hidden_size(), L = options.num_layers(), D = options.bidirectional() ? 2 : 1;
  const int64_t R = options.proj_size() > 0 ? options.proj_size() : H; // the size of h
  Tensor x = options.batch_first() ? input.transpose(0, 1) : input;     // x: (T, B, in)
  const int64_t T = x.size(0), B = x.size(1);
  GFY_CHECK(x.size(2) == options.input_size(), "input.size(-1) must be equal to input_size. Expected ",
            options.input_size(), ", got ", x.size(2));
  Tensor h0, c0;
  if (hx) {
    std::tie(h0, c0) = *hx;
    GFY_CHECK(h0.sizes() == IntArrayRef({L * D, B, R}), "Expected hidden[0] size ", L * D, " ", B, " ", R, ", got ",
              h0.sizes());
    GFY_CHECK(c0.sizes() == IntArrayRef({L * D, B, H}), "Expected hidden[1] size ", L * D, " ", B, " ", H, ", got ",
              c0.sizes());
  } else {
    h0 = zeros({L * D, B, R}, input.options());
    c0 = zeros({L * D, B, H}, input.options());
  }
  std::vector<Tensor> hn, cn;
  Tensor layer_in = x;
  for (int64_t l = 0; l < L; ++l) {
    std::vector<Tensor> outputs;
    for (int64_t d = 0; d < D; ++d) {
      const size_t k = size_t(l * D + d);
      // The input projection of all steps is one GEMM; only h @ W_hh^T stays in the recurrence.
      Tensor bias = options.bias() ? b_ih[k] + b_hh[k] : Tensor();
      Tensor xproj = linear(layer_in.reshape({T * B, layer_in.size(2)}), w_ih[k], bias).view({T, B, 4 * H});
      Tensor wt = w_hh[k].t(); // (R, 4H) view: BLAS reads it transposed, no copy
      Tensor h = h0.select(0, int64_t(k)), c = c0.select(0, int64_t(k));
      outputs.push_back(detail::run_direction(T, d == 1, [&](int64_t t) {
        Tensor gates = addmm(xproj.select(0, t), h, wt); // gates: (B, 4H), order i f g o
        auto g = gates.chunk(4, 1);
        Tensor i_g = sigmoid(g[0]), f_g = sigmoid(g[1]), c_g = tanh(g[2]), o_g = sigmoid(g[3]);
        c = f_g * c + i_g * c_g;
        h = o_g * tanh(c);
        if (!w_hr.empty()) h = matmul(h, w_hr[k].t()); // the projection: (B, H) -> (B, P)
        return h;
      }));
      hn.push_back(h);
      cn.push_back(c);
    }
    Tensor out = detail::join_directions(outputs); // out: (T, B, D * R)
    if (options.dropout() > 0 && is_training() && l + 1 < L) out = dropout(out, options.dropout(), true);
    layer_in = out;
  }
  Tensor output = options.batch_first() ? layer_in.transpose(0, 1) : layer_in;
  return {output, {stack(hn, 0), stack(cn, 0)}};
}

} // namespace gfy::nn
