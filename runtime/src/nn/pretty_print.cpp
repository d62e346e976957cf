// `pretty_print` of the runtime's layers, in LibTorch 1.13's words (`torch::nn::Conv2d(3, 8,
// kernel_size=[3, 3], stride=[1, 1], padding=[1, 1], bias=false)`): users print their models
// and diff the logs. One table of the layers here rather than an override in each layer's header:
// the format is LibTorch's, not the layer's concern, and differential.print checks every line
// against LibTorch. A layer missing here prints its LibTorch name without its options.
#include <graphify/graphify.h>

#include <ostream>
#include <typeinfo>

namespace gfy::nn {

namespace {

/// A bool option, written as LibTorch writes it: `stream << std::boolalpha << value`, which leaves
/// the stream in boolalpha mode afterwards (a user's later `std::cout << flag` prints "true"
/// after printing a model in LibTorch, and so here).
struct BoolOption {
  bool value;
};
std::ostream &operator<<(std::ostream &os, BoolOption b) { return os << std::boolalpha << b.value; }
BoolOption b(bool v) { return {v}; }

template <size_t D> void put(std::ostream &os, const ExpandingArray<D> &a) {
  if constexpr (D == 1) {
    os << (*a)[0];
  } else {
    os << "[";
    for (size_t i = 0; i < D; ++i) os << (i ? ", " : "") << (*a)[i];
    os << "]";
  }
}

template <size_t D> bool all_equal(const ExpandingArray<D> &a, int64_t v) {
  for (int64_t x : *a)
    if (x != v) return false;
  return true;
}

/// Conv and ConvTranspose: `in, out, kernel_size=k, stride=s`, then what differs from defaults.
template <size_t D, class Options> void put_conv(std::ostream &os, const char *name, const Options &o) {
  os << "torch::nn::" << name << "(" << o.in_channels() << ", " << o.out_channels() << ", kernel_size=";
  put<D>(os, o.kernel_size());
  os << ", stride=";
  put<D>(os, o.stride());
}

template <size_t D> bool print_conv(const Module &m, std::ostream &os) {
  auto *c = dynamic_cast<const ConvNdImpl<D> *>(&m);
  if (!c) return false;
  const auto &o = c->options;
  put_conv<D>(os, D == 1 ? "Conv1d" : "Conv2d", o);
  if (auto *p = std::get_if<ExpandingArray<D>>(&o.padding())) {
    if (!all_equal<D>(*p, 0)) {
      os << ", padding=";
      put<D>(os, *p);
    }
  } else {
    os << ", padding=" << (std::holds_alternative<enumtype::kSame>(o.padding()) ? "kSame" : "kValid");
  }
  if (!all_equal<D>(o.dilation(), 1)) {
    os << ", dilation=";
    put<D>(os, o.dilation());
  }
  if (o.groups() != 1) os << ", groups=" << o.groups();
  if (!o.bias()) os << ", bias=" << b(false);
  os << ")";
  return true;
}

template <size_t D, class Impl> bool print_conv_transpose(const Module &m, std::ostream &os, const char *name) {
  auto *c = dynamic_cast<const Impl *>(&m);
  if (!c) return false;
  const auto &o = c->options;
  put_conv<D>(os, name, o);
  if (!all_equal<D>(o.padding(), 0)) {
    os << ", padding=";
    put<D>(os, o.padding());
  }
  if (!all_equal<D>(o.dilation(), 1)) {
    os << ", dilation=";
    put<D>(os, o.dilation());
  }
  if (!all_equal<D>(o.output_padding(), 0)) {
    os << ", output_padding=";
    put<D>(os, o.output_padding());
  }
  if (o.groups() != 1) os << ", groups=" << o.groups();
  if (!o.bias()) os << ", bias=" << b(false);
  os << ")";
  return true;
}

template <size_t D> bool print_batch_norm(const Module &m, std::ostream &os) {
  auto *bn = dynamic_cast<const BatchNormImpl<D> *>(&m);
  if (!bn) return false;
  const auto &o = bn->options;
  os << "torch::nn::BatchNorm" << D << "d(" << o.num_features() << ", eps=" << o.eps() << ", momentum=";
  if (o.momentum()) os << *o.momentum();
  else os << "None";
  os << ", affine=" << b(o.affine()) << ", track_running_stats=" << b(o.track_running_stats()) << ")";
  return true;
}

bool print_layer(const Module &m, std::ostream &os) {
  if (auto *l = dynamic_cast<const LinearImpl *>(&m)) {
    os << "torch::nn::Linear(in_features=" << l->options.in_features()
       << ", out_features=" << l->options.out_features() << ", bias=" << b(l->options.bias()) << ")";
  } else if (print_conv<1>(m, os) || print_conv<2>(m, os) ||
             print_conv_transpose<1, ConvTranspose1dImpl>(m, os, "ConvTranspose1d") ||
             print_conv_transpose<2, ConvTranspose2dImpl>(m, os, "ConvTranspose2d") ||
             print_batch_norm<1>(m, os) || print_batch_norm<2>(m, os)) {
  } else if (auto *r = dynamic_cast<const ReLUImpl *>(&m)) {
    os << "torch::nn::ReLU(";
    if (r->options.inplace()) os << "inplace=" << b(true);
    os << ")";
  } else if (auto *lr = dynamic_cast<const LeakyReLUImpl *>(&m)) {
    os << "torch::nn::LeakyReLU(negative_slope=" << lr->options.negative_slope()
       << ", inplace=" << b(lr->options.inplace()) << ")";
  } else if (auto *d = dynamic_cast<const DropoutImpl *>(&m)) {
    os << "torch::nn::Dropout(p=" << d->options.p() << ", inplace=" << b(d->options.inplace()) << ")";
  } else if (auto *d2 = dynamic_cast<const Dropout2dImpl *>(&m)) {
    os << "torch::nn::Dropout2d(p=" << d2->options.p() << ", inplace=" << b(d2->options.inplace()) << ")";
  } else if (auto *mp = dynamic_cast<const MaxPool2dImpl *>(&m)) {
    const auto &o = mp->options;
    os << "torch::nn::MaxPool2d(kernel_size=";
    put<2>(os, o.kernel_size());
    os << ", stride=";
    put<2>(os, o.stride());
    os << ", padding=";
    put<2>(os, o.padding());
    os << ", dilation=";
    put<2>(os, o.dilation());
    os << ", ceil_mode=" << b(o.ceil_mode()) << ")";
  } else if (auto *ap = dynamic_cast<const AvgPool2dImpl *>(&m)) {
    const auto &o = ap->options;
    os << "torch::nn::AvgPool2d(kernel_size=";
    put<2>(os, o.kernel_size());
    os << ", stride=";
    put<2>(os, o.stride());
    os << ", padding=";
    put<2>(os, o.padding());
    os << ")";
  } else if (auto *aap = dynamic_cast<const AdaptiveAvgPool2dImpl *>(&m)) {
    os << "torch::nn::AdaptiveAvgPool2d(output_size=[";
    const auto &sizes = *aap->options.output_size();
    for (size_t i = 0; i < sizes.size(); ++i) {
      os << (i ? ", " : "");
      if (sizes[i]) os << *sizes[i];
      else os << "None";
    }
    os << "])";
  } else if (dynamic_cast<const FunctionalImpl *>(&m)) {
    os << "torch::nn::Functional()";
  } else if (auto *f = dynamic_cast<const FlattenImpl *>(&m)) {
    os << "torch::nn::Flatten(start_dim=" << f->options.start_dim() << ", end_dim=" << f->options.end_dim() << ")";
  } else if (auto *s = dynamic_cast<const SoftmaxImpl *>(&m)) {
    os << "torch::nn::Softmax(dim=" << s->options.dim() << ")";
  } else if (auto *ls = dynamic_cast<const LogSoftmaxImpl *>(&m)) {
    os << "torch::nn::LogSoftmax(dim=" << ls->options.dim() << ")";
  } else if (auto *e = dynamic_cast<const EmbeddingImpl *>(&m)) {
    os << "torch::nn::Embedding(num_embeddings=" << e->options.num_embeddings()
       << ", embedding_dim=" << e->options.embedding_dim();
    if (e->options.padding_idx()) os << ", padding_idx=" << *e->options.padding_idx();
    os << ")";
  } else if (auto *ln = dynamic_cast<const LayerNormImpl *>(&m)) {
    os << "torch::nn::LayerNorm([";
    const auto &shape = ln->options.normalized_shape();
    for (size_t i = 0; i < shape.size(); ++i) os << (i ? ", " : "") << shape[i];
    os << "], eps=" << ln->options.eps() << ", elementwise_affine=" << b(ln->options.elementwise_affine()) << ")";
  } else if (auto *lstm = dynamic_cast<const LSTMImpl *>(&m)) {
    const auto &o = lstm->options;
    os << "torch::nn::LSTM(input_size=" << o.input_size() << ", hidden_size=" << o.hidden_size()
       << ", num_layers=" << o.num_layers() << ", bias=" << b(o.bias()) << ", batch_first=" << b(o.batch_first())
       << ", dropout=" << o.dropout() << ", bidirectional=" << b(o.bidirectional());
    if (o.proj_size() > 0) os << ", proj_size=" << o.proj_size();
    os << ")";
  } else if (auto *gn = dynamic_cast<const GroupNormImpl *>(&m)) {
    os << "torch::nn::GroupNorm(" << gn->options.num_groups() << ", " << gn->options.num_channels()
       << ", eps=" << gn->options.eps() << ", affine=" << b(gn->options.affine()) << ")";
  } else if (dynamic_cast<const IdentityImpl *>(&m) || dynamic_cast<const TanhImpl *>(&m) ||
             dynamic_cast<const SigmoidImpl *>(&m) || dynamic_cast<const GELUImpl *>(&m) ||
             dynamic_cast<const SiLUImpl *>(&m)) {
    os << "torch::nn::" << m.name() << "()";
  } else if (dynamic_cast<const SequentialImpl *>(&m) || dynamic_cast<const ModuleListImpl *>(&m)) {
    os << "torch::nn::" << m.name();
  } else {
    return false;
  }
  return true;
}

} // namespace

std::string demangled_type_name(const std::type_info &type);

// LibTorch's layers print as `torch::nn::Name(options)`; user modules print their type's name.
void Module::pretty_print(std::ostream &stream) const {
  if (print_layer(*this, stream)) return;
  if (demangled_type_name(typeid(*this)).rfind("gfy::nn::", 0) == 0) stream << "torch::nn::" << name();
  else stream << name();
}

} // namespace gfy::nn
