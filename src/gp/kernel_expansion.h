#pragma once
/// A function of v in R^D written out as squared-exponential bumps plus a quadratic
/// polynomial, evaluated on plain arrays (no tensor operation per point set):
///   g(v) = sum_j beta_j exp(-1/2 |v / l - c_j|^2) + q0 + q1 . v + v^T Q2 v,
/// bump centres c_j [M, D] already divided by the lengthscales l [D], weights beta_j [M],
/// q0 [], q1 [D], Q2 [D, D]. The mean of a GP conditioned on noise-free values
/// (gp/conditioned_gp.h), mu_c(v) = mu(v) + sum_j k(v, z_j) alpha_j, takes this form when mu is
/// linear and k is the RBF kernel or RBF plus quadratic (Kernel::add_weighted_sum,
/// Mean::add_to): the quadratic kernel part summed over the z_j is one quadratic form. So an
/// operator sample of Algorithm 1 costs M exponentials per point and a few multiplications,
/// and a spectral solve steps its members on their own threads (pde/plain_periodic_solve.h).

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace bhpm::gp {

class Kernel;
class Mean;

struct KernelExpansion {
  /// An expansion of D inputs that is 0 everywhere (no bump, zero polynomial).
  explicit KernelExpansion(std::int64_t dimensions);

  std::int64_t dimensions;
  std::vector<double> inverse_lengthscales;  ///< 1 / l [D]; empty while there is no bump
  std::vector<double> centres;               ///< c [D, M] by dimension: c[d * M + j] = c_jd
  std::vector<double> bump_weights;          ///< beta [M]
  double constant = 0.0;                     ///< q0
  std::vector<double> linear;                ///< q1 [D]
  std::vector<double> quadratic;             ///< Q2 [D, D] row-major

  /// Sets the bumps: lengthscales l [D], centres z [M, D] (not yet divided by l) and
  /// weights beta [M], any device (copied to the CPU as double). Returns false and changes
  /// nothing where the expansion has bumps already (one lengthscale set per expansion).
  bool set_bumps(const at::Tensor& lengthscales, const at::Tensor& centres,
                 const at::Tensor& weights);
  /// Adds c + b . v + v^T A v: c [] (0-dim), b [D], A [D, D], any device.
  void add_polynomial(const at::Tensor& constant, const at::Tensor& linear,
                      const at::Tensor& quadratic);
  /// M, the number of bumps.
  std::int64_t bumps() const { return static_cast<std::int64_t>(bump_weights.size()); }
  /// g(v_p) for p < points into out [points], v [D, points] row-major (row d: the values of
  /// input d). Safe to call from several threads at once.
  void evaluate(const double* v, std::int64_t points, double* out) const;
};

/// a g + b h as one expansion, the bumps of equal centres merged (a conditioned mean and the
/// posterior mean share the inducing inputs); nothing where g and h differ in D or both
/// have bumps of different lengthscales.
std::optional<KernelExpansion> linear_combination(double a, const KernelExpansion& g, double b,
                                                  const KernelExpansion& h);

/// mu(v) + sum_j k(v, x_j) w_j (x [M, D], w [M]) as an expansion: the form of a conditioned
/// GP's mean and of a sparse GP's posterior mean. Nothing where mu or k has no such form
/// (Mean::add_to, Kernel::add_weighted_sum) or x lives off the CPU.
std::optional<KernelExpansion> expand_weighted_sum(const Mean& mean, const Kernel& kernel,
                                                   const at::Tensor& x, const at::Tensor& w);

}  // namespace bhpm::gp
