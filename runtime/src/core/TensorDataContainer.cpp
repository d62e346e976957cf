// torch::tensor's nested lists (TensorDataContainer.h): sizes and the element type are checked as
// the list is built, the tensor is made on the CPU, filled element by element, then moved.
#include <graphify/autograd/GradMode.h>
#include <graphify/core/Functions.h>
#include <graphify/core/TensorDataContainer.h>

#include <ostream>
#include <sstream>

namespace gfy::detail {
namespace {

// LibTorch's compute_desired_dtype: ints widen to Long, floats become the default dtype.
ScalarType desired_dtype(ScalarType t) {
  if (t == kInt || t == kLong) return kLong;
  if (t == kFloat || t == kDouble) return get_default_dtype();
  return t;
}

// Sizes as LibTorch's message streams a std::vector (c10::PrintSequence): "2 3".
std::string sizes_text(const std::vector<int64_t> &sizes) {
  std::string out;
  for (size_t i = 0; i < sizes.size(); ++i) out += (i ? " " : "") + std::to_string(sizes[i]);
  return out;
}

} // namespace

TensorDataContainer::TensorDataContainer() : sizes_({0}), type_(get_default_dtype()), kind_(Kind::InitList) {}
TensorDataContainer::TensorDataContainer(Scalar s, ScalarType t) : type_(t), kind_(Kind::Scalar), scalar_(s) {}
TensorDataContainer::TensorDataContainer(bool v) : TensorDataContainer(Scalar(v), kBool) {}
TensorDataContainer::TensorDataContainer(uint8_t v) : TensorDataContainer(Scalar(v), kByte) {}
TensorDataContainer::TensorDataContainer(int8_t v) : TensorDataContainer(Scalar(v), kChar) {}
TensorDataContainer::TensorDataContainer(int16_t v) : TensorDataContainer(Scalar(v), kShort) {}
TensorDataContainer::TensorDataContainer(int v) : TensorDataContainer(Scalar(v), kInt) {}
TensorDataContainer::TensorDataContainer(int64_t v) : TensorDataContainer(Scalar(v), kLong) {}
TensorDataContainer::TensorDataContainer(float v) : TensorDataContainer(Scalar(v), kFloat) {}
TensorDataContainer::TensorDataContainer(double v) : TensorDataContainer(Scalar(v), kDouble) {}

TensorDataContainer::TensorDataContainer(Tensor leaf, ScalarType t)
    : sizes_({leaf.size(0)}), type_(t), kind_(Kind::Tensor), tensor_(std::move(leaf)) {}
TensorDataContainer::TensorDataContainer(const std::vector<uint8_t> &v) : TensorDataContainer(gfy::tensor(v), kByte) {}
TensorDataContainer::TensorDataContainer(const std::vector<int8_t> &v) : TensorDataContainer(gfy::tensor(v), kChar) {}
TensorDataContainer::TensorDataContainer(const std::vector<int16_t> &v) : TensorDataContainer(gfy::tensor(v), kShort) {}
TensorDataContainer::TensorDataContainer(const std::vector<int> &v) : TensorDataContainer(gfy::tensor(v), kInt) {}
TensorDataContainer::TensorDataContainer(const std::vector<int64_t> &v) : TensorDataContainer(gfy::tensor(v), kLong) {}
TensorDataContainer::TensorDataContainer(const std::vector<float> &v) : TensorDataContainer(gfy::tensor(v), kFloat) {}
TensorDataContainer::TensorDataContainer(const std::vector<double> &v)
    : TensorDataContainer(gfy::tensor(v, kDouble), kDouble) {}

TensorDataContainer::TensorDataContainer(std::initializer_list<TensorDataContainer> list)
    : type_(list.begin()->scalar_type()), kind_(Kind::InitList), list_(list) {
  const TensorDataContainer &first = list_.front();
  for (const TensorDataContainer &e : list_) {
    GFY_CHECK(e.sizes() == first.sizes(), "Expected all sub-lists to have sizes: ", sizes_text(first.sizes()),
              " (e.g. ", first, "), but got sub-list ", e, " with sizes: ", sizes_text(e.sizes()));
    GFY_CHECK(e.scalar_type() == first.scalar_type(),
              "Expected all elements of the tensor to have the same scalar type: ", first.scalar_type(),
              ", but got element of scalar type: ", e.scalar_type());
  }
  sizes_.reserve(first.sizes().size() + 1);
  sizes_.push_back(int64_t(list_.size()));
  sizes_.insert(sizes_.end(), first.sizes().begin(), first.sizes().end());
}

Tensor TensorDataContainer::convert_to_tensor(TensorOptions options) const {
  // Built without requires_grad (the caller makes the leaf), on the CPU, then moved.
  const ScalarType dtype = options.has_dtype() ? options.dtype().toScalarType() : desired_dtype(type_);
  const TensorOptions cpu = TensorOptions(dtype).device(kCPU);
  Tensor out;
  if (is_scalar()) {
    out = gfy::scalar_tensor(scalar_, cpu);
  } else if (is_tensor()) {
    out = tensor_.to(dtype);
  } else {
    // In the factory's default place, as LibTorch builds a list: pageable host memory while a
    // graph is captured, so that a copy of it to the device is refused there as on a GPU.
    out = gfy::empty(sizes_, TensorOptions(dtype));
    fill_tensor(out);
  }
  return options.has_device() ? out.to(options.device()) : out;
}

void TensorDataContainer::fill_tensor(Tensor &out) const {
  NoGradGuard no_grad;
  if (is_scalar()) {
    out.fill_(scalar_);
    return;
  }
  // LibTorch fails an internal assert here: a vector is one leaf, not a row of a nested list.
  GFY_CHECK(is_init_list(), "torch::tensor: a std::vector inside a nested list is not supported (LibTorch "
                            "asserts: TensorDataContainer is already a Tensor type); build the rows with torch::stack");
  for (size_t i = 0; i < list_.size(); ++i) {
    Tensor row = out.select(0, int64_t(i));
    list_[i].fill_tensor(row);
  }
}

void TensorDataContainer::pretty_print_recursive(std::ostream &os) const {
  auto print_scalar = [&](const Scalar &s) {
    switch (type_) {
    case kBool: os << s.to<bool>(); break;
    case kByte: os << s.to<uint8_t>(); break;  // a character, as LibTorch's stream of uint8_t
    case kChar: os << s.to<int8_t>(); break;
    case kFloat: os << s.to<float>(); break;
    case kDouble: os << s.to<double>(); break;
    default: os << s.to<int64_t>(); break;
    }
  };
  if (is_scalar()) {
    print_scalar(scalar_);
    return;
  }
  os << "{";
  if (is_init_list()) {
    for (size_t i = 0; i < list_.size(); ++i) os << (i ? ", " : "") << list_[i];
  } else {
    for (int64_t i = 0; i < tensor_.size(0); ++i) {
      os << (i ? ", " : "");
      print_scalar(tensor_[i].item());
    }
  }
  os << "}";
}

std::ostream &operator<<(std::ostream &os, const TensorDataContainer &c) {
  c.pretty_print_recursive(os);
  return os;
}

std::string to_display(const TensorDataContainer &c) {
  std::ostringstream os;
  os << c;
  return os.str();
}

} // namespace gfy::detail
