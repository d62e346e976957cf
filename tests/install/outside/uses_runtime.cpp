#include <graphify/graphify.h>
#include <iostream>

int main() {
  gfy::Tensor x = gfy::ones({2, 3});
  std::cout << "sum=" << x.sum().item<float>() << "\n";
}
