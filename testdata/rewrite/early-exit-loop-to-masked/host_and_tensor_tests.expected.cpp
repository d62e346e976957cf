// early-exit-loop-to-masked: an exit test that joins a host test of values not read from tensors
// (an optional end id, a config's method, a tensor's shape) with a test of a value read from a
// tensor. The host side stays a host test that picks the tensor test or a constant 0-d mask,
// which reads nothing from the tensor (where the original short-circuits, the read would not run).
#include "mock_torch.h"

#include <algorithm>
#include <optional>

struct Vocab {
  int64_t end = -1;
  int64_t end_id() const { return end; }
};

torch::Tensor optional_end(torch::Tensor h, torch::Tensor w, int64_t eos) {
  auto active = torch::ones({}, h.options().dtype(torch::kBool));
  for (int64_t t = 0; t < 8; ++t) {
    h = torch::where(active, torch::matmul(h, w).relu(), h);
    auto tok = h.argmax(0);
    active = torch::logical_and(
        active,
        torch::logical_not(
            (eos != -1 ? tok.reshape({}) == eos
                       : torch::zeros({}, tok.options().dtype(torch::kBool)))));
  }
  return h;
}

torch::Tensor vocab_end(torch::Tensor h, torch::Tensor w, const Vocab &vocab) {
  auto active = torch::ones({}, h.options().dtype(torch::kBool));
  for (int64_t t = 0; t < 8; ++t) {
    h = torch::where(active, torch::matmul(h, w).relu(), h);
    auto tok = h.argmax(0);
    active = torch::logical_and(
        active,
        torch::logical_not(
            (vocab.end_id() >= 0
                 ? tok.reshape({}) == vocab.end_id()
                 : torch::zeros({}, tok.options().dtype(torch::kBool)))));
  }
  return h;
}

torch::Tensor tensor_first(torch::Tensor h, float limit, bool strict) {
  auto active = torch::ones({}, h.options().dtype(torch::kBool));
  for (int64_t t = 0; t < 8; ++t) {
    h = torch::where(active, h * 2, h);
    active = torch::logical_and(
        active, torch::logical_not(
                    (!strict ? torch::ones({}, h.options().dtype(torch::kBool))
                             : h.max() > limit)));
  }
  return h;
}

torch::Tensor shape_test(torch::Tensor h) {
  auto active = torch::ones({}, h.options().dtype(torch::kBool));
  for (int64_t t = 0; t < 8; ++t) {
    h = torch::where(active, h - 1, h);
    active = torch::logical_and(
        active, torch::logical_not(
                    (h.size(0) > 2
                         ? h.sum() < 0
                         : torch::zeros({}, h.options().dtype(torch::kBool)))));
  }
  return h;
}

int bumps = 0;
int bump() { return ++bumps; }

torch::Tensor counting_test(torch::Tensor h) {
  for (int64_t t = 0; t < 8; ++t) {
    h = h - 1;
    if (bump() > 2 && h.sum().item<float>() < 0) // EXPECT-NO-FIX: the condition.s host test .bump\(\) > 2. calls .bump. \(line [0-9]+\), which increments
      break;
  }
  return h;
}

// A read of a tensor the condition computes itself after the host test: the constant would have
// to compute it too (where the original never did), so the rewrite asks for a local.
torch::Tensor computed_after_host(torch::Tensor h, torch::Tensor w, bool enabled) {
  for (int64_t t = 0; t < 8; ++t) {
    h = h - 1;
    if (enabled && torch::matmul(h, w).sum().item<float>() < 0) // EXPECT-NO-FIX: after a host test; compute the tensor into a local before the test
      break;
  }
  return h;
}

// The same read before the host test ran first in the original too: the constant takes its device.
torch::Tensor computed_before_host(torch::Tensor h, torch::Tensor w, bool strict) {
  auto active = torch::ones({}, h.options().dtype(torch::kBool));
  for (int64_t t = 0; t < 8; ++t) {
    h = torch::where(active, h - 1, h);
    active = torch::logical_and(
        active,
        torch::logical_not((
            !strict ? torch::ones({}, torch::matmul(h, w).sum().options().dtype(
                                          torch::kBool))
                    : torch::matmul(h, w).sum() < 0)));
  }
  return h;
}

// Arithmetic helpers of the standard library in the host test (std::max returns a reference to one
// of its arguments; the list form takes an initializer_list): they compute, they do nothing else.
torch::Tensor std_arithmetic(torch::Tensor h, torch::Tensor w, int64_t eos, int64_t pad) {
  auto active = torch::ones({}, h.options().dtype(torch::kBool));
  for (int64_t t = 0; t < 8; ++t) {
    h = torch::where(active, torch::matmul(h, w).relu(), h);
    auto tok = h.argmax(0);
    active = torch::logical_and(
        active,
        torch::logical_not(
            (std::max({eos, pad, int64_t{-1}}) >= 0
                 ? tok.reshape({}) == std::max<int64_t>(eos, 0)
                 : torch::zeros({}, tok.options().dtype(torch::kBool)))));
  }
  return h;
}

// An optional end token: its value is read only where the condition has tested that it holds one
// (on the left of the '&&'; for '||', a test for none), in the lifted form as in the original.
torch::Tensor optional_end_token(torch::Tensor h, torch::Tensor w, std::optional<int64_t> eos) {
  auto active = torch::ones({}, h.options().dtype(torch::kBool));
  for (int64_t t = 0; t < 8; ++t) {
    h = torch::where(active, torch::matmul(h, w).relu(), h);
    auto tok = h.argmax(0);
    active = torch::logical_and(
        active,
        torch::logical_not(
            (eos.has_value()
                 ? tok.reshape({}) == eos.value()
                 : torch::zeros({}, tok.options().dtype(torch::kBool)))));
  }
  return h;
}

torch::Tensor optional_or_none(torch::Tensor h, torch::Tensor w, std::optional<int64_t> eos) {
  auto active = torch::ones({}, h.options().dtype(torch::kBool));
  for (int64_t t = 0; t < 8; ++t) {
    h = torch::where(active, torch::matmul(h, w).relu(), h);
    auto tok = h.argmax(0);
    active = torch::logical_and(
        active, torch::logical_not(
                    (!eos ? torch::ones({}, tok.options().dtype(torch::kBool))
                          : tok.reshape({}) == *eos)));
  }
  return h;
}

// Read before it is tested: the value would be read on every iteration the masked loop runs.
torch::Tensor optional_unchecked(torch::Tensor h, torch::Tensor w, std::optional<int64_t> eos) {
  for (int64_t t = 0; t < 8; ++t) {
    h = torch::matmul(h, w).relu();
    auto tok = h.argmax(0);
    if (tok.item<int64_t>() == eos.value() && eos.has_value()) // EXPECT-NO-FIX: reads the host object 'eos' \('eos.value\(\)'\), which has no tensor form
      break;
  }
  return h;
}
