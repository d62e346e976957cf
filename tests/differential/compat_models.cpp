// Differential cases for the realistic model files of testdata/compat/models: each file is
// included unchanged (inside its own namespace, so that two files may both define a `ConvImpl`
// or alias `nn`), built with the same deterministic weights on both sides, run on the same
// inputs, and its outputs dumped (Differential.compat_model_*). The files also compile on their
// own, as ordinary translation units (compat.models.compile.*).
//
// Weights come from a host-side formula keyed by each parameter's name, so registration order
// and the two libraries' random generators play no part; the names themselves are compared
// through a checksum, so a module registered under another name fails too.
#include "dump_main.h"
#include "model_inputs.h"

// Everything the model files include, first: their own includes then find the guards set and
// add nothing inside the namespaces below.
#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

namespace resnet {
#include "resnet.cpp"
}  // namespace resnet
namespace unet {
#include "unet.cpp"
}  // namespace unet
namespace yolo {
#include "yolo_head.cpp"
}  // namespace yolo
namespace transformer {
#include "transformer_encoder.cpp"
}  // namespace transformer
namespace seq2seq {
#include "seq2seq_decoder.cpp"
}  // namespace seq2seq

using diff::S;
using diff::model_inputs::fix_model;
using diff::model_inputs::names_checksum;
using diff::model_inputs::tokens;
using diff::model_inputs::wave;

DIFF_CASE(compat_model_resnet_basic_eval) {
  auto net = resnet::resnet_small(10);
  fix_model(net);
  net.eval();
  return {net.forward(wave({2, 3, 32, 32}, 1.0, 0.5)), S{names_checksum(net.named_parameters())},
          S{names_checksum(net.named_buffers())}};
}

DIFF_CASE(compat_model_resnet_bottleneck_eval) {
  auto net = resnet::resnet_bottleneck(5);
  fix_model(net);
  net.eval();
  return {net.forward(wave({1, 3, 24, 24}, 1.0, 1.5)), S{names_checksum(net.named_parameters())}};
}

DIFF_CASE(compat_model_resnet_train_batch_stats) {
  auto net = resnet::resnet_small(4);
  fix_model(net);
  net.train();
  // Batch 8 at 32x32, so that the deepest batch statistics still average 8 x 4 x 4 values per
  // channel: with a few values, the normalisations amplify float rounding beyond the tolerance.
  auto y = net.forward(wave({8, 3, 32, 32}, 1.0, 0.1));
  return {y, net.bn1->running_mean, net.bn1->running_var};
}

DIFF_CASE(compat_model_unet_eval) {
  unet::UNet net(3, 2);
  fix_model(*net);
  net->eval();
  // Odd sizes: the decoder pads the upsampled maps to the skip connections' sizes.
  return {net->forward(wave({2, 3, 19, 21}, 1.0, 0.2)), S{names_checksum(net->named_parameters())},
          S{names_checksum(net->named_buffers())}};
}

DIFF_CASE(compat_model_unet_train) {
  unet::UNet net(3, 1);
  fix_model(*net);
  net->train();
  return net->forward(wave({2, 3, 16, 16}, 1.0, 0.7));
}

DIFF_CASE(compat_model_yolo_eval) {
  yolo::TinyYolo net(3);
  fix_model(*net);
  net->eval();
  return {net->forward(wave({1, 3, 64, 64}, 1.0, 0.3)), S{names_checksum(net->named_parameters())},
          S{names_checksum(net->named_buffers())}};
}

DIFF_CASE(compat_model_transformer_eval) {
  transformer::TextClassifier net(50, 16, 4, 2, 3);
  fix_model(*net);
  net->eval();
  auto ids = tokens({2, 7}, 50, 3);
  auto pad = torch::zeros({2, 7}, torch::kBool);
  pad.index_put_({1, torch::indexing::Slice(5, torch::indexing::None)}, true);
  return {net->forward(ids, pad), S{names_checksum(net->named_parameters())}};
}

DIFF_CASE(compat_model_seq2seq_greedy) {
  seq2seq::Seq2Seq net(20, 12, 2);
  fix_model(*net);
  net->eval();
  auto out = net->forward(tokens({3, 6}, 20, 1), /*steps=*/4, /*sos=*/1);
  return {out[0], out[1], out[2], S{names_checksum(net->named_parameters())}};
}
