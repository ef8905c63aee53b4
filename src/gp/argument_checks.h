#pragma once
/// Argument checks of the GP code: a GP's parts are all set and agree on D. The tensor
/// checks (util/tensor_checks.h) are used unqualified throughout gp/.

#include <string>

#include "util/tensor_checks.h"

namespace bhpm::gp {

class GaussianLikelihoodImpl;
class Kernel;
class Mean;

using util::describe_tensor;
using util::require_batched_matrices;
using util::require_matrix;
using util::require_vector;

/// Requires non-null parts and mean->dimensions() == kernel->dimensions().
void require_gp_parts(const Mean* mean, const Kernel* kernel,
                      const GaussianLikelihoodImpl* likelihood, const std::string& where);

}  // namespace bhpm::gp
