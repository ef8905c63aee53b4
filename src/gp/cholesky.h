#pragma once
/// The one Cholesky factorisation of the GP code (docs/training.md, "Root": every Cholesky
/// goes through one helper that adds escalating jitter and fails with a clear message).
///
/// robust_cholesky(A) first tries the plain factor A = L L^T. If that fails it retries
/// with A + j c I for j = first_jitter, first_jitter * growth, ..., up to last_jitter,
/// where c is the mean of |diag A| over the whole batch (1 when that is 0). The jitter is
/// a constant for autograd (c is detached), so gradients are those of the factor of the
/// jittered matrix. A batch [.., N, N] gets one jitter for all its matrices.

#include <ATen/core/Tensor.h>

#include <stdexcept>
#include <string>

namespace bhpm::gp {

/// Thrown when no jitter in the schedule makes the matrix positive definite, or when the
/// matrix has NaN or infinite entries; the message names the matrix and the jitter tried.
class CholeskyError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct CholeskyOptions {
  double first_jitter = 1e-10;  ///< > 0: first relative jitter after the plain attempt
  double last_jitter = 1e-4;    ///< >= first_jitter: largest relative jitter tried
  double growth = 10.0;         ///< > 1: ratio of successive jitters
};

/// Throws util::OptionError naming the field, its value and the rule it breaks.
void validate(const CholeskyOptions& options);

struct CholeskyFactor {
  at::Tensor lower;              ///< L [.., N, N] lower-triangular, L L^T = A + j c I
  double relative_jitter = 0.0;  ///< j: 0 when the plain factorisation succeeded
  double absolute_jitter = 0.0;  ///< j c: the value added to the diagonal
};

/// Lower Cholesky factor of the symmetric matrix (or batch) A [.., N, N], double.
/// `name` identifies A in error messages (e.g. "K_zz (inducing inputs)"). Throws
/// std::invalid_argument for a tensor that is not [.., N, N] with N >= 1, CholeskyError
/// when the factorisation fails at every jitter.
CholeskyFactor robust_cholesky(const at::Tensor& a, const std::string& name,
                               const CholeskyOptions& options = {});

}  // namespace bhpm::gp
