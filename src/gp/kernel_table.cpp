#include "gp/kernel_table.h"

#include <utility>

#include "gp/argument_checks.h"
#include "gp/rbf_kernel.h"
#include "util/name_list.h"

namespace bhpm::gp {

namespace {

using KernelFactory = std::shared_ptr<Kernel> (*)(const KernelScales&);

std::shared_ptr<Kernel> make_rbf(const KernelScales& scales) {
  auto kernel = std::make_shared<RbfKernelImpl>(
      RbfKernelOptions{scales.input_scales.size(0), 1.0, scales.prior_variance});
  kernel->set_lengthscales(scales.input_scales);
  return kernel;
}

const std::vector<std::pair<std::string, KernelFactory>>& kernel_table() {
  static const std::vector<std::pair<std::string, KernelFactory>> table = {{"rbf", make_rbf}};
  return table;
}

}  // namespace

const std::vector<std::string>& kernel_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> listed;
    for (const auto& entry : kernel_table()) listed.push_back(entry.first);
    return listed;
  }();
  return names;
}

std::shared_ptr<Kernel> make_kernel(const std::string& name, const KernelScales& scales) {
  util::require_listed(name, kernel_names(), "kernel", "name");
  require_vector(scales.input_scales, -1, "kernel", "input_scales");
  for (const auto& [known, factory] : kernel_table())
    if (known == name) return factory(scales);
  return nullptr;  // unreachable: require_listed threw
}

}  // namespace bhpm::gp
