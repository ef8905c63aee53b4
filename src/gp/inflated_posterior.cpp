#include "gp/inflated_posterior.h"

#include <ATen/ATen.h>

#include <cmath>
#include <stdexcept>

#include "util/number_format.h"

namespace bhpm::gp {

SparseVariationalGp inflated_posterior(const SparseVariationalGpImpl& gp, double factor) {
  if (!std::isfinite(factor) || factor <= 0.0)
    throw std::invalid_argument("inflated posterior: the factor must be positive and finite (got " +
                                util::format_significant(factor, 6) + ")");
  const at::NoGradGuard no_grad;
  SparseVariationalGp inflated = copy_with_shared_prior(gp);
  inflated->set_variational_distribution(gp.variational_mean(),
                                         std::sqrt(factor) * gp.variational_cholesky());
  return inflated;
}

}  // namespace bhpm::gp
