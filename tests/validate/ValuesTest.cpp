#include "graphify/validate/Values.h"
#include "graphify/validate/InputGenerator.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>

using namespace graphify::validate;

namespace {

HostTensor f32(std::vector<int64_t> Shape, std::vector<double> V) {
  return HostTensor::floats(DType::F32, std::move(Shape), V);
}

std::string record(const HostTensor &T) { return formatTensor(T); }

TEST(Values, TensorRecordsRoundTripBitForBit) {
  const double NaN = std::nan("");
  HostTensor T = f32({2, 2}, {0.1, -NaN, -0.0, std::numeric_limits<double>::infinity()});
  std::string R = record(T);
  EXPECT_EQ(R.substr(0, R.find('\n') + 1), "f32 2 2 2 : 16\n") << "a readable header, then the payload";
  EXPECT_EQ(R.size(), strlen("f32 2 2 2 : 16\n") + 16 + 1);
  auto Back = parseTensor(R);
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(Back->Shape, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(Back->valueAsDouble(0), double(0.1f));
  EXPECT_TRUE(std::isnan(Back->valueAsDouble(1)));
  EXPECT_TRUE(std::signbit(Back->valueAsDouble(2))) << "-0 keeps its sign";
  EXPECT_EQ(Back->bytes(), T.bytes());
  EXPECT_EQ(record(*Back), R);

  for (DType Type : {DType::I32, DType::I64, DType::Bool}) {
    HostTensor I = HostTensor::ints(Type, {3}, {1, 0, Type == DType::Bool ? 1 : -7});
    auto IB = parseTensor(record(I));
    ASSERT_TRUE(bool(IB)) << llvm::toString(IB.takeError());
    EXPECT_EQ(IB->integers(), I.integers()) << dtypeName(Type);
    EXPECT_EQ(IB->bytes().size(), 3 * elementSize(Type)) << dtypeName(Type);
  }
  HostTensor D = HostTensor::floats(DType::F64, {1}, {0.1});
  EXPECT_EQ(parseTensor(record(D))->valueAsDouble(0), 0.1) << "f64 is not rounded to f32";
}

TEST(Values, ScalarsEmptyAndUndefined) {
  HostTensor S = HostTensor::ints(DType::I64, {}, {42});
  S.IsScalar = true;
  auto SB = parseTensor(record(S));
  ASSERT_TRUE(bool(SB)) << llvm::toString(SB.takeError());
  EXPECT_TRUE(SB->IsScalar);
  EXPECT_EQ(SB->intAt(0), 42);
  auto E = parseTensor(record(f32({0, 3}, {})));
  ASSERT_TRUE(bool(E)) << llvm::toString(E.takeError());
  EXPECT_EQ(E->numel(), 0);
  HostTensor U;
  U.Undefined = true;
  EXPECT_EQ(record(U), "undefined\n");
  auto UB = parseTensor("undefined\n");
  ASSERT_TRUE(bool(UB));
  EXPECT_TRUE(UB->Undefined);
}

std::string errorOf(llvm::Expected<HostTensor> T) {
  if (T)
    return "no error";
  return llvm::toString(T.takeError());
}

TEST(Values, DamagedTensorRecordsAreClearErrors) {
  std::string R = record(f32({3}, {1, 2, 3}));
  EXPECT_EQ(errorOf(parseTensor(R.substr(0, R.size() - 5))), "tensor record 'f32 1 3 : 12' ends after 8 bytes of its payload");
  EXPECT_EQ(errorOf(parseTensor(R.substr(0, 6))), "tensor record 'f32 1 ' ends inside its header");
  EXPECT_EQ(errorOf(parseTensor("f32 1 3 : 8\n12345678\n")),
            "tensor header 'f32 1 3 : 8' announces 8 bytes for 3 elements of f32 (12 bytes)");
  EXPECT_EQ(errorOf(parseTensor("f32 1 2 : 8\n123456789\n")),
            "tensor record 'f32 1 2 : 8' is not followed by a newline after its 8 bytes");
  EXPECT_EQ(errorOf(parseTensor("f16 1 2 : 4\n1234\n")), "unknown dtype in tensor header 'f16 1 2 : 4'");
  EXPECT_EQ(errorOf(parseTensor("f32 1 3 : 1 2 3\n")),
            "malformed tensor header 'f32 1 3 : 1 2 3' (expected 'dtype ndim dims... : nbytes')");
  // A shape whose product overflows is refused before anything is read.
  EXPECT_EQ(errorOf(parseTensor("f32 2 4294967296 4294967296 : 0\n\n")),
            "malformed shape in tensor header 'f32 2 4294967296 4294967296 : 0'");
}

std::string trialRecords(const char *Kind, unsigned Trial, std::vector<HostTensor> Values) {
  std::string S = std::string(Kind) + " " + std::to_string(Trial) + " ok " + std::to_string(Values.size()) + "\n";
  for (const HostTensor &V : Values)
    S += record(V);
  return S;
}

TEST(Values, ResultsFileProtocol) {
  std::string Text = std::string(ResultsFileHeader) + trialRecords("eager", 0, {f32({2}, {1, 2})}) +
                     "eager 1 error bad\\tshape\\nhere\n"
                     "capture refused 8\titem\t/m/model.cpp\tcannot read\n" +
                     trialRecords("replay", 1, {HostTensor::ints(DType::Bool, {}, {1})}) +
                     "warning frozen\n"
                     "done\n";
  auto R = parseResultsFile(Text);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  ASSERT_EQ(R->Eager.size(), 2u);
  EXPECT_TRUE(R->Eager[0].Ok);
  EXPECT_EQ(R->Eager[0].Values[0].doubles(), (std::vector<double>{1, 2}));
  EXPECT_EQ(R->Eager[1].Error, "bad\tshape\nhere");
  EXPECT_EQ(R->Capture.Status, CaptureOutcome::State::Refused);
  EXPECT_EQ(R->Capture.Op, "item");
  EXPECT_EQ(R->Capture.Line, 8u);
  EXPECT_EQ(R->Capture.File, "/m/model.cpp");
  EXPECT_EQ(R->Replays.size(), 1u);
  EXPECT_EQ(R->Warnings, std::vector<std::string>{"frozen"});
  EXPECT_TRUE(R->Finished);
  EXPECT_FALSE(bool(parseResultsFile("graphify-results 1\ndone\n"))) << "the text format of before is refused";
}

TEST(Values, TruncatedResultsKeepCompletedTrials) {
  std::string Full = std::string(ResultsFileHeader) + trialRecords("eager", 0, {f32({}, {1})}) +
                     trialRecords("eager", 1, {f32({}, {1}), f32({1000}, std::vector<double>(1000, 2))});
  // Cut inside trial 1's second payload, inside its header, and inside the line that opens it.
  for (size_t Cut : {Full.size() - 100, Full.find("f32 1 1000") + 5, Full.find("eager 1") + 4}) {
    auto R = parseResultsFile(Full.substr(0, Cut));
    ASSERT_TRUE(bool(R)) << Cut << ": " << llvm::toString(R.takeError());
    EXPECT_EQ(R->Eager.size(), 1u) << "trial 1 was cut short: not counted (cut at " << Cut << ")";
    EXPECT_FALSE(R->Finished);
  }
}

TEST(Values, InputsFileRoundTrip) {
  TrialInputs T;
  T.Trial = 3;
  T.Variant = "all-negative";
  T.Inputs = {HostTensor::ints(DType::Bool, {2}, {1, 0}), f32({2}, {0.5, -1})};
  auto Back = parseInputsFile(formatInputsFile({T}));
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ((*Back)[0].Trial, 3u);
  EXPECT_EQ((*Back)[0].Variant, "all-negative");
  EXPECT_EQ((*Back)[0].Inputs[0].integers(), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ((*Back)[0].Inputs[1].doubles(), (std::vector<double>{0.5, -1}));
}

TEST(Values, TruncatedInputsFileIsAClearError) {
  std::string Text = formatInputsFile(generateTrials({*parseInputFlag("x=f32[4]")}, 0, 2));
  auto Cut = parseInputsFile(Text.substr(0, Text.size() - 3));
  ASSERT_FALSE(bool(Cut));
  EXPECT_EQ(llvm::toString(Cut.takeError()),
            "inputs file ends inside trial 1 (input 0 is cut short: 'f32 1 4 : 16' and 14 bytes left)");
  auto NoInput = parseInputsFile(std::string(InputsFileHeader) + "trial 0 random 2\n" + record(f32({1}, {1})));
  ASSERT_FALSE(bool(NoInput));
  EXPECT_EQ(llvm::toString(NoInput.takeError()), "inputs file ends inside trial 0 (input 1 of 2 is missing)");
  auto Old = parseInputsFile("graphify-inputs 1\ntrial 0 random 1\nf32 1 1 : 1\n");
  ASSERT_FALSE(bool(Old));
  EXPECT_EQ(llvm::toString(Old.takeError()), "not a graphify inputs file (expected 'graphify-inputs 2')");
}

// The validator writes the inputs file one input at a time; reading it back gives exactly the
// generator's values, for a tensor of a million elements.
TEST(Values, WrittenInputsFileReadsBackTheGeneratorsValues) {
  llvm::SmallString<128> Path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("graphify-values", "inputs", Path));
  std::vector<InputSpec> Specs = {*parseInputFlag("x=f32[1024,1024]"), *parseInputFlag("m=bool[3]")};
  ASSERT_FALSE(bool(writeInputsFile(std::string(Path), Specs, 5, 3)));
  auto Buf = llvm::MemoryBuffer::getFile(Path, false, false);
  ASSERT_TRUE(bool(Buf));
  llvm::sys::fs::remove(Path);
  const size_t PerTrial = strlen("f32 2 1024 1024 : 4194304\n") + 4194304 + 1 + strlen("bool 1 3 : 3\n") + 3 + 1;
  EXPECT_EQ((*Buf)->getBufferSize(), strlen(InputsFileHeader) + strlen("trial 0 random 2\n") +
                                         strlen("trial 1 negated 2\n") + strlen("trial 2 all-positive 2\n") +
                                         3 * PerTrial)
      << "4 bytes per f32 element, 1 per bool: no text per element";
  auto Back = parseInputsFile((*Buf)->getBuffer());
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  ASSERT_EQ(Back->size(), 3u);
  for (unsigned T = 0; T < 3; ++T)
    for (unsigned I = 0; I < 2; ++I)
      EXPECT_EQ((*Back)[T].Inputs[I].bytes(), generateInput(Specs[I], 5, T, I).bytes()) << T << " " << I;
}

TEST(Values, EscapingRoundTrips) {
  std::string S = "a\\b\tc\nd";
  EXPECT_EQ(unescapeField(escapeField(S)), S);
  EXPECT_EQ(escapeField(S).find('\n'), std::string::npos);
}

TEST(Values, GradientRecords) {
  HostTensor Half = f32({2}, {0.5, std::nan("")});
  std::string Text = std::string(ResultsFileHeader) +
                     "params 2\n"
                     "grad 0 ok 2 1\n"
                     "1\tnot floating point\n"
                     "input 0\t" + record(Half) +
                     "parameter fc.weight\t" + record(f32({}, {3})) +
                     "grad 1 error the derivative for 'floor_divide' is not implemented.\n"
                     "grad 2 ok 1 0\n"; // the harness died before writing the gradient
  auto R = parseResultsFile(Text);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->Parameters, 2u);
  ASSERT_EQ(R->Gradients.size(), 2u) << "trial 2 was cut short and is not counted";
  const TrialGradients &T0 = R->Gradients[0];
  EXPECT_TRUE(T0.Ok);
  ASSERT_EQ(T0.SkippedOutputs.size(), 1u);
  EXPECT_EQ(T0.SkippedOutputs[0].first, 1u);
  EXPECT_EQ(T0.SkippedOutputs[0].second, "not floating point");
  ASSERT_EQ(T0.Gradients.size(), 2u);
  EXPECT_EQ(T0.Gradients[0].Target, "input 0");
  EXPECT_TRUE(std::isnan(T0.Gradients[0].Value.valueAsDouble(1)));
  EXPECT_EQ(T0.Gradients[1].Target, "parameter fc.weight");
  EXPECT_FALSE(R->Gradients[1].Ok);
  EXPECT_EQ(R->Gradients[1].Error, "the derivative for 'floor_divide' is not implemented.");
  EXPECT_FALSE(bool(parseResultsFile(std::string(ResultsFileHeader) + "grad 0 ok two 0\n")));
  EXPECT_FALSE(bool(parseResultsFile(std::string(ResultsFileHeader) + "params x\n")));
}

} // namespace
