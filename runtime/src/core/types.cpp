// Value types: dtype tables, promotion lattice, Device parsing, error construction.
// The promotion table is LibTorch's (c10/core/ScalarType.h) restricted to the runtime's dtypes.
#include <graphify/core/Functions.h>
#include <graphify/core/Types.h>

#include <iostream>
#include <sstream>

namespace gfy {

CaptureError::CaptureError(std::string op, const std::source_location &loc, const std::string &why)
    : Error(detail::str_cat(loc.file_name(), ":", loc.line(), ": error: ", op, " ", why)), op_(std::move(op)),
      file_(loc.file_name()), line_(loc.line()) {}

namespace detail {
void throw_error(const std::string &msg) { throw Error(msg); }
void warn(const std::string &msg) { std::cerr << "Warning: " << msg << std::endl; }
std::string to_display(const ScalarType &t) { return to_string(t); }
std::string to_display(const Device &d) { return d.str(); }
std::string to_display(const IntArrayRef &a) {
  std::ostringstream os;
  os << a;
  return os.str();
}
std::string to_display(const std::vector<int64_t> &a) { return to_display(IntArrayRef(a)); }
std::string format_floating(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}
} // namespace detail

size_t element_size(ScalarType t) {
  switch (t) {
  case kBool: return 1;
  case kByte: return 1;
  case kChar: return 1;
  case kShort: return 2;
  case kInt: return 4;
  case kLong: return 8;
  case kFloat: return 4;
  case kDouble: return 8;
  case kHalf: return 2;
  case kBFloat16: return 2;
  }
  return 1;
}

const char *to_string(ScalarType t) {
  switch (t) {
  case kBool: return "Bool";
  case kByte: return "Byte";
  case kChar: return "Char";
  case kShort: return "Short";
  case kInt: return "Int";
  case kLong: return "Long";
  case kFloat: return "Float";
  case kDouble: return "Double";
  case kHalf: return "Half";
  case kBFloat16: return "BFloat16";
  }
  return "Undefined";
}

std::ostream &operator<<(std::ostream &os, ScalarType t) { return os << to_string(t); }

// LibTorch names a TypeMeta by its C++ type (typeid-style spelling: int64_t is `long int`).
const char *TypeMeta::name() const {
  switch (type_) {
  case kBool: return "bool";
  case kByte: return "unsigned char";
  case kChar: return "signed char";
  case kShort: return "short int";
  case kInt: return "int";
  case kLong: return "long int";
  case kFloat: return "float";
  case kDouble: return "double";
  case kHalf: return "c10::Half";
  case kBFloat16: return "c10::BFloat16";
  }
  return "nullptr (uninitialized)";
}
std::ostream &operator<<(std::ostream &os, TypeMeta t) { return os << t.name(); }

std::ostream &operator<<(std::ostream &os, const TensorOptions &o) {
  // LibTorch marks the fields that were never set with " (default)".
  auto unset = [](bool set) { return set ? "" : " (default)"; };
  os << "TensorOptions(dtype=" << o.dtype() << unset(o.has_dtype()) << ", device=" << o.device()
     << unset(o.has_device()) << ", layout=Strided" << unset(o.layout_set_) << ", requires_grad=";
  if (o.requires_grad_) os << "true";
  else os << "false (default)";
  return os << ", pinned_memory=false (default), memory_format=(nullopt))";
}

namespace {
/// The dtype's place in LibTorch's lattice: bool < {uint8, int8} < int16 < int < long <
/// {half, bfloat16} < float < double. uint8 with int8 and half with bfloat16 share a place;
/// every other pair is ordered.
int promotion_rank(ScalarType t) {
  switch (t) {
  case kBool: return 0;
  case kByte: return 1;
  case kChar: return 1;
  case kShort: return 2;
  case kInt: return 3;
  case kLong: return 4;
  case kHalf: return 5;
  case kBFloat16: return 5;
  case kFloat: return 6;
  case kDouble: return 7;
  }
  return 0;
}
} // namespace

// Promotion is the higher of the two, except uint8 with int8 and half with bfloat16: neither
// holds the other's values, so LibTorch gives int16 and float.
ScalarType promote_types(ScalarType a, ScalarType b) {
  if ((a == kByte && b == kChar) || (a == kChar && b == kByte)) return kShort;
  if ((a == kHalf && b == kBFloat16) || (a == kBFloat16 && b == kHalf)) return kFloat;
  return promotion_rank(a) >= promotion_rank(b) ? a : b;
}

// LibTorch's canCast: no float -> integral, no non-bool -> bool; widening or narrowing within a
// category is allowed.
bool can_cast(ScalarType from, ScalarType to) {
  if (isFloatingType(from) && isIntegralType(to, true)) return false;
  if (from != kBool && to == kBool) return false;
  return true;
}

Device::Device(const std::string &spec) {
  std::string type = spec;
  int index = -1;
  if (auto colon = spec.find(':'); colon != std::string::npos) {
    type = spec.substr(0, colon);
    try {
      index = std::stoi(spec.substr(colon + 1));
    } catch (const std::exception &) {
      throw Error("Invalid device string: '" + spec + "'");
    }
  }
  if (type == "cpu") type_ = kCPU;
  else if (type == "cuda") type_ = kCUDA;
  else throw Error("Expected one of cpu, cuda device type at start of device string: " + spec);
  index_ = int8_t(index);
}

std::string Device::str() const {
  std::string s = type_ == kCPU ? "cpu" : "cuda";
  if (index_ >= 0) s += ":" + std::to_string(index_);
  return s;
}

std::ostream &operator<<(std::ostream &os, const Device &d) { return os << d.str(); }
std::ostream &operator<<(std::ostream &os, DeviceType t) { return os << Device(t).str(); }

void Scalar::throw_conversion_overflow(const char *type_name) {
  throw Error(std::string("value cannot be converted to type ") + type_name + " without overflow");
}

std::ostream &operator<<(std::ostream &os, const Scalar &s) {
  if (s.isFloatingPoint()) return os << s.toDouble();
  if (s.isBoolean()) return os << (s.toBool() ? "true" : "false");
  return os << s.toLong();
}

bool IntArrayRef::equals(IntArrayRef o) const {
  if (size_ != o.size_) return false;
  for (size_t i = 0; i < size_; ++i)
    if (data_[i] != o.data_[i]) return false;
  return true;
}

int64_t IntArrayRef::at(size_t i) const {
  GFY_CHECK(i < size_, "ArrayRef: invalid index Index = ", i, "; Length = ", size_);
  return data_[i];
}
IntArrayRef IntArrayRef::slice(size_t n, size_t m) const {
  GFY_CHECK(n + m <= size_, "ArrayRef: invalid slice, N = ", n, "; M = ", m, "; size = ", size_);
  return IntArrayRef(data_ + n, m);
}
IntArrayRef IntArrayRef::slice(size_t n) const {
  GFY_CHECK(n <= size_, "ArrayRef: invalid slice, N = ", n, "; size = ", size_);
  return IntArrayRef(data_ + n, size_ - n);
}

bool operator==(const std::vector<int64_t> &a, IntArrayRef b) { return IntArrayRef(a).equals(b); }

std::string DeprecatedTypeProperties::toString() const {
  return detail::str_cat(device_type_ == kCUDA ? "CUDA" : "CPU", to_string(scalar_type_), "Type");
}
const DeprecatedTypeProperties &DeprecatedTypeProperties::toScalarType(ScalarType s) const {
  return deprecated_type_properties(device_type_, s);
}
const DeprecatedTypeProperties &DeprecatedTypeProperties::cpu() const {
  return deprecated_type_properties(kCPU, scalar_type_);
}
const DeprecatedTypeProperties &DeprecatedTypeProperties::cuda() const {
  return deprecated_type_properties(kCUDA, scalar_type_);
}
const DeprecatedTypeProperties &deprecated_type_properties(DeviceType device_type, ScalarType scalar_type) {
  constexpr int kDtypes = kNumScalarTypes;
  static const auto table = [] {
    std::vector<DeprecatedTypeProperties> t;
    for (int d = 0; d < kNumDeviceTypes; ++d)
      for (int s = 0; s < kDtypes; ++s) t.emplace_back(DeviceType(d), ScalarType(s));
    return t;
  }();
  return table[size_t(int(device_type) * kDtypes + int(scalar_type))];
}
std::ostream &operator<<(std::ostream &os, const DeprecatedTypeProperties &t) { return os << t.toString(); }

std::ostream &operator<<(std::ostream &os, IntArrayRef a) {
  os << "[";
  for (size_t i = 0; i < a.size(); ++i) os << (i ? ", " : "") << a[i];
  return os << "]";
}

const char *version() { return "0.1.0"; }

} // namespace gfy
