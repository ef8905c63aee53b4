#pragma once
/// The kernels a root GP can be built with, by name: the one table that configuration
/// checks, checkpoint restores and "unknown kernel" errors read. A new kernel implements
/// kernel.h (random features of its prior included: `bhpm distill` always samples pathwise)
/// and gets a line in kernel_table.cpp; nothing else changes. Two contract tests run over
/// every name of the table (tests/gp/rbf_kernel_test.cpp, KernelTable.every_kernel_gives_*,
/// and PathwiseSamples.exist_for_every_kernel_of_the_table).

#include <ATen/core/Tensor.h>

#include <memory>
#include <string>
#include <vector>

#include "gp/kernel.h"

namespace bhpm::gp {

/// The scales a kernel starts from: per-input lengths [D] (Kernel::input_scales) and the
/// prior variance (Kernel::prior_variance).
struct KernelScales {
  at::Tensor input_scales;      ///< [D] double, each > 0
  double prior_variance = 1.0;  ///< > 0
};

/// "rbf" (rbf_kernel.h, the paper's ARD squared exponential) and "rbf+quadratic"
/// (rbf_quadratic_kernel.h: plus Bayesian regression on the monomials of degree <= 2;
/// the quadratic part starts with its scales a = input_scales and c^2 = prior_variance).
const std::vector<std::string>& kernel_names();

/// A kernel of the named kind on D = scales.input_scales.size(0) inputs starting from
/// `scales`. Throws std::invalid_argument listing kernel_names() for an unknown name.
std::shared_ptr<Kernel> make_kernel(const std::string& name, const KernelScales& scales);

}  // namespace bhpm::gp
