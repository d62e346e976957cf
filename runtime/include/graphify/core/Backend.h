#pragma once
/// \file
/// The op table and the device abstraction.
///
/// Every kernel-running op is one `OpId` from ops.def, and every property of an op the runtime
/// needs (its kind, whether it fuses, computes in its output, writes through a broadcast output)
/// is a column of its row there, read through the constexpr queries below (`op_kind`,
/// `op_is_fusable`, ...). A `Backend` (one per DeviceType) owns the
/// device's allocator and implements `compute(OpCall)` for the (op, dtype) pairs it `supports`.
/// The front-end (src/core) does all shape/dtype checking and output allocation, then calls
/// `detail::run(call)`, which executes the call on the inputs' backend and, while a graph is
/// being captured, appends it to the graph's tape. A CUDA backend is added by implementing this
/// interface in src/cuda and registering it with `register_backend(kCUDA, ...)`.
///
/// \code
///   struct MyBackend : gfy::Backend { ... };
///   gfy::register_backend(gfy::kCUDA, std::make_unique<MyBackend>());
/// \endcode

#include <graphify/core/Functions.h>
#include <graphify/core/Tensor.h>

#include <memory>
#include <string_view>
#include <vector>

namespace gfy {

/// One enumerator per row of ops.def.
enum class OpId : int {
#define GFY_OP(name, kind, dtypes, traits) name,
#include <graphify/ops.def>
#undef GFY_OP
};
inline constexpr int kNumOps = 0
#define GFY_OP(name, kind, dtypes, traits) +1
#include <graphify/ops.def>
#undef GFY_OP
    ;

/// What an op computes: the `kind` column of ops.def (see the comment at its top).
enum class OpKind : uint8_t { creation, random, unary, binary, ternary, reduction, scan, linalg, indexing, sorting, nn };

namespace detail::ops_def {
/// The flags of ops.def's `traits` column; a row joins them with `|`.
enum Trait : unsigned {
  none = 0,
  fusable = 1u << 0,
  in_output = 1u << 1,
  in_output_by_lane = 1u << 2,
  writes_broadcast = 1u << 3,
  no_derivative = 1u << 4,
  front_end_derivative = 1u << 5,
  derivative_not_implemented = 1u << 6,
};
/// The dtype sets of ops.def's `dtypes` column (see its comment).
enum DtypeSet : uint8_t { ALL, NUM, FLT, INT, IDX };
struct Row {
  OpKind kind;
  DtypeSet dtypes;
  unsigned traits;
};
/// The kind, dtypes and traits columns, indexed by OpId.
inline constexpr Row kRows[] = {
#define GFY_OP(name, kind, dtypes, traits) {OpKind::kind, dtypes, unsigned(traits)},
#include <graphify/ops.def>
#undef GFY_OP
};
static_assert(sizeof(kRows) / sizeof(kRows[0]) == size_t(kNumOps));
constexpr bool has(OpId op, Trait t) { return (kRows[int(op)].traits & t) != 0; }
} // namespace detail::ops_def

/// Whether a (non-storage) dtype is in a set of ops.def's `dtypes` column.
constexpr bool in_dtype_set(detail::ops_def::DtypeSet set, ScalarType t) {
  using namespace detail::ops_def;
  switch (set) {
  case ALL:
  case IDX: return true;
  case NUM: return t != ScalarType::Bool;
  case FLT: return t == ScalarType::Float || t == ScalarType::Double;
  case INT: return t != ScalarType::Float && t != ScalarType::Double;
  }
  return false;
}
/// The op's dtype set (ops.def column `dtypes`): what every backend implements.
constexpr detail::ops_def::DtypeSet op_dtype_set(OpId op) { return detail::ops_def::kRows[int(op)].dtypes; }

/// The op's kind (ops.def column `kind`).
/// \code
///   static_assert(gfy::op_kind(gfy::OpId::add) == gfy::OpKind::binary);
/// \endcode
constexpr OpKind op_kind(OpId op) { return detail::ops_def::kRows[int(op)].kind; }
/// Whether the CPU fused elementwise executor runs `op` (float and double); trait `fusable`.
constexpr bool op_is_fusable(OpId op) { return detail::ops_def::has(op, detail::ops_def::fusable); }
/// Whether out[i] depends only on element i of each input, so the kernel may write an output
/// that aliases an input of the same layout; trait `in_output`.
constexpr bool op_computes_in_output(OpId op) { return detail::ops_def::has(op, detail::ops_def::in_output); }
/// The same per lane of a contiguous last dim, when the call's `dim` is the last dim (the kernel
/// reads a whole lane before writing it); trait `in_output_by_lane`.
constexpr bool op_computes_in_output_by_lane(OpId op) {
  return detail::ops_def::has(op, detail::ops_def::in_output_by_lane);
}
/// Whether the op writes through stride-0 dims of its output on purpose (reductions, scatter);
/// every other op refuses such an output. Trait `writes_broadcast`.
constexpr bool op_writes_through_broadcast(OpId op) {
  return detail::ops_def::has(op, detail::ops_def::writes_broadcast);
}

/// Where the op's derivative is: ops.def's derivative traits (see its comment).
enum class OpDerivative : uint8_t {
  formula,         ///< an entry of the kernel table (src/autograd/Derivatives.cpp)
  none,            ///< its outputs carry no gradient (trait no_derivative)
  front_end,       ///< its front-end records it (trait front_end_derivative)
  not_implemented, ///< a launch whose input requires grad throws (trait derivative_not_implemented)
};
constexpr OpDerivative op_derivative(OpId op) {
  using namespace detail::ops_def;
  if (has(op, no_derivative)) return OpDerivative::none;
  if (has(op, front_end_derivative)) return OpDerivative::front_end;
  if (has(op, derivative_not_implemented)) return OpDerivative::not_implemented;
  return OpDerivative::formula;
}

namespace detail::ops_def {
// The rules of the traits column (ops.def's comment), checked on every row. Plain loops, not
// lambdas, so that nvcc's front-end (src/cuda includes this header) reads them as well.
constexpr bool fusable_rows_are_elementwise() {
  for (int i = 0; i < kNumOps; ++i) {
    const OpId op = OpId(i);
    if (op_is_fusable(op) && !(op_computes_in_output(op) && (op_kind(op) == OpKind::unary || op_kind(op) == OpKind::binary)))
      return false;
  }
  return true;
}
constexpr bool in_output_traits_exclusive() {
  for (int i = 0; i < kNumOps; ++i)
    if (op_computes_in_output(OpId(i)) && op_computes_in_output_by_lane(OpId(i))) return false;
  return true;
}
constexpr bool one_derivative_trait() {
  for (int i = 0; i < kNumOps; ++i) {
    const unsigned t = kRows[i].traits & (no_derivative | front_end_derivative | derivative_not_implemented);
    if (t & (t - 1)) return false;
  }
  return true;
}
static_assert(fusable_rows_are_elementwise(), "ops.def: a fusable op must be unary or binary and in_output");
static_assert(in_output_traits_exclusive(), "ops.def: in_output and in_output_by_lane exclude each other");
static_assert(one_derivative_trait(), "ops.def: a row declares at most one of no_derivative, front_end_derivative, "
                                      "derivative_not_implemented");
} // namespace detail::ops_def

/// "add", "mm", ... (the ops.def spelling).
std::string_view op_name(OpId op);
/// Whether `dtype` is in the dtype set ops.def declares for `op` (false for an invalid op).
/// Every backend's `supports` starts from this, so all backends implement the same table.
bool op_table_dtypes(OpId op, ScalarType dtype);

/// The arguments of one kernel launch. Tensors are held by reference count, so a recorded call
/// keeps its (static) buffers alive for as long as the graph that recorded it.
struct OpCall {
  OpId op = OpId::copy;
  std::vector<Tensor> in;  ///< inputs (any strides unless the op says otherwise)
  std::vector<Tensor> out; ///< outputs, allocated by the front-end (dynamic-shape ops: by the backend)
  double alpha = 1, beta = 0; ///< op-specific scalars (see ops.def)
  int64_t dim = 0;
  int64_t k = 0;
  bool flag = false, flag2 = false;
  std::vector<int64_t> ints; ///< op-specific integer list
};

/// A device implementation. Stateless apart from its allocator; compute must not allocate
/// tensors (replay relies on it), except for ops with dynamic output shape.
class Backend {
public:
  virtual ~Backend() = default;
  virtual DeviceType device_type() const = 0;
  virtual const char *name() const = 0;
  /// Whether `compute` implements `op` for tensors of dtype `dtype` (the op's main dtype).
  virtual bool supports(OpId op, ScalarType dtype) const = 0;
  /// Runs the op. Throws gfy::Error for data errors (an index out of range).
  virtual void compute(OpCall &call) = 0;
  /// Device memory; `bytes` may be 0.
  virtual void *allocate(size_t bytes) = 0;
  virtual void deallocate(void *ptr, size_t bytes) = 0;
  /// Copies between this device and the host (used by `to(Device)`).
  virtual void copy_to_host(void *dst, const void *src, size_t bytes) = 0;
  virtual void copy_from_host(void *dst, const void *src, size_t bytes) = 0;
  virtual AllocatorStats stats() const = 0;
  virtual void empty_cache() = 0;
};

/// The backend registered for a device type, or gfy::Error when none is (e.g. CUDA here).
Backend &backend_for(DeviceType type);
bool has_backend(DeviceType type);
void register_backend(DeviceType type, std::unique_ptr<Backend> backend);

/// The instruction-set level the CPU kernels run at: "x86-64", "x86-64-v3" (AVX2, FMA) or
/// "x86-64-v4" (AVX-512) — the highest this build has and the CPU runs, unless the environment
/// variable GRAPHIFY_CPU_ISA names another (as LibTorch's ATEN_CPU_CAPABILITY) — or "native" /
/// "generic" in a build with one copy of the kernels (GRAPHIFY_CPU_ISA_LEVELS). gfy::Error when
/// GRAPHIFY_CPU_ISA names a level this build lacks or this CPU cannot run.
std::string_view cpu_isa();
/// The levels this build has and this CPU runs, lowest first.
std::vector<std::string_view> cpu_isas();
/// Runs the CPU kernels at `level`, one of cpu_isas() (gfy::Error otherwise), from the next op on.
/// Not while ops run on other threads; for tests and benchmarks that compare levels.
void set_cpu_isa(std::string_view level);

namespace detail {
/// The one path every kernel-running op takes: dispatch to the backend of the first output's
/// device (checking `supports` for `dtype`), and record on the capture tape when capturing.
void run(OpCall &&call, ScalarType dtype);
/// A fresh tensor on `device` (contiguous, uninitialized). Goes through the caching allocator.
Tensor make_tensor(IntArrayRef sizes, ScalarType dtype, Device device = Device(kCPU));
/// A view sharing `base`'s storage.
Tensor make_view(const Tensor &base, std::vector<int64_t> sizes, std::vector<int64_t> strides, int64_t offset);
/// A 0-d tensor flagged as a wrapped number (type promotion treats it as a host scalar).
Tensor wrap_scalar(const Scalar &s, Device device = Device(kCPU));
} // namespace detail

} // namespace gfy
