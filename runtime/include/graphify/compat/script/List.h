#pragma once
/// \file
/// Part of the shim's TorchScript stand-in (docs/compat.md, "TorchScript"), included at the end of
/// <torch/torch.h>; not to be included directly.
///
/// `c10::List<T>` (also `torch::List`) and `c10::impl::GenericList` (`List<IValue>`): a list of
/// boxed values that knows its element type, shared on copy as LibTorch's is (`copy()` makes a
/// separate one). A typed list reads its elements back as T; `c10::impl::toTypedList<T>` checks
/// the element type with LibTorch's "Tried to cast a List<int> to a List<Tensor>. Types
/// mismatch.".
#include <graphify/compat/script/IValue.h>

#include <initializer_list>
#include <iterator>
#include <memory>
#include <type_traits>
#include <vector>

namespace c10 {
namespace detail {
struct ListImpl {
  std::vector<IValue> list;
  TypePtr elementType;
};
} // namespace detail

template <class T> class List {
  static constexpr bool kGeneric = std::is_same_v<T, IValue>;

public:
  using value_type = T;
  using size_type = size_t;

  /// Assigning through `list[i] = v` or `*it = v` writes the shared list.
  class ElementReference {
  public:
    ElementReference(detail::ListImpl *impl, size_t i) : impl_(impl), i_(i) {}
    operator T() const { return impl_->list[i_].template to<T>(); }
    ElementReference &operator=(T v) {
      impl_->list[i_] = IValue(std::move(v));
      return *this;
    }
    ElementReference &operator=(const ElementReference &o) { return *this = static_cast<T>(o); }
    T get() const { return *this; }

  private:
    detail::ListImpl *impl_;
    size_t i_;
  };

  class iterator {
  public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = ElementReference;
    iterator() = default;
    iterator(detail::ListImpl *impl, size_t i) : impl_(impl), i_(i) {}
    ElementReference operator*() const { return {impl_, i_}; }
    ElementReference operator[](difference_type n) const { return {impl_, size_t(difference_type(i_) + n)}; }
    iterator &operator++() { return ++i_, *this; }
    iterator operator++(int) { return {impl_, i_++}; }
    iterator &operator--() { return --i_, *this; }
    iterator operator--(int) { return {impl_, i_--}; }
    iterator &operator+=(difference_type n) { return i_ = size_t(difference_type(i_) + n), *this; }
    iterator &operator-=(difference_type n) { return *this += -n; }
    friend iterator operator+(iterator it, difference_type n) { return it += n; }
    friend iterator operator+(difference_type n, iterator it) { return it += n; }
    friend iterator operator-(iterator it, difference_type n) { return it -= n; }
    friend difference_type operator-(const iterator &a, const iterator &b) {
      return difference_type(a.i_) - difference_type(b.i_);
    }
    friend bool operator==(const iterator &a, const iterator &b) { return a.i_ == b.i_; }
    friend auto operator<=>(const iterator &a, const iterator &b) { return a.i_ <=> b.i_; }
    size_t index() const { return i_; }

  private:
    detail::ListImpl *impl_ = nullptr;
    size_t i_ = 0;
  };
  using const_iterator = iterator;

  /// An empty list of T (a GenericList needs its element type: `GenericList(c10::AnyType::get())`).
  List()
    requires(!kGeneric)
      : impl_(std::make_shared<detail::ListImpl>(detail::ListImpl{{}, getTypePtr<T>()})) {}
  explicit List(std::initializer_list<T> values)
    requires(!kGeneric)
      : List() {
    for (const T &v : values)
      push_back(v);
  }
  explicit List(gfy::ArrayRef<T> values)
    requires(!kGeneric)
      : List() {
    for (const T &v : values)
      push_back(v);
  }
  explicit List(const std::vector<T> &values)
    requires(!kGeneric)
      : List() {
    for (const T &v : values)
      push_back(v);
  }
  explicit List(TypePtr elementType)
    requires kGeneric
      : impl_(std::make_shared<detail::ListImpl>(detail::ListImpl{{}, std::move(elementType)})) {}
  /// A typed view of `impl` (used by toTypedList and IValue::toIntList and their relatives).
  explicit List(std::shared_ptr<detail::ListImpl> impl) : impl_(std::move(impl)) {}

  T get(size_t pos) const { return impl_->list.at(pos).template to<T>(); }
  T extract(size_t pos) const { return get(pos); }
  void set(size_t pos, T value) const { impl_->list.at(pos) = IValue(std::move(value)); }
  ElementReference operator[](size_t pos) const { return {impl_.get(), pos}; }
  iterator begin() const { return {impl_.get(), 0}; }
  iterator end() const { return {impl_.get(), impl_->list.size()}; }
  size_t size() const { return impl_->list.size(); }
  bool empty() const { return impl_->list.empty(); }
  void reserve(size_t n) const { impl_->list.reserve(n); }
  void clear() const { impl_->list.clear(); }
  void push_back(T value) const { impl_->list.emplace_back(std::move(value)); }
  template <class... Args> void emplace_back(Args &&...args) const {
    impl_->list.emplace_back(T(std::forward<Args>(args)...));
  }
  void append(List<T> other) const {
    for (size_t i = 0; i < other.size(); ++i)
      push_back(other.get(i));
  }
  void pop_back() const { impl_->list.pop_back(); }
  void resize(size_t n) const
    requires std::is_default_constructible_v<T>
  {
    resize(n, T{});
  }
  void resize(size_t n, const T &value) const { impl_->list.resize(n, IValue(value)); }
  iterator insert(iterator pos, T value) const {
    impl_->list.insert(impl_->list.begin() + pos.index(), IValue(std::move(value)));
    return pos;
  }
  iterator erase(iterator pos) const {
    impl_->list.erase(impl_->list.begin() + pos.index());
    return pos;
  }
  iterator erase(iterator first, iterator last) const {
    impl_->list.erase(impl_->list.begin() + first.index(), impl_->list.begin() + last.index());
    return first;
  }
  /// The elements as a std::vector<T> (a copy).
  std::vector<T> vec() const {
    std::vector<T> out;
    out.reserve(size());
    for (const IValue &v : impl_->list)
      out.push_back(v.template to<T>());
    return out;
  }
  /// A separate list with the same elements.
  List copy() const { return List(std::make_shared<detail::ListImpl>(*impl_)); }
  size_t use_count() const { return impl_.use_count(); }
  bool is(const List &rhs) const { return impl_ == rhs.impl_; }
  TypePtr elementType() const { return impl_->elementType; }
  void unsafeSetElementType(TypePtr t) { impl_->elementType = std::move(t); }
  const std::shared_ptr<detail::ListImpl> &impl() const { return impl_; }

private:
  std::shared_ptr<detail::ListImpl> impl_;
};

namespace impl {
using GenericList = List<IValue>;

/// A GenericList read as a List<T>: LibTorch's check, the element type must be T's (or, for a
/// list no one else holds, a subtype of it).
template <class T> List<T> toTypedList(GenericList list) {
  const TypePtr want = getTypePtr<T>();
  TORCH_CHECK(list.elementType()->equals(*want) ||
                  (list.use_count() == 1 && list.elementType()->isSubtypeOf(*want)),
              "Tried to cast a List<", list.elementType()->str(), "> to a List<", want->str(), ">. Types mismatch.");
  return List<T>(list.impl());
}
template <class T> GenericList toList(const List<T> &list) { return GenericList(list.impl()); }
} // namespace impl

template <class T> bool operator==(const List<T> &a, const List<T> &b) {
  if (a.is(b))
    return true;
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!a.impl()->list[i].equalsForDict(b.impl()->list[i]))
      return false;
  return true;
}
template <class T> bool operator!=(const List<T> &a, const List<T> &b) { return !(a == b); }
} // namespace c10
