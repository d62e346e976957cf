// Sequential and ModuleList keep their elements twice: in their own ordered vector (for index
// access and iteration) and as registered children (for parameters(), train()/eval() and the
// dotted names), so both views always list the same modules in the same order.
#include <graphify/nn/Containers.h>

namespace gfy::nn {

void SequentialImpl::push_back(std::string name, AnyModule module) {
  GFY_CHECK(!module.is_empty(), "Sequential::push_back: the module is empty");
  register_module(std::move(name), module.ptr());
  modules_.push_back(std::move(module));
}

const AnyModule &SequentialImpl::at_index(size_t index) const {
  GFY_CHECK(index < modules_.size(), "Index out of range");
  return modules_[index];
}

void ModuleListImpl::push_back(std::shared_ptr<Module> module) {
  GFY_CHECK(module != nullptr, "ModuleList::push_back: the module is null");
  register_module(std::to_string(modules_.size()), module);
  modules_.push_back(std::move(module));
}

const std::shared_ptr<Module> &ModuleListImpl::at_index(size_t index) const {
  GFY_CHECK(index < modules_.size(), "Index out of range");
  return modules_[index];
}

} // namespace gfy::nn
