#include "gp/argument_checks.h"

#include <stdexcept>

#include "gp/gaussian_likelihood.h"
#include "gp/kernel.h"
#include "gp/mean.h"

namespace bhpm::gp {

void require_gp_parts(const Mean* mean, const Kernel* kernel,
                      const GaussianLikelihoodImpl* likelihood, const std::string& where) {
  if (!mean || !kernel || !likelihood) {
    const std::string missing = !mean ? "mean" : !kernel ? "kernel" : "likelihood";
    throw std::invalid_argument(where +
                                ": mean, kernel and likelihood must all be set (got a "
                                "null " +
                                missing + ")");
  }
  if (mean->dimensions() != kernel->dimensions())
    throw std::invalid_argument(where +
                                ": mean and kernel must take the same input dimension "
                                "(got " +
                                std::to_string(mean->dimensions()) + " and " +
                                std::to_string(kernel->dimensions()) + ")");
}

}  // namespace bhpm::gp
