// Printing cases for TorchScript's values and modules (c10::IValue, c10::List, c10::Dict,
// torch::jit::Module), appended to print_cases.cpp's: built against LibTorch and against the shim,
// the two outputs must be identical byte for byte. What inference code does with them: box inputs,
// unpack a model's tuple of outputs, read typed lists and dicts, read and set module attributes,
// move a module, and the errors of each misuse. Error messages are printed without LibTorch's
// backtrace and with an assertion's file:line replaced, since those name each library's own files.
#include <torch/script.h>

#include <functional>
#include <iostream>
#include <regex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace {

using Case = std::pair<const char *, std::function<void(std::ostream &)>>;

std::string normalised(std::string m) {
  if (auto cut = m.find("\nException raised from"); cut != std::string::npos)
    m.resize(cut);
  m = std::regex_replace(m, std::regex(R"( at "[^"]*":[0-9]+,)"), " at <file>,");
  // LibTorch names the compilation unit's address, which differs run to run.
  return std::regex_replace(m, std::regex(R"( \(of Python compilation unit at: 0x[0-9a-f]+\))"), "");
}

/// Runs `fn` and prints the exception it throws: its kind (c10::Error or another std::exception)
/// and its message.
template <class F> void printThrown(std::ostream &o, const char *what, F fn) {
  try {
    fn();
    o << what << ": no exception\n";
  } catch (const c10::Error &e) {
    o << what << ": c10::Error: " << normalised(e.what_without_backtrace()) << "\n";
  } catch (const std::exception &e) {
    o << what << ": std::exception: " << normalised(e.what()) << "\n";
  }
}

/// Whether the message of what `fn` throws begins with `prefix` (the shim adds why to some).
template <class F> void printThrownPrefix(std::ostream &o, const char *what, const std::string &prefix, F fn) {
  try {
    fn();
    o << what << ": no exception\n";
  } catch (const c10::Error &e) {
    o << what << ": c10::Error, starts with \"" << prefix
      << "\": " << (std::string(e.what_without_backtrace()).rfind(prefix, 0) == 0) << "\n";
  }
}

void describe(std::ostream &o, const torch::IValue &v) {
  o << v.tagKind() << " " << v << " none=" << v.isNone() << " tensor=" << v.isTensor() << " double=" << v.isDouble()
    << " int=" << v.isInt() << " bool=" << v.isBool() << " string=" << v.isString() << " list=" << v.isList()
    << " intlist=" << v.isIntList() << " doublelist=" << v.isDoubleList() << " boollist=" << v.isBoolList()
    << " tensorlist=" << v.isTensorList() << " tuple=" << v.isTuple() << " dict=" << v.isGenericDict()
    << " device=" << v.isDevice() << " object=" << v.isObject() << " scalar=" << v.isScalar() << "\n";
}

torch::jit::Module smallModule() {
  torch::jit::Module inner("Inner");
  inner.register_parameter("weight", torch::arange(6).to(torch::kFloat).reshape({2, 3}), false);
  inner.register_buffer("running_mean", torch::zeros({2}));
  inner.register_attribute("stride", c10::IntType::get(), 2);
  torch::jit::Module m("Outer");
  m.register_parameter("bias", torch::ones({3}), false);
  m.register_attribute("name", c10::StringType::get(), std::string("detector"));
  m.register_module("backbone", inner);
  m.register_attribute("steps", c10::ListType::ofInts(), c10::List<int64_t>({8, 16, 32}));
  return m;
}

} // namespace

std::vector<Case> scriptCases() {
  std::vector<Case> c;
  // Bools print as 0/1 in every case: LibTorch leaves std::boolalpha set on a stream it printed
  // some modules to, which print_cases.cpp's module cases do before these run.
  auto add = [&](const char *name, std::function<void(std::ostream &)> fn) {
    c.emplace_back(name, [fn = std::move(fn)](std::ostream &o) {
      o << std::noboolalpha;
      fn(o);
    });
  };

  add("ivalue_plain_values", [](std::ostream &o) {
    for (const torch::IValue &v :
         {torch::IValue(), torch::IValue(int64_t(7)), torch::IValue(-3), torch::IValue(true), torch::IValue(false),
          torch::IValue("text"), torch::IValue(std::string("s")), torch::IValue(torch::Device("cpu")),
          torch::IValue(torch::kFloat), torch::IValue(torch::kLong), torch::IValue(torch::kBool),
          torch::IValue(torch::Scalar(2.5)), torch::IValue(torch::Scalar(int64_t(4))), torch::IValue(c10::nullopt),
          torch::IValue(c10::optional<int64_t>()), torch::IValue(c10::optional<int64_t>(5))})
      describe(o, v);
    o << torch::IValue(torch::kFloat).toScalarType() << " " << torch::IValue(3).toScalar() << " "
      << torch::IValue(2.5).toScalar().toDouble() << " " << torch::IValue("abc").toStringRef() << " "
      << torch::IValue("xyz").toString()->string() << " " << torch::IValue().toNone() << "\n";
  });
  add("ivalue_doubles", [](std::ostream &o) {
    for (double d : {2.0, 0.1, -0.0, 1e10, 2e10, 1e17, 123456789012.0, 1e-5, 1e100, -1e10, 0.5, 1.0 / 3, -2.0,
                     std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()})
      o << torch::IValue(d) << "|";
    o << torch::IValue(std::nan("")) << "\n";
  });
  add("ivalue_tensors", [](std::ostream &o) {
    torch::Tensor t = torch::arange(4).reshape({2, 2});
    torch::IValue v(t);
    describe(o, v);
    o << v.toTensor().is_same(t) << " " << torch::IValue(torch::Tensor()).isTensor() << "\n";
    torch::IValue list(std::vector<torch::Tensor>{t, t + 1});
    describe(o, list);
    o << list.toTensorVector().size() << " " << list.toTensorList().get(1).sum().item<int64_t>() << "\n";
    o << torch::IValue(std::vector<torch::Tensor>{}).isTensorList() << "\n";
  });
  add("ivalue_lists", [](std::ostream &o) {
    torch::IValue ints(std::vector<int64_t>{1, 2, 3}), doubles(std::vector<double>{1.5, 2}),
        bools(std::vector<bool>{true, false}), empty(std::vector<int64_t>{});
    for (const auto &v : {ints, doubles, bools, empty})
      describe(o, v);
    c10::impl::GenericList generic(c10::AnyType::get());
    generic.push_back(torch::IValue(3));
    generic.push_back(torch::IValue("hi"));
    describe(o, torch::IValue(generic));
    c10::List<c10::List<int64_t>> nested({c10::List<int64_t>({1, 2}), c10::List<int64_t>({3})});
    describe(o, torch::IValue(nested));
    o << ints.toIntVector().size() << " " << ints.toIntList().get(2) << " " << doubles.toDoubleVector()[0] << " "
      << ints.to<std::vector<int64_t>>().back() << " " << ints.toListRef().size() << "\n";
    std::array<int64_t, 2> arr{4, 5};
    o << torch::IValue(arr) << "\n";
  });
  add("ivalue_list_sharing", [](std::ostream &o) {
    c10::List<int64_t> a({1, 2});
    c10::List<int64_t> shared = a;
    c10::List<int64_t> separate = a.copy();
    a.push_back(3);
    a[0] = 10;
    o << shared.size() << " " << shared.get(0) << " " << separate.size() << " " << separate.get(0) << "\n";
    torch::IValue boxed(a);
    c10::List<int64_t> back = boxed.toIntList();
    back.set(1, 20);
    o << a.get(1) << " " << boxed << " " << a.vec().size() << " " << (a == shared) << (a == separate) << "\n";
    int64_t sum = 0;
    for (int64_t v : a)
      sum += v;
    o << sum << " " << a.extract(2) << " " << a.empty() << "\n";
    a.pop_back();
    a.resize(4);
    o << torch::IValue(a) << "\n";
    a.clear();
    o << torch::IValue(a) << " " << a.empty() << "\n";
  });
  add("ivalue_typed_list_casts", [](std::ostream &o) {
    torch::IValue ints(std::vector<int64_t>{1, 2});
    o << c10::impl::toTypedList<int64_t>(ints.toList()).get(1) << "\n";
    printThrown(o, "int list as tensors", [&] { c10::impl::toTypedList<torch::Tensor>(ints.toList()); });
    c10::impl::GenericList tensors(c10::TensorType::get());
    tensors.push_back(torch::ones({2}));
    o << c10::impl::toTypedList<torch::Tensor>(tensors).vec()[0].sum().item<float>() << "\n";
  });
  add("ivalue_tuples", [](std::ostream &o) {
    auto one = c10::ivalue::Tuple::create({torch::IValue(1)});
    auto three = c10::ivalue::Tuple::create(torch::IValue(3), torch::IValue(2.5), torch::IValue(torch::ones({2})));
    torch::IValue t1(one), t3(three);
    describe(o, t1);
    describe(o, t3);
    torch::IValue fromStd(std::make_tuple(torch::IValue("a"), torch::IValue(2)));
    describe(o, fromStd);
    const auto &e = t3.toTuple()->elements();
    o << e.size() << " " << e[0].toInt() << " " << e[1].toDouble() << " " << e[2].toTensor().sum().item<float>()
      << " " << t3.toTupleRef().elements().vec().size() << "\n";
    auto [x, y] = fromStd.to<std::tuple<std::string, int64_t>>();
    o << x << y << "\n";
    // A detector's outputs: (boxes, scores, count) unpacked as public inference code does.
    torch::IValue out(c10::ivalue::Tuple::create(
        {torch::IValue(torch::arange(8).to(torch::kFloat).reshape({2, 4})), torch::IValue(torch::ones({2}) * 0.5),
         torch::IValue(int64_t(2))}));
    auto outputs = out.toTuple()->elements();
    torch::Tensor boxes = outputs[0].toTensor(), scores = outputs[1].toTensor();
    o << boxes.sizes() << " " << scores.sum().item<float>() << " " << outputs[2].toInt() << "\n";
  });
  add("ivalue_dicts", [](std::ostream &o) {
    c10::Dict<std::string, int64_t> d;
    o << d.insert("a", 1).second << d.insert("b", 2).second << d.insert("a", 9).second << " ";
    o << d.insert_or_assign("b", 5).second << d.insert_or_assign("c", 7).second << "\n";
    describe(o, torch::IValue(d));
    o << d.at("b") << " " << d.contains("c") << d.contains("z") << " " << d.size() << " " << (d.find("z") == d.end())
      << " " << d.find("c")->value() << "\n";
    o << d.erase("a") << d.erase("a") << " " << torch::IValue(d) << "\n";
    for (const auto &entry : d)
      o << entry.key() << "=" << entry.value() << ";";
    o << "\n";
    d.begin()->setValue(40);
    o << torch::IValue(d) << "\n";
    c10::Dict<int64_t, double> numeric;
    numeric.insert(3, 1.0);
    numeric.insert(1, 2.5);
    describe(o, torch::IValue(numeric));
    describe(o, torch::IValue(c10::Dict<std::string, int64_t>()));
    printThrown(o, "at missing key", [&] { d.at("zz"); });
    // A state dict read back from a generic dict.
    c10::impl::GenericDict generic(c10::StringType::get(), c10::TensorType::get());
    generic.insert(torch::IValue("w"), torch::IValue(torch::ones({2, 2})));
    torch::IValue boxed(generic);
    auto typed = c10::impl::toTypedDict<std::string, torch::Tensor>(boxed.toGenericDict());
    o << typed.at("w").sizes() << " " << boxed.to<c10::Dict<std::string, torch::Tensor>>().size() << "\n";
    for (const auto &entry : boxed.toGenericDict())
      o << entry.key() << " " << entry.value().toTensor().sizes() << "\n";
    torch::Dict<torch::IValue, torch::IValue> asTorch = boxed.toGenericDict();
    o << asTorch.size() << "\n";
    printThrown(o, "typed dict of other key", [&] { c10::impl::toTypedDict<int64_t, torch::Tensor>(generic); });
  });
  add("ivalue_wrong_kind_errors", [](std::ostream &o) {
    torch::IValue i(3), b(true);
    printThrown(o, "toTensor", [&] { i.toTensor(); });
    printThrown(o, "toDouble", [&] { i.toDouble(); });
    printThrown(o, "toBool", [&] { i.toBool(); });
    printThrown(o, "toInt", [&] { b.toInt(); });
    printThrown(o, "toStringRef", [&] { i.toStringRef(); });
    printThrown(o, "toTuple", [&] { i.toTuple(); });
    printThrown(o, "toList", [&] { i.toList(); });
    printThrown(o, "toGenericDict", [&] { i.toGenericDict(); });
    printThrown(o, "toTensorList", [&] { torch::IValue(std::vector<int64_t>{1}).toTensorList(); });
    printThrown(o, "toIntList", [&] { torch::IValue(std::vector<double>{1}).toIntList(); });
    printThrown(o, "toScalar", [&] { torch::IValue("s").toScalar(); });
  });
  add("jit_module_attributes", [](std::ostream &o) {
    torch::jit::Module m = smallModule();
    o << m.attr("name") << " " << m.attr("steps") << " " << m.hasattr("bias") << m.hasattr("nope") << " "
      << m.attr("nope", 4) << " " << m.attr("backbone").toModule().attr("stride") << "\n";
    m.setattr("name", std::string("segmenter"));
    o << m.attr("name").toStringRef() << "\n";
    printThrown(o, "attr missing", [&] { m.attr("missing"); });
    printThrown(o, "setattr missing", [&] { m.setattr("missing", 1); });
    printThrown(o, "setattr wrong type", [&] { m.setattr("name", 2.5); });
    for (const auto &p : m.named_parameters())
      o << p.name << " " << p.value.sizes() << "; ";
    o << "\n";
    for (const auto &p : m.named_parameters(false))
      o << p.name << "; ";
    for (const auto &b : m.named_buffers())
      o << b.name << " " << b.value.sizes() << "; ";
    o << m.parameters().size() << " " << m.buffers().size() << "\n";
    for (const auto &c : m.named_children())
      o << c.name << " " << c.value.hasattr("weight") << "; ";
    o << m.children().size() << "\n";
    torch::IValue boxed(m._ivalue());
    o << boxed.tagKind() << " " << boxed.isModule() << boxed.isObject() << " "
      << boxed.toModule().attr("name").toStringRef() << "\n";
  });
  add("jit_module_train_eval_to", [](std::ostream &o) {
    torch::jit::Module m = smallModule();
    o << m.is_training() << " ";
    m.eval();
    o << m.is_training() << m.attr("backbone").toModule().is_training() << " ";
    m.train();
    o << m.attr("backbone").toModule().is_training() << "\n";
    m.to(torch::kDouble);
    for (const auto &p : m.named_parameters())
      o << p.name << " " << p.value.dtype() << "; ";
    for (const auto &b : m.named_buffers())
      o << b.name << " " << b.value.dtype() << "; ";
    o << "\n";
    m.to(torch::Device("cpu"));
    o << m.attr("bias").toTensor().device() << "\n";
  });
  add("jit_module_copies", [](std::ostream &o) {
    torch::jit::Module m = smallModule();
    torch::jit::Module shallow = m.copy(), deep = m.deepcopy();
    m.attr("bias").toTensor().add_(1);
    o << shallow.attr("bias").toTensor().sum().item<float>() << " " << deep.attr("bias").toTensor().sum().item<float>()
      << "\n";
    deep.setattr("name", std::string("other"));
    o << m.attr("name") << " " << deep.attr("name") << "\n";
  });
  add("jit_methods_and_load", [](std::ostream &o) {
    torch::jit::Module m("Net");
    printThrownPrefix(o, "forward", "Method 'forward' is not defined.",
                      [&] { m.forward({torch::IValue(torch::ones({1}))}); });
    printThrownPrefix(o, "run_method", "Method 'encode' is not defined.",
                      [&] { m.run_method("encode", torch::ones({1}), 3); });
    printThrownPrefix(o, "get_method", "Method 'decode' is not defined.", [&] { m.get_method("decode"); });
    o << m.find_method("forward").has_value() << " " << m.get_methods().size() << "\n";
    printThrown(o, "load missing file", [] { torch::jit::load("/nonexistent/graphify-missing-model.pt"); });
    printThrown(o, "load missing file on a device",
                [] { torch::jit::load("/nonexistent/graphify-missing-model.pt", torch::Device("cpu")); });
  });
  add("jit_executor_switches", [](std::ostream &o) {
    o << torch::jit::getProfilingMode().load() << torch::jit::getExecutorMode().load()
      << torch::jit::getGraphExecutorOptimize() << " ";
    torch::jit::getProfilingMode() = false;
    torch::jit::getExecutorMode() = false;
    {
      torch::jit::GraphOptimizerEnabledGuard guard(false);
      o << torch::jit::getGraphExecutorOptimize();
    }
    o << torch::jit::getGraphExecutorOptimize() << " ";
    torch::jit::setGraphExecutorOptimize(false);
    o << torch::jit::getGraphExecutorOptimize() << torch::jit::getProfilingMode().load() << "\n";
    torch::jit::setGraphExecutorOptimize(true);
    torch::jit::getProfilingMode() = true;
    torch::jit::getExecutorMode() = true;
  });
  add("c10_join_and_str", [](std::ostream &o) {
    std::vector<int64_t> ys{3, 14, 15};
    o << torch::Join("-", ys) << "|" << c10::Join(", ", std::vector<std::string>{"a", "b"}) << "|"
      << c10::Join("-", std::vector<int>{}) << "|" << c10::str("n=", 3, " x=", 1.5) << "\n";
  });
  return c;
}
