#pragma once
/// \file
/// Part of the shim's TorchScript stand-in (docs/compat.md, "TorchScript"), included at the end of
/// <torch/torch.h>; not to be included directly.
///
/// `torch::jit::Module` (also `torch::jit::script::Module`) and `torch::jit::load`. graphify's
/// runtime has no TorchScript interpreter, so no scripted method can run: `torch::jit::load` of a
/// file that exists throws a c10::Error that says so (a missing file throws LibTorch's "open file
/// failed" message first), and a module's `forward`, `run_method` and `get_method` throw LibTorch's
/// "Method 'forward' is not defined." with the same reason. Everything else is a real object
/// with LibTorch's behaviour, so a translation unit that loads a model compiles, and the code in
/// it that takes the model's outputs as tensors (post-processing, decoding) runs and validates:
/// attributes with their declared types, parameters, buffers and submodules, train/eval,
/// `to(device, dtype)`, copies.
#include <graphify/compat/script/Dict.h>
#include <graphify/compat/script/IValue.h>
#include <graphify/compat/script/List.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <istream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace c10::ivalue {
/// A module's state: its type name and its named slots, in registration order.
struct Object {
  struct Slot {
    std::string name;
    IValue value;
    TypePtr type;
    bool isParameter = false;
    bool isBuffer = false;
    bool isModule = false;
  };
  explicit Object(std::string typeName) : typeName_(std::move(typeName)) {}
  const std::string &name() const { return typeName_; }
  std::vector<Slot> &slots() { return slots_; }
  const std::vector<Slot> &slots() const { return slots_; }
  Slot *findSlot(const std::string &name) {
    for (Slot &s : slots_)
      if (s.name == name)
        return &s;
    return nullptr;
  }
  const Slot *findSlot(const std::string &name) const { return const_cast<Object *>(this)->findSlot(name); }
  TypePtr type() const { return std::make_shared<Type>(Type::Kind::Object, std::vector<TypePtr>{}, typeName_); }

private:
  std::string typeName_;
  std::vector<Slot> slots_;
};
} // namespace c10::ivalue

namespace torch::jit {
using ::c10::IValue;
using Stack = std::vector<IValue>;
using Kwargs = std::unordered_map<std::string, IValue>;
using ExtraFilesMap = std::unordered_map<std::string, std::string>;

/// LibTorch throws this (a std::runtime_error, not a c10::Error) for a missing attribute.
struct ObjectAttributeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

namespace detail {
inline const char *kNoInterpreter =
    "graphify's runtime has no TorchScript interpreter, so no scripted method can run; build the model as a "
    "torch::nn::Module, or validate the code that takes the model's outputs as tensors (docs/compat.md, "
    "\"TorchScript\")";
} // namespace detail

/// A method of a scripted module. None exists here (get_method throws), so this only names the type
/// user code declares.
class Method {
public:
  const std::string &name() const { return name_; }
  IValue operator()(std::vector<IValue>, const Kwargs & = Kwargs()) const {
    TORCH_CHECK(false, "Method '", name_, "' is not defined. (", detail::kNoInterpreter, ")");
  }

private:
  std::string name_;
};

struct NameTensor {
  std::string name;
  ::gfy::Tensor value;
};
struct NameValue {
  std::string name;
  IValue value;
};
struct NameModule;

class Module {
public:
  /// LibTorch's default Module has no object; here it is an empty module named "__torch__.Module",
  /// so its attribute and method calls fail with messages rather than a crash.
  Module() : Module("Module") {}
  explicit Module(const std::string &name)
      : obj_(::c10::make_intrusive<::c10::ivalue::Object>(qualified(name))) {}
  explicit Module(::c10::intrusive_ptr<::c10::ivalue::Object> obj) : obj_(std::move(obj)) {}

  ::c10::intrusive_ptr<::c10::ivalue::Object> _ivalue() const { return obj_; }
  ::c10::TypePtr type() const { return obj_->type(); }

  // -- attributes --------------------------------------------------------------------------------
  IValue attr(const std::string &name) const {
    if (const auto *slot = obj_->findSlot(name))
      return slot->value;
    throw ObjectAttributeError(obj_->name() + " does not have a field with name '" + name + "'");
  }
  IValue attr(const std::string &name, IValue or_else) const {
    const auto *slot = obj_->findSlot(name);
    return slot ? slot->value : std::move(or_else);
  }
  bool hasattr(const std::string &name) const { return obj_->findSlot(name) != nullptr; }
  /// Sets an existing attribute; the value must have the attribute's declared type.
  void setattr(const std::string &name, IValue v) {
    auto *slot = obj_->findSlot(name);
    TORCH_CHECK(slot, "Module has no attribute '", name, "'");
    const ::c10::TypePtr got = v.type();
    TORCH_CHECK(got->isSubtypeOf(*slot->type), "Expected a value of type '", slot->type->str(), "' for field '",
                name, "', but found '", got->str(), "'");
    slot->value = std::move(v);
  }
  void register_attribute(const std::string &name, const ::c10::TypePtr &t, IValue v, bool is_param = false,
                          bool is_buffer = false) {
    auto *slot = obj_->findSlot(name);
    if (!slot) {
      obj_->slots().push_back({name, IValue(), t});
      slot = &obj_->slots().back();
    }
    *slot = {name, std::move(v), t, is_param, is_buffer, false};
  }
  void register_parameter(const std::string &name, ::gfy::Tensor v, bool is_buffer) {
    register_attribute(name, ::c10::TensorType::get(), std::move(v), !is_buffer, is_buffer);
  }
  void register_buffer(const std::string &name, ::gfy::Tensor v) {
    register_attribute(name, ::c10::TensorType::get(), std::move(v), false, true);
  }
  void register_module(const std::string &name, const Module &m) {
    register_attribute(name, m.type(), IValue(m._ivalue()));
    obj_->findSlot(name)->isModule = true;
  }

  // -- parameters, buffers, submodules -----------------------------------------------------------
  std::vector<::gfy::Tensor> parameters(bool recurse = true) const {
    return values(named_parameters(recurse));
  }
  std::vector<NameTensor> named_parameters(bool recurse = true) const {
    return namedTensors(recurse, [](const auto &s) { return s.isParameter; });
  }
  std::vector<::gfy::Tensor> buffers(bool recurse = true) const { return values(named_buffers(recurse)); }
  std::vector<NameTensor> named_buffers(bool recurse = true) const {
    return namedTensors(recurse, [](const auto &s) { return s.isBuffer; });
  }
  std::vector<Module> children() const;
  std::vector<NameModule> named_children() const;
  /// This module and every submodule, depth first; this one is named "".
  std::vector<NameModule> named_modules() const;
  std::vector<Module> modules() const;
  std::vector<NameValue> named_attributes(bool recurse = true) const {
    std::vector<NameValue> out;
    for (const auto &s : obj_->slots()) {
      out.push_back({s.name, s.value});
      if (recurse && s.isModule)
        for (auto &a : Module(s.value.toObject()).named_attributes(true))
          out.push_back({s.name + "." + a.name, a.value});
    }
    return out;
  }

  // -- mode and placement ------------------------------------------------------------------------
  /// Sets the "training" attribute of this module and its submodules where they have one (a
  /// scripted module does; one built in C++ has none, and LibTorch then changes nothing).
  void train(bool on = true) {
    for (auto &m : modules())
      if (m.hasattr("training"))
        m.setattr("training", on);
  }
  void eval() { train(false); }
  bool is_training() const { return attr("training", true).toBool(); }
  /// Moves every parameter and buffer, in this module and its submodules (LibTorch's `to`).
  void to(::gfy::Device device, bool non_blocking = false) { convert(device, std::nullopt, non_blocking); }
  void to(::gfy::ScalarType dtype, bool non_blocking = false) { convert(std::nullopt, dtype, non_blocking); }
  void to(::gfy::Device device, ::gfy::ScalarType dtype, bool non_blocking = false) {
    convert(device, dtype, non_blocking);
  }

  // -- methods: none can run without an interpreter ----------------------------------------------
  IValue forward(std::vector<IValue> inputs, const Kwargs &kwargs = Kwargs()) {
    return get_method("forward")(std::move(inputs), kwargs);
  }
  template <class... Types> IValue run_method(const std::string &method_name, Types &&...) {
    return get_method(method_name)({});
  }
  Method get_method(const std::string &name) const {
    TORCH_CHECK(false, "Method '", name, "' is not defined. (", detail::kNoInterpreter, ")");
  }
  std::optional<Method> find_method(const std::string &) const { return std::nullopt; }
  std::vector<Method> get_methods() const { return {}; }
  void save(const std::string &, const ExtraFilesMap & = ExtraFilesMap()) const {
    TORCH_CHECK(false, "Module::save: ", detail::kNoInterpreter);
  }
  void save(std::ostream &, const ExtraFilesMap & = ExtraFilesMap()) const {
    TORCH_CHECK(false, "Module::save: ", detail::kNoInterpreter);
  }

  // -- copies ------------------------------------------------------------------------------------
  /// A new module object with the same slots (tensors shared), as LibTorch's `copy`.
  Module copy() const { return Module(::c10::make_intrusive<::c10::ivalue::Object>(*obj_)); }
  /// A new module tree whose tensors are copies, as LibTorch's `deepcopy` and `clone`.
  Module deepcopy() const {
    Module out = copy();
    for (auto &s : out.obj_->slots()) {
      if (s.isModule)
        s.value = IValue(Module(s.value.toObject()).deepcopy()._ivalue());
      else if (s.value.isTensor())
        s.value = IValue(s.value.toTensor().clone());
    }
    return out;
  }
  Module clone(bool = false) const { return deepcopy(); }

private:
  static std::string qualified(const std::string &name) {
    return name.rfind("__torch__.", 0) == 0 ? name : "__torch__." + name;
  }
  template <class Pred> std::vector<NameTensor> namedTensors(bool recurse, Pred pred) const {
    std::vector<NameTensor> out;
    for (const auto &s : obj_->slots()) {
      if (pred(s) && s.value.isTensor())
        out.push_back({s.name, s.value.toTensor()});
      if (recurse && s.isModule)
        for (auto &t : Module(s.value.toObject()).namedTensors(true, pred))
          out.push_back({s.name + "." + t.name, t.value});
    }
    return out;
  }
  static std::vector<::gfy::Tensor> values(const std::vector<NameTensor> &named) {
    std::vector<::gfy::Tensor> out;
    for (const auto &n : named)
      out.push_back(n.value);
    return out;
  }
  void convert(std::optional<::gfy::Device> device, std::optional<::gfy::ScalarType> dtype, bool non_blocking) {
    for (auto &s : obj_->slots()) {
      if (s.isModule) {
        Module(s.value.toObject()).convert(device, dtype, non_blocking);
      } else if ((s.isParameter || s.isBuffer) && s.value.isTensor() && s.value.toTensor().defined()) {
        ::gfy::Tensor t = s.value.toTensor();
        // LibTorch converts floating-point parameters only when given a dtype.
        const ::gfy::ScalarType to =
            dtype && ::gfy::isFloatingType(t.scalar_type()) ? *dtype : t.scalar_type();
        s.value = IValue(t.to(device.value_or(t.device()), to, non_blocking));
      }
    }
  }

  ::c10::intrusive_ptr<::c10::ivalue::Object> obj_;
};

struct NameModule {
  std::string name;
  Module value;
};
inline std::vector<NameModule> Module::named_children() const {
  std::vector<NameModule> out;
  for (const auto &s : obj_->slots())
    if (s.isModule)
      out.push_back({s.name, Module(s.value.toObject())});
  return out;
}
inline std::vector<Module> Module::children() const {
  std::vector<Module> out;
  for (const auto &c : named_children())
    out.push_back(c.value);
  return out;
}
inline std::vector<NameModule> Module::named_modules() const {
  std::vector<NameModule> out{{"", *this}};
  for (const auto &c : named_children())
    for (auto &m : c.value.named_modules())
      out.push_back({m.name.empty() ? c.name : c.name + "." + m.name, m.value});
  return out;
}
inline std::vector<Module> Module::modules() const {
  std::vector<Module> out;
  for (const auto &m : named_modules())
    out.push_back(m.value);
  return out;
}

namespace script {
using ::torch::jit::Module;
} // namespace script

/// Loads a TorchScript model: throws, since the runtime cannot run one (a missing or unreadable
/// file gets LibTorch's "open file failed" message first).
inline Module load(const std::string &filename, std::optional<::gfy::Device> device, ExtraFilesMap &extra_files) {
  (void)device;
  (void)extra_files;
  if (std::FILE *f = std::fopen(filename.c_str(), "rb"))
    std::fclose(f);
  else
    TORCH_CHECK(false, "open file failed because of errno ", errno, " on fopen: , file path: ", filename);
  TORCH_CHECK(false, "torch::jit::load(\"", filename, "\"): ", detail::kNoInterpreter);
}
inline Module load(const std::string &filename, std::optional<::gfy::Device> device = std::nullopt) {
  ExtraFilesMap extra;
  return load(filename, device, extra);
}
inline Module load(std::istream &, std::optional<::gfy::Device>, ExtraFilesMap &) {
  TORCH_CHECK(false, "torch::jit::load: ", detail::kNoInterpreter);
}
inline Module load(std::istream &in, std::optional<::gfy::Device> device = std::nullopt) {
  ExtraFilesMap extra;
  return load(in, device, extra);
}

/// `torch::jit::compile(source)`: TorchScript source needs the interpreter too.
class CompilationUnit {};
inline std::shared_ptr<CompilationUnit> compile(const std::string &) {
  TORCH_CHECK(false, "torch::jit::compile: ", detail::kNoInterpreter);
}

/// `torch::pickle_load` / `torch::jit::pickle_load` read a pickled IValue (torch.save's format),
/// which the shim does not parse.
inline IValue pickle_load(const std::vector<char> &) {
  TORCH_CHECK(false, "torch::pickle_load: reading pickled values (torch.save's format) is not supported by "
                     "graphify's runtime (docs/compat.md, \"TorchScript\")");
}
inline std::vector<char> pickle_save(const IValue &) {
  TORCH_CHECK(false, "torch::pickle_save: writing pickled values (torch.save's format) is not supported by "
                     "graphify's runtime (docs/compat.md, \"TorchScript\")");
}

/// The interpreter's switches (profiling executor, graph optimisation): kept and returned, as
/// inference code sets them before loading a model; with no interpreter they change nothing.
inline std::atomic<bool> &getProfilingMode() {
  static std::atomic<bool> mode{true};
  return mode;
}
inline std::atomic<bool> &getExecutorMode() {
  static std::atomic<bool> mode{true};
  return mode;
}
namespace detail {
inline bool &graphExecutorOptimize() {
  static thread_local bool on = true;
  return on;
}
} // namespace detail
inline void setGraphExecutorOptimize(bool o) { detail::graphExecutorOptimize() = o; }
inline bool getGraphExecutorOptimize() { return detail::graphExecutorOptimize(); }
struct GraphOptimizerEnabledGuard {
  explicit GraphOptimizerEnabledGuard(bool state) : old_(getGraphExecutorOptimize()) {
    setGraphExecutorOptimize(state);
  }
  ~GraphOptimizerEnabledGuard() { setGraphExecutorOptimize(old_); }

private:
  bool old_;
};
} // namespace torch::jit

namespace torch {
using ::torch::jit::pickle_load;
using ::torch::jit::pickle_save;
} // namespace torch
