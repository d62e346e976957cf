#pragma once
/// \file
/// `save` / `load` of tensors, tensor lists and modules, with LibTorch's spellings
/// (`torch::save(model, "m.pt")`, `torch::load(model, "m.pt")`, `torch::save(t, "t.pt")`). The
/// file format is the runtime's own (LibTorch's zip archives are not read or written): a magic
/// line, a version, then named records of dtype, shape and little-endian contiguous data. A
/// module is saved as its parameters and buffers by dotted name; loading copies each record into
/// the module's tensor of that name and fails, naming it, on a missing record, a shape or dtype
/// mismatch, a truncated file or a file that is not one of these archives. Saving or loading
/// reads tensor values on the host (or writes them from it), so inside `gfy::capture` each
/// throws `CaptureError` naming the caller's line, as `item()` does.
///
/// \code
///   torch::save(net, "net.gfy");
///   Net restored;
///   torch::load(restored, "net.gfy");        // same parameters and buffers as net
/// \endcode

#include <graphify/nn/Module.h>

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <source_location>
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

/// LibTorch's `torch::serialize::OutputArchive`, for what user code saves by key (a sampler's
/// position, a step count): named tensors written to a file or stream in the runtime's format.
///
/// \code
///   torch::serialize::OutputArchive out;
///   out.write("index", torch::tensor(int64_t(7)), /*is_buffer=*/true);
///   out.save_to("sampler.gfy");
/// \endcode
class OutputArchive {
public:
  /// Records `tensor` (detached) under `key`, replacing an earlier record of that key.
  void write(const std::string &key, const Tensor &tensor, bool is_buffer = false);
  void save_to(const std::string &filename) const;
  void save_to(std::ostream &stream) const;
  const Records &records() const { return records_; }

private:
  Records records_;
};

/// LibTorch's `torch::serialize::InputArchive`: reads back what an OutputArchive saved.
class InputArchive {
public:
  /// Reads the records of a file, a stream, a flat array or what `read_func` gives (LibTorch's
  /// four sources: read_func(pos, buf, n) copies up to n bytes from pos and returns how many;
  /// size_func() is the total). With `device`, every tensor is moved there; without, each stays
  /// on the device it was saved from.
  void load_from(const std::string &filename, std::optional<Device> device = std::nullopt);
  void load_from(std::istream &stream, std::optional<Device> device = std::nullopt);
  void load_from(const char *data, size_t size, std::optional<Device> device = std::nullopt);
  void load_from(const std::function<size_t(uint64_t pos, void *buf, size_t nbytes)> &read_func,
                 const std::function<size_t(void)> &size_func, std::optional<Device> device = std::nullopt);
  /// The record of `key` into `tensor`: copied into it when it is defined with the record's shape
  /// and dtype (so a module's parameter held elsewhere sees the values, as LibTorch's set_ gives),
  /// otherwise `tensor` is rebound to the record. A missing key throws "No such serialized
  /// tensor 'key'".
  void read(const std::string &key, Tensor &tensor, bool is_buffer = false);
  /// As read, returning false for a missing key.
  bool try_read(const std::string &key, Tensor &tensor, bool is_buffer = false);
  std::vector<std::string> keys() const;

private:
  void move_records(std::optional<Device> device);
  Records records_;
  std::string source_ = "archive";
};
} // namespace serialize

namespace serialize {
/// Refuses file I/O of tensors inside a capture (`op` at the caller's `loc`); warns under trace.
void on_file_io(const char *op, const std::source_location &loc);
} // namespace serialize

void save(const Tensor &tensor, const std::string &path, SL loc = SL::current());
void save(const std::vector<Tensor> &tensors, const std::string &path, SL loc = SL::current());
void load(Tensor &tensor, const std::string &path, SL loc = SL::current());
void load(std::vector<Tensor> &tensors, const std::string &path, SL loc = SL::current());

template <class Impl> void save(const std::shared_ptr<Impl> &module, const std::string &path, SL loc = SL::current()) {
  serialize::on_file_io("save", loc);
  serialize::write_file(path, serialize::module_records(*module));
}
template <class Impl> void save(const nn::ModuleHolder<Impl> &module, const std::string &path, SL loc = SL::current()) {
  serialize::on_file_io("save", loc);
  serialize::write_file(path, serialize::module_records(*module));
}
template <class Impl> void load(std::shared_ptr<Impl> &module, const std::string &path, SL loc = SL::current()) {
  serialize::on_file_io("load", loc);
  serialize::load_into(*module, serialize::read_file(path), path);
}
template <class Impl> void load(nn::ModuleHolder<Impl> &module, const std::string &path, SL loc = SL::current()) {
  serialize::on_file_io("load", loc);
  serialize::load_into(*module, serialize::read_file(path), path);
}

/// `torch::load(model, path, device)`: loads, then places what was loaded on `device` (LibTorch
/// maps the archive's tensors there; the module's parameters then live on it).
template <class Impl>
void load(std::shared_ptr<Impl> &module, const std::string &path, std::optional<Device> device, SL loc = SL::current()) {
  load(module, path, loc);
  if (device) module->to(*device);
}
template <class Impl>
void load(nn::ModuleHolder<Impl> &module, const std::string &path, std::optional<Device> device, SL loc = SL::current()) {
  load(module, path, loc);
  if (device) module->to(*device);
}
inline void load(Tensor &tensor, const std::string &path, std::optional<Device> device, SL loc = SL::current()) {
  load(tensor, path, loc);
  if (device) tensor = tensor.to(*device);
}
inline void load(std::vector<Tensor> &tensors, const std::string &path, std::optional<Device> device,
                 SL loc = SL::current()) {
  load(tensors, path, loc);
  if (device)
    for (auto &t : tensors) t = t.to(*device);
}

} // namespace gfy
