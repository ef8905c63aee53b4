#include "gp/kernel_table.h"

#include "gp/argument_checks.h"
#include "gp/rbf_kernel.h"
#include "gp/rbf_quadratic_kernel.h"
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

std::shared_ptr<Kernel> make_rbf_quadratic(const KernelScales& scales) {
  auto kernel = std::make_shared<RbfQuadraticKernelImpl>(RbfQuadraticKernelOptions{
      scales.input_scales.size(0), 1.0, scales.prior_variance, scales.prior_variance});
  kernel->rbf().set_lengthscales(scales.input_scales);
  kernel->set_polynomial_scales(scales.input_scales);
  return kernel;
}

/// The kernels, by name: the one table kernel_names() lists.
const util::NameTable<KernelFactory>& kernel_table() {
  static const util::NameTable<KernelFactory> table = {{"rbf", make_rbf},
                                                       {"rbf+quadratic", make_rbf_quadratic}};
  return table;
}

}  // namespace

const std::vector<std::string>& kernel_names() {
  static const std::vector<std::string> names = util::names_of(kernel_table());
  return names;
}

std::shared_ptr<Kernel> make_kernel(const std::string& name, const KernelScales& scales) {
  const KernelFactory factory = util::find_listed(kernel_table(), name, "kernel", "name");
  require_vector(scales.input_scales, -1, "kernel", "input_scales");
  return factory(scales);
}

}  // namespace bhpm::gp
