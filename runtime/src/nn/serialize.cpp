// The runtime's archive format, read and written on the host:
//   "GFYARCHIVE 1\n", record count (u64), then per record: name length (u64) and bytes, dtype
//   (u8, ScalarType), rank (u64), sizes (i64 each), data (contiguous, native little-endian).
// Reading never trusts the file: every length is checked against what is left before memory is
// allocated, so a truncated or foreign file is a gfy::Error naming the file, never a crash.
#include <graphify/graph/Graph.h>
#include <graphify/nn/Serialize.h>

#include <cstring>
#include <fstream>
#include <sstream>

namespace gfy::serialize {

namespace {

constexpr char kMagic[] = "GFYARCHIVE 1\n";

void put_u64(std::ostream &out, uint64_t v) { out.write(reinterpret_cast<const char *>(&v), sizeof v); }

/// Reads `n` bytes or throws naming the source.
void get(std::istream &in, void *dst, size_t n, const std::string &source) {
  in.read(static_cast<char *>(dst), static_cast<std::streamsize>(n));
  GFY_CHECK(static_cast<size_t>(in.gcount()) == n, "load: ", source, " is truncated or not a graphify archive");
}

uint64_t get_u64(std::istream &in, const std::string &source) {
  uint64_t v = 0;
  get(in, &v, sizeof v, source);
  return v;
}

} // namespace

// A file holds values: writing one reads every tensor on the host, reading one writes them from
// it. Refused up front, at the caller's line, rather than at the first data_ptr inside.
void on_file_io(const char *op, const std::source_location &loc) { detail::on_host_read(op, loc); }

void write_records(std::ostream &out, const Records &records) {
  out.write(kMagic, sizeof kMagic - 1);
  put_u64(out, records.size());
  for (const auto &[name, t] : records) {
    GFY_CHECK(t.defined(), "save: tensor '", name, "' is undefined");
    Tensor c = t.to(kCPU).contiguous();
    put_u64(out, name.size());
    out.write(name.data(), static_cast<std::streamsize>(name.size()));
    const auto dtype = static_cast<uint8_t>(c.scalar_type());
    out.write(reinterpret_cast<const char *>(&dtype), 1);
    put_u64(out, static_cast<uint64_t>(c.dim()));
    for (int64_t d = 0; d < c.dim(); ++d) {
      const int64_t s = c.size(d);
      out.write(reinterpret_cast<const char *>(&s), sizeof s);
    }
    out.write(static_cast<const char *>(c.data_ptr()), static_cast<std::streamsize>(c.nbytes()));
  }
}

Records read_records(std::istream &in, const std::string &source) {
  char magic[sizeof kMagic - 1] = {};
  in.read(magic, sizeof magic);
  GFY_CHECK(in.gcount() == sizeof magic && std::memcmp(magic, kMagic, sizeof magic) == 0, "load: ", source,
            " is not a graphify archive (this runtime cannot read LibTorch's zip archives; save with the runtime)");
  const uint64_t count = get_u64(in, source);
  Records records;
  for (uint64_t r = 0; r < count; ++r) {
    const uint64_t len = get_u64(in, source);
    GFY_CHECK(len < (1u << 20), "load: ", source, " has a corrupt record name");
    std::string name(len, '\0');
    get(in, name.data(), len, source);
    uint8_t dtype = 0;
    get(in, &dtype, 1, source);
    GFY_CHECK(dtype < kNumScalarTypes, "load: ", source, ": record '", name, "' has an unknown dtype");
    const uint64_t rank = get_u64(in, source);
    GFY_CHECK(rank <= 64, "load: ", source, ": record '", name, "' has a corrupt rank");
    std::vector<int64_t> sizes(rank);
    for (auto &s : sizes) {
      get(in, &s, sizeof s, source);
      GFY_CHECK(s >= 0, "load: ", source, ": record '", name, "' has a negative size");
    }
    // The data must be in the file before memory is allocated for it.
    const auto here = in.tellg();
    in.seekg(0, std::ios::end);
    const auto end = in.tellg();
    in.seekg(here);
    Tensor t = empty(sizes, static_cast<ScalarType>(dtype));
    GFY_CHECK(end - here >= static_cast<std::streamoff>(t.nbytes()), "load: ", source, " is truncated (record '", name, "')");
    get(in, t.data_ptr(), static_cast<size_t>(t.nbytes()), source);
    records.emplace_back(std::move(name), std::move(t));
  }
  return records;
}

void write_file(const std::string &path, const Records &records) {
  std::ostringstream buffer;
  write_records(buffer, records);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  GFY_CHECK(out.good(), "save: cannot open ", path, " for writing");
  const std::string bytes = buffer.str();
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  GFY_CHECK(out.good(), "save: writing ", path, " failed");
}

Records read_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  GFY_CHECK(in.good(), "load: cannot open ", path);
  return read_records(in, path);
}

Records module_records(const nn::Module &module) {
  Records records;
  for (const auto &p : module.named_parameters()) records.emplace_back(p.key(), p.value());
  for (const auto &b : module.named_buffers()) records.emplace_back(b.key(), b.value());
  return records;
}

void load_into(nn::Module &module, const Records &records, const std::string &source) {
  NoGradGuard no_grad; // loading overwrites leaves in place, outside any graph (as LibTorch's load)
  auto find = [&](const std::string &name) -> const Tensor * {
    for (const auto &[n, t] : records)
      if (n == name) return &t;
    return nullptr;
  };
  auto copy = [&](const std::string &name, Tensor dst) {
    const Tensor *src = find(name);
    GFY_CHECK(src, "load: ", source, " has no record for '", name, "'");
    GFY_CHECK(src->sizes() == dst.sizes(), "load: '", name, "' in ", source, " has shape ", src->sizes(),
              " but the module's has ", dst.sizes());
    GFY_CHECK(src->scalar_type() == dst.scalar_type(), "load: '", name, "' in ", source, " has dtype ",
              to_string(src->scalar_type()), " but the module's has ", to_string(dst.scalar_type()));
    dst.copy_(src->to(dst.device()));
  };
  for (const auto &p : module.named_parameters()) copy(p.key(), p.value());
  for (const auto &b : module.named_buffers()) copy(b.key(), b.value());
}

void OutputArchive::write(const std::string &key, const Tensor &tensor, bool) {
  GFY_CHECK(tensor.defined(), "OutputArchive::write: the tensor of '", key, "' is undefined");
  for (auto &[name, t] : records_)
    if (name == key) {
      t = tensor.detach();
      return;
    }
  records_.emplace_back(key, tensor.detach());
}
void OutputArchive::save_to(const std::string &filename) const { write_file(filename, records_); }
void OutputArchive::save_to(std::ostream &stream) const { write_records(stream, records_); }

void InputArchive::load_from(const std::string &filename, std::optional<Device> device) {
  records_ = read_file(filename);
  source_ = filename;
  move_records(device);
}
void InputArchive::load_from(std::istream &stream, std::optional<Device> device) {
  records_ = read_records(stream, "stream");
  source_ = "stream";
  move_records(device);
}
void InputArchive::load_from(const char *data, size_t size, std::optional<Device> device) {
  GFY_CHECK(data != nullptr || size == 0, "InputArchive::load_from: data is null");
  std::istringstream stream(std::string(data, size));
  records_ = read_records(stream, "memory");
  source_ = "memory";
  move_records(device);
}
void InputArchive::load_from(const std::function<size_t(uint64_t, void *, size_t)> &read_func,
                             const std::function<size_t(void)> &size_func, std::optional<Device> device) {
  const size_t size = size_func();
  std::string bytes(size, '\0');
  for (size_t at = 0; at < size;) {
    const size_t got = read_func(at, bytes.data() + at, size - at);
    GFY_CHECK(got > 0, "InputArchive::load_from: read_func returned 0 bytes at position ", at, " of ", size);
    GFY_CHECK(got <= size - at, "InputArchive::load_from: read_func returned ", got, " bytes where ", size - at,
              " were asked for");
    at += got;
  }
  load_from(bytes.data(), bytes.size(), device);
}
void InputArchive::move_records(std::optional<Device> device) {
  if (!device) return;
  for (auto &record : records_) record.second = record.second.to(*device);
}
bool InputArchive::try_read(const std::string &key, Tensor &tensor, bool) {
  for (const auto &[name, t] : records_) {
    if (name != key) continue;
    NoGradGuard no_grad;
    if (tensor.defined() && tensor.sizes() == t.sizes() && tensor.scalar_type() == t.scalar_type())
      tensor.copy_(t);
    else
      tensor = t.to(tensor.defined() ? tensor.device() : t.device());
    return true;
  }
  return false;
}
void InputArchive::read(const std::string &key, Tensor &tensor, bool is_buffer) {
  GFY_CHECK(try_read(key, tensor, is_buffer), "No such serialized tensor '", key, "'");
}
std::vector<std::string> InputArchive::keys() const {
  std::vector<std::string> out;
  for (const auto &[name, t] : records_) out.push_back(name);
  return out;
}

} // namespace gfy::serialize

namespace gfy {

void save(const Tensor &tensor, const std::string &path, SL loc) {
  serialize::on_file_io("save", loc);
  serialize::write_file(path, {{"0", tensor}});
}
void save(const std::vector<Tensor> &tensors, const std::string &path, SL loc) {
  serialize::on_file_io("save", loc);
  serialize::Records records;
  for (size_t i = 0; i < tensors.size(); ++i) records.emplace_back(std::to_string(i), tensors[i]);
  serialize::write_file(path, records);
}
void load(Tensor &tensor, const std::string &path, SL loc) {
  serialize::on_file_io("load", loc);
  auto records = serialize::read_file(path);
  GFY_CHECK(records.size() == 1, "load: ", path, " holds ", records.size(), " tensors, not one");
  tensor = records[0].second;
}
void load(std::vector<Tensor> &tensors, const std::string &path, SL loc) {
  serialize::on_file_io("load", loc);
  tensors.clear();
  for (auto &r : serialize::read_file(path)) tensors.push_back(r.second);
}

} // namespace gfy
