// Every misuse throws gfy::Error with LibTorch's wording; none crashes.
#include "TestUtil.h"
#include "core/OpsCommon.h"

#include <cmath>
#include <limits>

using namespace gfy;
using namespace gfy::indexing;

namespace {
/// Asserts that `stmt` throws gfy::Error whose message contains `text`.
#define EXPECT_ERROR(stmt, text)                                                                   \
  do {                                                                                             \
    try {                                                                                          \
      stmt;                                                                                        \
      ADD_FAILURE() << "no exception from " #stmt;                                                 \
    } catch (const gfy::Error &e) {                                                                \
      EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();                  \
    }                                                                                              \
  } while (0)
} // namespace

TEST(Errors, Broadcasting) {
  EXPECT_ERROR(zeros({3}) + zeros({4}),
               "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 0");
  EXPECT_ERROR(zeros({2, 3}) * zeros({2, 2}), "at non-singleton dimension 1");
  EXPECT_ERROR(zeros({2, 3}) * zeros({3, 2}), "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 1");
  EXPECT_ERROR(zeros({3}).expand({4}), "must match the existing size (3)");
  EXPECT_ERROR(zeros({2}).add_(zeros({3, 2})), "doesn't match the broadcast shape");
  EXPECT_ERROR(zeros({1, 3}).expand({2, 3}).add_(1), "more than one element of the written-to tensor");
  EXPECT_ERROR(zeros({1, 3}).expand({2, 3}).copy_(ones({2, 3})), "Please clone() the tensor");
  EXPECT_ERROR(where(zeros({2}) > 0, zeros({3}), zeros({3})), "must match the size");
}

TEST(Errors, Shapes) {
  EXPECT_ERROR(zeros({2, 3}).view({4}), "shape '[4]' is invalid for input of size 6");
  EXPECT_ERROR(zeros({2, 3}).t().view({6}), "view size is not compatible");
  EXPECT_ERROR(zeros({2, 3}).view({-1, -1}), "only one dimension can be inferred");
  EXPECT_ERROR(zeros({2}).transpose(0, 2), "Dimension out of range");
  EXPECT_ERROR(zeros({2}).sum(3), "Dimension out of range (expected to be in range of [-1, 0], but got 3)");
  EXPECT_ERROR(zeros({2}).select(0, 2), "out of range");
  EXPECT_ERROR(zeros({2}).narrow(0, 1, 5), "exceeds dimension size");
  EXPECT_ERROR(zeros({2, 3}).permute({0}), "does not match the length");
  EXPECT_ERROR(zeros({2, 3}).permute({0, 0}), "duplicate dims");
  EXPECT_ERROR(zeros({3}).chunk(0), "chunk expects `chunks` to be greater than 0");
  EXPECT_ERROR(zeros({-1}), "negative dimension");
  EXPECT_ERROR(cat({zeros({2, 2}), zeros({2, 3})}), "Sizes of tensors must match except in dimension 0");
  EXPECT_ERROR(cat({}), "non-empty");
  EXPECT_ERROR(stack({zeros({2}), zeros({3})}), "stack expects each tensor to be equal size");
  EXPECT_ERROR(zeros({2, 3, 4}).t(), "t() expects a tensor with <= 2 dimensions");
  EXPECT_ERROR(zeros({2}).split({1, 2}), "split_with_sizes expects split_sizes to sum exactly to 2");
  EXPECT_ERROR(layer_norm(zeros({2, 3}), {4}), "Given normalized_shape=[4], expected input with shape [*, 4]");
  EXPECT_ERROR(zeros({2}).max(0, false); zeros({0}).max(), "Expected reduction dim to be specified");
  EXPECT_ERROR(topk(zeros({3}), 4), "selected index k out of range");
  EXPECT_ERROR(arange(0, 10, 0), "step must be nonzero");
  EXPECT_ERROR(arange(10, 0, 1), "upper bound and larger bound inconsistent with step sign");
}

TEST(Errors, Matmul) {
  EXPECT_ERROR(mm(zeros({2, 3}), zeros({4, 5})), "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)");
  EXPECT_ERROR(mm(zeros({2}), zeros({2, 2})), "self must be a matrix");
  EXPECT_ERROR(mm(zeros({2, 2}), zeros({2, 2}, kDouble)), "expected scalar type Float but found Double");
  EXPECT_ERROR(bmm(zeros({2, 2, 3}), zeros({2, 4, 1})), "Expected size for first two dimensions of batch2 tensor");
  EXPECT_ERROR(matmul(zeros({3}), zeros({4})), "inconsistent tensor size");
  EXPECT_ERROR(linear(zeros({2, 3}), zeros({4, 5})), "cannot be multiplied");
}

TEST(Errors, Dtypes) {
  EXPECT_ERROR(ones({2}, kBool) - ones({2}, kBool), "Subtraction, the `-` operator, with two bool tensors");
  EXPECT_ERROR(-ones({2}, kBool), "Negation, the `-` operator, on a bool tensor is not supported");
  EXPECT_ERROR(ones({2}, kLong).add_(1.5), "result type Float can't be cast to the desired output type Long");
  EXPECT_ERROR(ones({2}, kLong).div_(2), "result type Float can't be cast to the desired output type Long");
  EXPECT_ERROR(where(ones({2}), ones({2}), ones({2})), "where expected condition to be a boolean tensor");
  EXPECT_ERROR(ones({2}).masked_fill_(ones({2}), 0), "masked_fill_ only supports boolean masks");
  EXPECT_ERROR(ones({2}).masked_fill_(ones({2}) > 0, ones({2})), "0-dimensional value tensor");
  EXPECT_ERROR(ones({2}, kLong).mean(), "mean(): could not infer output dtype");
  EXPECT_ERROR(ones({2}) & ones({2}), "not implemented for 'Float'");
  EXPECT_ERROR(softmax(ones({2}, kLong), 0), "not implemented for 'Long'");
  EXPECT_ERROR(ones({2}).data_ptr<int64_t>(), "expected scalar type Long but found Float");
  EXPECT_ERROR(rand({2}, kLong), "not implemented for 'Long'");
  EXPECT_ERROR(pow(tensor({2}), -1), "Integers to negative integer powers are not allowed.");
}

TEST(Errors, Indexing) {
  Tensor x = zeros({3, 4});
  EXPECT_ERROR(x.index({5}), "index 5 is out of bounds for dimension 0 with size 3");
  EXPECT_ERROR(x.index({0, 0, 0}), "too many indices for tensor of dimension 2");
  EXPECT_ERROR(x.index({tensor({3})}), "index 3 is out of bounds for dimension 0 with size 3");
  EXPECT_ERROR(x.index({tensor({1.f})}), "tensors used as indices must be long, byte or bool tensors");
  EXPECT_ERROR(x.index({tensor({1}, kInt)}), "tensors used as indices must be long, byte or bool tensors");
  EXPECT_ERROR(x.index({Slice(None, None, -1)}), "step must be greater than zero");
  EXPECT_ERROR(x.index_put_({tensor({0})}, zeros({4}, kDouble)), "Index put requires the source and destination dtypes match");
  EXPECT_ERROR(zeros({3, 4}).index_select(0, tensor({1}, kInt)).gather(1, tensor({0, 4}).view({1, 2})),
               "index 4 is out of bounds for dimension 1 with size 4");
  EXPECT_ERROR(x.index({tensor({true, false})}), "The shape of the mask [2] at index 0 does not match");
  EXPECT_ERROR(x.index({tensor({0, 1}), tensor({0, 1, 2})}), "shape mismatch: indexing tensors could not be broadcast");
  EXPECT_ERROR(x.index_put_({tensor({0})}, zeros({5})), "shape mismatch: value tensor");
  EXPECT_ERROR(x.index_select(0, tensor({1.f})), "Expected dtype int32 or int64 for index");
  EXPECT_ERROR(x.index_select(0, tensor({7})), "index out of range in self");
  EXPECT_ERROR(x.gather(1, tensor({9}).view({1, 1})), "index 9 is out of bounds");
  EXPECT_ERROR(x.gather(1, tensor({0})), "Index tensor must have the same number of dimensions");
  EXPECT_ERROR(embedding(zeros({3, 2}), tensor({3})), "index out of range in self");
  EXPECT_ERROR(embedding(zeros({3, 2}), tensor({1.f})), "Expected tensor for argument #1 'indices'");
  EXPECT_ERROR(zeros({3}).item(), "a Tensor with 3 elements cannot be converted to Scalar");
  EXPECT_ERROR(zeros({2}).is_nonzero(), "Boolean value of Tensor with more than one value is ambiguous");
}

TEST(Errors, DevicesAndUndefined) {
  if (!has_backend(kCUDA)) { // on a GPU machine these succeed
    EXPECT_ERROR(zeros({2}).to(kCUDA), "no backend for device type cuda");
    EXPECT_ERROR(zeros({2}, TensorOptions().device(kCUDA)), "no backend for device type cuda");
  }
  EXPECT_ERROR(Tensor().sum(), "undefined Tensor");
  EXPECT_ERROR(Tensor() + 1, "undefined Tensor");
  EXPECT_ERROR(zeros({2}) + Tensor(), "undefined Tensor");
  EXPECT_ERROR(Tensor().size(0), "undefined Tensor");
  EXPECT_ERROR(Device("tpu"), "Expected one of cpu, cuda");
  EXPECT_ERROR(gfy::nn::Linear(nullptr)->forward(zeros({2})), "empty ModuleHolder");
}

// Sizes whose product does not fit in int64_t (or whose byte count does not) are refused before
// any memory is touched; before, empty({INT64_MAX}) allocated a tiny buffer that fill_ overran.
TEST(Errors, SizeOverflow) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  EXPECT_ERROR(empty({kMax}).fill_(1), "Storage size calculation overflowed with sizes=[9223372036854775807]");
  EXPECT_ERROR(zeros({int64_t(1) << 62}), "Storage size calculation overflowed");
  EXPECT_ERROR(zeros({int64_t(1) << 32, int64_t(1) << 32}, kBool), "Storage size calculation overflowed");
  EXPECT_ERROR(ones({4}).expand({int64_t(1) << 40, int64_t(1) << 40, 4}).sum(), "numel: integer multiplication overflow");
  EXPECT_ERROR(zeros({0}).view({int64_t(1) << 32, int64_t(1) << 32, 0}), "is invalid for input of size 0");
  EXPECT_ERROR(zeros({2}).view({int64_t(1) << 62, 8, -1}), "is invalid for input of size 2");
  // Large but representable: an allocation failure, not a crash.
  EXPECT_ERROR(empty({int64_t(1) << 50}, kBool), "out of memory");
  EXPECT_EQ(zeros({0, kMax}).numel(), 0); // zero elements: no overflow, as LibTorch
}

// Found by fuzz_runtime_ops: selecting from an empty tensor whose other dimension is a huge
// expanded size built a position list of 2^62 entries (std::length_error escaped).
TEST(Errors, IndexingEmptyTensorsWithHugeExpandedDimensions) {
  const int64_t kHuge = int64_t(1) << 62;
  Tensor x = zeros({1, 0}).expand({kHuge, 0});
  EXPECT_EQ(x.index_select(1, tensor(std::vector<int64_t>{})).numel(), 0);
  EXPECT_ERROR(x.index_select(1, tensor(std::vector<int64_t>{0})), "Storage size calculation overflowed");
  EXPECT_ERROR(zeros({3, 0}).index_select(1, tensor(std::vector<int64_t>{0})), "index out of range in self");
  Tensor y = zeros({0, 1}).expand({0, kHuge});
  EXPECT_EQ(y.index({tensor(std::vector<int64_t>{})}).numel(), 0);
  EXPECT_EQ(y.nonzero().size(0), 0);
}

// Found by fuzz_runtime_ops: expand accepted negative sizes other than -1 for size-1 dimensions.
TEST(Errors, ExpandRejectsNegativeSizes) {
  EXPECT_ERROR(zeros({1, 3}).expand({-2, 3}), "The expanded size of the tensor (-2) isn't allowed");
  EXPECT_ERROR(zeros({3}).expand({-3, 3}), "The expanded size of the tensor (-3) isn't allowed");
  EXPECT_EQ(zeros({1, 3}).expand({-1, 3}).size(0), 1);
  EXPECT_EQ(zeros({1, 3}).expand({4, -1}).size(0), 4);
}

// Found by fuzz_runtime_ops: NaN and out-of-range floats converted to integers were undefined
// behaviour (and could differ between eager and replayed graphs); they give x86's (and so
// LibTorch's) minimum, and exp of NaN is NaN without an undefined conversion inside.
TEST(Errors, FloatToIntegerConversionIsDefined) {
  Tensor f = tensor(std::vector<float>{NAN, INFINITY, -INFINITY, 3e9f, -2.5f});
  std::vector<int64_t> want32 = {INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN, -2};
  Tensor i = f.to(kInt);
  for (int64_t k = 0; k < 5; ++k)
    EXPECT_EQ(i.index({k}).item<int64_t>(), want32[size_t(k)]) << k;
  EXPECT_EQ(f.to(kLong).index({0}).item<int64_t>(), std::numeric_limits<int64_t>::min());
  EXPECT_TRUE(std::isnan(f.exp().index({0}).item<float>()));
  // Integer arithmetic wraps around, as LibTorch's kernels do.
  EXPECT_EQ((full({1}, INT32_MIN, kInt) * 5).item<int64_t>(), int64_t(int32_t(uint32_t(INT32_MIN) * 5u)));
}

// The minimum of a signed type divided by -1 overflows; the hardware traps (SIGFPE). LibTorch
// gives the wrapped quotient and a zero remainder.
TEST(Errors, IntegerMinimumDividedByMinusOne) {
  constexpr int64_t kMin64 = std::numeric_limits<int64_t>::min();
  constexpr int32_t kMin32 = std::numeric_limits<int32_t>::min();
  Tensor a = full({3}, kMin64, kLong), m = full({3}, -1, kLong);
  EXPECT_EQ(floor_divide(a, m).index({0}).item<int64_t>(), kMin64);
  EXPECT_EQ(remainder(a, m).index({1}).item<int64_t>(), 0);
  EXPECT_EQ(fmod(a, m).index({2}).item<int64_t>(), 0);
  Tensor b = full({2}, kMin32, kInt), n = full({2}, -1, kInt);
  EXPECT_EQ(fmod(b, n).index({0}).item<int64_t>(), 0);
  EXPECT_EQ(floor_divide(b, n).index({1}).item<int64_t>(), kMin32);
  EXPECT_EQ(remainder(b, -1).index({0}).item<int64_t>(), 0);
  // Ordinary operands keep Python's floor / sign-of-divisor semantics.
  EXPECT_EQ(floor_divide(full({1}, -7, kLong), full({1}, 2, kLong)).item<int64_t>(), -4);
  EXPECT_EQ(remainder(full({1}, -7, kLong), full({1}, 2, kLong)).item<int64_t>(), 1);
  EXPECT_EQ(fmod(full({1}, -7, kLong), full({1}, 2, kLong)).item<int64_t>(), -1);
}

// index_select and embedding take indices in [0, size): a negative one is an error (LibTorch),
// not counted from the end as in advanced indexing.
TEST(Errors, SelectIndicesAreNonNegative) {
  Tensor w = arange(12, kFloat).view({4, 3});
  EXPECT_ERROR(w.index_select(0, tensor({-1}, kLong)), "index out of range in self");
  EXPECT_ERROR(w.index_select(1, tensor({0, -3}, kInt)), "index out of range in self");
  EXPECT_ERROR(w.index_select(0, tensor({4}, kLong)), "index out of range in self");
  EXPECT_ERROR(embedding(w, tensor({-1}, kLong)), "index out of range in self");
  nn::Embedding emb(4, 3);
  EXPECT_ERROR(emb->forward(tensor({0, -2}, kLong).view({1, 2})), "index out of range in self");
  EXPECT_EQ(w.index_select(0, tensor({3}, kLong)).index({0, 0}).item<float>(), 9.f);
  EXPECT_EQ(w.index({tensor({-1}, kLong)}).index({0, 0}).item<float>(), 9.f); // advanced indexing wraps
}

// Integer reads are checked as c10::checked_convert: no undefined conversion of NaN or of
// values outside the target's range.
TEST(Errors, ItemConversionOverflow) {
  EXPECT_ERROR(tensor(NAN).item<int64_t>(), "value cannot be converted to type int64_t without overflow");
  EXPECT_ERROR(tensor(INFINITY).item<int32_t>(), "value cannot be converted to type int32_t without overflow");
  EXPECT_ERROR(tensor(1e19).item<int64_t>(), "int64_t without overflow");
  EXPECT_ERROR(tensor(int64_t(1) << 40).item<int32_t>(), "int32_t without overflow");
  EXPECT_ERROR(Scalar(3e9).toInt(), "int32_t without overflow");
  EXPECT_EQ(tensor(-9.223372036854775808e18).item<int64_t>(), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(tensor(-2.9).item<int64_t>(), -2);
  EXPECT_EQ(tensor(int64_t(-1)).item<uint8_t>(), 255); // c10 lets an integer -1 become 255 ...
  EXPECT_ERROR(tensor(-1.0).item<uint8_t>(), "uint8_t without overflow"); // ... not a float
  EXPECT_ERROR(tensor(127.5).item<int8_t>(), "int8_t without overflow");  // a float must be <= max
  EXPECT_TRUE(std::isnan(tensor(NAN).item<float>()));
}

// ATen's MemOverlap rule, checked by every launch (src/core/MemOverlap.cpp): a write that
// overlaps an input partially raises instead of reading elements it has already overwritten.
TEST(Errors, PartialOverlapOfOutputAndInput) {
  const char *partial = "some elements of the input tensor and the written-to tensor refer to a single memory location";
  Tensor a = arange(6).to(kFloat);
  EXPECT_ERROR(a.slice(0, 1, 6).copy_(a.slice(0, 0, 5)), partial);
  EXPECT_ERROR(a.slice(0, 1, 6).add_(a.slice(0, 0, 5)), partial);
  EXPECT_ERROR(a.slice(0, 0, 5).div_(a.slice(0, 1, 6)), partial);
  EXPECT_ERROR(a.slice(0, 0, 5) = a.slice(0, 1, 6), partial);
  Tensor b = arange(4).to(kFloat).view({2, 2});
  EXPECT_ERROR(b.mul_(b.t()), partial);
  EXPECT_ERROR(b.add_(b[0]), partial); // judged before broadcasting, as LibTorch
  EXPECT_ERROR(a.index_put_({tensor({4, 5})}, a.slice(0, 3, 5)), partial);
  EXPECT_ERROR(a.expand({2, 6}).mul_(2), "more than one element of the written-to tensor");
  // Nothing was written by the refused launches.
  EXPECT_VALUES(a, {0, 1, 2, 3, 4, 5});
  EXPECT_VALUES(b, {0, 1, 2, 3});
}

TEST(Errors, FullOverlapAndDisjointViewsAreAllowed) {
  Tensor a = arange(6).to(kFloat);
  a.add_(a);
  a.mul_(a.view({2, 3}).view({6}));
  a.copy_(a);
  EXPECT_VALUES(a, {0, 4, 16, 36, 64, 100});
  a.slice(0, 0, 3).sub_(a.slice(0, 3, 6));
  EXPECT_VALUES(a, {-36, -60, -84, 36, 64, 100});
  // 0-d values are read before the write (LibTorch clones or reads them).
  Tensor b = arange(4).to(kFloat);
  b.fill_(b[2]);
  EXPECT_VALUES(b, {2, 2, 2, 2});
  Tensor c = arange(4).to(kFloat);
  c.masked_fill_(c > 1, c[1]);
  EXPECT_VALUES(c, {0, 1, 1, 1});
  // Empty tensors are dense: an empty expanded tensor can be written (LibTorch's rule).
  Tensor e = zeros({0, 3});
  EXPECT_NO_THROW(e.expand({2, 0, 3}).add_(1));
  // Non-dense layouts are too hard to decide; LibTorch runs them, and so does the runtime.
  Tensor m = ones({3, 4});
  m.slice(1, 0, 2).add_(m.slice(1, 2, 4));
  EXPECT_VALUES(m.sum(), {18});
}

TEST(Errors, OverlapIsCheckedWhileCapturingNotOnReplay) {
  Tensor a = zeros({6});
  Tensor x = ones({3});
  Graph g = capture([&] { a.slice(0, 3, 6).add_(a.slice(0, 0, 3) + x); }); // runs once
  g.replay();
  g.replay();
  EXPECT_VALUES(a, {0, 0, 0, 3, 3, 3});
  EXPECT_ERROR(capture([&] { a.slice(0, 1, 6).copy_(a.slice(0, 0, 5)); }), "Please clone() the tensor");
}

TEST(Errors, LossTargetsOutOfRange) {
  namespace F = nn::functional;
  Tensor logits = zeros({3, 4});
  EXPECT_ERROR(F::cross_entropy(logits, tensor({int64_t(0), int64_t(-1), int64_t(2)})), "Target -1 is out of bounds.");
  EXPECT_ERROR(F::nll_loss(logits, tensor({int64_t(4), int64_t(0), int64_t(2)})), "Target 4 is out of bounds.");
  // ignore_index is the one value outside [0, C) that is allowed.
  EXPECT_NEAR(F::cross_entropy(logits, tensor({int64_t(0), int64_t(-1), int64_t(2)}),
                               F::CrossEntropyFuncOptions().ignore_index(-1))
                  .item<float>(),
              std::log(4.0), 1e-6);
  // gather and scatter take [0, size) only: no wrapping of negative indices.
  EXPECT_ERROR(logits.gather(1, tensor({int64_t(-1)}).view({1, 1})),
               "index -1 is out of bounds for dimension 1 with size 4");
  EXPECT_ERROR(zeros({4}).scatter_(0, tensor({int64_t(-1)}), ones({1})), "index -1 is out of bounds");
}

TEST(Errors, BitwiseOnFloatingAndNarrowingInPlace) {
  EXPECT_ERROR(zeros({2}) & zeros({2}), "\"bitwise_and_cpu\" not implemented for 'Float'");
  EXPECT_ERROR(tensor({1, 2}) ^ 1.5, "\"bitwise_xor_cpu\" not implemented for 'Float'");
  EXPECT_ERROR(zeros({2}).bitwise_not_(), "\"bitwise_not_cpu\" not implemented for 'Float'");
  Tensor m = zeros({2}, kBool);
  EXPECT_ERROR(m |= tensor({2, 3}), "result type Long can't be cast to the desired output type Bool");
  EXPECT_ERROR(m.logical_and_(zeros({2, 2}, kBool)), "output with shape [2] doesn't match the broadcast shape [2, 2]");
}

TEST(Errors, NotImplementedNamesTheDevicesKernel) {
  // LibTorch names the kernel of the operands' device ("hypot_cuda" for CUDA tensors); the CUDA
  // spelling is checked here without a GPU, on one by CudaBackend.NotImplementedNamesTheCudaKernel.
  EXPECT_EQ(gfy::detail::kernel_name("hypot", Device(kCUDA)), "hypot_cuda");
  EXPECT_EQ(gfy::detail::kernel_name("div_floor", Device(kCPU)), "div_floor_cpu");
  EXPECT_ERROR(hypot(tensor({1}), tensor({2})), "\"hypot_cpu\" not implemented for 'Long'");
  EXPECT_ERROR(floor_divide(tensor({true}), tensor({true})), "\"div_floor_cpu\" not implemented for 'Bool'");
}

TEST(Errors, IndexCopyAndIndexFill) {
  Tensor x = zeros({3, 4}), i = tensor({2, 0});
  EXPECT_ERROR(x.index_copy(0, i.to(kInt), ones({2, 4})), "index_copy_(): Expected a long tensor for index, but got Int");
  EXPECT_ERROR(x.index_copy(0, i.view({1, 2}), ones({2, 4})), "index_copy_(): Index should have dimension 1 or 0 (got 2)");
  EXPECT_ERROR(x.index_copy(0, i, ones({2, 4}, kDouble)),
               "index_copy_(): self and source expected to have the same dtype, but got (self) Float and (source) Double");
  EXPECT_ERROR(x.index_copy(0, i, ones({3, 4})), "index_copy_(): Number of indices (2) should be equal to source.size(dim) (3)");
  EXPECT_ERROR(zeros({2, 3, 4}).index_copy(1, i, ones({2, 2, 5})),
               "index_copy_(): Source/destination tensor must have same slice shapes. Destination slice shape: 2 4 at "
               "dimension 1 and source slice shape: 2 5 at dimension 0.");
  EXPECT_ERROR(x.index_copy(0, i, ones({8})), "Source dimensionality (1), destination dimensionality (2)");
  EXPECT_ERROR(zeros({3}).index_copy(0, i, tensor(5.0)), "When source is scalar, index should have one element (got 2)");
  EXPECT_ERROR(x.index_copy(0, tensor({5, 0}), ones({2, 4})), "index 5 is out of bounds for dimension 0 with size 3");
  EXPECT_ERROR(x.index_copy(0, tensor({-1, 0}), ones({2, 4})), "index -1 is out of bounds for dimension 0 with size 3");
  EXPECT_ERROR(x.index_fill(1, i, tensor({7.5})),
               "index_fill_ only supports a 0-dimensional value tensor, but got tensor with 1 dimension(s).");
  EXPECT_ERROR(x.index_fill(1, i.to(kInt), 1), "index_fill_(): Expected dtype int64 for index.");
  EXPECT_ERROR(x.index_fill(1, i.view({1, 2}), 1), "Index has to be a vector/scalar");
  EXPECT_ERROR(x.index_fill(1, tensor({-5}), 1), "index -5 is out of bounds for dimension 1 with size 4");
}

TEST(Errors, MedianSplitWithSizesUpsample1d) {
  EXPECT_ERROR(median(zeros({3}, kBool)), "\"median_cpu\" not implemented for 'Bool'");
  EXPECT_ERROR(median(zeros({3}, kBool), 0), "\"median_out\" not implemented for 'Bool'");
  EXPECT_ERROR(median(zeros({0, 3}), 0), "median(): Expected reduction dim 0 to have non-zero size.");
  Tensor x = arange(10).view({2, 5});
  EXPECT_ERROR(x.split_with_sizes({2, 2}, 1),
               "split_with_sizes expects split_sizes to sum exactly to 5 (input tensor's size at dimension 1), but got "
               "split_sizes=[2, 2]");
  EXPECT_ERROR(x.split_with_sizes({6, -1}, 1),
               "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=[6, -1]");
  EXPECT_ERROR(upsample_nearest1d(zeros({1, 2, 3}), {0}),
               "Input and output sizes should be greater than 0, but got input (W: 3) and output (W: 0)");
  EXPECT_ERROR(upsample_nearest1d(zeros({2, 3}), {4}), "It is expected input_size equals to 3, but got size 2");
  EXPECT_ERROR(upsample_nearest1d(zeros({1, 2, 3}), {4, 5}), "It is expected output_size equals to 1, but got size 2");
}

TEST(Errors, IntArrayRefBounds) {
  Tensor x = zeros({2, 3, 4});
  EXPECT_ERROR(x.sizes().slice(2, 5), "ArrayRef: invalid slice, N = 2; M = 5; size = 3");
  EXPECT_ERROR(x.sizes().slice(4), "ArrayRef: invalid slice, N = 4; size = 3");
  EXPECT_ERROR(x.sizes().at(3), "ArrayRef: invalid index Index = 3; Length = 3");
}

// Floating values in messages stream as LibTorch's c10::str does (six significant digits), not as
// std::to_string's fixed "%f": "-1e-09", "-0.25".
TEST(Errors, FloatingValuesPrintAsLibTorch) {
  Tensor p = zeros({2}).requires_grad_(true);
  EXPECT_ERROR(optim::AdamW({p}, optim::AdamWOptions(0.1).weight_decay(-1e-9)), "Invalid weight_decay value: -1e-09");
  try {
    optim::Adam({p}, optim::AdamOptions(-0.25));
    ADD_FAILURE() << "no exception";
  } catch (const gfy::Error &e) {
    EXPECT_EQ(std::string(e.what()), "Invalid learning rate: -0.25");
  }
}

// The runtime computes the inverse on the host: an input that requires grad is refused, not given a
// result autograd would silently treat as a constant; under NoGradGuard it is computed.
TEST(Errors, LinalgInvRefusesGradients) {
  Tensor a = (eye(3) * 2).requires_grad_();
  EXPECT_ERROR(linalg_inv(a), "gradients through the inverse are not supported");
  NoGradGuard no_grad;
  EXPECT_TRUE(allclose(linalg_inv(a), eye(3) * 0.5));
}

TEST(Errors, HalfOpsRefuseGradients) {
  // The float copies half ops run on are outside the autograd graph: refused, not silently cut.
  Tensor w = ones({2}, kHalf).requires_grad_();
  EXPECT_ERROR(w * 2, "\"mul\": Half tensors do not record gradients in the runtime");
  EXPECT_ERROR(ones({2}, kBFloat16).requires_grad_().sum(), "BFloat16 tensors do not record gradients");
  NoGradGuard no_grad;
  EXPECT_TRUE(equal(w * 2, full({2}, 2.0, kHalf)));
}

TEST(Errors, HalfFillChecksTheRange) {
  EXPECT_ERROR(full({2}, 65520.0, kHalf), "value cannot be converted to type at::Half without overflow");
  EXPECT_ERROR(zeros({1}, kHalf).fill_(-1e5), "at::Half without overflow");
  EXPECT_TRUE(full({1}, 65504.0, kHalf).item<float>() == 65504.f);
}
