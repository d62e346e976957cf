// Printing cases for the differential suite: written once against torch::, built against LibTorch
// (graphify_diff_print_libtorch) and against graphify::torch_compat (graphify_diff_print_graphify).
// Each binary writes every case's `std::cout << ...` output to stdout after a `=== name ===` line;
// graphify_diff_print_compare runs both and requires the two outputs to be identical byte for
// byte, since user programs print tensors and their outputs get diffed.
//
// Inputs are deterministic and exact (literals, arange, views): no RNG, and no computed values
// whose last bit could differ between the two libraries' kernels.
#include <torch/torch.h>

#include <cmath>
#include <cstdint>
#include <exception>
#include <functional>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using Case = std::pair<const char *, std::function<void(std::ostream &)>>;
/// TorchScript's values and modules (print_cases_script.cpp).
std::vector<Case> scriptCases();

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

torch::Tensor f32(std::vector<double> v) { return torch::tensor(std::vector<float>(v.begin(), v.end())); }
torch::Tensor i64(std::vector<int64_t> v) { return torch::tensor(v); }
torch::Tensor i32(std::vector<int64_t> v) { return torch::tensor(v).to(torch::kInt); }
torch::Tensor b(std::vector<int64_t> v) { return torch::tensor(v).to(torch::kBool); }
// f64 values that are not exact in float: built from f32 parts so both sides get the same bits.
torch::Tensor f64_exact(std::vector<int64_t> num, double den) {
  return torch::tensor(num).to(torch::kDouble).div(den);
}
torch::Tensor ar(int64_t n, torch::ScalarType t) { return torch::arange(n).to(t); }

// `std::cout << model`: every layer's pretty_print and the tree's indentation, as users log it.
struct PrintedNetImpl : torch::nn::Module {
  PrintedNetImpl() {
    namespace nn = torch::nn;
    fc = register_module("fc", nn::Linear(4, 2));
    seq = register_module(
        "seq", nn::Sequential(nn::Conv2d(nn::Conv2dOptions(3, 8, 3).padding(1).bias(false)), nn::BatchNorm2d(8),
                              nn::ReLU(), nn::ReLU(nn::ReLUOptions().inplace(true)),
                              nn::LeakyReLU(nn::LeakyReLUOptions().negative_slope(0.2).inplace(true)),
                              nn::MaxPool2d(2), nn::MaxPool2d(nn::MaxPool2dOptions(3).stride(2).padding(1)),
                              nn::Dropout(0.5), nn::Conv2d(nn::Conv2dOptions(8, 8, 3).stride(2).groups(2)),
                              nn::Conv2d(nn::Conv2dOptions(8, 8, {1, 3}).dilation(2).padding({0, 2})),
                              nn::AdaptiveAvgPool2d(1), nn::AdaptiveAvgPool2d(nn::AdaptiveAvgPool2dOptions({2, 3})),
                              nn::Flatten(), nn::Linear(nn::LinearOptions(8, 3).bias(false))));
    list = register_module(
        "list", nn::ModuleList(nn::Identity(), nn::Tanh(), nn::Sigmoid(), nn::Embedding(10, 4),
                               nn::Embedding(nn::EmbeddingOptions(10, 4).padding_idx(0)),
                               nn::LayerNorm(nn::LayerNormOptions({4, 5}).eps(1e-6)),
                               nn::ConvTranspose2d(nn::ConvTranspose2dOptions(4, 2, 2).stride(2)),
                               nn::ConvTranspose2d(nn::ConvTranspose2dOptions(4, 2, 3).padding(1).output_padding(1)),
                               nn::AvgPool2d(2), nn::GELU(), nn::Softmax(1), nn::LogSoftmax(-1),
                               nn::BatchNorm1d(nn::BatchNormOptions(4).momentum(0.5).affine(false)),
                               nn::Conv1d(2, 4, 3), nn::Conv1d(nn::Conv1dOptions(2, 4, 3).padding(1).bias(false)),
                               nn::LSTM(nn::LSTMOptions(4, 8).num_layers(2).batch_first(true)),
                               nn::LSTM(nn::LSTMOptions(4, 8).bidirectional(true).proj_size(3)),
                               nn::GroupNorm(2, 4), nn::SiLU(), nn::Dropout2d(0.2)));
    inner = register_module("inner", std::make_shared<InnerImpl>());
  }
  struct InnerImpl : torch::nn::Module {
    InnerImpl() { register_module("act", torch::nn::ReLU()); }
  };
  torch::nn::Linear fc{nullptr};
  torch::nn::Sequential seq{nullptr};
  torch::nn::ModuleList list{nullptr};
  std::shared_ptr<InnerImpl> inner;
};
TORCH_MODULE(PrintedNet);

/// A user module that describes itself, as public model code does.
struct DescribedImpl : torch::nn::Module {
  void pretty_print(std::ostream &stream) const override { stream << "Described(k=" << 3 << ")"; }
};

std::vector<Case> cases() {
  std::vector<Case> c;
  auto add = [&](const char *name, std::function<void(std::ostream &)> fn) { c.emplace_back(name, std::move(fn)); };

  // --- 0-d ------------------------------------------------------------------------------------
  add("scalar_f32", [](std::ostream &o) { o << torch::tensor(3.14159274f) << "\n"; });
  add("scalar_f32_int_valued", [](std::ostream &o) { o << torch::tensor(42.0f) << "\n"; });
  add("scalar_f64", [](std::ostream &o) { o << torch::tensor(2.5).to(torch::kDouble) << "\n"; });
  add("scalar_i64", [](std::ostream &o) { o << torch::tensor(int64_t(7)) << "\n"; });
  add("scalar_i64_big", [](std::ostream &o) { o << torch::tensor(int64_t(123456789)) << "\n"; });
  add("scalar_i32", [](std::ostream &o) { o << torch::tensor(int64_t(-5)).to(torch::kInt) << "\n"; });
  add("scalar_bool", [](std::ostream &o) { o << torch::tensor(int64_t(1)).to(torch::kBool) << "\n"; });
  add("scalar_nan_inf", [](std::ostream &o) {
    o << f32({kNaN}).reshape({}) << "\n" << f32({-kInf}).reshape({}) << "\n";
  });
  add("scalar_neg_zero", [](std::ostream &o) { o << f32({-0.0}).reshape({}) << "\n"; });
  add("scalar_small", [](std::ostream &o) { o << f32({1.25e-7}).reshape({}) << "\n"; });
  add("scalar_select", [](std::ostream &o) { o << ar(6, torch::kFloat).select(0, 4) << "\n"; });

  // --- 1-d ------------------------------------------------------------------------------------
  add("vec_f32", [](std::ostream &o) { o << f32({1.5, 2.25, -3.125}) << "\n"; });
  add("vec_f32_int_valued", [](std::ostream &o) { o << f32({1, 2, 3}) << "\n"; });
  add("vec_f32_int_valued_neg", [](std::ostream &o) { o << f32({-1, 20, -300}) << "\n"; });
  add("vec_f32_neg_first_quirk", [](std::ostream &o) {
    o << f32({-100.5, 1.25}) << "\n" << f32({1.25, -100.5}) << "\n";
  });
  add("vec_f32_single", [](std::ostream &o) { o << f32({0.5}) << "\n"; });
  add("vec_f32_zeros", [](std::ostream &o) { o << torch::zeros({3}) << "\n"; });
  add("vec_f32_ones", [](std::ostream &o) { o << torch::ones({2}) << "\n"; });
  add("vec_f32_below_one", [](std::ostream &o) { o << f32({0.5, 0.25, 0.125}) << "\n"; });
  add("vec_f32_hundredths", [](std::ostream &o) { o << f32({0.05, 0.025}) << "\n"; });
  add("vec_f32_scale_1e5", [](std::ostream &o) { o << f32({100000.5, 250000.25, 12345.5}) << "\n"; });
  add("vec_f32_scale_small", [](std::ostream &o) { o << f32({0.001, 0.0025, 0.0005}) << "\n"; });
  add("vec_f32_sci_wide_range", [](std::ostream &o) { o << f32({123456.7, 1.5, 0.001}) << "\n"; });
  add("vec_f32_sci_tiny", [](std::ostream &o) { o << f32({1e-10, 2.5e-9}) << "\n"; });
  add("vec_f64_sci_huge", [](std::ostream &o) { o << f64_exact({1, 3}, 1e-100) << "\n"; });
  add("vec_f64_sci_minuscule", [](std::ostream &o) { o << f64_exact({3, 1000}, 1e120) << "\n"; });
  add("vec_f32_nan_inf", [](std::ostream &o) { o << f32({kNaN, 1.5, kInf, -kInf}) << "\n"; });
  add("vec_f32_nan_int_valued", [](std::ostream &o) { o << f32({kNaN, 1, 2}) << "\n"; });
  add("vec_f32_all_nan", [](std::ostream &o) { o << f32({kNaN, kNaN}) << "\n"; });
  add("vec_f32_inf_only", [](std::ostream &o) { o << f32({kInf, -kInf}) << "\n"; });
  add("vec_f32_neg_zero", [](std::ostream &o) { o << f32({-0.0, 0.0}) << "\n" << f32({-0.0, 0.0, 1.5}) << "\n"; });
  add("vec_f32_rounding", [](std::ostream &o) { o << f32({0.00005, 1.0, 2.99995, 0.12345}) << "\n"; });
  add("vec_f32_large_int_valued", [](std::ostream &o) { o << f32({1e9, 2}) << "\n" << f32({1e10, 2}) << "\n"; });
  add("vec_f64_sci_width_12", [](std::ostream &o) {
    o << torch::cat({f64_exact({1}, 1e120), f64_exact({3}, 2)}) << "\n";
  });
  add("vec_f32_neg_large_quirk", [](std::ostream &o) {
    o << f32({-123456.5, 1.5}) << "\n" << f32({1.5, -123456.5}) << "\n";
  });
  add("vec_f32_scale_negative", [](std::ostream &o) { o << f32({-0.001, 0.002, -0.0035}) << "\n"; });
  add("vec_f32_int_nine_digits", [](std::ostream &o) { o << f32({123456789, 1}) << "\n" << i64({999999999, -5}) << "\n"; });
  add("vec_i32_extremes", [](std::ostream &o) { o << i32({2147483647, -2147483647 - 1}) << "\n"; });
  add("vec_f32_values_rounding", [](std::ostream &o) {
    o << f32({1.00005, 9.99996, 0.99995}) << "\n" << f32({12345.678, 2.5}) << "\n";
  });
  add("vec_f32_long", [](std::ostream &o) { o << ar(30, torch::kFloat).div(8) << "\n"; });
  add("vec_f64", [](std::ostream &o) { o << f64_exact({1, 2, 10}, 3) << "\n"; });
  add("vec_f64_int_valued", [](std::ostream &o) { o << ar(4, torch::kDouble) << "\n"; });
  add("vec_i64", [](std::ostream &o) { o << i64({0, -7, 42, 1000}) << "\n"; });
  add("vec_i64_huge", [](std::ostream &o) { o << i64({10000000000LL, 3}) << "\n"; });
  add("vec_i64_max", [](std::ostream &o) { o << i64({std::numeric_limits<int64_t>::max(), -1}) << "\n"; });
  add("vec_i32", [](std::ostream &o) { o << i32({3, -2, 1}) << "\n"; });
  add("vec_bool", [](std::ostream &o) { o << b({1, 0, 1}) << "\n"; });
  add("vec_arange_f32", [](std::ostream &o) { o << torch::arange(5) << "\n" << torch::arange(0.0, 1.0, 0.25).to(torch::kFloat) << "\n"; });
  add("vec_strided", [](std::ostream &o) { o << ar(10, torch::kFloat).slice(0, 1, 10, 3) << "\n"; });
  add("vec_expand", [](std::ostream &o) { o << f32({2.5}).expand({3}) << "\n"; });

  // --- 2-d ------------------------------------------------------------------------------------
  add("mat_f32_int_valued", [](std::ostream &o) { o << ar(6, torch::kFloat).view({2, 3}) << "\n"; });
  add("mat_f32", [](std::ostream &o) { o << f32({1.5, -2.25, 3.0, 0.125, 10.5, -0.75}).view({3, 2}) << "\n"; });
  add("mat_f32_scaled", [](std::ostream &o) { o << f32({100000.5, 2.5e5, 3e5, 4.5e5}).view({2, 2}) << "\n"; });
  add("mat_f32_scaled_small", [](std::ostream &o) { o << f32({0.001, 0.002, 0.0035, 0.004}).view({2, 2}) << "\n"; });
  add("mat_f32_sci", [](std::ostream &o) { o << f32({1e-8, 1.0, 3e3, 5e7}).view({2, 2}) << "\n"; });
  add("mat_f32_nan", [](std::ostream &o) { o << f32({kNaN, 1.5, kInf, 2.0}).view({2, 2}) << "\n"; });
  add("mat_f64", [](std::ostream &o) { o << f64_exact({1, 2, 3, 4, 5, 6}, 7).view({2, 3}) << "\n"; });
  add("mat_i64", [](std::ostream &o) { o << i64({1, -22, 333, 4, 5, 6}).view({3, 2}) << "\n"; });
  add("mat_i32", [](std::ostream &o) { o << i32({1, 2, 3, 4}).view({2, 2}) << "\n"; });
  add("mat_bool", [](std::ostream &o) { o << b({1, 0, 0, 1, 1, 1}).view({2, 3}) << "\n"; });
  add("mat_eye", [](std::ostream &o) { o << torch::eye(3) << "\n"; });
  add("mat_transposed", [](std::ostream &o) { o << ar(6, torch::kFloat).div(4).view({2, 3}).t() << "\n"; });
  add("mat_column_select", [](std::ostream &o) { o << ar(12, torch::kLong).view({3, 4}).select(1, 2) << "\n"; });
  add("mat_expand", [](std::ostream &o) { o << f32({1.5, 2.5}).view({2, 1}).expand({2, 3}) << "\n"; });
  add("mat_sliced", [](std::ostream &o) { o << ar(20, torch::kFloat).view({4, 5}).slice(0, 1, 4, 2).slice(1, 0, 5, 2) << "\n"; });
  add("mat_row", [](std::ostream &o) { o << ar(3, torch::kFloat).view({1, 3}) << "\n"; });
  add("mat_wide_f32", [](std::ostream &o) { o << ar(30, torch::kFloat).div(4).view({2, 15}) << "\n"; });
  add("mat_wide_int_valued", [](std::ostream &o) { o << ar(80, torch::kLong).view({2, 40}) << "\n"; });
  add("mat_wide_scaled", [](std::ostream &o) { o << ar(36, torch::kFloat).add(0.5).mul(10000).view({3, 12}) << "\n"; });
  add("mat_wide_sci", [](std::ostream &o) {
    auto x = ar(14, torch::kFloat).add(1);
    o << x.mul(x).mul(x).mul(x).mul(x).mul(x).add(0.5).view({2, 7}) << "\n";
  });
  add("mat_wide_f64", [](std::ostream &o) { o << ar(24, torch::kDouble).div(8).view({2, 12}) << "\n"; });
  add("mat_wide_bool", [](std::ostream &o) {
    std::vector<int64_t> v;
    for (int i = 0; i < 60; ++i) v.push_back(i % 3 != 0);
    o << b(v).view({2, 30}) << "\n";
  });
  add("mat_wide_sci_width_12", [](std::ostream &o) {
    std::vector<torch::Tensor> parts;
    for (int i = 0; i < 16; ++i) parts.push_back(i % 2 ? f64_exact({3}, 2) : f64_exact({i + 1}, 1e120));
    o << torch::cat(parts).view({2, 8}) << "\n";
  });
  add("mat_wide_transposed", [](std::ostream &o) { o << ar(26, torch::kFloat).div(4).view({13, 2}).t() << "\n"; });
  add("mat_wide_neg", [](std::ostream &o) { o << ar(24, torch::kFloat).sub(12).div(3).view({2, 12}) << "\n"; });
  add("scalar_i32_big", [](std::ostream &o) { o << i32({2000000000}).reshape({}) << "\n"; });
  add("mat_exact_line", [](std::ostream &o) {
    o << ar(10, torch::kFloat).div(2).view({1, 10}) << "\n" << ar(11, torch::kFloat).div(2).view({1, 11}) << "\n";
  });

  // --- 3-d and more ---------------------------------------------------------------------------
  add("t3_f32_int_valued", [](std::ostream &o) { o << ar(24, torch::kFloat).view({2, 3, 4}) << "\n"; });
  add("t3_f32", [](std::ostream &o) { o << ar(12, torch::kFloat).div(8).view({3, 2, 2}) << "\n"; });
  add("t3_per_slice_format", [](std::ostream &o) {
    o << f32({1, 2, 3, 4, 100000.5, 2e5, 3e5, 4e5, 0.5, 0.25, 0.125, 1}).view({3, 2, 2}) << "\n";
  });
  add("t3_scaled_rows", [](std::ostream &o) { o << f32({0.001, 0.002, 0.003, 0.004, 0.005, 0.006}).view({1, 3, 2}) << "\n"; });
  add("t3_wide", [](std::ostream &o) { o << ar(40, torch::kFloat).div(4).view({2, 1, 20}) << "\n"; });
  add("t3_wide_scaled", [](std::ostream &o) { o << ar(24, torch::kFloat).add(0.5).mul(1e6).view({1, 2, 12}) << "\n"; });
  add("t3_i64", [](std::ostream &o) { o << ar(8, torch::kLong).sub(4).view({2, 2, 2}) << "\n"; });
  add("t3_bool", [](std::ostream &o) { o << b({1, 0, 0, 1}).view({2, 1, 2}) << "\n"; });
  add("t3_permuted", [](std::ostream &o) { o << ar(24, torch::kFloat).view({2, 3, 4}).permute({2, 0, 1}) << "\n"; });
  add("t4", [](std::ostream &o) { o << ar(24, torch::kFloat).view({2, 3, 2, 2}) << "\n"; });
  add("t5", [](std::ostream &o) { o << ar(16, torch::kInt).view({2, 2, 2, 1, 2}) << "\n"; });
  add("t3_precision_leak", [](std::ostream &o) {
    // The second block is integer-valued and inherits the first block's precision 4.
    o << f32({0.5, 1.5, 1234567, 2}).view({2, 1, 2}) << "\n";
  });
  add("t3_wide_scaled_fractional", [](std::ostream &o) {
    std::vector<double> v;
    for (int i = 0; i < 24; ++i) v.push_back((i + 1) * 100000.0 + 0.25);
    o << f32(v).view({1, 2, 12}) << "\n";
  });
  add("t3_expanded", [](std::ostream &o) { o << f32({0.5, 1.5}).view({1, 1, 2}).expand({2, 3, 2}) << "\n"; });
  add("t4_sliced", [](std::ostream &o) {
    o << ar(48, torch::kFloat).div(2).view({2, 2, 3, 4}).slice(3, 0, 4, 2).transpose(0, 1) << "\n";
  });
  add("t3_singleton", [](std::ostream &o) { o << f32({0.5}).view({1, 1, 1}) << "\n"; });

  // --- empty ----------------------------------------------------------------------------------
  add("empty_1d", [](std::ostream &o) { o << torch::zeros({0}) << "\n"; });
  add("empty_2d", [](std::ostream &o) { o << torch::zeros({0, 3}) << "\n" << torch::zeros({3, 0}) << "\n"; });
  add("empty_3d", [](std::ostream &o) { o << torch::zeros({2, 0, 3}) << "\n"; });
  add("empty_dtypes", [](std::ostream &o) {
    o << torch::zeros({0}, torch::kLong) << "\n" << torch::zeros({0}, torch::kInt) << "\n"
      << torch::zeros({0, 2}, torch::kBool) << "\n" << torch::zeros({0}, torch::kDouble) << "\n";
  });
  add("empty_narrow", [](std::ostream &o) { o << ar(5, torch::kFloat).narrow(0, 2, 0) << "\n"; });

  // --- surrounding text and stream state ------------------------------------------------------
  add("inline_text", [](std::ostream &o) { o << "x = " << f32({1.5, 2.5}) << " (end)" << std::endl; });
  add("two_in_a_row", [](std::ostream &o) { o << torch::ones({1}) << torch::zeros({1}, torch::kLong) << "\n"; });
  add("stream_state_restored", [](std::ostream &o) {
    std::ostringstream s;
    s << 1.0 / 3 << " " << f32({0.5, 1.5}) << " " << 2.0 / 3 << " " << std::setw(6) << 7 << "\n";
    o << s.str();
  });
  add("stream_precision_carried", [](std::ostream &o) {
    std::ostringstream s;
    s << std::setprecision(10) << torch::tensor(3.14159274f) << "\n" << f32({1, 2}) << "\n"
      << torch::tensor(int64_t(123456789)) << "\n" << 1.0 / 3 << "\n";
    o << s.str();
  });
  add("stream_fixed_user", [](std::ostream &o) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(2) << 1.0 / 3 << " " << f32({1, 2}) << " " << torch::tensor(0.5f)
      << " " << 2.0 / 3 << "\n";
    o << s.str();
  });

  // --- undefined and toString -----------------------------------------------------------------
  add("undefined", [](std::ostream &o) { o << torch::Tensor() << "\n"; });
  add("to_string", [](std::ostream &o) {
    o << f32({1}).toString() << "\n" << ar(2, torch::kDouble).toString() << "\n" << i64({1}).toString() << "\n"
      << i32({1}).toString() << "\n" << b({1}).toString() << "\n" << torch::Tensor().toString() << "\n";
  });

  // --- value types ----------------------------------------------------------------------------
  add("sizes", [](std::ostream &o) {
    auto t = ar(6, torch::kFloat).view({2, 3});
    o << t.sizes() << "\n" << t.strides() << "\n" << t.t().strides() << "\n" << torch::tensor(1.0f).sizes()
      << "\n" << torch::zeros({0}).sizes() << "\n" << torch::zeros({4, 1, 2}).sizes() << "\n";
  });
  add("scalar_types", [](std::ostream &o) {
    o << torch::kFloat << " " << torch::kDouble << " " << torch::kInt << " " << torch::kLong << " " << torch::kBool
      << " " << f32({1}).scalar_type() << "\n";
  });
  add("devices", [](std::ostream &o) {
    o << torch::Device(torch::kCPU) << " " << torch::Device("cpu") << " " << torch::Device("cuda:0") << " "
      << torch::Device(torch::kCUDA) << " " << torch::Device(torch::kCUDA, 1) << " " << f32({1}).device() << " "
      << torch::kCPU << " " << torch::kCUDA << "\n";
  });
  add("scalars", [](std::ostream &o) {
    o << torch::Scalar(1.5) << " " << torch::Scalar(3) << " " << torch::Scalar(int64_t(1) << 40) << " "
      << torch::Scalar(true) << " " << torch::Scalar(false) << " " << torch::Scalar(1e20) << " "
      << torch::Scalar(0.1f) << " " << torch::Scalar(2.0) << "\n";
  });
  add("dtypes_as_type_meta", [](std::ostream &o) {
    // x.dtype() is a caffe2::TypeMeta: it prints the C++ type name, not the ScalarType's.
    for (auto t : {torch::kFloat, torch::kDouble, torch::kInt, torch::kLong, torch::kBool, torch::kByte, torch::kChar,
                   torch::kShort}) {
      auto x = torch::zeros({2}, t);
      o << x.dtype() << " " << x.dtype().name() << " " << x.dtype().itemsize() << " " << x.options().dtype() << " "
        << x.dtype().toScalarType() << " " << c10::typeMetaToScalarType(x.dtype()) << " "
        << (x.dtype() == t) << (t == x.dtype()) << (x.dtype() != torch::kLong) << "\n";
    }
    auto f = torch::zeros({2}), l = torch::zeros({2}, torch::kLong);
    o << (f.dtype() == l.dtype()) << " " << torch::zeros({2}, l.dtype()).dtype() << " "
      << torch::ones({2}, torch::dtype(l.dtype())).dtype() << " " << f.to(l.dtype()).dtype() << " "
      << torch::zeros({1}, torch::TensorOptions().dtype(f.dtype())).dtype() << "\n";
    caffe2::TypeMeta m = l.dtype();
    torch::ScalarType st = m.toScalarType();
    o << m << " " << st << "\n";
  });
  add("narrow_integer_tensors", [](std::ostream &o) {
    // uint8 (images, old masks), int8 and int16: values print as numbers, never as characters.
    auto u = torch::tensor({0, 7, 200, 255}, torch::kUInt8), c = torch::tensor({-128, -1, 0, 65}, torch::kInt8);
    auto s = torch::tensor({-32768, 1000, 3, 32767}, torch::kInt16);
    o << u << "\n" << c << "\n" << s << "\n" << u.view({2, 2}) << "\n" << c.view({1, 2, 2}) << "\n";
    o << u.toString() << " " << c.toString() << " " << s.toString() << " " << u.scalar_type() << " " << torch::kI8 << " "
      << torch::kU8 << " " << torch::kI16 << " " << u.options() << "\n";
    o << u[2].item() << " " << c[0].item() << " " << s[0].item() << " " << int(u[3].item<uint8_t>()) << " "
      << int(c[3].item<int8_t>()) << "\n";
    o << torch::zeros({0}, torch::kByte) << "\n" << torch::tensor(200, torch::kByte) << "\n";
  });
  add("half_tensors", [](std::ostream &o) {
    // half and bfloat16: values print as the floats they hold, with LibTorch's type names.
    auto h = (ar(12, torch::kFloat).view({3, 4}) / 7 - 0.5).to(torch::kHalf);
    auto b = torch::tensor({0.1, 1000.5, -3.0}).to(torch::kBFloat16);
    o << h << "\n" << b << "\n" << h.dtype() << " " << b.dtype() << " " << h.scalar_type() << " " << torch::kBFloat16
      << " " << h.toString() << " " << h.options() << "\n";
    o << h[1][2].item() << " " << at::Half(0.1f) << " " << static_cast<float>(b[0].item<at::BFloat16>()) << " " << torch::full({2}, 65504.0, torch::kHalf) << "\n";
    o << torch::zeros({0}, torch::kHalf) << "\n" << torch::tensor(2.5, torch::kHalf) << "\n";
  });
  add("print_functions", [](std::ostream &o) {
    auto t = ar(12, torch::kFloat).view({3, 4}) * 1000.5;
    torch::print(o, t, 30);
    o << "\n";
    torch::print(t); // to std::cout, which is `o` here
    o << "\n";
  });
  add("tensor_options", [](std::ostream &o) {
    o << torch::TensorOptions() << "\n"
      << f32({1}).options() << "\n"
      << torch::TensorOptions().dtype(torch::kLong) << "\n"
      << torch::dtype(torch::kDouble).requires_grad(true) << "\n";
  });
  add("sizes_of_views", [](std::ostream &o) {
    auto t = ar(24, torch::kFloat).view({2, 3, 4});
    o << t.permute({2, 0, 1}).sizes() << " " << t.permute({2, 0, 1}).strides() << " " << t.select(1, 0).sizes()
      << " " << t[1].sizes() << "\n";
  });
  add("items", [](std::ostream &o) {
    o << f32({2.5}).item() << " " << i64({-3}).item() << " " << b({1}).item() << " " << ar(4, torch::kFloat).sum().item()
      << " " << f32({0.1}).item() << "\n";
  });
  add("module_tree", [](std::ostream &o) {
    PrintedNet net;
    o << net << "\n" << *net << "\n" << net->name() << "\n";
  });
  add("module_single_layers", [](std::ostream &o) {
    o << torch::nn::Linear(2, 3) << "\n" << *torch::nn::Conv2d(1, 2, 3) << "\n" << torch::nn::Sequential() << "\n";
  });
  add("module_functional", [](std::ostream &o) {
    torch::nn::Sequential seq(torch::nn::Linear(2, 2), torch::nn::Functional(torch::relu),
                              torch::nn::Functional(torch::leaky_relu, 0.2));
    o << *seq << "\n" << torch::nn::Functional(torch::tanh) << "\n";
  });
  // LibTorch's <torch/torch.h> streams std containers (c10's logging header): shapes kept in
  // vectors, maps of names, pairs.
  add("std_containers", [](std::ostream &o) {
    std::vector<int64_t> shape{2, 3, 4};
    std::vector<int64_t> long_shape(120, 7);
    std::map<std::string, int64_t> counts{{"car", 2}, {"person", 5}};
    std::set<int64_t> ids{4, 1, 3};
    std::pair<int64_t, double> best{3, 0.5};
    o << shape << "|" << std::vector<int64_t>{} << "|" << counts << "|" << ids << "|" << best << "|"
      << std::vector<std::pair<int64_t, int64_t>>{{1, 2}, {3, 4}} << "|" << std::vector<std::vector<int64_t>>{{1}, {2, 3}}
      << "\n" << long_shape << "\n" << torch::ones({2}).sizes().vec() << "\n";
  });
  // LibTorch writes bool options with `std::boolalpha` and leaves the stream so: a user's next
  // `<< flag` prints "true" after some layers and "1" after others.
  add("module_print_leaves_boolalpha", [](std::ostream &o) {
    namespace nn = torch::nn;
    auto after = [&](const char *name, const auto &module) {
      std::ostringstream s;
      s << module << " then " << true;
      o << name << ": " << s.str().substr(s.str().find(" then ")) << "\n";
    };
    after("Linear", nn::Linear(2, 3));
    after("Conv2d", nn::Conv2d(1, 2, 3));
    after("Conv2d no bias", nn::Conv2d(nn::Conv2dOptions(1, 2, 3).bias(false)));
    after("ConvTranspose2d no bias", nn::ConvTranspose2d(nn::ConvTranspose2dOptions(1, 2, 3).bias(false)));
    after("ReLU", nn::ReLU());
    after("ReLU inplace", nn::ReLU(nn::ReLUOptions().inplace(true)));
    after("LeakyReLU", nn::LeakyReLU());
    after("BatchNorm2d", nn::BatchNorm2d(4));
    after("Dropout", nn::Dropout(0.5));
    after("MaxPool2d", nn::MaxPool2d(2));
    after("AvgPool2d", nn::AvgPool2d(2));
    after("LSTM", nn::LSTM(4, 8));
    after("Embedding", nn::Embedding(10, 4));
    after("LayerNorm", nn::LayerNorm(nn::LayerNormOptions({4})));
    after("GroupNorm", nn::GroupNorm(2, 4));
    after("Sequential", nn::Sequential(nn::Linear(2, 2)));
    after("Sequential of ReLU", nn::Sequential(nn::ReLU()));
  });
  add("module_user_pretty_print", [](std::ostream &o) {
    auto d = std::make_shared<DescribedImpl>();
    d->register_module("fc", torch::nn::Linear(1, 1));
    o << *d << "\n";
  });
  return c;
}

} // namespace

int main() {
  std::vector<Case> all = cases();
  for (auto &c : scriptCases())
    all.push_back(std::move(c));
  for (auto &[name, fn] : all) {
    std::cout << "=== " << name << " ===\n";
    try {
      fn(std::cout);
    } catch (const std::exception &) {
      std::cout << "<threw>\n";
    }
    std::cout.flush();
  }
  return 0;
}
