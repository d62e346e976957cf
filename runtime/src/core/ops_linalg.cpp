// Front-ends of the matrix products (mm, addmm, bmm, matmul, linear). Every one of them is one
// `mm` kernel call (batched when 3-d) on operands BLAS reads in place where it can: a transposed
// operand is a flag of the call, not a copy.
#include "OpsCommon.h"

#include "../cpu/Loops.h"

#include <algorithm>

namespace gfy {
using namespace detail;

// --- linear algebra ---------------------------------------------------------------------------

namespace {

/// A matrix BLAS can read in place (possibly as a transpose), or a contiguous copy of it.
Tensor blas_operand(const Tensor &m) {
  bool trans;
  int64_t ld;
  const int64_t nd = m.dim();
  if (cpu::blas_layout(m.size(nd - 2), m.size(nd - 1), m.stride(nd - 2), m.stride(nd - 1), trans, ld)) return m;
  return m.contiguous();
}

void check_same_dtype(const Tensor &a, const Tensor &b, const char *) {
  GFY_CHECK(a.scalar_type() == b.scalar_type(), "expected scalar type ", to_string(a.scalar_type()), " but found ",
            to_string(b.scalar_type()));
}

Tensor mm_impl(const Tensor &a, const Tensor &b, const Tensor *bias, double beta, double alpha) {
  check_defined(a, "mat1");
  check_defined(b, "mat2");
  GFY_CHECK(a.dim() == 2, "self must be a matrix");
  GFY_CHECK(b.dim() == 2, "mat2 must be a matrix");
  GFY_CHECK(a.size(1) == b.size(0), "mat1 and mat2 shapes cannot be multiplied (", a.size(0), "x", a.size(1), " and ",
            b.size(0), "x", b.size(1), ")");
  check_same_dtype(a, b, "mat1 and mat2");
  GFY_CHECK(a.scalar_type() != kBool, "\"addmm_impl_cpu_\" not implemented for 'Bool'");
  const Device dev = common_device({&a, &b});
  Tensor out = make_tensor({a.size(0), b.size(1)}, a.scalar_type(), dev);
  OpCall c;
  c.op = OpId::mm;
  c.in = {blas_operand(a), blas_operand(b)};
  if (bias && bias->defined()) {
    common_device({&a, bias});
    c.in.push_back(cast(*bias, a.scalar_type()).expand(out.sizes()));
  }
  c.out = {out};
  c.alpha = alpha;
  c.beta = beta;
  run(std::move(c), a.scalar_type());
  return out;
}

} // namespace

Tensor mm(const Tensor &a, const Tensor &b) { return mm_impl(a, b, nullptr, 0, 1); }
Tensor addmm(const Tensor &self, const Tensor &m1, const Tensor &m2, const Scalar &beta, const Scalar &alpha) {
  check_defined(self, "self");
  return mm_impl(m1, m2, &self, beta.toDouble(), alpha.toDouble());
}

Tensor bmm(const Tensor &a, const Tensor &b) {
  check_defined(a, "self");
  check_defined(b, "mat2");
  GFY_CHECK(a.dim() == 3, "batch1 must be a 3D tensor");
  GFY_CHECK(b.dim() == 3, "batch2 must be a 3D tensor");
  GFY_CHECK(a.size(0) == b.size(0) && a.size(2) == b.size(1), "Expected size for first two dimensions of batch2 tensor to be: [",
            a.size(0), ", ", a.size(2), "] but got: [", b.size(0), ", ", b.size(1), "].");
  check_same_dtype(a, b, "batch1 and batch2");
  GFY_CHECK(a.scalar_type() != kBool, "\"bmm\" not implemented for 'Bool'");
  const Device dev = common_device({&a, &b});
  Tensor out = make_tensor({a.size(0), a.size(1), b.size(2)}, a.scalar_type(), dev);
  OpCall c;
  c.op = OpId::mm;
  c.in = {blas_operand(a), blas_operand(b)};
  c.out = {out};
  c.alpha = 1;
  c.beta = 0;
  run(std::move(c), a.scalar_type());
  return out;
}

Tensor matmul(const Tensor &a, const Tensor &b) {
  check_defined(a, "self");
  check_defined(b, "other");
  const int64_t da = a.dim(), db = b.dim();
  GFY_CHECK(da > 0 && db > 0, "both arguments to matmul need to be at least 1D, but they are ", da, "D and ", db, "D");
  if (da == 1 && db == 1) {
    GFY_CHECK(a.size(0) == b.size(0), "inconsistent tensor size, expected tensor [", a.size(0), "] and src [", b.size(0),
              "] to have the same number of elements, but got ", a.size(0), " and ", b.size(0), " elements respectively");
    return mm(a.view({1, -1}), b.view({-1, 1})).view({});
  }
  if (da == 2 && db == 1) return mm(a, b.unsqueeze(1)).squeeze(1);
  if (da == 1 && db == 2) return mm(a.unsqueeze(0), b).squeeze(0);
  if (da == 2 && db == 2) return mm(a, b);
  if (da >= 3 && db <= 2) {
    // Fold the batch into the rows: one GEMM instead of a batch of small ones.
    Tensor b2 = db == 1 ? b.unsqueeze(1) : b;
    std::vector<int64_t> shape(a.sizes().begin(), a.sizes().end() - 1);
    Tensor r = mm(a.reshape({-1, a.size(-1)}), b2);
    if (db == 2) shape.push_back(b.size(1));
    return r.view(shape);
  }
  // General batched case: broadcast the batch dims, then bmm.
  Tensor a2 = da == 1 ? a.unsqueeze(0) : a;
  Tensor b2 = db == 1 ? b.unsqueeze(1) : b;
  std::vector<int64_t> ba(a2.sizes().begin(), a2.sizes().end() - 2), bb(b2.sizes().begin(), b2.sizes().end() - 2);
  std::vector<int64_t> batch = broadcast_shapes(ba, bb);
  int64_t nb = 1;
  for (int64_t s : batch) nb *= s;
  auto ea = batch, eb = batch;
  ea.push_back(a2.size(-2));
  ea.push_back(a2.size(-1));
  eb.push_back(b2.size(-2));
  eb.push_back(b2.size(-1));
  Tensor r = bmm(a2.expand(ea).reshape({nb, a2.size(-2), a2.size(-1)}), b2.expand(eb).reshape({nb, b2.size(-2), b2.size(-1)}));
  std::vector<int64_t> shape = batch;
  if (da > 1) shape.push_back(a2.size(-2));
  if (db > 1) shape.push_back(b2.size(-1));
  return r.view(shape);
}

Tensor linear(const Tensor &input, const Tensor &weight, const Tensor &bias) {
  check_defined(input, "input");
  check_defined(weight, "weight");
  GFY_CHECK(weight.dim() == 2, "linear(): weight must be 2-D, got ", weight.dim(), "-D");
  if (input.dim() == 2) return bias.defined() ? addmm(bias, input, weight.t()) : mm(input, weight.t());
  GFY_CHECK(input.dim() >= 1, "linear(): input must have at least one dimension");
  GFY_CHECK(input.size(-1) == weight.size(1), "mat1 and mat2 shapes cannot be multiplied (",
            input.numel() / std::max<int64_t>(input.size(-1), 1), "x", input.size(-1), " and ", weight.size(1), "x",
            weight.size(0), ")");
  std::vector<int64_t> shape(input.sizes().begin(), input.sizes().end() - 1);
  shape.push_back(weight.size(0));
  Tensor x2 = input.reshape({-1, input.size(-1)});
  Tensor r = bias.defined() ? addmm(bias, x2, weight.t()) : mm(x2, weight.t());
  return r.view(shape);
}

Tensor baddbmm(const Tensor &self, const Tensor &b1, const Tensor &b2, const Scalar &beta, const Scalar &alpha) {
  check_defined(self, "self");
  check_defined(b1, "batch1");
  check_defined(b2, "batch2");
  GFY_CHECK(b1.dim() == 3, "batch1 must be a 3D tensor");
  GFY_CHECK(b2.dim() == 3, "batch2 must be a 3D tensor");
  GFY_CHECK(b1.size(0) == b2.size(0) && b1.size(2) == b2.size(1), "Expected size for first two dimensions of batch2 tensor to be: [",
            b1.size(0), ", ", b1.size(2), "] but got: [", b2.size(0), ", ", b2.size(1), "].");
  check_same_dtype(b1, b2, "batch1 and batch2");
  check_same_dtype(self, b1, "self and batch1");
  GFY_CHECK(b1.scalar_type() != kBool, "\"baddbmm_with_gemm\" not implemented for 'Bool'");
  const Device dev = common_device({&self, &b1, &b2});
  Tensor out = make_tensor({b1.size(0), b1.size(1), b2.size(2)}, b1.scalar_type(), dev);
  OpCall c;
  c.op = OpId::mm;
  c.in = {blas_operand(b1), blas_operand(b2)};
  // The mm kernel adds beta * in2; with beta 0 LibTorch ignores self (NaN in it does not leak),
  // so the addend is left out rather than multiplied by zero.
  if (beta.toDouble() != 0) c.in.push_back(self.expand(out.sizes()));
  c.out = {out};
  c.alpha = alpha.toDouble();
  c.beta = beta.toDouble();
  run(std::move(c), b1.scalar_type());
  return out;
}

} // namespace gfy
