#pragma once
/// The true Burgers operator f(u, u_x, u_xx) = -u u_x + nu u_xx as a GP mean function and
/// as S identical "operator samples": the zero-uncertainty root the predictor tests solve
/// with, whose solutions must equal the data generator's (pde::solve_periodic); and the
/// small predictor settings those tests share.

#include <ATen/ATen.h>

#include <memory>
#include <string>
#include <vector>

#include "gp/function_samples.h"
#include "gp/gaussian_likelihood.h"
#include "gp/kernel_expansion.h"
#include "gp/mean.h"
#include "gp/rbf_kernel.h"
#include "gp/sparse_variational_gp.h"
#include "solve/predictor.h"

namespace bhpm::testing_operator {

/// mu(v) = -v_0 v_1 + nu v_2 for v [N, 3].
class BurgersMean final : public gp::Mean {
 public:
  explicit BurgersMean(double nu = 0.1) : nu_(nu) {}
  std::int64_t dimensions() const override { return 3; }
  at::Tensor forward(const at::Tensor& x) const override {
    return -x.select(1, 0) * x.select(1, 1) + nu_ * x.select(1, 2);
  }
  /// The quadratic form: v^T A v with A_01 = A_10 = -1/2, plus nu v_2.
  bool add_to(gp::KernelExpansion& expansion) const override {
    const at::Tensor a = at::zeros({3, 3}, at::kDouble);
    a[0][1] = -0.5;
    a[1][0] = -0.5;
    expansion.add_polynomial(at::zeros({}, at::kDouble), at::tensor({0.0, 0.0, nu_}), a);
    return true;
  }
  std::string formula(const std::vector<std::string>& v) const override {
    return " -" + v.at(0) + "*" + v.at(1) + " +" + std::to_string(nu_) + " " + v.at(2);
  }
  std::vector<gp::Hyperparameter> hyperparameters() const override {
    return {{"nu", "nu", at::scalar_tensor(nu_, at::kDouble), "", "length^2 per time",
             "viscosity of the Burgers operator"}};
  }

 private:
  double nu_;
};

/// S copies of the exact operator: evaluate(v [S, P, 3]) = -u u_x + nu u_xx [S, P].
class ExactBurgersSamples final : public gp::FunctionSamples {
 public:
  explicit ExactBurgersSamples(std::int64_t count, double nu = 0.1) : count_(count), nu_(nu) {}
  std::int64_t count() const override { return count_; }
  std::int64_t dimensions() const override { return 3; }
  at::Tensor evaluate(const at::Tensor& v) const override {
    return -v.select(2, 0) * v.select(2, 1) + nu_ * v.select(2, 2);
  }

 private:
  std::int64_t count_;
  double nu_;
};

/// A sparse root with the Burgers operator as its mean and a kernel of `variance` (1e-20:
/// its samples are the operator).
inline gp::SparseVariationalGp burgers_root(double variance = 1e-20) {
  auto kernel = std::make_shared<gp::RbfKernelImpl>(gp::RbfKernelOptions{3, 1.0, variance});
  auto likelihood = std::make_shared<gp::GaussianLikelihoodImpl>(gp::GaussianLikelihoodOptions{});
  const at::Tensor z = at::linspace(-1.0, 1.0, 12, at::kDouble).view({4, 3});
  return gp::SparseVariationalGp(std::make_shared<BurgersMean>(), kernel, likelihood, z);
}

/// Five members of `sampler` with a model discrepancy (tau^2 = 1e-6, T = 0.5), seed 11,
/// Algorithm 1 in at most 2 rounds, 64 pathwise features.
inline solve::PredictorOptions five_member_options(const std::string& sampler) {
  solve::PredictorOptions options;
  options.samples = 5;
  options.sampler = sampler;
  options.seed = 11;
  options.refinement.max_rounds = 2;
  options.pathwise.features = 64;
  options.discrepancy_variance = 1e-6;
  options.discrepancy_timescale = 0.5;
  return options;
}

}  // namespace bhpm::testing_operator
