#pragma once
/// \file
/// `save` / `load` of tensors, tensor lists and modules, with LibTorch's spellings
/// (`torch::save(model, "m.pt")`, `torch::load(model, "m.pt")`, `torch::save(t, "t.pt")`). The
/// file format is the runtime's own (LibTorch's zip archives are not read or written): a magic
/// line, a version, then named records of dtype, shape and little-endian contiguous data. A
/// module is saved as its parameters and buffers by dotted name; loading copies each record into
/// the module's tensor of that name and fails, naming it, on a missing record, a shape or dtype
/// mismatch, a truncated file or a file that is not one of these archives.
///
/// \code
///   torch::save(net, "net.gfy");
///   Net restored;
///   torch::load(restored, "net.gfy");        // same parameters and buffers as net
/// \endcode

#include <graphify/nn/Module.h>

#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gfy {

namespace serialize {
/// (name, tensor) records: what an archive holds.
using Records = std::vector<std::pair<std::string, Tensor>>;
void write_records(std::ostream &out, const Records &records);
Records read_records(std::istream &in, const std::string &source);
void write_file(const std::string &path, const Records &records);
Records read_file(const std::string &path);
/// Copies the records into the module's parameters and buffers of the same name.
void load_into(nn::Module &module, const Records &records, const std::string &source);
Records module_records(const nn::Module &module);
} // namespace serialize

void save(const Tensor &tensor, const std::string &path);
void save(const std::vector<Tensor> &tensors, const std::string &path);
void load(Tensor &tensor, const std::string &path);
void load(std::vector<Tensor> &tensors, const std::string &path);

template <class Impl> void save(const std::shared_ptr<Impl> &module, const std::string &path) {
  serialize::write_file(path, serialize::module_records(*module));
}
template <class Impl> void save(const nn::ModuleHolder<Impl> &module, const std::string &path) {
  serialize::write_file(path, serialize::module_records(*module));
}
template <class Impl> void load(std::shared_ptr<Impl> &module, const std::string &path) {
  serialize::load_into(*module, serialize::read_file(path), path);
}
template <class Impl> void load(nn::ModuleHolder<Impl> &module, const std::string &path) {
  serialize::load_into(*module, serialize::read_file(path), path);
}

/// `torch::load(model, path, device)`: loads, then places what was loaded on `device` (LibTorch
/// maps the archive's tensors there; the module's parameters then live on it).
template <class Impl> void load(std::shared_ptr<Impl> &module, const std::string &path, std::optional<Device> device) {
  load(module, path);
  if (device) module->to(*device);
}
template <class Impl> void load(nn::ModuleHolder<Impl> &module, const std::string &path, std::optional<Device> device) {
  load(module, path);
  if (device) module->to(*device);
}
inline void load(Tensor &tensor, const std::string &path, std::optional<Device> device) {
  load(tensor, path);
  if (device) tensor = tensor.to(*device);
}
inline void load(std::vector<Tensor> &tensors, const std::string &path, std::optional<Device> device) {
  load(tensors, path);
  if (device)
    for (auto &t : tensors) t = t.to(*device);
}

} // namespace gfy
