// Post-capture pass: a CPU convolution followed by a batch norm with given statistics (eval
// mode), and by a relu when there is one, becomes one convolution that applies the batch norm's
// per-channel affine map and the relu to each value as it stores it (cpu::ConvEpilogue).
// Eagerly the convolution writes its whole output, the batch norm reads it and writes another
// buffer, and the relu reads and writes a third: three passes over memory that a ResNet's
// activations do not fit in cache for. Fused, the values go from the product's registers to the
// last buffer. The weights are not folded: the batch norm's scale and shift are computed from its
// tensors on every replay, and applied to the stored convolution value exactly as the separate
// kernels do, so the bits are theirs.
//
// Invariant: only intermediates nobody else can see disappear. The convolution's output (and the
// batch norm's, when a relu follows) is tape private and touched by exactly the two nodes that
// write and read it; the batch norm reads it as one dense view; the fused node writes the last
// buffer, which no input of the convolution shares.
#include "Tape.h"

#include "../cpu/KernelTable.h"

#include <algorithm>

namespace gfy::detail {
namespace {

Storage *storage_of(const Tensor &t) { return t.unsafeGetTensorImpl()->storage.get(); }

/// `t` is a dense view of all `numel` elements of a buffer, starting at its first element.
bool dense_whole(const Tensor &t, int64_t numel) {
  const TensorImpl &i = *t.unsafeGetTensorImpl();
  return t.defined() && i.contiguous && i.offset == 0 && i.numel == numel;
}

/// The intermediate `t` written at node `writer` is read by node `reader` only.
bool only_between(const TapeAccesses &acc, const Tensor &t, int64_t writer, int64_t reader) {
  Storage *st = storage_of(t);
  const auto &u = acc.use(st);
  return acc.tape_private(st) && u.first_is_write && u.nodes == std::vector<int64_t>{writer, reader};
}

/// The node of a fused group. Its call is the convolution's, writing into the last buffer, with
/// the batch norm's mean, var, weight and bias appended as inputs 3 to 6 (so that the passes after
/// this one see every access); they become scale and shift on every run (cpu::conv2d_batch_norm,
/// at the level the batch norm kernel runs at, so the map's bits are the kernel's).
struct ConvEpilogueNode {
  std::shared_ptr<OpCall> call;
  double eps;
  bool relu;
  void operator()() const { cpu::kernels().conv2d_batch_norm(*call, eps, relu); }
};

} // namespace

int64_t fuse_conv_epilogues(Tape &tape) {
  const TapeAccesses acc(tape);
  const int64_t n = int64_t(tape.calls.size());
  auto call = [&](int64_t i) { return i < n ? tape.calls[size_t(i)].get() : nullptr; };
  Tape rebuilt;
  int64_t removed = 0;
  for (int64_t i = 0; i < n;) {
    const OpCall *conv = call(i), *bn = call(i + 1);
    auto keep = [&] {
      rebuilt.nodes.push_back(std::move(tape.nodes[size_t(i)]));
      rebuilt.calls.push_back(std::move(tape.calls[size_t(i)]));
      ++i;
    };
    if (!conv || conv->op != OpId::conv2d || !bn || bn->op != OpId::batch_norm || bn->in.size() != 5) {
      keep();
      continue;
    }
    const Tensor &y = conv->out[0]; // y: (N, O, oH, oW)
    const ScalarType t = y.scalar_type();
    if (!y.is_cpu() || (t != kFloat && t != kDouble) || !cpu::kernels().conv2d_tiled_suits(cpu::conv_geometry(*conv)) ||
        !dense_whole(y, y.numel()) || !only_between(acc, y, i, i + 1) || !dense_whole(bn->in[0], y.numel()) ||
        storage_of(bn->in[0]) != storage_of(y) || bn->in[0].scalar_type() != t || !bn->in[1].defined() ||
        !bn->in[2].defined() || std::any_of(bn->in.begin() + 1, bn->in.end(), [&](const Tensor &p) {
          return p.defined() && storage_of(p) == storage_of(y); // y is never written once fused
        })) {
      keep();
      continue;
    }
    // The buffer the group ends in: the batch norm's output, or the relu's that reads only it.
    Tensor last = bn->out[0];
    const OpCall *relu = call(i + 2);
    const bool with_relu = relu && relu->op == OpId::relu && dense_whole(relu->in[0], y.numel()) &&
                           storage_of(relu->in[0]) == storage_of(last) && only_between(acc, last, i + 1, i + 2) &&
                           dense_whole(relu->out[0], y.numel());
    if (with_relu) last = relu->out[0];
    bool aliases_input = !dense_whole(last, y.numel()) || last.scalar_type() != t;
    for (const Tensor &in : conv->in) aliases_input = aliases_input || (in.defined() && storage_of(in) == storage_of(last));
    if (aliases_input) {
      keep();
      continue;
    }
    auto fused = std::make_shared<OpCall>(*conv);
    const std::vector<int64_t> sizes = y.sizes().vec(), strides = y.strides().vec();
    fused->out = {make_view(last, sizes, strides, 0)};
    fused->in.resize(3);
    fused->in.insert(fused->in.end(), bn->in.begin() + 1, bn->in.end()); // mean, var, weight, bias
    rebuilt.nodes.push_back(ConvEpilogueNode{fused, bn->alpha, with_relu});
    rebuilt.calls.push_back(fused);
    const int64_t group = with_relu ? 3 : 2;
    removed += group - 1;
    i += group;
  }
  tape.nodes = std::move(rebuilt.nodes);
  tape.calls = std::move(rebuilt.calls);
  return removed;
}

} // namespace gfy::detail
