#pragma once
// A small regression problem with non-trivial hyperparameters, and dense reference
// linear algebra written out independently of the library (shared by the gp tests).

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <cmath>

#include "gp/exact_gp.h"
#include "gp/gaussian_likelihood.h"
#include "gp/linear_mean.h"
#include "gp/rbf_kernel.h"
#include "support/tensors.h"

namespace bhpm::gp::test {

using testing_support::kReal;

/// Hyperparameters of the test problem (D = 2).
inline const double kLengthscales[2] = {0.7, 1.3};
constexpr double kSignalVariance = 1.5;
constexpr double kNoiseVariance = 0.1;
inline const double kWeight[2] = {0.3, -0.2};
constexpr double kBias = 0.1;

struct GpParts {
  LinearMean mean{nullptr};
  RbfKernel kernel{nullptr};
  GaussianLikelihood likelihood{nullptr};
};

inline GpParts make_parts() {
  GpParts parts;
  parts.mean = LinearMean(LinearMeanOptions{2});
  parts.mean->set_weight(at::tensor({kWeight[0], kWeight[1]}, kReal));
  parts.mean->set_bias(kBias);
  parts.kernel = RbfKernel(RbfKernelOptions{2, 1.0, kSignalVariance});
  parts.kernel->set_lengthscales(at::tensor({kLengthscales[0], kLengthscales[1]}, kReal));
  parts.likelihood = GaussianLikelihood(GaussianLikelihoodOptions{kNoiseVariance, 0.0});
  return parts;
}

/// n points uniform on [-2, 2]^2 from `seed`.
inline at::Tensor inputs(std::int64_t n, std::uint64_t seed) {
  auto gen = at::make_generator<at::CPUGeneratorImpl>(seed);
  return at::empty({n, 2}, kReal).uniform_(-2.0, 2.0, gen);
}

/// Targets y = sin(x_0) + 0.5 x_1^2 + noise of standard deviation 0.1.
inline at::Tensor targets(const at::Tensor& x, std::uint64_t seed) {
  auto gen = at::make_generator<at::CPUGeneratorImpl>(seed);
  return at::sin(x.select(1, 0)) + 0.5 * x.select(1, 1).square() +
         0.1 * at::normal(0.0, 1.0, {x.size(0)}, gen, at::kDouble);
}

inline ExactGp make_exact_gp(const GpParts& parts, const at::Tensor& x, const at::Tensor& y) {
  return ExactGp(parts.mean.ptr(), parts.kernel.ptr(), parts.likelihood.ptr(), x, y);
}

/// s^2 exp(-1/2 sum_d (a_id - b_jd)^2 / l_d^2) with the problem's hyperparameters, by loops.
inline at::Tensor dense_kernel(const at::Tensor& a, const at::Tensor& b) {
  at::Tensor k = at::empty({a.size(0), b.size(0)}, kReal);
  auto ka = k.accessor<double, 2>();
  const auto aa = a.accessor<double, 2>();
  const auto ba = b.accessor<double, 2>();
  for (std::int64_t i = 0; i < a.size(0); ++i)
    for (std::int64_t j = 0; j < b.size(0); ++j) {
      double sum = 0.0;
      for (int d = 0; d < 2; ++d) {
        const double diff = (aa[i][d] - ba[j][d]) / kLengthscales[d];
        sum += diff * diff;
      }
      ka[i][j] = kSignalVariance * std::exp(-0.5 * sum);
    }
  return k;
}

/// w . x + b with the problem's mean.
inline at::Tensor dense_mean(const at::Tensor& x) {
  return kWeight[0] * x.select(1, 0) + kWeight[1] * x.select(1, 1) + kBias;
}

}  // namespace bhpm::gp::test
