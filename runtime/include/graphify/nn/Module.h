#pragma once
/// \file
/// gfy::nn: modules in the style of torch::nn (C++ frontend of LibTorch 1.13).
///
/// \code
///   struct NetImpl : gfy::nn::Module {
///     NetImpl() : fc(register_module("fc", gfy::nn::Linear(4, 2))) {}
///     gfy::Tensor forward(gfy::Tensor x) { return gfy::relu(fc(x)); }
///     gfy::nn::Linear fc;
///   };
///   GFY_MODULE(Net);              // Net is a shared handle: net->forward(x), net(x)
/// \endcode

#include <graphify/core/Functions.h>
#include <graphify/core/OrderedDict.h>
#include <graphify/core/Tensor.h>

#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace gfy::nn {

template <class Impl> class ModuleHolder;

/// Base class of all modules. Parameters and buffers are Tensor handles stored by name;
/// `register_*` returns a reference to the stored handle (the same TensorImpl as the argument).
class Module : public std::enable_shared_from_this<Module> {
public:
  /// Without a name, `name()` is the demangled type of the module (`NetImpl`), as LibTorch.
  explicit Module(std::string name = std::string()) : name_(std::move(name)) {}
  virtual ~Module() = default;
  Module(const Module &) = default;
  Module &operator=(const Module &) = default;

  const std::string &name() const;

  /// Writes the module's one-line description, as LibTorch's `pretty_print`: `name()` for user
  /// modules (override it to say more); `torch::nn::Linear(in_features=4, out_features=2, bias=true)`
  /// and the like for the runtime's layers. `stream << module` writes it with every submodule.
  virtual void pretty_print(std::ostream &stream) const;
  /// The description and, indented beneath it, `(name): description` of each submodule.
  void pretty_print_recursive(std::ostream &stream, const std::string &indentation) const;

  Tensor &register_parameter(std::string name, Tensor tensor, bool requires_grad = true);
  Tensor &register_buffer(std::string name, Tensor tensor);
  template <class M> std::shared_ptr<M> register_module(std::string name, std::shared_ptr<M> module) {
    check_name(name);
    children_.insert(std::move(name), module);
    return module;
  }
  template <class M> std::shared_ptr<M> register_module(std::string name, ModuleHolder<M> holder) {
    return register_module(std::move(name), holder.ptr());
  }

  /// Puts `module` in place of the submodule registered as `name`, keeping its position (what
  /// the parent's member holds is not changed, as LibTorch: reassign it from the return value).
  template <class M> std::shared_ptr<M> replace_module(const std::string &name, std::shared_ptr<M> module) {
    std::shared_ptr<Module> *slot = children_.find(name);
    GFY_CHECK(slot != nullptr, "Submodule '", name, "' is not defined");
    *slot = module;
    return module;
  }
  template <class M> std::shared_ptr<M> replace_module(const std::string &name, ModuleHolder<M> holder) {
    return replace_module(name, holder.ptr());
  }
  /// Removes the submodule registered as `name`.
  void unregister_module(const std::string &name) {
    GFY_CHECK(children_.contains(name), "No Module with name `", name, "` is registered");
    children_.erase(name);
  }

  /// All parameters, this module's first then its children's (recursively, in registration order).
  std::vector<Tensor> parameters(bool recurse = true) const;
  /// Names are dotted paths: "fc.weight", "lstm.weight_ih_l0".
  OrderedDict<std::string, Tensor> named_parameters(bool recurse = true) const;
  std::vector<Tensor> buffers(bool recurse = true) const;
  OrderedDict<std::string, Tensor> named_buffers(bool recurse = true) const;
  std::vector<std::shared_ptr<Module>> children() const;
  OrderedDict<std::string, std::shared_ptr<Module>> named_children() const { return children_; }
  std::vector<std::shared_ptr<Module>> modules(bool include_self = true);
  /// This module (key `name_prefix`, when `include_self`) and every descendant under its dotted
  /// path ("seq", "seq.0"), in registration order as LibTorch.
  OrderedDict<std::string, std::shared_ptr<Module>> named_modules(const std::string &name_prefix = std::string(),
                                                     bool include_self = true);
  /// Calls `fn` on this module, then on every descendant (pre-order), e.g. to initialise weights.
  void apply(const std::function<void(Module &)> &fn);

  /// `module->as<Linear>()` or `module->as<LinearImpl>()`: the module as that type, or nullptr.
  template <class M> auto *as() noexcept {
    if constexpr (requires { typename M::ContainedType; })
      return dynamic_cast<typename M::ContainedType *>(this);
    else
      return dynamic_cast<M *>(this);
  }
  template <class M> const auto *as() const noexcept { return const_cast<Module *>(this)->as<M>(); }

  virtual void train(bool on = true);
  void eval() { train(false); }
  bool is_training() const { return training_; }
  /// Converts every parameter and buffer in place (existing handles see the new data), then the
  /// children through the same overload (virtual, as LibTorch's: a module may override one).
  /// `non_blocking` is accepted for LibTorch's signatures; copies here are synchronous.
  virtual void to(Device device, ScalarType dtype, bool non_blocking = false);
  virtual void to(ScalarType dtype, bool non_blocking = false);
  virtual void to(Device device, bool non_blocking = false);
  /// Zeroes (or, with `set_to_none`, resets) the `.grad()` of every parameter, recursively.
  virtual void zero_grad(bool set_to_none = false);

protected:
  bool training_ = true;

private:
  void check_name(const std::string &name) const;
  void collect(const std::string &prefix, bool recurse, bool buffers, OrderedDict<std::string, Tensor> &out) const;
  mutable std::string name_;
  OrderedDict<std::string, Tensor> parameters_;
  OrderedDict<std::string, Tensor> buffers_;
  OrderedDict<std::string, std::shared_ptr<Module>> children_;
};

/// A shared handle to a module implementation, as torch::nn::ModuleHolder: `holder->member`,
/// `holder(args...)` calls `forward`, and `Holder(nullptr)` is an empty handle.
template <class Impl> class ModuleHolder {
public:
  using ContainedType = Impl;
  /// Default-constructs the module when `Impl` has a default constructor (as LibTorch).
  ModuleHolder() requires std::is_default_constructible_v<Impl> : impl_(std::make_shared<Impl>()) {}
  ModuleHolder(std::nullptr_t) {}
  ModuleHolder(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  template <class A0, class... Args,
            std::enable_if_t<!std::is_same_v<std::decay_t<A0>, ModuleHolder> &&
                                 !std::is_same_v<std::decay_t<A0>, std::nullptr_t> &&
                                 !std::is_same_v<std::decay_t<A0>, std::shared_ptr<Impl>>,
                             int> = 0>
  explicit ModuleHolder(A0 &&a0, Args &&...args)
      : impl_(std::make_shared<Impl>(std::forward<A0>(a0), std::forward<Args>(args)...)) {}

  Impl *operator->() const { return checked(); }
  Impl &operator*() const { return *checked(); }
  Impl *get() const { return checked(); }
  const std::shared_ptr<Impl> &ptr() const { return impl_; }
  bool is_empty() const { return impl_ == nullptr; }
  explicit operator bool() const { return impl_ != nullptr; }
  template <class... Args> decltype(auto) operator()(Args &&...args) const {
    return checked()->forward(std::forward<Args>(args)...);
  }
  /// Forwards to the module's `operator[]` (Sequential, ModuleList), as LibTorch.
  template <class Arg> decltype(auto) operator[](Arg &&arg) const { return (*checked())[std::forward<Arg>(arg)]; }

private:
  Impl *checked() const {
    GFY_CHECK(impl_ != nullptr, "accessing an empty ModuleHolder (constructed from nullptr)");
    return impl_.get();
  }
  std::shared_ptr<Impl> impl_;
};

/// `std::cout << *module` / `std::cout << holder`: the module tree, as LibTorch prints it.
std::ostream &operator<<(std::ostream &stream, const Module &module);
template <class Impl> std::ostream &operator<<(std::ostream &stream, const ModuleHolder<Impl> &holder) {
  return stream << *holder;
}

} // namespace gfy::nn

/// Declares `Name` as a ModuleHolder of `NameImpl`, mirroring TORCH_MODULE.
#define GFY_MODULE(Name)                                                                           \
  class Name : public ::gfy::nn::ModuleHolder<Name##Impl> {                                        \
  public:                                                                                          \
    using ::gfy::nn::ModuleHolder<Name##Impl>::ModuleHolder;                                       \
  }
