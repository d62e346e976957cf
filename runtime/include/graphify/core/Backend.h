#pragma once
/// \file
/// The op table and the device abstraction.
///
/// Every kernel-running op is one `OpId` from ops.def. A `Backend` (one per DeviceType) owns the
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

/// One enumerator per line of ops.def.
enum class OpId : int {
#define GFY_OP(name, dtypes) name,
#include <graphify/ops.def>
#undef GFY_OP
};
inline constexpr int kNumOps = 0
#define GFY_OP(name, dtypes) +1
#include <graphify/ops.def>
#undef GFY_OP
    ;
// Adding an op means adding one ops.def line, one CPU kernel and one test; this count makes the
// table and the backend-consistency test move together.
static_assert(kNumOps == 86, "ops.def changed: update this count, the CPU backend and the op-table test");

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
