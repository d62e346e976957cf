// Differential cases for the ops and layers the model files of testdata/compat/models need
// (issue #17, second slice): bmm-family products and einsum, kthvalue, meshgrid, transposed
// convolution, group and instance normalisation, padding, the recurrent cells and layers, and
// MultiheadAttention. Inputs and weights come from model_inputs.h (host formulas), so the
// comparison sees only the two libraries' arithmetic. Errors must be errors on both sides.
#include "dump_main.h"
#include "model_inputs.h"

#include <tuple>
#include <vector>

namespace {

using diff::Out;
using diff::S;
using diff::model_inputs::fix_model;
using diff::model_inputs::names_checksum;
using diff::model_inputs::wave;
namespace F = torch::nn::functional;

}  // namespace

// --- products ----------------------------------------------------------------------------------
DIFF_CASE(ops2_baddbmm) {
  auto self = wave({2, 3, 4}, 1.0, 0.1), b1 = wave({2, 3, 5}, 1.0, 0.2), b2 = wave({2, 5, 4}, 1.0, 0.3);
  return {torch::baddbmm(self, b1, b2), torch::baddbmm(self, b1, b2, 0.5, 2.0), self.baddbmm(b1, b2, 1, -1),
          torch::baddbmm(wave({4}, 1.0, 0.4), b1, b2)};
}
DIFF_CASE(ops2_baddbmm_beta_zero_ignores_nan) {
  auto self = torch::full({2, 2, 2}, std::numeric_limits<float>::quiet_NaN());
  return torch::baddbmm(self, wave({2, 2, 3}, 1.0, 0.0), wave({2, 3, 2}, 1.0, 1.0), 0.0, 1.0);
}
DIFF_CASE(ops2_baddbmm_shape_errors) {
  return torch::baddbmm(wave({2, 3, 4}, 1, 0), wave({2, 3, 5}, 1, 0), wave({2, 4, 4}, 1, 0));
}
DIFF_CASE(ops2_einsum_products) {
  auto a = wave({3, 4}, 1.0, 0.1), b = wave({4, 5}, 1.0, 0.2), v = wave({4}, 1.0, 0.3);
  return {torch::einsum("ij,jk->ik", {a, b}), torch::einsum("ij,jk", {a, b}), torch::einsum("ij->ji", {a}),
          torch::einsum("ij->", {a}), torch::einsum("ij->j", {a}), torch::einsum("i,j->ij", {v, v}),
          torch::einsum("ij,j->i", {a, v}), torch::einsum("i,i->", {v, v}), torch::einsum("ij,ij->ij", {a, a})};
}
DIFF_CASE(ops2_einsum_batched_attention) {
  auto q = wave({2, 3, 5, 4}, 1.0, 0.1), k = wave({2, 3, 6, 4}, 1.0, 0.7);
  auto s = torch::einsum("bhqd,bhkd->bhqk", {q, k});
  return {s, torch::einsum("bhqk,bhkd->bhqd", {torch::softmax(s, -1), k}), torch::einsum("bij,bjk->bik", {q[0], k[0].transpose(1, 2)})};
}
DIFF_CASE(ops2_einsum_ellipsis_and_three_operands) {
  auto a = wave({2, 1, 3, 4}, 1.0, 0.1), b = wave({5, 4, 2}, 1.0, 0.2);
  auto x = wave({3, 4}, 1.0, 0.3), y = wave({4, 5}, 1.0, 0.4), z = wave({5, 2}, 1.0, 0.5);
  auto bl1 = wave({2, 3}, 1.0, 0.6), w = wave({4, 3, 5}, 1.0, 0.7), bl2 = wave({2, 5}, 1.0, 0.8);
  return {torch::einsum("...ij,...jk->...ik", {a, b}), torch::einsum("ij,jk,kl->il", {x, y, z}),
          torch::einsum("bn,anm,bm->ba", {bl1, w, bl2}), torch::einsum("...ij->...ji", {a}), torch::einsum("i...->...", {b})};
}
DIFF_CASE(ops2_einsum_subscript_count_errors) { return torch::einsum("ijk,jk->ik", {wave({3, 4}, 1, 0), wave({4, 5}, 1, 0)}); }
DIFF_CASE(ops2_einsum_operand_count_errors) { return torch::einsum("ij,jk->ik", {wave({3, 4}, 1, 0)}); }

// --- selection and grids -----------------------------------------------------------------------
DIFF_CASE(ops2_kthvalue) {
  auto x = wave({3, 7}, 1.0, 0.2);
  auto [v1, i1] = torch::kthvalue(x, 3);
  auto [v2, i2] = torch::kthvalue(x, 2, 0, /*keepdim=*/true);
  auto [v3, i3] = x.kthvalue(7, -1);
  auto [v4, i4] = torch::kthvalue(wave({5}, 1.0, 0.9).to(torch::kDouble), 1);
  return {v1, i1, v2, i2, v3, i3, v4, i4};
}
DIFF_CASE(ops2_kthvalue_k_out_of_range_errors) { return std::get<0>(torch::kthvalue(wave({3, 4}, 1, 0), 5)); }
DIFF_CASE(ops2_meshgrid) {
  auto a = torch::arange(3), b = torch::arange(4, torch::kFloat), c = torch::arange(2);
  auto ij = torch::meshgrid({a, b.to(torch::kLong)}, "ij");
  auto xy = torch::meshgrid({b, b * 2}, "xy");
  auto three = torch::meshgrid({a, c, a}, "ij");
  return {ij[0], ij[1], xy[0], xy[1], three[0], three[1], three[2]};
}
DIFF_CASE(ops2_meshgrid_2d_input_errors) { return torch::meshgrid({torch::zeros({2, 2}), torch::zeros({2})}, "ij")[0]; }

// --- transposed convolution --------------------------------------------------------------------
DIFF_CASE(ops2_conv_transpose2d_variants) {
  auto x = wave({2, 4, 5, 6}, 1.0, 0.1);
  auto w = wave({4, 3, 3, 3}, 0.3, 0.2), b = wave({3}, 0.1, 0.3);
  auto wg = wave({4, 2, 2, 3}, 0.3, 0.4);
  return {torch::conv_transpose2d(x, w), torch::conv_transpose2d(x, w, b, 2), torch::conv_transpose2d(x, w, b, 2, 1, 1),
          torch::conv_transpose2d(x, w, {}, {2, 3}, {1, 0}, {1, 2}), torch::conv_transpose2d(x, w, b, 1, 2, 0, 1, 2),
          torch::conv_transpose2d(x, wg, {}, 2, 0, 0, /*groups=*/2), torch::conv_transpose2d(x[0], w, b, 2, 1)};
}
DIFF_CASE(ops2_conv_transpose1d_and_f64) {
  auto x = wave({2, 3, 7}, 1.0, 0.1);
  auto w = wave({3, 2, 4}, 0.3, 0.2);
  return {torch::conv_transpose1d(x, w, {}, 3, 1, 2), torch::conv_transpose1d(x.to(torch::kDouble), w.to(torch::kDouble), {}, 2)};
}
DIFF_CASE(ops2_nn_conv_transpose2d_module) {
  torch::nn::ConvTranspose2d up(torch::nn::ConvTranspose2dOptions(4, 2, 2).stride(2));
  torch::nn::ConvTranspose2d up2(torch::nn::ConvTranspose2dOptions(4, 6, 3).stride(2).padding(1).groups(2).bias(false));
  fix_model(*up);
  fix_model(*up2);
  auto x = wave({1, 4, 3, 5}, 1.0, 0.5);
  return {up(x), up2(x), up2->forward(x, std::vector<int64_t>{6, 10}), up->weight, S{names_checksum(up2->named_parameters())}};
}
DIFF_CASE(ops2_nn_conv_transpose_init_bounds) {
  torch::nn::ConvTranspose2d up(torch::nn::ConvTranspose2dOptions(4, 6, 3).groups(2));
  const double bound = 1.0 / std::sqrt(3.0 * 9.0);
  return {S{up->weight.abs().max().item<double>() <= bound ? 1.0 : 0.0}, S{up->bias.abs().max().item<double>() <= bound ? 1.0 : 0.0},
          S{static_cast<double>(up->weight.size(1))}};
}
DIFF_CASE(ops2_F_conv_transpose2d_options) {
  auto x = wave({1, 2, 4, 4}, 1.0, 0.1), w = wave({2, 3, 3, 3}, 0.3, 0.2);
  return F::conv_transpose2d(x, w, F::ConvTranspose2dFuncOptions().stride(2).padding(1).output_padding(1).bias(wave({3}, 0.1, 0)));
}
DIFF_CASE(ops2_conv_transpose2d_output_padding_errors) {
  return torch::conv_transpose2d(wave({1, 2, 4, 4}, 1, 0), wave({2, 3, 3, 3}, 1, 0), {}, 2, 0, 2);
}
DIFF_CASE(ops2_conv_transpose2d_channel_errors) {
  return torch::conv_transpose2d(wave({1, 3, 4, 4}, 1, 0), wave({2, 3, 3, 3}, 1, 0));
}

// --- normalisation -----------------------------------------------------------------------------
DIFF_CASE(ops2_group_norm) {
  auto x = wave({2, 6, 3, 4}, 2.0, 0.1) + 0.5;
  return {torch::group_norm(x, 3), torch::group_norm(x, 2, wave({6}, 0.5, 0.2) + 1, wave({6}, 0.1, 0.3), 1e-3),
          torch::group_norm(x.flatten(2), 6), F::group_norm(x, F::GroupNormFuncOptions(1).eps(1e-2))};
}
DIFF_CASE(ops2_nn_group_norm_module) {
  torch::nn::GroupNorm gn(torch::nn::GroupNormOptions(2, 4));
  torch::nn::GroupNorm plain(torch::nn::GroupNormOptions(4, 4).affine(false));
  fix_model(*gn);
  auto x = wave({3, 4, 5}, 1.0, 0.2);
  return {gn(x), plain(x), S{names_checksum(gn->named_parameters())}, S{static_cast<double>(plain->parameters().size())}};
}
DIFF_CASE(ops2_group_norm_groups_errors) { return torch::group_norm(wave({2, 6, 4}, 1, 0), 4); }
DIFF_CASE(ops2_nn_instance_norm2d) {
  torch::nn::InstanceNorm2d in(torch::nn::InstanceNorm2dOptions(3).affine(true));
  fix_model(*in);
  auto x = wave({2, 3, 4, 5}, 1.5, 0.3);
  auto train = in(x);
  in->eval();
  return {train, in(x), in(x[0]), S{names_checksum(in->named_parameters())}, S{static_cast<double>(in->buffers().size())}};
}
DIFF_CASE(ops2_nn_instance_norm_running_stats) {
  torch::nn::InstanceNorm1d in(torch::nn::InstanceNorm1dOptions(3).track_running_stats(true).momentum(0.3));
  auto x = wave({4, 3, 6}, 1.5, 0.3) + 0.2;
  auto y_train = in(x);
  auto mean = in->running_mean.clone(), var = in->running_var.clone();
  in->eval();
  return {y_train, mean, var, in(x), S{names_checksum(in->named_buffers())}};
}
DIFF_CASE(ops2_F_instance_norm) {
  auto x = wave({2, 3, 5}, 1.0, 0.1);
  return {F::instance_norm(x), F::instance_norm(x, F::InstanceNormFuncOptions().weight(wave({3}, 0.5, 0) + 1).eps(1e-3))};
}
DIFF_CASE(ops2_nn_instance_norm2d_rank_errors) {
  torch::nn::InstanceNorm2d in(3);
  return in(wave({2, 3, 4, 4, 4}, 1, 0));
}

// --- padding -----------------------------------------------------------------------------------
DIFF_CASE(ops2_pad_constant) {
  auto x = wave({2, 3, 4}, 1.0, 0.1);
  return {torch::constant_pad_nd(x, {1, 2}), torch::constant_pad_nd(x, {1, 0, 0, 2}, 3.5),
          F::pad(x, F::PadFuncOptions({-1, 1, 2, -1})), F::pad(x, F::PadFuncOptions({1, 1, 1, 1, 1, 1}).value(-2)),
          torch::constant_pad_nd(torch::arange(6).view({2, 3}), {1, 1}, 7)};
}
DIFF_CASE(ops2_pad_reflect_replicate_circular) {
  auto x3 = wave({2, 3, 5}, 1.0, 0.1), x4 = wave({1, 2, 4, 5}, 1.0, 0.2);
  return {F::pad(x3, F::PadFuncOptions({2, 3}).mode(torch::kReflect)),
          F::pad(x4, F::PadFuncOptions({1, 2, 3, 0}).mode(torch::kReflect)),
          F::pad(x3, F::PadFuncOptions({4, 1}).mode(torch::kReplicate)),
          F::pad(x4, F::PadFuncOptions({2, 2, 1, 3}).mode(torch::kReplicate)),
          F::pad(x4, F::PadFuncOptions({1, 2, 2, 1}).mode(torch::kCircular)),
          torch::reflection_pad2d(x4[0], {1, 1, 1, 1}), torch::replication_pad1d(x3, {0, 2})};
}
DIFF_CASE(ops2_nn_pad_modules) {
  auto x = wave({1, 2, 3, 4}, 1.0, 0.4);
  torch::nn::ReflectionPad2d reflect(1);
  torch::nn::ReplicationPad2d replicate(torch::nn::ReplicationPad2dOptions({1, 0, 2, 1}));
  torch::nn::ZeroPad2d zero(torch::nn::ZeroPad2dOptions({0, 1, 1, 0}));
  torch::nn::ConstantPad2d constant(2, 0.5);
  torch::nn::ReflectionPad1d reflect1(torch::nn::ReflectionPad1dOptions({2, 1}));
  return {reflect(x), replicate(x), zero(x), constant(x), reflect1(x[0])};
}
DIFF_CASE(ops2_pad_reflect_too_large_errors) { return F::pad(wave({1, 2, 3}, 1, 0), F::PadFuncOptions({3, 0}).mode(torch::kReflect)); }
DIFF_CASE(ops2_pad_odd_length_errors) { return torch::constant_pad_nd(wave({2, 3}, 1, 0), {1, 2, 3}); }
DIFF_CASE(ops2_pad_too_many_dims_errors) { return torch::constant_pad_nd(wave({3}, 1, 0), {1, 1, 1, 1}); }

// --- recurrent cells and layers ----------------------------------------------------------------
DIFF_CASE(ops2_rnn_cell_functions) {
  auto x = wave({3, 4}, 1.0, 0.1), h = wave({3, 5}, 0.5, 0.2), c = wave({3, 5}, 0.5, 0.3);
  auto w3i = wave({15, 4}, 0.4, 0.4), w3h = wave({15, 5}, 0.4, 0.5), b3 = wave({15}, 0.1, 0.6);
  auto w4i = wave({20, 4}, 0.4, 0.7), w4h = wave({20, 5}, 0.4, 0.8);
  auto w1i = wave({5, 4}, 0.4, 0.9), w1h = wave({5, 5}, 0.4, 1.0);
  auto [h1, c1] = torch::lstm_cell(x, {h, c}, w4i, w4h, wave({20}, 0.1, 0), wave({20}, 0.1, 1));
  return {torch::gru_cell(x, h, w3i, w3h, b3, b3 * 2), torch::gru_cell(x, h, w3i, w3h), h1, c1,
          torch::rnn_tanh_cell(x, h, w1i, w1h), torch::rnn_relu_cell(x, h, w1i, w1h, wave({5}, 0.1, 2))};
}
DIFF_CASE(ops2_nn_cells) {
  torch::nn::GRUCell gru(4, 5);
  torch::nn::LSTMCell lstm(torch::nn::LSTMCellOptions(4, 5).bias(false));
  torch::nn::RNNCell rnn(torch::nn::RNNCellOptions(4, 5).nonlinearity(torch::kReLU));
  fix_model(*gru);
  fix_model(*lstm);
  fix_model(*rnn);
  auto x = wave({2, 4}, 1.0, 0.3), h = wave({2, 5}, 0.5, 0.1);
  auto [h1, c1] = lstm(x);
  auto [h2, c2] = lstm(x, std::make_tuple(h1, c1));
  return {gru(x), gru(x, h), h2, c2, rnn(x, h), rnn(x.slice(0, 1)),
          S{names_checksum(gru->named_parameters()) + names_checksum(lstm->named_parameters())}};
}
DIFF_CASE(ops2_nn_gru_layers) {
  torch::nn::GRU gru(torch::nn::GRUOptions(3, 4).num_layers(2).batch_first(true));
  fix_model(*gru);
  auto x = wave({2, 5, 3}, 1.0, 0.2);
  auto [out, h] = gru(x);
  auto [out2, h2] = gru(x, wave({2, 2, 4}, 0.5, 0.4));
  return {out, h, out2, h2, S{names_checksum(gru->named_parameters())}};
}
DIFF_CASE(ops2_nn_rnn_layers) {
  torch::nn::RNN tanh_rnn(torch::nn::RNNOptions(3, 4));
  torch::nn::RNN relu_rnn(torch::nn::RNNOptions(3, 4).num_layers(3).nonlinearity(torch::kReLU).bias(false));
  fix_model(*tanh_rnn);
  fix_model(*relu_rnn);
  auto x = wave({6, 2, 3}, 1.0, 0.2);
  auto [o1, h1] = tanh_rnn(x);
  auto [o2, h2] = relu_rnn(x);
  return {o1, h1, o2, h2, S{names_checksum(relu_rnn->named_parameters())}};
}
DIFF_CASE(ops2_nn_gru_input_size_errors) {
  torch::nn::GRU gru(3, 4);
  return std::get<0>(gru(wave({5, 2, 2}, 1, 0)));
}
// LibTorch 1.13's C++ recurrent modules take batched input only.
DIFF_CASE(ops2_nn_gru_unbatched_errors) {
  torch::nn::GRU gru(3, 4);
  return std::get<0>(gru(wave({5, 3}, 1, 0)));
}
DIFF_CASE(ops2_nn_gru_cell_unbatched_errors) {
  torch::nn::GRUCell cell(3, 4);
  return cell(wave({3}, 1, 0));
}
DIFF_CASE(ops2_gru_cell_hidden_size_errors) {
  return torch::gru_cell(wave({3, 4}, 1, 0), wave({3, 6}, 1, 0), wave({15, 4}, 1, 0), wave({15, 5}, 1, 0));
}

// --- attention ---------------------------------------------------------------------------------
DIFF_CASE(ops2_nn_multihead_self_attention) {
  torch::nn::MultiheadAttention mha(torch::nn::MultiheadAttentionOptions(8, 2));
  fix_model(*mha);
  mha->eval();
  auto x = wave({5, 3, 8}, 1.0, 0.1);
  auto pad = torch::zeros({3, 5}, torch::kBool);
  pad.index_put_({1, torch::indexing::Slice(3, torch::indexing::None)}, true);
  auto causal = torch::triu(torch::full({5, 5}, -std::numeric_limits<float>::infinity()), 1);
  auto [o1, w1] = mha(x, x, x);
  auto [o2, w2] = mha(x, x, x, pad);
  auto [o3, w3] = mha(x, x, x, torch::Tensor(), true, causal, /*average_attn_weights=*/false);
  auto [o4, w4] = mha(x, x, x, pad, /*need_weights=*/false);
  return {o1, w1, o2, w2, o3, w3, o4, S{w4.defined() ? 1.0 : 0.0}, S{names_checksum(mha->named_parameters())}};
}
DIFF_CASE(ops2_nn_multihead_cross_attention) {
  torch::nn::MultiheadAttention mha(torch::nn::MultiheadAttentionOptions(6, 3).add_bias_kv(true).add_zero_attn(true));
  fix_model(*mha);
  mha->eval();
  auto q = wave({4, 2, 6}, 1.0, 0.1), kv = wave({7, 2, 6}, 1.0, 0.5), v = wave({7, 2, 6}, 1.0, 0.9);
  auto pad = torch::zeros({2, 7}, torch::kBool);
  pad.index_put_({0, 0}, true);
  auto [o1, w1] = mha(q, kv, kv, pad);
  auto [o2, w2] = mha(q, kv, v);
  return {o1, w1, o2, w2, S{names_checksum(mha->named_parameters())}};
}
DIFF_CASE(ops2_nn_multihead_kdim_vdim) {
  torch::nn::MultiheadAttention mha(torch::nn::MultiheadAttentionOptions(4, 2).kdim(3).vdim(3).bias(false));
  fix_model(*mha);
  mha->eval();
  auto [o, w] = mha(wave({2, 3, 4}, 1.0, 0.1), wave({6, 3, 3}, 1.0, 0.2), wave({6, 3, 3}, 1.0, 0.3));
  return {o, w, S{names_checksum(mha->named_parameters())}};
}
// LibTorch 1.13's C++ forward asserts equal key and value shapes, so kdim != vdim is an error.
DIFF_CASE(ops2_nn_multihead_key_value_shape_errors) {
  torch::nn::MultiheadAttention mha(torch::nn::MultiheadAttentionOptions(4, 2).kdim(3).vdim(5));
  return std::get<0>(mha(wave({2, 3, 4}, 1.0, 0.1), wave({6, 3, 3}, 1.0, 0.2), wave({6, 3, 5}, 1.0, 0.3)));
}
DIFF_CASE(ops2_nn_multihead_heads_errors) {
  torch::nn::MultiheadAttention mha(torch::nn::MultiheadAttentionOptions(6, 4));
  return mha->in_proj_weight;
}
