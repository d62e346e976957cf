#pragma once
/// \file
/// `torch::OrderedDict<Key, Value>`: the insertion-ordered key → value list that modules return
/// from `named_parameters()`, `named_buffers()`, `named_children()` and `named_modules()`, with
/// LibTorch's names (items with `key()` and `value()`, `find` returning a pointer or null,
/// `operator[]` throwing for a missing key, `insert` throwing for a duplicate one). Keys are
/// strings, as in every use LibTorch makes of it.
///
/// \code
///   torch::OrderedDict<std::string, torch::Tensor> params = net->named_parameters();
///   if (torch::Tensor *w = params.find("fc.weight")) w->zero_();
/// \endcode

#include <graphify/core/Types.h>

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace gfy {

template <class Key, class Value> class OrderedDict {
  static_assert(std::is_same_v<Key, std::string>, "the runtime's OrderedDict has string keys");

public:
  class Item {
  public:
    Item(Key key, Value value) : key_(std::move(key)), value_(std::move(value)) {}
    const Key &key() const { return key_; }
    Value &value() { return value_; }
    const Value &value() const { return value_; }
    Value *operator->() { return &value_; }
    const Value *operator->() const { return &value_; }
    std::pair<Key, Value> pair() const { return {key_, value_}; }

  private:
    Key key_;
    Value value_;
  };

  /// Appends; a key already present is an error, as in LibTorch.
  Value &insert(Key key, Value value) {
    GFY_CHECK(find(key) == nullptr, "Key '", key, "' already defined");
    items_.emplace_back(std::move(key), std::move(value));
    return items_.back().value();
  }
  size_t size() const { return items_.size(); }
  bool is_empty() const { return items_.empty(); }
  bool contains(const Key &key) const { return find(key) != nullptr; }
  const Value *find(const Key &key) const {
    for (const Item &i : items_)
      if (i.key() == key) return &i.value();
    return nullptr;
  }
  Value *find(const Key &key) { return const_cast<Value *>(std::as_const(*this).find(key)); }
  const Value &operator[](const Key &key) const {
    const Value *v = find(key);
    GFY_CHECK(v != nullptr, "Key '", key, "' is not defined");
    return *v;
  }
  Value &operator[](const Key &key) { return const_cast<Value &>(std::as_const(*this)[key]); }
  /// Removes the item of `key` (LibTorch: throws when it is missing).
  void erase(const Key &key) {
    for (auto it = items_.begin(); it != items_.end(); ++it)
      if (it->key() == key) {
        items_.erase(it);
        return;
      }
    GFY_CHECK(false, "Key '", key, "' is not defined");
  }
  std::vector<Key> keys() const {
    std::vector<Key> k;
    for (const Item &i : items_) k.push_back(i.key());
    return k;
  }
  std::vector<Value> values() const {
    std::vector<Value> v;
    for (const Item &i : items_) v.push_back(i.value());
    return v;
  }
  const std::vector<Item> &items() const { return items_; }
  auto begin() { return items_.begin(); }
  auto end() { return items_.end(); }
  auto begin() const { return items_.begin(); }
  auto end() const { return items_.end(); }

private:
  std::vector<Item> items_;
};

} // namespace gfy
