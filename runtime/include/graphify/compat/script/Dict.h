#pragma once
/// \file
/// Part of the shim's TorchScript stand-in (docs/compat.md, "TorchScript"), included at the end of
/// <torch/torch.h>; not to be included directly.
///
/// `c10::Dict<K, V>` (also `torch::Dict`) and `c10::impl::GenericDict` (`Dict<IValue, IValue>`):
/// an insertion-ordered map of boxed values that knows its key and value types, shared on copy as
/// LibTorch's is. Keys are str, int, float, bool, Device, None, tuples of those, or tensors (by
/// identity), as LibTorch hashes them; lookups are hashed.
#include <graphify/compat/script/IValue.h>

#include <iterator>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace c10 {
struct IValue::HashAliasedIValue {
  size_t operator()(const IValue &v) const { return v.hashForDict(); }
};
struct IValue::CompIdentityIValues {
  bool operator()(const IValue &a, const IValue &b) const { return a.equalsForDict(b); }
};

template <class K, class V> class Dict;
namespace impl {
template <class Key, class Value> Dict<Key, Value> toTypedDict(Dict<IValue, IValue> dict);
} // namespace impl

namespace detail {
struct DictImpl {
  std::vector<std::pair<IValue, IValue>> entries;
  std::unordered_map<IValue, size_t, IValue::HashAliasedIValue, IValue::CompIdentityIValues> index;
  struct {
    TypePtr keyType, valueType;
  } elementTypes;

  DictImpl(TypePtr k, TypePtr v) : elementTypes{std::move(k), std::move(v)} {}
  /// The position of `key`, or entries.size().
  size_t find(const IValue &key) const {
    auto it = index.find(key);
    return it == index.end() ? entries.size() : it->second;
  }
  /// Inserts (key, value) at the end unless the key is there; returns its position and whether
  /// it was inserted.
  std::pair<size_t, bool> insert(IValue key, IValue value) {
    auto [it, inserted] = index.emplace(key, entries.size());
    if (inserted)
      entries.emplace_back(std::move(key), std::move(value));
    return {it->second, inserted};
  }
  void eraseAt(size_t pos) {
    entries.erase(entries.begin() + std::ptrdiff_t(pos));
    // Erasing is rare in inference code; re-indexing keeps lookups a plain hash.
    index.clear();
    for (size_t i = 0; i < entries.size(); ++i)
      index.emplace(entries[i].first, i);
  }
};
} // namespace detail

template <class K, class V> class Dict {
  static constexpr bool kGeneric = std::is_same_v<K, IValue> && std::is_same_v<V, IValue>;

public:
  using key_type = K;
  using mapped_type = V;
  using size_type = size_t;

  /// One entry as iteration yields it: `entry.key()`, `entry.value()`, `entry.setValue(v)`.
  class EntryRef {
  public:
    EntryRef(detail::DictImpl *impl, size_t i) : impl_(impl), i_(i) {}
    K key() const { return impl_->entries[i_].first.template to<K>(); }
    V value() const { return impl_->entries[i_].second.template to<V>(); }
    template <class Value> void setValue(Value &&v) const { impl_->entries[i_].second = IValue(V(std::forward<Value>(v))); }

  private:
    detail::DictImpl *impl_;
    size_t i_;
  };

  class iterator {
  public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = EntryRef;
    using difference_type = std::ptrdiff_t;
    using pointer = const EntryRef *;
    using reference = const EntryRef &;
    iterator() : entry_(nullptr, 0) {}
    iterator(detail::DictImpl *impl, size_t i) : entry_(impl, i), impl_(impl), i_(i) {}
    const EntryRef &operator*() const { return entry_; }
    const EntryRef *operator->() const { return &entry_; }
    iterator &operator++() {
      ++i_;
      entry_ = EntryRef(impl_, i_);
      return *this;
    }
    iterator operator++(int) {
      iterator old = *this;
      ++*this;
      return old;
    }
    friend bool operator==(const iterator &a, const iterator &b) { return a.impl_ == b.impl_ && a.i_ == b.i_; }
    friend bool operator!=(const iterator &a, const iterator &b) { return !(a == b); }
    size_t index() const { return i_; }

  private:
    EntryRef entry_;
    detail::DictImpl *impl_ = nullptr;
    size_t i_ = 0;
  };

  /// An empty dict of K to V (a GenericDict needs its types: `GenericDict(StringType::get(),
  /// TensorType::get())`).
  Dict()
    requires(!kGeneric)
      : impl_(std::make_shared<detail::DictImpl>(getTypePtr<K>(), getTypePtr<V>())) {}
  Dict(TypePtr keyType, TypePtr valueType)
    requires kGeneric
      : impl_(std::make_shared<detail::DictImpl>(std::move(keyType), std::move(valueType))) {}
  /// A typed view of `impl` (used by toTypedDict and IValue::to).
  explicit Dict(std::shared_ptr<detail::DictImpl> impl) : impl_(std::move(impl)) {}

  iterator begin() const { return {impl_.get(), 0}; }
  iterator end() const { return {impl_.get(), impl_->entries.size()}; }
  bool empty() const { return impl_->entries.empty(); }
  size_t size() const { return impl_->entries.size(); }
  void clear() const {
    impl_->entries.clear();
    impl_->index.clear();
  }
  void reserve(size_t n) const {
    impl_->entries.reserve(n);
    impl_->index.reserve(n);
  }
  /// Inserts unless the key is there (then leaves its value); LibTorch's return.
  template <class Key, class Value> std::pair<iterator, bool> insert(Key &&key, Value &&value) const {
    auto [pos, inserted] = impl_->insert(IValue(K(std::forward<Key>(key))), IValue(V(std::forward<Value>(value))));
    return {iterator(impl_.get(), pos), inserted};
  }
  template <class Key, class Value> std::pair<iterator, bool> insert_or_assign(Key &&key, Value &&value) const {
    IValue v(V(std::forward<Value>(value)));
    auto [pos, inserted] = impl_->insert(IValue(K(std::forward<Key>(key))), v);
    if (!inserted)
      impl_->entries[pos].second = std::move(v);
    return {iterator(impl_.get(), pos), inserted};
  }
  void erase(iterator it) const { impl_->eraseAt(it.index()); }
  size_t erase(const K &key) const {
    const size_t pos = impl_->find(IValue(key));
    if (pos == impl_->entries.size())
      return 0;
    impl_->eraseAt(pos);
    return 1;
  }
  V at(const K &key) const {
    const size_t pos = impl_->find(IValue(key));
    if (pos == impl_->entries.size())
      throw std::out_of_range("Argument passed to at() was not in the map.");
    return impl_->entries[pos].second.template to<V>();
  }
  iterator find(const K &key) const { return {impl_.get(), impl_->find(IValue(key))}; }
  bool contains(const K &key) const { return impl_->find(IValue(key)) != impl_->entries.size(); }
  /// A separate dict with the same entries.
  Dict copy() const { return Dict(std::make_shared<detail::DictImpl>(*impl_)); }
  size_t use_count() const { return impl_.use_count(); }
  bool is(const Dict &rhs) const { return impl_ == rhs.impl_; }
  TypePtr keyType() const { return impl_->elementTypes.keyType; }
  TypePtr valueType() const { return impl_->elementTypes.valueType; }
  const std::shared_ptr<detail::DictImpl> &impl() const { return impl_; }

private:
  template <class Key, class Value> friend Dict<Key, Value> impl::toTypedDict(Dict<IValue, IValue>);
  std::shared_ptr<detail::DictImpl> impl_;
};

namespace impl {
using GenericDict = Dict<IValue, IValue>;

/// A GenericDict read as a Dict<Key, Value>; the key and value types must be Key's and Value's.
/// (The assertions are spelt as LibTorch's, whose messages quote them.)
template <class Key, class Value> Dict<Key, Value> toTypedDict(GenericDict dict) {
  const auto toString = [](const Type &t) { return t.str(); };
  TORCH_INTERNAL_ASSERT(*getTypePtr<Key>() == *dict.impl_->elementTypes.keyType, "Tried to cast a Dict<",
                        toString(*dict.impl_->elementTypes.keyType), ", ", toString(*dict.impl_->elementTypes.valueType),
                        "> to a Dict<", toString(*getTypePtr<Key>()), ", ", toString(*getTypePtr<Value>()),
                        ">. Key types mismatch.");
  TORCH_INTERNAL_ASSERT(*getTypePtr<Value>() == *dict.impl_->elementTypes.valueType, "Tried to cast a Dict<",
                        toString(*dict.impl_->elementTypes.keyType), ", ", toString(*dict.impl_->elementTypes.valueType),
                        "> to a Dict<", toString(*getTypePtr<Key>()), ", ", toString(*getTypePtr<Value>()),
                        ">. Value types mismatch.");
  return Dict<Key, Value>(dict.impl_);
}
template <class K, class V> GenericDict toGenericDict(const Dict<K, V> &dict) { return GenericDict(dict.impl()); }
} // namespace impl
} // namespace c10
