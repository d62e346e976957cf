// save / load (graphify/nn/Serialize.h): tensors, tensor lists and modules round-trip exactly,
// and every kind of bad file is a gfy::Error that names the file, never a crash.
#include <graphify/graphify.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include <unistd.h>

namespace {

using namespace gfy;

// The suite runs several times at once (runtime.isa.* and the tests discovered one by one under
// ctest -j), so each process writes its own files: a shared name let one run read another's.
std::string temp_path(const char *name) {
  return ::testing::TempDir() + "gfy_serialize_" + std::to_string(::getpid()) + "_" + name;
}

struct TinyNetImpl : nn::Module {
  TinyNetImpl()
      : conv(register_module("conv", nn::Conv2d(nn::Conv2dOptions(2, 3, 3).padding(1)))),
        bn(register_module("bn", nn::BatchNorm2d(3))),
        gru(register_module("gru", nn::GRU(4, 5))) {}
  nn::Conv2d conv;
  nn::BatchNorm2d bn;
  nn::GRU gru;
};
GFY_MODULE(TinyNet);

TEST(Serialize, TensorsRoundTripEveryDtype) {
  const std::string path = temp_path("tensors");
  std::vector<Tensor> in = {randn({2, 3}), arange(6).view({3, 2}), arange(4, kInt), randn({4}).gt(0),
                            randn({2, 2}, kDouble), zeros({0, 3}), scalar_tensor(2.5),
                            randn({4, 5}).t(), randn({3}).to(kHalf), randn({2, 2}).to(kBFloat16)};
  save(in, path);
  std::vector<Tensor> out;
  load(out, path);
  ASSERT_EQ(out.size(), in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    EXPECT_EQ(out[i].scalar_type(), in[i].scalar_type());
    EXPECT_TRUE(equal(out[i], in[i])) << i;
  }
  Tensor one;
  save(in[0], path);
  load(one, path);
  EXPECT_TRUE(equal(one, in[0]));
  std::remove(path.c_str());
}

TEST(Serialize, ModuleRoundTripCopiesParametersAndBuffers) {
  const std::string path = temp_path("module");
  TinyNet a, b;
  a->bn->running_mean.copy_(randn({3}));
  a->train();
  save(a, path);
  load(b, path);
  auto pa = a->named_parameters(), pb = b->named_parameters();
  ASSERT_EQ(pa.size(), pb.size());
  for (const auto &p : pa) EXPECT_TRUE(equal(p.value(), pb[p.key()])) << p.key();
  EXPECT_TRUE(equal(a->bn->running_mean, b->bn->running_mean));
  // load writes into the module's own tensors: handles taken before still see the new values.
  EXPECT_TRUE(equal(b->conv->weight, a->conv->weight));
  std::remove(path.c_str());
}

TEST(Serialize, ArchivesLoadFromReadersAndMemory) {
  serialize::OutputArchive out;
  out.write("w", arange(6.0).view({2, 3}));
  std::ostringstream sink;
  out.save_to(sink);
  const std::string bytes = sink.str();
  // A reader may return fewer bytes than asked for; the archive asks again from there.
  serialize::InputArchive in;
  in.load_from(
      [&](uint64_t pos, void *buf, size_t n) {
        const size_t take = std::min<size_t>(n, 3);
        std::memcpy(buf, bytes.data() + pos, take);
        return take;
      },
      [&] { return bytes.size(); }, Device(kCPU));
  Tensor w;
  in.read("w", w);
  EXPECT_TRUE(equal(w, arange(6.0).view({2, 3})));
  // One that stops early is an error, as is a truncated array.
  serialize::InputArchive stalled;
  EXPECT_THROW(stalled.load_from([](uint64_t, void *, size_t) { return size_t(0); }, [&] { return bytes.size(); }),
               Error);
  serialize::InputArchive truncated;
  EXPECT_THROW(truncated.load_from(bytes.data(), bytes.size() / 2), Error);
}

TEST(Serialize, BadFilesAreErrorsNamingTheFile) {
  const std::string path = temp_path("bad");
  Tensor t;
  EXPECT_THROW(load(t, temp_path("missing")), Error);
  {
    std::ofstream(path) << "PK\x03\x04 a zip archive, as LibTorch writes";
  }
  try {
    load(t, path);
    FAIL() << "expected an error";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("not a graphify archive"), std::string::npos) << e.what();
  }
  // A truncated archive: every prefix of a valid one fails cleanly.
  save(randn({3, 4}), path);
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  for (size_t n = 0; n + 1 < bytes.size(); n += 7) {
    std::ofstream(path, std::ios::binary | std::ios::trunc).write(bytes.data(), static_cast<std::streamsize>(n));
    EXPECT_THROW(load(t, path), Error) << n;
  }
  std::remove(path.c_str());
}

TEST(Serialize, ModuleMismatchesAreNamed) {
  const std::string path = temp_path("mismatch");
  nn::Linear small(2, 3), big(4, 3);
  save(small, path);
  try {
    load(big, path);
    FAIL() << "expected an error";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("'weight'"), std::string::npos) << e.what();
  }
  nn::Linear no_bias(nn::LinearOptions(2, 3).bias(false));
  save(no_bias, path);
  EXPECT_THROW(load(small, path), Error); // no record for 'bias'
  std::remove(path.c_str());
}

} // namespace

// A file holds values in host memory: reading or writing one inside a capture would copy between
// pageable memory and the tensors. Every form refuses before touching the file, and the error
// names the caller's line (the torch::save entry of the rule packs reports that line too).
TEST(Serialize, FileIoUnderCaptureIsRefusedAtTheCallersLine) {
  const std::string path = temp_path("captured");
  save(randn({2, 2}), path);
  Tensor t = zeros({2, 2});
  std::vector<Tensor> list;
  TinyNet net;
  auto expect_refused = [](const std::function<void()> &call, const char *op, unsigned line) {
    try {
      (void)capture(call);
      ADD_FAILURE() << op << " at line " << line << " was recorded under capture";
    } catch (const CaptureError &e) {
      EXPECT_EQ(e.op(), op);
      EXPECT_NE(e.file().find("test_serialize.cpp"), std::string::npos) << e.what();
      EXPECT_EQ(e.line(), line) << e.what();
    }
  };
  expect_refused([&] { load(t, path); }, "load", __LINE__);
  expect_refused([&] { load(list, path); }, "load", __LINE__);
  expect_refused([&] { load(t, path, kCPU); }, "load", __LINE__);
  expect_refused([&] { load(net, path); }, "load", __LINE__);
  expect_refused([&] { save(t, temp_path("never_written")); }, "save", __LINE__);
  expect_refused([&] { save(net, temp_path("never_written")); }, "save", __LINE__);
  std::ifstream never(temp_path("never_written"));
  EXPECT_FALSE(never.good()) << "a refused save wrote its file";
  // The refused load left the tensor as it was.
  EXPECT_TRUE(equal(t, zeros({2, 2})));
  std::remove(path.c_str());
}
