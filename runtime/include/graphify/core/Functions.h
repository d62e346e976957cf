#pragma once
/// \file
/// Free functions of the gfy:: namespace, mirroring `torch::` (names, argument order, defaults).
///
/// \code
///   gfy::manual_seed(0);
///   auto x = gfy::randn({3, 4});
///   auto y = gfy::where(x > 0, x, gfy::zeros_like(x));
///   auto i = gfy::argsort((x <= 0).to(gfy::kInt), /*stable=*/true, /*dim=*/1);
/// \endcode

#include <graphify/autograd/GradMode.h>
#include <graphify/core/Indexing.h>
#include <graphify/core/Tensor.h>
#include <graphify/core/TensorDataContainer.h>

#include <source_location>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

namespace gfy {

using SL = std::source_location;

// --- creation ---
Tensor empty(IntArrayRef size, const TensorOptions &options = {});
Tensor zeros(IntArrayRef size, const TensorOptions &options = {});
Tensor ones(IntArrayRef size, const TensorOptions &options = {});
/// Without an explicit dtype, the dtype follows the fill value (bool, long or float) as in LibTorch.
Tensor full(IntArrayRef size, const Scalar &fill_value, const TensorOptions &options = {});
Tensor empty_like(const Tensor &t, const TensorOptions &options = {});
Tensor zeros_like(const Tensor &t, const TensorOptions &options = {});
Tensor ones_like(const Tensor &t, const TensorOptions &options = {});
Tensor full_like(const Tensor &t, const Scalar &fill_value, const TensorOptions &options = {});
Tensor rand_like(const Tensor &t, const TensorOptions &options = {});
Tensor randn_like(const Tensor &t, const TensorOptions &options = {});
/// Long when all of start/end/step are integers, float otherwise (unless a dtype is given).
Tensor arange(const Scalar &end, const TensorOptions &options = {});
Tensor arange(const Scalar &start, const Scalar &end, const TensorOptions &options = {});
Tensor arange(const Scalar &start, const Scalar &end, const Scalar &step, const TensorOptions &options = {});
Tensor linspace(const Scalar &start, const Scalar &end, int64_t steps, const TensorOptions &options = {});
Tensor rand(IntArrayRef size, const TensorOptions &options = {});
/// A random permutation of 0 .. n-1 (Long unless `options` say otherwise), from the seeded
/// generator; the order differs from LibTorch's for the same seed, as every random op here.
Tensor randperm(int64_t n, const TensorOptions &options = kLong);
Tensor randn(IntArrayRef size, const TensorOptions &options = {});
/// Category indices drawn from each row of `probs` (1-d or 2-d, unnormalised, floating); without
/// replacement every index of a row is distinct. LibTorch's checks and messages.
Tensor multinomial(const Tensor &probs, int64_t num_samples, bool replacement = false, SL loc = SL::current());
/// 0 or 1 per element, 1 with the probability `p` holds (floating), or with probability `prob`.
Tensor bernoulli(const Tensor &p);
/// Normal draws: mean and std as tensors (broadcast) or numbers; the last form takes a size.
Tensor normal(const Tensor &mean, double std = 1);
Tensor normal(double mean, const Tensor &std);
Tensor normal(const Tensor &mean, const Tensor &std);
Tensor normal(double mean, double std, IntArrayRef size, const TensorOptions &options = {});
Tensor bernoulli(const Tensor &self, double prob);
Tensor randint(int64_t high, IntArrayRef size, const TensorOptions &options = kLong);
Tensor randint(int64_t low, int64_t high, IntArrayRef size, const TensorOptions &options = kLong);
Tensor eye(int64_t n, const TensorOptions &options = {});
/// Seeds the global generator (mt19937_64); the same seed gives the same numbers.
void manual_seed(uint64_t seed);
/// 0-d tensor from a scalar: float → Float, int → Long, bool → Bool (unless a dtype is given).
Tensor scalar_tensor(const Scalar &s, const TensorOptions &options = {});
/// `gfy::tensor({1.f, 2.f})`, `gfy::tensor(std::vector<int64_t>{...})`, `gfy::tensor(3.5)`.
Tensor tensor(std::initializer_list<float> values, const TensorOptions &options = {});
Tensor tensor(std::initializer_list<double> values, const TensorOptions &options = {});
Tensor tensor(std::initializer_list<int> values, const TensorOptions &options = {});
Tensor tensor(std::initializer_list<int64_t> values, const TensorOptions &options = {});
Tensor tensor(std::initializer_list<bool> values, const TensorOptions &options = {});
/// Nested lists, `gfy::tensor({{1.f, 2.f}, {3.f, 4.f}})` (TensorDataContainer.h says the rules).
Tensor tensor(const detail::TensorDataContainer &values, const TensorOptions &options = {});
namespace detail {
Tensor vector_tensor(const std::vector<float> &values, const TensorOptions &options);
Tensor vector_tensor(const std::vector<double> &values, const TensorOptions &options);
Tensor vector_tensor(const std::vector<int> &values, const TensorOptions &options);
Tensor vector_tensor(const std::vector<int64_t> &values, const TensorOptions &options);
Tensor vector_tensor(const std::vector<bool> &values, const TensorOptions &options);
Tensor vector_tensor(const std::vector<uint8_t> &values, const TensorOptions &options);
Tensor vector_tensor(const std::vector<int8_t> &values, const TensorOptions &options);
Tensor vector_tensor(const std::vector<int16_t> &values, const TensorOptions &options);
} // namespace detail
/// `gfy::tensor(std::vector<float>{...})`, of the vector's element type (a list of doubles gives
/// the default dtype, as LibTorch). A template so that a braced list never converts to a vector:
/// `tensor({{1.f, 2.f}})` is a nested list of one row, as in LibTorch.
template <class T, class = decltype(detail::vector_tensor(std::declval<const std::vector<T> &>(), TensorOptions()))>
Tensor tensor(const std::vector<T> &values, const TensorOptions &options = {}) {
  return detail::vector_tensor(values, options);
}
Tensor tensor(double value, const TensorOptions &options = {});
Tensor tensor(float value, const TensorOptions &options = {});
Tensor tensor(int value, const TensorOptions &options = {});
Tensor tensor(int64_t value, const TensorOptions &options = {});
Tensor tensor(bool value, const TensorOptions &options = {});
/// Wraps external memory (contiguous strides unless given); the runtime never frees it unless a
/// deleter is passed.
Tensor from_blob(void *data, IntArrayRef sizes, const TensorOptions &options = {});
Tensor from_blob(void *data, IntArrayRef sizes, IntArrayRef strides, const TensorOptions &options = {});
Tensor from_blob(void *data, IntArrayRef sizes, const std::function<void(void *)> &deleter,
                 const TensorOptions &options = {});

// --- elementwise ---
Tensor add(const Tensor &a, const Tensor &b, const Scalar &alpha = 1);
Tensor add(const Tensor &a, const Scalar &b, const Scalar &alpha = 1);
Tensor sub(const Tensor &a, const Tensor &b, const Scalar &alpha = 1);
Tensor sub(const Tensor &a, const Scalar &b, const Scalar &alpha = 1);
Tensor mul(const Tensor &a, const Tensor &b);
Tensor mul(const Tensor &a, const Scalar &b);
Tensor div(const Tensor &a, const Tensor &b);
Tensor div(const Tensor &a, const Scalar &b);
/// Division rounded as `rounding_mode` says, as LibTorch: "trunc" toward zero, "floor" toward -inf
/// (floor_divide); integer operands then give an integer result and an integer zero divisor
/// throws; floating ones give the true quotient rounded. No mode: true division. Any other mode
/// throws.
/// \code
///   gfy::div(gfy::tensor({-7, 7}), 2, "trunc");   // -3, 3 (long)
///   gfy::div(gfy::tensor({-7, 7}), 2, "floor");   // -4, 3 (long)
/// \endcode
Tensor div(const Tensor &a, const Tensor &b, std::optional<std::string_view> rounding_mode);
Tensor div(const Tensor &a, const Scalar &b, std::optional<std::string_view> rounding_mode);
Tensor pow(const Tensor &a, const Tensor &b);
Tensor pow(const Tensor &a, const Scalar &b);
Tensor pow(const Scalar &a, const Tensor &b);
Tensor neg(const Tensor &a);
Tensor abs(const Tensor &a);
Tensor exp(const Tensor &a);
Tensor log(const Tensor &a);
Tensor sqrt(const Tensor &a);
Tensor rsqrt(const Tensor &a);
Tensor square(const Tensor &a);
Tensor relu(const Tensor &a);
/// approximate: "none" (erf) or "tanh", as LibTorch.
Tensor gelu(const Tensor &a, const std::string &approximate = "none");
Tensor sigmoid(const Tensor &a);
Tensor tanh(const Tensor &a);
/// Floating functions: integer and bool inputs give the default dtype, as in LibTorch; outside
/// the domain (asin(2), log2(-1)) the result is NaN.
/// \code
///   gfy::Tensor y = gfy::sin(gfy::arange(4));   // float: 0, 0.8415, 0.9093, 0.1411
/// \endcode
/// atan2(y, x): integer inputs give the default dtype. hypot(a, b): floating inputs only
/// (LibTorch 1.13 has no integer hypot). The maps of ops.def (GFY_MAP_OP rows): the row's
/// `promotion` says what integer inputs do.
#define GFY_OP(name, kind, dtypes, traits)
#define GFY_MAP_OP(name, kind, dtypes, promotion, traits) GFY_FUNCTION_MAP_##kind(name)
#define GFY_FUNCTION_MAP_unary(name) Tensor name(const Tensor &a);
#define GFY_FUNCTION_MAP_binary(name) Tensor name(const Tensor &a, const Tensor &b);
#include <graphify/ops.def>
#undef GFY_FUNCTION_MAP_binary
#undef GFY_FUNCTION_MAP_unary
#undef GFY_MAP_OP
#undef GFY_OP
/// C's fmod: the result takes the sign of `a`. Integer division by zero throws.
Tensor fmod(const Tensor &a, const Tensor &b);
Tensor fmod(const Tensor &a, const Scalar &b);
/// Python's %: the result takes the sign of `b`. Integer division by zero throws.
Tensor remainder(const Tensor &a, const Tensor &b);
Tensor remainder(const Tensor &a, const Scalar &b);
Tensor remainder(const Scalar &a, const Tensor &b);
/// Rounds the quotient toward -inf, as LibTorch 1.13 (earlier versions truncated):
/// \code
///   gfy::floor_divide(gfy::tensor({-7, 7}), 2);   // -4, 3
/// \endcode
Tensor floor_divide(const Tensor &a, const Tensor &b);
Tensor floor_divide(const Tensor &a, const Scalar &b);
/// a + weight * (end - a). `a`, `end` (and a tensor `weight`) must have the same floating dtype.
Tensor lerp(const Tensor &a, const Tensor &end, const Scalar &weight);
Tensor lerp(const Tensor &a, const Tensor &end, const Tensor &weight);
Tensor clamp(const Tensor &a, std::optional<Scalar> min = std::nullopt, std::optional<Scalar> max = std::nullopt);
Tensor clamp_min(const Tensor &a, const Scalar &min);
Tensor clamp_max(const Tensor &a, const Scalar &max);
Tensor maximum(const Tensor &a, const Tensor &b);
Tensor minimum(const Tensor &a, const Tensor &b);
Tensor where(const Tensor &condition, const Tensor &a, const Tensor &b);
/// The dtype an op on these operands computes in (at::result_type): tensors with dimensions
/// before 0-d ones before numbers, unless a lower group holds a higher category (float over
/// integer over bool).
ScalarType result_type(const Tensor &a, const Tensor &b);
ScalarType result_type(const Tensor &a, const Scalar &b);
ScalarType result_type(const Scalar &a, const Tensor &b);
ScalarType result_type(const Scalar &a, const Scalar &b);
Tensor where(const Tensor &condition, const Scalar &a, const Tensor &b);
Tensor where(const Tensor &condition, const Tensor &a, const Scalar &b);
Tensor where(const Tensor &condition, const Scalar &a, const Scalar &b);
/// One-argument where == nonzero(condition) as a tuple of per-dim index tensors. Dynamic shape.
std::vector<Tensor> where(const Tensor &condition, SL loc = SL::current());
Tensor masked_fill(const Tensor &a, const Tensor &mask, const Scalar &value);
Tensor masked_fill(const Tensor &a, const Tensor &mask, const Tensor &value);
Tensor logical_not(const Tensor &a);
Tensor logical_and(const Tensor &a, const Tensor &b);
Tensor logical_or(const Tensor &a, const Tensor &b);
/// Bitwise ops take bool and integer tensors (on bool they are the logical ops) and promote as
/// arithmetic does; a floating operand throws LibTorch's "\"bitwise_and_cpu\" not implemented for
/// 'Float'". The operators `~ & | ^` and `&= |= ^=` call these.
Tensor bitwise_not(const Tensor &a);
Tensor bitwise_and(const Tensor &a, const Tensor &b);
Tensor bitwise_and(const Tensor &a, const Scalar &b);
Tensor bitwise_and(const Scalar &a, const Tensor &b);
Tensor bitwise_or(const Tensor &a, const Tensor &b);
Tensor bitwise_or(const Tensor &a, const Scalar &b);
Tensor bitwise_or(const Scalar &a, const Tensor &b);
Tensor bitwise_xor(const Tensor &a, const Tensor &b);
Tensor bitwise_xor(const Tensor &a, const Scalar &b);
Tensor bitwise_xor(const Scalar &a, const Tensor &b);
Tensor eq(const Tensor &a, const Tensor &b);
Tensor ne(const Tensor &a, const Tensor &b);
Tensor lt(const Tensor &a, const Tensor &b);
Tensor le(const Tensor &a, const Tensor &b);
Tensor gt(const Tensor &a, const Tensor &b);
Tensor ge(const Tensor &a, const Tensor &b);
Tensor eq(const Tensor &a, const Scalar &b);
Tensor ne(const Tensor &a, const Scalar &b);
Tensor lt(const Tensor &a, const Scalar &b);
Tensor le(const Tensor &a, const Scalar &b);
Tensor gt(const Tensor &a, const Scalar &b);
Tensor ge(const Tensor &a, const Scalar &b);

// --- reductions ---
Tensor sum(const Tensor &a, std::optional<ScalarType> dtype = std::nullopt);
Tensor sum(const Tensor &a, IntArrayRef dim, bool keepdim = false, std::optional<ScalarType> dtype = std::nullopt);
Tensor mean(const Tensor &a, std::optional<ScalarType> dtype = std::nullopt);
Tensor mean(const Tensor &a, IntArrayRef dim, bool keepdim = false, std::optional<ScalarType> dtype = std::nullopt);
Tensor prod(const Tensor &a, std::optional<ScalarType> dtype = std::nullopt);
Tensor prod(const Tensor &a, int64_t dim, bool keepdim = false, std::optional<ScalarType> dtype = std::nullopt);
Tensor max(const Tensor &a);
std::tuple<Tensor, Tensor> max(const Tensor &a, int64_t dim, bool keepdim = false);
Tensor max(const Tensor &a, const Tensor &b); ///< elementwise maximum
Tensor min(const Tensor &a);
std::tuple<Tensor, Tensor> min(const Tensor &a, int64_t dim, bool keepdim = false);
Tensor min(const Tensor &a, const Tensor &b);
Tensor amax(const Tensor &a, IntArrayRef dim = {}, bool keepdim = false);
Tensor amin(const Tensor &a, IntArrayRef dim = {}, bool keepdim = false);
Tensor argmax(const Tensor &a, std::optional<int64_t> dim = std::nullopt, bool keepdim = false);
Tensor argmin(const Tensor &a, std::optional<int64_t> dim = std::nullopt, bool keepdim = false);
Tensor count_nonzero(const Tensor &a, IntArrayRef dim);
Tensor count_nonzero(const Tensor &a, std::optional<int64_t> dim = std::nullopt);
Tensor any(const Tensor &a);
Tensor any(const Tensor &a, int64_t dim, bool keepdim = false);
Tensor all(const Tensor &a);
Tensor all(const Tensor &a, int64_t dim, bool keepdim = false);
Tensor cumsum(const Tensor &a, int64_t dim, std::optional<ScalarType> dtype = std::nullopt);
/// Running product along `dim`; integer and bool inputs give long, as cumsum.
Tensor cumprod(const Tensor &a, int64_t dim, std::optional<ScalarType> dtype = std::nullopt);
/// Running maximum (minimum) along `dim` and where it was taken: (values, long indices). Ties take
/// the later index and a NaN propagates (its index is kept), as LibTorch's.
std::tuple<Tensor, Tensor> cummax(const Tensor &a, int64_t dim);
std::tuple<Tensor, Tensor> cummin(const Tensor &a, int64_t dim);
std::tuple<Tensor, Tensor> sort(const Tensor &a, int64_t dim = -1, bool descending = false);
std::tuple<Tensor, Tensor> sort(const Tensor &a, std::optional<bool> stable, int64_t dim = -1, bool descending = false);
Tensor argsort(const Tensor &a, int64_t dim = -1, bool descending = false);
/// `argsort(x, /*stable=*/true, dim, descending)` as LibTorch 1.13.
Tensor argsort(const Tensor &a, bool stable, int64_t dim = -1, bool descending = false);
std::tuple<Tensor, Tensor> topk(const Tensor &a, int64_t k, int64_t dim = -1, bool largest = true, bool sorted = true);
bool equal(const Tensor &a, const Tensor &b, SL loc = SL::current());
bool allclose(const Tensor &a, const Tensor &b, double rtol = 1e-05, double atol = 1e-08, bool equal_nan = false,
              SL loc = SL::current());
Tensor isclose(const Tensor &a, const Tensor &b, double rtol = 1e-05, double atol = 1e-08, bool equal_nan = false);

// --- linear algebra (OpenBLAS on CPU) ---
Tensor matmul(const Tensor &a, const Tensor &b);
Tensor mm(const Tensor &a, const Tensor &b);
Tensor bmm(const Tensor &a, const Tensor &b);
Tensor addmm(const Tensor &self, const Tensor &mat1, const Tensor &mat2, const Scalar &beta = 1,
             const Scalar &alpha = 1);
Tensor linear(const Tensor &input, const Tensor &weight, const Tensor &bias = {});
/// LibTorch's signature takes the bias as `c10::optional<Tensor>` (`at::linear(x, w, c10::nullopt)`).
inline Tensor linear(const Tensor &input, const Tensor &weight, const std::optional<Tensor> &bias) {
  return linear(input, weight, bias.value_or(Tensor()));
}

// --- shape ---
Tensor cat(const std::vector<Tensor> &tensors, int64_t dim = 0);
Tensor stack(const std::vector<Tensor> &tensors, int64_t dim = 0);
/// LibTorch's TensorList converts from one tensor (`torch::stack(t)` is `torch::stack({t})`).
/// Templates, so that a braced list (`cat({})`, `cat({a})`) still means the vector.
template <class T>
  requires std::is_same_v<T, Tensor>
Tensor cat(const T &tensor, int64_t dim = 0) {
  return cat(std::vector<Tensor>{tensor}, dim);
}
template <class T>
  requires std::is_same_v<T, Tensor>
Tensor stack(const T &tensor, int64_t dim = 0) {
  return stack(std::vector<Tensor>{tensor}, dim);
}
std::vector<Tensor> chunk(const Tensor &a, int64_t chunks, int64_t dim = 0);
std::vector<Tensor> split(const Tensor &a, int64_t split_size, int64_t dim = 0);
std::vector<Tensor> split(const Tensor &a, IntArrayRef split_sizes, int64_t dim = 0);
std::vector<Tensor> split_with_sizes(const Tensor &a, IntArrayRef split_sizes, int64_t dim = 0);
std::vector<Tensor> unbind(const Tensor &a, int64_t dim = 0);
Tensor slice(const Tensor &a, int64_t dim = 0, std::optional<int64_t> start = std::nullopt,
             std::optional<int64_t> end = std::nullopt, int64_t step = 1);
Tensor narrow(const Tensor &a, int64_t dim, int64_t start, int64_t length);
Tensor select(const Tensor &a, int64_t dim, int64_t index);
Tensor view(const Tensor &a, IntArrayRef size);
Tensor reshape(const Tensor &a, IntArrayRef shape);
Tensor transpose(const Tensor &a, int64_t dim0, int64_t dim1);
Tensor t(const Tensor &a);
Tensor permute(const Tensor &a, IntArrayRef dims);
Tensor contiguous(const Tensor &a);
Tensor expand(const Tensor &a, IntArrayRef size);
Tensor squeeze(const Tensor &a);
Tensor squeeze(const Tensor &a, int64_t dim);
Tensor unsqueeze(const Tensor &a, int64_t dim);
Tensor flatten(const Tensor &a, int64_t start_dim = 0, int64_t end_dim = -1);
Tensor clone(const Tensor &a);
/// The shape both inputs broadcast to, or gfy::Error naming the first mismatching dimension.
std::vector<int64_t> broadcast_shapes(IntArrayRef a, IntArrayRef b);
std::vector<Tensor> broadcast_tensors(const std::vector<Tensor> &tensors);

// --- indexing ---
Tensor index_select(const Tensor &a, int64_t dim, const Tensor &index);
Tensor index_copy(const Tensor &a, int64_t dim, const Tensor &index, const Tensor &source);
Tensor index_fill(const Tensor &a, int64_t dim, const Tensor &index, const Scalar &value);
Tensor index_fill(const Tensor &a, int64_t dim, const Tensor &index, const Tensor &value);
Tensor gather(const Tensor &a, int64_t dim, const Tensor &index);
namespace detail {
/// gather along the class dim of nll_loss / cross_entropy: an index outside [0, a.size(dim))
/// raises LibTorch's "Target t is out of bounds." The kernel checks it (values are data), so the
/// loss needs no host read and stays capturable.
Tensor gather_targets(const Tensor &a, int64_t dim, const Tensor &index);
} // namespace detail
Tensor scatter(const Tensor &a, int64_t dim, const Tensor &index, const Tensor &src);
Tensor scatter(const Tensor &a, int64_t dim, const Tensor &index, const Scalar &value);
/// scatter with accumulation: out[index[i][j]][j] += src[i][j] for dim 0; repeated indices add up.
Tensor scatter_add(const Tensor &a, int64_t dim, const Tensor &index, const Tensor &src);
Tensor nonzero(const Tensor &a, SL loc = SL::current());
/// LibTorch's aliases: argwhere is nonzero, not_equal is ne, clip is clamp, concatenate is cat.
inline Tensor argwhere(const Tensor &a, SL loc = SL::current()) { return nonzero(a, loc); }
inline Tensor not_equal(const Tensor &a, const Tensor &b) { return ne(a, b); }
inline Tensor not_equal(const Tensor &a, const Scalar &b) { return ne(a, b); }
inline Tensor clip(const Tensor &a, std::optional<Scalar> min = std::nullopt, std::optional<Scalar> max = std::nullopt) {
  return clamp(a, min, max);
}
inline Tensor concatenate(const std::vector<Tensor> &tensors, int64_t dim = 0) { return cat(tensors, dim); }
/// The element count, as torch::numel.
inline int64_t numel(const Tensor &a) { return a.numel(); }
/// Adds alpha * source's slices into a copy of `a` at `index` along `dim`.
Tensor index_add(const Tensor &a, int64_t dim, const Tensor &index, const Tensor &source, const Scalar &alpha = 1);
/// The cross product of 3-vectors along `dim` (torch::cross without a dim: the first dim of size 3).
Tensor linalg_cross(const Tensor &a, const Tensor &b, int64_t dim = -1);
Tensor cross(const Tensor &a, const Tensor &b, std::optional<int64_t> dim = std::nullopt);
/// The Kronecker product.
Tensor kron(const Tensor &a, const Tensor &b);
/// The inverse of a square matrix or a batch of them (float or double; no gradient).
/// Computed on the host (refused inside a captured graph, as LibTorch's reads its status back).
Tensor linalg_inv(const Tensor &a, SL loc = SL::current());
Tensor inverse(const Tensor &a, SL loc = SL::current());
namespace linalg {
inline Tensor inv(const Tensor &a, SL loc = SL::current()) { return linalg_inv(a, loc); }
} // namespace linalg
/// NaN, +inf and -inf replaced (defaults: 0, the dtype's largest and lowest values).
Tensor nan_to_num(const Tensor &a, std::optional<double> nan = 0.0, std::optional<double> posinf = std::nullopt,
                  std::optional<double> neginf = std::nullopt);
/// torch::special: the functions of the scipy.special family the runtime has.
namespace special {
/// The standard normal distribution function, 0.5 * (1 + erf(x / sqrt(2))).
inline Tensor ndtr(const Tensor &x) { return erf(x.mul(0.7071067811865476)).add(1).mul(0.5); }
inline Tensor erf(const Tensor &x) { return gfy::erf(x); }
inline Tensor erfc(const Tensor &x) { return gfy::erfc(x); }
inline Tensor expit(const Tensor &x) { return gfy::sigmoid(x); }
inline Tensor exp2(const Tensor &x) { return gfy::exp2(x); }
inline Tensor expm1(const Tensor &x) { return gfy::expm1(x); }
inline Tensor log1p(const Tensor &x) { return gfy::log1p(x); }
} // namespace special
Tensor masked_select(const Tensor &a, const Tensor &mask, SL loc = SL::current());
/// Returns (output, inverse_indices, counts); the last two are empty unless requested.
std::tuple<Tensor, Tensor, Tensor> unique_consecutive(const Tensor &a, bool return_inverse = false,
                                                      bool return_counts = false,
                                                      std::optional<int64_t> dim = std::nullopt,
                                                      SL loc = SL::current());
/// The distinct elements of `a` (flattened), sorted ascending, what Python's torch.unique calls:
/// (output, inverse_indices (a's shape), counts); the last two are empty unless requested. With
/// sorted = false LibTorch's order is unspecified; here it is sorted too.
std::tuple<Tensor, Tensor, Tensor> _unique2(const Tensor &a, bool sorted = true, bool return_inverse = false,
                                            bool return_counts = false, SL loc = SL::current());
/// _unique2 without the counts.
std::tuple<Tensor, Tensor> _unique(const Tensor &a, bool sorted = true, bool return_inverse = false,
                                   SL loc = SL::current());
Tensor embedding(const Tensor &weight, const Tensor &indices, int64_t padding_idx = -1,
                 bool scale_grad_by_freq = false, bool sparse = false);

// --- composites (built from the ops above; see src/core/ops_composite.cpp) ---
/// Variance over `dim` (all dims when empty), Bessel-corrected unless `unbiased` is false.
Tensor var(const Tensor &a, bool unbiased = true);
Tensor var(const Tensor &a, IntArrayRef dim, bool unbiased = true, bool keepdim = false);
/// `var(x, 0)` reduces dim 0: LibTorch's C++-only `int` overloads keep 0 from converting to `unbiased`.
Tensor var(const Tensor &a, int dim);
Tensor std(const Tensor &a, bool unbiased = true);
Tensor std(const Tensor &a, IntArrayRef dim, bool unbiased = true, bool keepdim = false);
Tensor std(const Tensor &a, int dim);
std::tuple<Tensor, Tensor> var_mean(const Tensor &a, bool unbiased = true);
std::tuple<Tensor, Tensor> var_mean(const Tensor &a, IntArrayRef dim, bool unbiased = true, bool keepdim = false);
std::tuple<Tensor, Tensor> var_mean(const Tensor &a, int dim);
std::tuple<Tensor, Tensor> std_mean(const Tensor &a, bool unbiased = true);
std::tuple<Tensor, Tensor> std_mean(const Tensor &a, IntArrayRef dim, bool unbiased = true, bool keepdim = false);
std::tuple<Tensor, Tensor> std_mean(const Tensor &a, int dim);
/// Vector p-norm (p = 0, 1, 2, inf, -inf or any other real) over `dim`, floating inputs only.
Tensor norm(const Tensor &a, const Scalar &p = 2);
Tensor norm(const Tensor &a, std::optional<Scalar> p, IntArrayRef dim, bool keepdim = false);
Tensor logsumexp(const Tensor &a, IntArrayRef dim, bool keepdim = false);
/// Tiles `a`; `repeats` may have more entries than `a` has dims (leading ones are added).
Tensor repeat(const Tensor &a, IntArrayRef repeats);
Tensor flip(const Tensor &a, IntArrayRef dims);
/// flip(a, {1}) for a tensor of at least 2 dims; flip(a, {0}) for one of at least 1.
Tensor fliplr(const Tensor &a);
Tensor flipud(const Tensor &a);
/// Circular shift; without `dims` the flattened tensor is shifted and the shape restored.
Tensor roll(const Tensor &a, IntArrayRef shifts, IntArrayRef dims = {});
Tensor tril(const Tensor &a, int64_t diagonal = 0);
Tensor triu(const Tensor &a, int64_t diagonal = 0);
/// A 1-d input becomes the square matrix with it on the `diagonal`-th diagonal; of a 2-d input,
/// the diagonal is returned (a copy, as LibTorch's diag).
Tensor diag(const Tensor &a, int64_t diagonal = 0);
/// p-norm distances between the rows of x1 (…, P, M) and x2 (…, R, M): (…, P, R). Zero distances
/// have zero gradients, as LibTorch's.
Tensor cdist(const Tensor &x1, const Tensor &x2, double p = 2.0, std::optional<int64_t> compute_mode = std::nullopt);
/// torch::one_hot, the same as F::one_hot.
Tensor one_hot(const Tensor &tensor, int64_t num_classes = -1);
Tensor reciprocal(const Tensor &a);
Tensor sign(const Tensor &a);
/// Rounding of floating tensors (integers are returned as copies); `round` is half to even.
Tensor trunc(const Tensor &a);
Tensor floor(const Tensor &a);
Tensor ceil(const Tensor &a);
Tensor round(const Tensor &a);
Tensor isinf(const Tensor &a);
Tensor isfinite(const Tensor &a);
Tensor logical_xor(const Tensor &a, const Tensor &b);
Tensor silu(const Tensor &a);
Tensor dot(const Tensor &a, const Tensor &b);
Tensor mv(const Tensor &a, const Tensor &vec);
Tensor outer(const Tensor &a, const Tensor &b);

// --- neural network functions ---
Tensor softmax(const Tensor &a, int64_t dim, std::optional<ScalarType> dtype = std::nullopt);
Tensor log_softmax(const Tensor &a, int64_t dim, std::optional<ScalarType> dtype = std::nullopt);
Tensor layer_norm(const Tensor &input, IntArrayRef normalized_shape, const Tensor &weight = {},
                  const Tensor &bias = {}, double eps = 1e-05, bool cudnn_enable = true);
Tensor dropout(const Tensor &input, double p, bool train);
/// Zeroes whole channels (dim 1, of an input of at least 2 dims) with probability p and scales the
/// rest by 1 / (1 - p) when `train`; otherwise returns `input` itself.
Tensor feature_dropout(const Tensor &input, double p, bool train);
/// Normalises each channel (dim 1) by batch statistics (`training`, which also moves the defined
/// running estimates towards them by `momentum`, in place) or by the running estimates. Any of
/// weight, bias, running_mean, running_var may be undefined (`{}`), except the running ones in eval.
/// \code
///   auto y = gfy::batch_norm(x, w, b, mean, var, /*training=*/false, 0.1, 1e-5, true);
/// \endcode
Tensor batch_norm(const Tensor &input, const Tensor &weight, const Tensor &bias, const Tensor &running_mean,
                  const Tensor &running_var, bool training, double momentum, double eps, bool cudnn_enabled);

// --- activations (composites) ---
/// log(1 + exp(beta * x)) / beta, or x where beta * x > threshold.
Tensor softplus(const Tensor &a, const Scalar &beta = 1, const Scalar &threshold = 20);
/// x * scale for x > 0, else alpha * scale * (exp(x * input_scale) - 1).
Tensor elu(const Tensor &a, const Scalar &alpha = 1, const Scalar &scale = 1, const Scalar &input_scale = 1);
Tensor hardswish(const Tensor &a);
/// x * tanh(log(1 + exp(x))).
Tensor mish(const Tensor &a);
Tensor leaky_relu(const Tensor &a, const Scalar &negative_slope = 0.01);

// --- convolution (src/core/ops_conv.cpp; tiled products on the CPU, src/cpu/ConvTiled.cpp) ---
/// input (N, C, L) or unbatched (C, L); weight (O, C / groups, k); bias (O) or undefined.
/// `stride`, `padding`, `dilation`: one int or one per spatial dim.
/// \code
///   auto y = gfy::conv2d(x, w, b, /*stride=*/2, /*padding=*/1);   // x (N, C, H, W), w (O, C, 3, 3)
///   auto z = gfy::conv2d(x, w, {}, 1, "same");
/// \endcode
Tensor conv1d(const Tensor &input, const Tensor &weight, const Tensor &bias = {}, IntArrayRef stride = 1,
              IntArrayRef padding = 0, IntArrayRef dilation = 1, int64_t groups = 1);
/// input (N, C, H, W) or unbatched (C, H, W); weight (O, C / groups, kH, kW); bias (O) or undefined.
Tensor conv2d(const Tensor &input, const Tensor &weight, const Tensor &bias = {}, IntArrayRef stride = 1,
              IntArrayRef padding = 0, IntArrayRef dilation = 1, int64_t groups = 1);
/// `padding` "valid" (none) or "same" (the input's size; stride 1 only), as LibTorch's overloads.
Tensor conv1d(const Tensor &input, const Tensor &weight, const Tensor &bias, IntArrayRef stride,
              std::string_view padding, IntArrayRef dilation = 1, int64_t groups = 1);
Tensor conv2d(const Tensor &input, const Tensor &weight, const Tensor &bias, IntArrayRef stride,
              std::string_view padding, IntArrayRef dilation = 1, int64_t groups = 1);

// --- pooling (src/core/ops_pooling.cpp) ---
/// input (N, C, H, W) or (C, H, W); an empty `stride` is the kernel size; padding is implicit -inf.
Tensor max_pool2d(const Tensor &input, IntArrayRef kernel_size, IntArrayRef stride = {}, IntArrayRef padding = 0,
                  IntArrayRef dilation = 1, bool ceil_mode = false);
/// Also the position of each maximum within its (H, W) plane, as ih * W + iw (long).
std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor &input, IntArrayRef kernel_size,
                                                   IntArrayRef stride = {}, IntArrayRef padding = 0,
                                                   IntArrayRef dilation = 1, bool ceil_mode = false);
Tensor max_pool1d(const Tensor &input, IntArrayRef kernel_size, IntArrayRef stride = {}, IntArrayRef padding = 0,
                  IntArrayRef dilation = 1, bool ceil_mode = false);
/// `count_include_pad` counts the zero padding in each window's divisor; `divisor_override`
/// replaces the divisor altogether.
Tensor avg_pool2d(const Tensor &input, IntArrayRef kernel_size, IntArrayRef stride = {}, IntArrayRef padding = 0,
                  bool ceil_mode = false, bool count_include_pad = true,
                  std::optional<int64_t> divisor_override = std::nullopt);
Tensor avg_pool1d(const Tensor &input, IntArrayRef kernel_size, IntArrayRef stride = {}, IntArrayRef padding = 0,
                  bool ceil_mode = false, bool count_include_pad = true);
/// Output (…, oH, oW) = output_size; window o covers [floor(o * H / oH), ceil((o + 1) * H / oH)).
Tensor adaptive_avg_pool2d(const Tensor &input, IntArrayRef output_size);
Tensor adaptive_avg_pool1d(const Tensor &input, IntArrayRef output_size);
/// (values, indices); indices as max_pool2d_with_indices'.
std::tuple<Tensor, Tensor> adaptive_max_pool2d(const Tensor &input, IntArrayRef output_size);
std::tuple<Tensor, Tensor> adaptive_max_pool1d(const Tensor &input, IntArrayRef output_size);

// --- upsampling of (N, C, H, W) inputs (src/core/ops_upsample.cpp) ---
/// `scales_h`/`scales_w`: the scale factors the size came from, if any (they, not the size
/// ratio, map output positions to input positions, as in LibTorch).
/// input (N, C, W) to (N, C, output_size[0]); `scales` as upsample_nearest2d's.
Tensor upsample_nearest1d(const Tensor &input, IntArrayRef output_size, std::optional<double> scales = std::nullopt);
Tensor upsample_nearest2d(const Tensor &input, IntArrayRef output_size, std::optional<double> scales_h = std::nullopt,
                          std::optional<double> scales_w = std::nullopt);
Tensor upsample_bilinear2d(const Tensor &input, IntArrayRef output_size, bool align_corners,
                           std::optional<double> scales_h = std::nullopt,
                           std::optional<double> scales_w = std::nullopt);

// --- second slice of issue #17: sequence and vision functions real models call ---
/// self * beta + (batch1 @ batch2) * alpha for (B, n, m) @ (B, m, p); `self` broadcasts to
/// (B, n, p) and is ignored when beta is 0 (src/core/ops_linalg.cpp).
Tensor baddbmm(const Tensor &self, const Tensor &batch1, const Tensor &batch2, const Scalar &beta = 1,
               const Scalar &alpha = 1);
/// Einstein summation over one or more operands: letters, `...`, implicit or `->` output, size-1
/// broadcasting; pairs contract with bmm (src/core/ops_einsum.cpp). Repeated letters within one
/// operand (diagonals) throw.
/// \code
///   auto scores = gfy::einsum("bhqd,bhkd->bhqk", {q, k});
/// \endcode
Tensor einsum(std::string_view equation, const std::vector<Tensor> &tensors);
/// The k-th smallest value (1-based) along `dim` and its index (src/core/ops_sorting.cpp).
std::tuple<Tensor, Tensor> kthvalue(const Tensor &a, int64_t k, int64_t dim = -1, bool keepdim = false);
Tensor median(const Tensor &a);
std::tuple<Tensor, Tensor> median(const Tensor &a, int64_t dim, bool keepdim = false);
/// Coordinate grids of 0-d or 1-d tensors, "ij" (matrix) or "xy" (Cartesian) indexing; without
/// `indexing`, "ij" as LibTorch 1.13 (src/core/ops_shape.cpp).
std::vector<Tensor> meshgrid(const std::vector<Tensor> &tensors);
std::vector<Tensor> meshgrid(const std::vector<Tensor> &tensors, std::string_view indexing);

/// Transposed convolution: input (N, C_in, L) / (N, C_in, H, W) or unbatched, weight
/// (C_in, C_out / groups, k...), output size (in - 1) * stride - 2 * padding + dilation * (k - 1)
/// + output_padding + 1 (src/core/ops_conv_transpose.cpp).
Tensor conv_transpose1d(const Tensor &input, const Tensor &weight, const Tensor &bias = {}, IntArrayRef stride = 1,
                        IntArrayRef padding = 0, IntArrayRef output_padding = 0, int64_t groups = 1,
                        IntArrayRef dilation = 1);
Tensor conv_transpose2d(const Tensor &input, const Tensor &weight, const Tensor &bias = {}, IntArrayRef stride = 1,
                        IntArrayRef padding = 0, IntArrayRef output_padding = 0, int64_t groups = 1,
                        IntArrayRef dilation = 1);

/// Normalises each group of C / num_groups channels of an (N, C, *) input over the group and the
/// spatial dims, then applies the per-channel weight and bias (src/core/ops_normalization.cpp).
Tensor group_norm(const Tensor &input, int64_t num_groups, const Tensor &weight = {}, const Tensor &bias = {},
                  double eps = 1e-05, bool cudnn_enabled = true);
/// Normalises each (sample, channel) plane of an (N, C, *) input by its own statistics
/// (`use_input_stats`, which also moves defined running estimates by `momentum`) or by the running ones.
Tensor instance_norm(const Tensor &input, const Tensor &weight, const Tensor &bias, const Tensor &running_mean,
                     const Tensor &running_var, bool use_input_stats, double momentum, double eps,
                     bool cudnn_enabled);

/// Pads the last len(pad) / 2 dims, pairs from the last dim backwards, with `value`; negative
/// amounts crop (src/core/ops_padding.cpp).
Tensor constant_pad_nd(const Tensor &self, IntArrayRef pad, const Scalar &value = 0);
/// Mirror padding (the edge is not repeated) of the last one or two dims.
Tensor reflection_pad1d(const Tensor &self, IntArrayRef padding);
Tensor reflection_pad2d(const Tensor &self, IntArrayRef padding);
/// Edge padding (the edge value is repeated) of the last one or two dims.
Tensor replication_pad1d(const Tensor &self, IntArrayRef padding);
Tensor replication_pad2d(const Tensor &self, IntArrayRef padding);
/// `mode` "constant", "reflect", "replicate" or "circular" (at::pad).
Tensor pad(const Tensor &self, IntArrayRef pad, std::string_view mode = "constant",
           std::optional<double> value = std::nullopt);

/// One step of the recurrent cells (src/core/ops_rnn_cells.cpp); input (B, in), hx (B, H), weights
/// (G * H, in) and (G * H, H) with the gates in LibTorch's order, biases (G * H) or undefined.
/// \code
///   auto h1 = gfy::gru_cell(x, h0, w_ih, w_hh, b_ih, b_hh);   // gates r, z, n
/// \endcode
Tensor gru_cell(const Tensor &input, const Tensor &hx, const Tensor &w_ih, const Tensor &w_hh, const Tensor &b_ih = {},
                const Tensor &b_hh = {});
/// hx = {h, c}; returns (h', c'); gates i, f, g, o.
std::tuple<Tensor, Tensor> lstm_cell(const Tensor &input, const std::vector<Tensor> &hx, const Tensor &w_ih,
                                     const Tensor &w_hh, const Tensor &b_ih = {}, const Tensor &b_hh = {});
Tensor rnn_tanh_cell(const Tensor &input, const Tensor &hx, const Tensor &w_ih, const Tensor &w_hh,
                     const Tensor &b_ih = {}, const Tensor &b_hh = {});
Tensor rnn_relu_cell(const Tensor &input, const Tensor &hx, const Tensor &w_ih, const Tensor &w_hh,
                     const Tensor &b_ih = {}, const Tensor &b_hh = {});


/// Allocation counters of the CPU caching allocator (for tests: replay must not allocate).
struct AllocatorStats {
  uint64_t allocations = 0;     ///< Storage allocations requested (cache hits included)
  uint64_t cache_misses = 0;    ///< of which needed fresh memory from the system
  uint64_t bytes_in_use = 0;    ///< live bytes handed out
  uint64_t bytes_cached = 0;    ///< freed bytes held for reuse
};
AllocatorStats allocator_stats(DeviceType device = kCPU);
/// Returns cached blocks to the system.
void empty_cache(DeviceType device = kCPU);

/// Threads used by the CPU backend (its elementwise pool and OpenBLAS). Default: all cores.
void set_num_threads(int n);
int get_num_threads();
/// LibTorch's inter-op pool runs TorchScript's forked tasks; the runtime runs ops one after
/// another and has none, but keeps the number as LibTorch does: positive, set at most once
/// (a second call throws); until then get_num_interop_threads() gives the hardware's threads.
void set_num_interop_threads(int n);
int get_num_interop_threads();

const char *version();

} // namespace gfy
