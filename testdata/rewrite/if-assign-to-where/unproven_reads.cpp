// if-assign-to-where: conditions that read tensors not proven to hold one element (parameters of
// unknown shape). A read becomes the tensor reshaped to 0-d, which throws exactly where item()
// would (on any other element count) and keeps where() from broadcasting. Where the original read
// it only after a tensor test allowed it (the right operand of `&&`), the tensor form would run it
// on every call, so an unproven read or an op that raises on values there is refused.
#include "mock_torch.h"

// Two reductions of parameters of unknown rank, compared (a decoder suppressing text tokens when
// the timestamps are more likely).
torch::Tensor suppress_text(torch::Tensor logits, torch::Tensor ts, torch::Tensor txt) {
  torch::Tensor out = logits;
  if (ts.item<float>() > txt.item<float>())
    out = logits * 0;
  return out;
}

// A local read before the test, used only there: reshaped where it is declared, where it ran.
torch::Tensor local_read(torch::Tensor x, torch::Tensor limit) {
  torch::Tensor y = x;
  float cap = limit.item<float>();
  if (x.max().item<float>() > cap)
    y = x / 2;
  return y;
}

// The local is read before the test, so testing it second changes nothing.
torch::Tensor local_read_second(torch::Tensor x, torch::Tensor level) {
  torch::Tensor y = x;
  float lowest = level.item<float>();
  if (x.sum().item<float>() > 0 && x.min().item<float>() > lowest)
    y = x * 2;
  return y;
}

torch::Tensor guarded_read(torch::Tensor x, torch::Tensor flag) {
  torch::Tensor y = x;
  if (x.sum().item<float>() > 0 && flag.item<bool>()) // EXPECT-NO-FIX: ^cannot prove that 'flag' has a single element, and the original reads it only when the test before it allows: the tensor form runs both tests
    y = x * 2;
  return y;
}

torch::Tensor guarded_gather(torch::Tensor x, torch::Tensor table, torch::Tensor idx) {
  torch::Tensor y = x;
  if (x.sum().item<float>() > 0 && table.index_select(0, idx).sum().item<float>() > 0) // EXPECT-NO-FIX: ^the condition's right operand 'table.index_select\(0, idx\).sum\(\).item<float>\(\) > 0' ran only when 'x.sum\(\).item<float>\(\) > 0' was true, and it calls 'index_select', which raises on some values
    y = x * 2;
  return y;
}

torch::Tensor integer_read(torch::Tensor x, torch::Tensor pos) {
  torch::Tensor y = x;
  if (pos.item<int64_t>() >= 3) // EXPECT-NO-FIX: converts to an integer on the host, which a tensor comparison would not do
    y = x * 2;
  return y;
}
