// graphify-validate's command line: the flag table parses what --help documents, an --input
// belongs to the --entry before it, and usage errors say what is wrong and point at --help.
#include "graphify/validate/Options.h"

#include <gtest/gtest.h>

using namespace graphify::validate;

namespace {

llvm::Expected<ValidateCommandLine> parse(std::vector<const char *> Args) {
  Args.insert(Args.begin(), "graphify-validate");
  return parseValidateCommandLine(Args);
}

std::string errorOf(std::vector<const char *> Args) {
  auto CL = parse(std::move(Args));
  if (CL)
    return "(parsed)";
  return llvm::toString(CL.takeError());
}

TEST(ValidateOptions, InputsBindToThePrecedingEntry) {
  auto CL = parse({"m.cpp", "--entry", "A", "--input", "x=f32[3]", "--entry=B", "--input=y=i64[2,2]@0:9",
                   "--input", "z=bool[4]", "n.cpp"});
  ASSERT_TRUE(bool(CL)) << llvm::toString(CL.takeError());
  EXPECT_EQ(CL->Run.Files, (std::vector<std::string>{"m.cpp", "n.cpp"}));
  ASSERT_EQ(CL->Run.Entries.size(), 2u);
  EXPECT_EQ(CL->Run.Entries[0].Name, "A");
  EXPECT_EQ(CL->Run.Entries[0].Inputs.size(), 1u);
  EXPECT_EQ(CL->Run.Entries[1].Name, "B");
  EXPECT_EQ(CL->Run.Entries[1].Inputs.size(), 2u);
}

TEST(ValidateOptions, ValuesGluedOrSeparateAndCompilerArgs) {
  auto CL = parse({"m.cpp", "-j3", "--trials=5", "--seed", "7", "--runtime=libtorch", "--format=json", "--quiet",
                   "--rtol=0.5", "--atol", "0.25", "--timeout=9", "--keep-temps", "--", "-DX=1", "-Iinc"});
  ASSERT_TRUE(bool(CL)) << llvm::toString(CL.takeError());
  EXPECT_EQ(CL->Run.Jobs, 3u);
  EXPECT_EQ(CL->Run.Trials, 5u);
  EXPECT_EQ(CL->Run.Seed, 7u);
  EXPECT_EQ(CL->Run.Runtime, RuntimeKind::LibTorch);
  EXPECT_TRUE(CL->Json);
  EXPECT_TRUE(CL->Quiet);
  EXPECT_EQ(CL->Run.Tol.RelTol, 0.5);
  EXPECT_EQ(CL->Run.Tol.AbsTol, 0.25);
  EXPECT_EQ(CL->Run.TimeoutSeconds, 9u);
  EXPECT_TRUE(CL->Run.KeepTemps);
  EXPECT_EQ(CL->Run.CompilerArgs, (std::vector<std::string>{"-DX=1", "-Iinc"}));
}

TEST(ValidateOptions, GradientsByDefaultForParametersForcedOrOff) {
  auto Default = parse({"m.cpp"});
  ASSERT_TRUE(bool(Default)) << llvm::toString(Default.takeError());
  EXPECT_EQ(Default->Run.Gradients, GradientCheck::Auto);
  auto Forced = parse({"m.cpp", "--grad"});
  ASSERT_TRUE(bool(Forced)) << llvm::toString(Forced.takeError());
  EXPECT_EQ(Forced->Run.Gradients, GradientCheck::Always);
  auto Off = parse({"m.cpp", "--no-grad"});
  ASSERT_TRUE(bool(Off)) << llvm::toString(Off.takeError());
  EXPECT_EQ(Off->Run.Gradients, GradientCheck::Never);
  auto Last = parse({"m.cpp", "--no-grad", "--grad"});
  ASSERT_TRUE(bool(Last)) << llvm::toString(Last.takeError());
  EXPECT_EQ(Last->Run.Gradients, GradientCheck::Always) << "the last of the two wins, as compiler switches do";
  EXPECT_EQ(errorOf({"m.cpp", "--grad=yes"}), "error: option '--grad' takes no value");
  EXPECT_EQ(errorOf({"m.cpp", "--grads"}), "error: unknown option '--grads'; did you mean '--grad'?; see --help");
}

TEST(ValidateOptions, UsageErrorsSayWhatIsWrong) {
  EXPECT_EQ(errorOf({"m.cpp", "--input", "x=f32[3]"}),
            "error: --input x=f32[3] must follow an --entry NAME (inputs belong to an entry)\n"
            "(run graphify-validate --help for usage)");
  EXPECT_EQ(errorOf({"m.cpp", "--trials=0"}),
            "error: --trials expects a number from 1 to 10000, got '0'\n(run graphify-validate --help for usage)");
  EXPECT_EQ(errorOf({"m.cpp", "--device=tpu"}),
            "error: --device expects cpu or cuda, got 'tpu'\n(run graphify-validate --help for usage)");
  EXPECT_EQ(errorOf({"m.cpp", "--rtol=-1"}),
            "error: --rtol expects a finite non-negative number, got '-1'\n(run graphify-validate --help for usage)");
  for (const char *Bad : {"--rtol=nan", "--atol=inf", "--rtol=-nan"})
    EXPECT_NE(errorOf({"m.cpp", Bad}).find("expects a finite non-negative number"), std::string::npos) << Bad;
  EXPECT_EQ(errorOf({"m.cpp", "--trails=3"}), "error: unknown option '--trails=3'; did you mean '--trials'?; see --help");
  EXPECT_EQ(errorOf({"m.cpp", "--quiet=yes"}), "error: option '--quiet' takes no value");
  EXPECT_EQ(errorOf({"m.cpp", "--seed"}), "error: option '--seed' expects a value (S)");
  EXPECT_EQ(errorOf({"--quiet"}), "error: no model file given\n(run graphify-validate --help for usage)");
}

TEST(ValidateOptions, BadInputSpecIsTheSpecParsersLocatedError) {
  std::string E = errorOf({"m.cpp", "--entry", "A", "--input", "x=f32[3;]"});
  EXPECT_EQ(E.rfind("--input:8: error: expected ',' or ']' after a dimension, found ';'", 0), 0u) << E;
}

TEST(ValidateOptions, HelpListsEveryFlagOfTheTable) {
  auto CL = parse({"-h"});
  ASSERT_TRUE(bool(CL)) << llvm::toString(CL.takeError());
  EXPECT_TRUE(CL->Help);
  std::string Help = validateHelpText();
  for (const char *Flag : {"--entry=<name>", "--input=<arg=dtype[shape][@lo:hi]>", "--trials=<K>", "--seed=<S>",
                           "--runtime=<gfy|libtorch>", "--device=<cpu|cuda>", "--format=<text|json>",
                           "--timeout=<sec>", "--grad", "--no-grad", "--rtol=<R>", "--atol=<A>", "-j <N>", "--jobs=<N>",
                           "--cache-dir=<dir>", "--rules-dir=<dir>", "--keep-temps", "--quiet", "--help"})
    EXPECT_NE(Help.find(Flag), std::string::npos) << Flag << "\n" << Help;
}

} // namespace
