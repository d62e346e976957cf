#pragma once
/// \file
/// Module containers of LibTorch 1.13's C++ frontend: `AnyModule` (a type-erased module whose
/// `forward` takes and returns one Tensor), `Sequential` (chains its modules' `forward`) and
/// `ModuleList` (holds modules, no `forward`). Both containers register their elements as
/// submodules named "0", "1", ... (or the given names), so `named_parameters()` of a parent that
/// registers a Sequential as "seq" reports `seq.0.weight`, exactly as LibTorch.
///
/// \code
///   gfy::nn::Sequential seq(gfy::nn::Linear(4, 8), gfy::nn::ReLU(), gfy::nn::Linear(8, 2));
///   gfy::Tensor y = seq->forward(x);                   // Linear → ReLU → Linear
///   auto first = seq->ptr<gfy::nn::LinearImpl>(0);     // typed access, checked
///   gfy::nn::ModuleList layers;
///   layers->push_back(gfy::nn::Linear(2, 2));
///   for (const auto &m : *layers) x = m->as<gfy::nn::Linear>()->forward(x);
/// \endcode
///
/// Difference from LibTorch: LibTorch's AnyModule forwards any argument and return types through
/// `AnyValue`; here an element's `forward` must accept one Tensor (two or three for the first
/// element of `seq->forward(a, b)`) and return a Tensor when the Sequential's `forward` is called (modules that do not, such as LSTM, can be held but raise
/// gfy::Error when forwarded), which covers the `Sequential` stacks that model code builds.

#include <graphify/nn/Module.h>

#include <concepts>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

namespace gfy::nn {

namespace detail {
/// A concrete module type (an `...Impl`, not a holder and not a pointer).
template <class M>
concept ModuleValue = std::is_base_of_v<Module, std::remove_cvref_t<M>>;
/// A module whose `forward` maps one Tensor to a Tensor (what a Sequential can chain).
template <class M>
concept TensorForward = requires(M &m, const Tensor &t) {
  { m.forward(t) } -> std::convertible_to<Tensor>;
};
/// A module whose `forward` maps two (or three) Tensors to a Tensor: the first element of a
/// Sequential called with that many inputs (`seq->forward(x, t)`).
template <class M>
concept TensorForward2 = requires(M &m, const Tensor &t) {
  { m.forward(t, t) } -> std::convertible_to<Tensor>;
};
template <class M>
concept TensorForward3 = requires(M &m, const Tensor &t) {
  { m.forward(t, t, t) } -> std::convertible_to<Tensor>;
};
} // namespace detail

/// A module of any type behind one handle, as torch::nn::AnyModule: `ptr()`, `ptr<T>()`,
/// `get<T>()` and `forward(Tensor)`.
class AnyModule {
public:
  AnyModule() = default;
  template <class M> explicit AnyModule(std::shared_ptr<M> module) : module_(module), type_(&typeid(M)) {
    static_assert(std::is_base_of_v<Module, M>, "AnyModule holds torch::nn::Module types only");
    if constexpr (detail::TensorForward<M>)
      forward_ = [m = module.get()](const Tensor &x) -> Tensor { return m->forward(x); };
    if constexpr (detail::TensorForward2<M>)
      forward2_ = [m = module.get()](const Tensor &a, const Tensor &b) -> Tensor { return m->forward(a, b); };
    if constexpr (detail::TensorForward3<M>)
      forward3_ = [m = module.get()](const Tensor &a, const Tensor &b, const Tensor &c) -> Tensor {
        return m->forward(a, b, c);
      };
  }
  template <class M> explicit AnyModule(const ModuleHolder<M> &holder) : AnyModule(holder.ptr()) {}
  template <detail::ModuleValue M>
  explicit AnyModule(M &&module) : AnyModule(std::make_shared<std::remove_cvref_t<M>>(std::forward<M>(module))) {}

  /// Calls the module's `forward(input)`; throws when it has none that maps a Tensor to a Tensor.
  template <class ReturnType = Tensor> ReturnType forward(const Tensor &input) const {
    static_assert(std::is_same_v<ReturnType, Tensor>, "AnyModule::forward returns a Tensor in the gfy runtime");
    GFY_CHECK(!is_empty(), "Cannot call forward() on an empty AnyModule");
    GFY_CHECK(forward_ != nullptr, "AnyModule: module '", module_->name(),
              "' has no forward(Tensor) returning a Tensor (the gfy runtime chains Tensor -> Tensor modules only)");
    return forward_(input);
  }
  /// `forward(a, b)` / `forward(a, b, c)` of a module that takes two or three Tensors.
  template <class ReturnType = Tensor> ReturnType forward(const Tensor &a, const Tensor &b) const {
    static_assert(std::is_same_v<ReturnType, Tensor>, "AnyModule::forward returns a Tensor in the gfy runtime");
    GFY_CHECK(!is_empty(), "Cannot call forward() on an empty AnyModule");
    GFY_CHECK(forward2_ != nullptr, "AnyModule: module '", module_->name(),
              "' has no forward(Tensor, Tensor) returning a Tensor");
    return forward2_(a, b);
  }
  template <class ReturnType = Tensor> ReturnType forward(const Tensor &a, const Tensor &b, const Tensor &c) const {
    static_assert(std::is_same_v<ReturnType, Tensor>, "AnyModule::forward returns a Tensor in the gfy runtime");
    GFY_CHECK(!is_empty(), "Cannot call forward() on an empty AnyModule");
    GFY_CHECK(forward3_ != nullptr, "AnyModule: module '", module_->name(),
              "' has no forward(Tensor, Tensor, Tensor) returning a Tensor");
    return forward3_(a, b, c);
  }
  std::shared_ptr<Module> ptr() const {
    GFY_CHECK(!is_empty(), "Cannot call ptr() on an empty AnyModule");
    return module_;
  }
  /// The module as `T` (an `...Impl` type); throws when it is of another type.
  template <class T> std::shared_ptr<T> ptr() const {
    GFY_CHECK(!is_empty(), "Cannot call ptr() on an empty AnyModule");
    auto typed = std::dynamic_pointer_cast<T>(module_);
    GFY_CHECK(typed != nullptr, "Attempted to cast module of type ", module_->name(), " to type ", typeid(T).name());
    return typed;
  }
  template <detail::ModuleValue T> T &get() const { return *ptr<T>(); }
  /// `any.get<Linear>()`: a holder sharing the module.
  template <class T>
    requires requires { typename T::ContainedType; }
  T get() const {
    return T(ptr<typename T::ContainedType>());
  }
  const std::type_info &type_info() const {
    GFY_CHECK(!is_empty(), "Cannot call type_info() on an empty AnyModule");
    return *type_;
  }
  bool is_empty() const noexcept { return module_ == nullptr; }

private:
  std::shared_ptr<Module> module_;
  const std::type_info *type_ = nullptr;
  std::function<Tensor(const Tensor &)> forward_;
  std::function<Tensor(const Tensor &, const Tensor &)> forward2_;
  std::function<Tensor(const Tensor &, const Tensor &, const Tensor &)> forward3_;
};

/// A name and a module, for `Sequential({{"fc", Linear(2, 3)}, {"act", ReLU()}})`.
class NamedAnyModule {
public:
  template <class M>
  NamedAnyModule(std::string name, M &&module) : name_(std::move(name)), module_(std::forward<M>(module)) {}
  NamedAnyModule(std::string name, AnyModule module) : name_(std::move(name)), module_(std::move(module)) {}
  const std::string &name() const { return name_; }
  const AnyModule &module() const { return module_; }

private:
  std::string name_;
  AnyModule module_;
};

/// Modules applied one after another: `forward(x)` is `m_n(...m_1(m_0(x)))`.
class SequentialImpl : public Module {
public:
  using Iterator = std::vector<AnyModule>::iterator;
  using ConstIterator = std::vector<AnyModule>::const_iterator;

  SequentialImpl() : Module("Sequential") {}
  template <class... Modules>
    requires(sizeof...(Modules) > 0)
  explicit SequentialImpl(Modules &&...modules) : Module("Sequential") {
    (push_back(std::forward<Modules>(modules)), ...);
  }
  explicit SequentialImpl(std::initializer_list<NamedAnyModule> named_modules) : Module("Sequential") {
    for (const auto &m : named_modules) push_back(m.name(), m.module());
  }

  /// Chains the modules; throws on an empty Sequential, as LibTorch.
  template <class ReturnType = Tensor> ReturnType forward(const Tensor &input) {
    static_assert(std::is_same_v<ReturnType, Tensor>, "Sequential::forward returns a Tensor in the gfy runtime");
    GFY_CHECK(!is_empty(), "Cannot call forward() on an empty Sequential");
    Tensor x = input;
    for (const auto &m : modules_) x = m.forward(x);
    return x;
  }
  /// As LibTorch: the first module takes every input, the rest chain its output.
  template <class ReturnType = Tensor> ReturnType forward(const Tensor &a, const Tensor &b) {
    GFY_CHECK(!is_empty(), "Cannot call forward() on an empty Sequential");
    Tensor x = modules_.front().forward<ReturnType>(a, b);
    for (size_t i = 1; i < modules_.size(); ++i) x = modules_[i].forward(x);
    return x;
  }
  template <class ReturnType = Tensor> ReturnType forward(const Tensor &a, const Tensor &b, const Tensor &c) {
    GFY_CHECK(!is_empty(), "Cannot call forward() on an empty Sequential");
    Tensor x = modules_.front().forward<ReturnType>(a, b, c);
    for (size_t i = 1; i < modules_.size(); ++i) x = modules_[i].forward(x);
    return x;
  }

  void push_back(AnyModule module) { push_back(std::to_string(modules_.size()), std::move(module)); }
  void push_back(std::string name, AnyModule module);
  template <class M> void push_back(std::shared_ptr<M> module) { push_back(AnyModule(std::move(module))); }
  template <class M> void push_back(std::string name, std::shared_ptr<M> module) {
    push_back(std::move(name), AnyModule(std::move(module)));
  }
  template <class M> void push_back(const ModuleHolder<M> &holder) { push_back(AnyModule(holder.ptr())); }
  template <class M> void push_back(std::string name, const ModuleHolder<M> &holder) {
    push_back(std::move(name), AnyModule(holder.ptr()));
  }
  template <detail::ModuleValue M> void push_back(M &&module) { push_back(AnyModule(std::forward<M>(module))); }
  template <detail::ModuleValue M> void push_back(std::string name, M &&module) {
    push_back(std::move(name), AnyModule(std::forward<M>(module)));
  }
  /// push_back of every element of `container` (another Sequential, a vector of holders, ...).
  template <class Container> void extend(const Container &container) {
    for (const auto &m : container) push_back(m);
  }

  Iterator begin() { return modules_.begin(); }
  Iterator end() { return modules_.end(); }
  ConstIterator begin() const { return modules_.begin(); }
  ConstIterator end() const { return modules_.end(); }

  std::shared_ptr<Module> ptr(size_t index) const { return at_index(index).ptr(); }
  template <class T> std::shared_ptr<T> ptr(size_t index) const { return at_index(index).template ptr<T>(); }
  template <class T> T &at(size_t index) const { return *ptr<T>(index); }
  std::shared_ptr<Module> operator[](size_t index) const { return ptr(index); }
  size_t size() const noexcept { return modules_.size(); }
  bool is_empty() const noexcept { return modules_.empty(); }

private:
  const AnyModule &at_index(size_t index) const;
  std::vector<AnyModule> modules_;
};

/// A ModuleHolder for SequentialImpl; `Sequential()` is an empty (but usable) Sequential.
class Sequential : public ModuleHolder<SequentialImpl> {
public:
  using ModuleHolder<SequentialImpl>::ModuleHolder;
  Sequential() : ModuleHolder() {}
  Sequential(std::initializer_list<NamedAnyModule> named_modules)
      : ModuleHolder(std::make_shared<SequentialImpl>(named_modules)) {}
};

/// A list of submodules (registered as "0", "1", ...), without a forward of its own.
class ModuleListImpl : public Module {
public:
  using Iterator = std::vector<std::shared_ptr<Module>>::iterator;
  using ConstIterator = std::vector<std::shared_ptr<Module>>::const_iterator;

  ModuleListImpl() : Module("ModuleList") {}
  template <class... Modules>
    requires(sizeof...(Modules) > 0)
  explicit ModuleListImpl(Modules &&...modules) : Module("ModuleList") {
    (push_back(std::forward<Modules>(modules)), ...);
  }

  void push_back(std::shared_ptr<Module> module);
  template <class M> void push_back(const ModuleHolder<M> &holder) { push_back(std::shared_ptr<Module>(holder.ptr())); }
  template <detail::ModuleValue M> void push_back(M &&module) {
    push_back(std::shared_ptr<Module>(std::make_shared<std::remove_cvref_t<M>>(std::forward<M>(module))));
  }
  template <class Container> void extend(const Container &container) {
    for (const auto &m : container) push_back(m);
  }

  Iterator begin() { return modules_.begin(); }
  Iterator end() { return modules_.end(); }
  ConstIterator begin() const { return modules_.begin(); }
  ConstIterator end() const { return modules_.end(); }

  std::shared_ptr<Module> ptr(size_t index) const { return at_index(index); }
  /// nullptr when the element is not a `T` (as LibTorch's dynamic_pointer_cast).
  template <class T> std::shared_ptr<T> ptr(size_t index) const { return std::dynamic_pointer_cast<T>(at_index(index)); }
  /// The element as `T`; unlike LibTorch (which dereferences a null pointer) a wrong type throws.
  template <class T> T &at(size_t index) const {
    auto typed = ptr<T>(index);
    GFY_CHECK(typed != nullptr, "ModuleList::at: module [", index, "] is not of type ", typeid(T).name());
    return *typed;
  }
  std::shared_ptr<Module> operator[](size_t index) const { return ptr(index); }
  size_t size() const noexcept { return modules_.size(); }
  bool is_empty() const noexcept { return modules_.empty(); }

private:
  const std::shared_ptr<Module> &at_index(size_t index) const;
  std::vector<std::shared_ptr<Module>> modules_;
};
GFY_MODULE(ModuleList);

} // namespace gfy::nn
