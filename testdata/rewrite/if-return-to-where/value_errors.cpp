// if-return-to-where: arms holding ops that raise on some input values, or draw random numbers.
// A where() evaluates both arms, so the op would run on the side its condition excluded — the
// side on which the original guarded it: refused, naming the op.
#include "mock_torch.h"

torch::Tensor guarded_lookup(torch::Tensor w, torch::Tensor ids) {
  if (ids.max().item<float>() < 4) // EXPECT-NO-FIX: ^the then branch calls 'index_select', which raises on some values of its inputs and would now run where the condition excluded it \(line 8\)$
    return w.index_select(0, ids);
  return w;
}

torch::Tensor guarded_integer_index(torch::Tensor w, torch::Tensor ids) {
  if (ids.min().item<float>() >= 0) // EXPECT-NO-FIX: ^the then branch calls 'index', which raises on some values
    return w.index({ids});
  return w;
}

torch::Tensor guarded_division(torch::Tensor a, torch::Tensor b) {
  if (b.abs().min().item<float>() > 0) // EXPECT-NO-FIX: ^the then branch calls 'floor_divide', which raises on some values
    return a.floor_divide(b);
  return a;
}

torch::Tensor guarded_gather_in_else(torch::Tensor w, torch::Tensor ids) {
  if (ids.max().item<float>() >= 4) // EXPECT-NO-FIX: ^the else branch calls 'gather', which raises on some values
    return w;
  else
    return w.gather(0, ids);
}

torch::Tensor noisy(torch::Tensor x) {
  if (x.sum().item<float>() > 0) // EXPECT-NO-FIX: ^the then branch calls 'randn_like', which draws random numbers: run where the original did not, it would change every later draw \(line 33\)$
    return x + torch::randn_like(x);
  return x;
}

torch::Tensor sampled(torch::Tensor p) {
  if (p.min().item<float>() >= 0) // EXPECT-NO-FIX: ^the then branch calls 'multinomial', which reads the tensor on the host and may fail on the side not taken
    return p.multinomial(1);
  return p;
}

torch::Tensor pick(torch::Tensor w, torch::Tensor ids) { return w.gather(0, ids) * 2; }

torch::Tensor through_helper(torch::Tensor w, torch::Tensor ids) {
  if (ids.max().item<float>() < 4) // EXPECT-NO-FIX: ^the then branch calls 'pick' \(line 47\), which calls 'gather', which raises on some values of its inputs and would now run where the condition excluded it \(line 43\)$
    return pick(w, ids);
  return w;
}

torch::Tensor checked_else_if(torch::Tensor w, torch::Tensor ids, torch::Tensor x) {
  if (x.sum().item<float>() > 0) // EXPECT-NO-FIX: ^the else-if condition calls 'index_select', which raises on some values
    return x;
  else if (w.index_select(0, ids).sum().item<float>() > 0) // EXPECT-NO-FIX: ^the else-if condition calls 'index_select'
    return -x;
  return x * 2;
}
