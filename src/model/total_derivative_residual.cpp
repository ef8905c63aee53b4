#include "model/total_derivative_residual.h"

#include <ATen/ATen.h>
#include <ATen/core/grad_mode.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "gp/noisy_inputs.h"
#include "gp/sparse_variational_gp.h"
#include "model/leaf_model.h"
#include "model/root_data.h"

namespace bhpm::model {

namespace {

/// Coefficients c_i of (1 - s^2)^p = sum_i c_i s^i, i = 0..2p.
std::vector<double> bump_coefficients(std::int64_t power) {
  std::vector<double> coefficients(static_cast<std::size_t>(2 * power + 1), 0.0);
  double binomial = 1.0;  // C(p, j)
  for (std::int64_t j = 0; j <= power; ++j) {
    coefficients[static_cast<std::size_t>(2 * j)] = (j % 2 == 0 ? 1.0 : -1.0) * binomial;
    binomial = binomial * static_cast<double>(power - j) / static_cast<double>(j + 1);
  }
  return coefficients;
}

/// The coefficients of the polynomial's derivative.
std::vector<double> differentiated(const std::vector<double>& coefficients) {
  std::vector<double> result;
  for (std::size_t i = 1; i < coefficients.size(); ++i)
    result.push_back(static_cast<double>(i) * coefficients[i]);
  return result;
}

/// sum_i c_i s^i by Horner's rule.
at::Tensor polynomial_at(const std::vector<double>& coefficients, const at::Tensor& s) {
  at::Tensor value = at::zeros_like(s);
  for (auto c = coefficients.rbegin(); c != coefficients.rend(); ++c) value = value * s + *c;
  return value;
}

/// Psi [J, K + 1, X]: bump j's k-th derivative with respect to s on the window's unit grid
/// of X points (window coordinate 0..1, both ends).
at::Tensor unit_bumps(std::int64_t x_points, std::int64_t order) {
  const at::Tensor unit = at::linspace(0.0, 1.0, x_points, at::kDouble);
  const double half_width = 1.0 / static_cast<double>(kTestFunctions + 1);
  std::vector<at::Tensor> bumps;
  for (std::int64_t j = 1; j <= kTestFunctions; ++j) {
    const at::Tensor s = (unit - static_cast<double>(j) * half_width) / half_width;
    bumps.push_back(bump_derivatives(s, order + 2, order));
  }
  return at::stack(bumps);
}

}  // namespace

at::Tensor bump_derivatives(const at::Tensor& s, std::int64_t power, std::int64_t order) {
  if (power < 1 || order < 0)
    throw std::invalid_argument("bump derivatives: the power must be >= 1 and the order >= 0");
  const at::Tensor inside = s.abs() < 1.0;
  std::vector<double> coefficients = bump_coefficients(power);
  std::vector<at::Tensor> rows;
  for (std::int64_t k = 0; k <= order; ++k) {
    rows.push_back(at::where(inside, polynomial_at(coefficients, s), at::zeros_like(s)));
    coefficients = differentiated(coefficients);
  }
  return at::stack(rows);
}

TotalDerivativeResidual total_derivative_residual(const at::Tensor& gradient,
                                                  const std::vector<nn::DomainBox>& boxes) {
  if (gradient.dim() != 4 || gradient.size(2) < 8 || gradient.size(3) < 1 ||
      gradient.size(0) != static_cast<std::int64_t>(boxes.size()))
    throw std::invalid_argument(
        "total derivative residual: the gradient must be [L, T, X >= 8, K + 1] with one box per "
        "window (got " +
        std::to_string(gradient.dim()) + " dimensions, " + std::to_string(boxes.size()) +
        " boxes)");
  const std::int64_t x_points = gradient.size(2);
  const std::int64_t order = gradient.size(3) - 1;
  const at::Tensor psi = unit_bumps(x_points, order).to(gradient.dtype());  // [J, K + 1, X]
  at::Tensor weights = at::ones({x_points}, gradient.options());
  weights[0] = 0.5;
  weights[x_points - 1] = 0.5;
  double cancelled = 0, total = 0;
  for (std::size_t e = 0; e < boxes.size(); ++e) {
    const double width = boxes[e].x_max - boxes[e].x_min;
    const double spacing = width / static_cast<double>(x_points - 1);
    const double half_width = width / static_cast<double>(kTestFunctions + 1);
    // phi^(k)(x) = w^-k psi^(k)(s): the chain rule of s = (x - c) / w.
    const at::Tensor chain =
        at::pow(half_width, -at::arange(order + 1, gradient.options())).view({1, -1, 1});
    const at::Tensor phi = psi * chain * weights * spacing;  // [J, K + 1, X] with quadrature
    const at::Tensor terms =
        at::einsum("txk,jkx->tjk", {gradient[static_cast<std::int64_t>(e)], phi});  // A_k
    cancelled += terms.sum(2).square().sum().item<double>();
    total += terms.square().sum().item<double>();
  }
  TotalDerivativeResidual result;
  result.relative = total > 0 ? std::sqrt(cancelled / total) : 0.0;
  result.test_functions = kTestFunctions * gradient.size(0) * gradient.size(1);
  return result;
}

TotalDerivativeResidual root_total_derivative_residual(const LeafModelImpl& leaves,
                                                       const std::vector<nn::DomainBox>& boxes,
                                                       const gp::SparseVariationalGpImpl& root,
                                                       std::int64_t x_points,
                                                       std::int64_t t_points) {
  const std::int64_t order = root.inducing_inputs().size(1) - 1;
  auto [x, t] = box_grids(boxes, at::linspace(0.0, 1.0, x_points, at::kDouble),
                          at::linspace(0.0, 1.0, t_points, at::kDouble));
  LeafData grid{x, t, at::zeros_like(x), boxes};
  const RootData rows = root_data_detached(leaves, grid, static_cast<int>(order));
  const at::Tensor gradient = gp::posterior_mean_gradient(root, rows.inputs);  // [L P, K + 1]
  return total_derivative_residual(
      gradient.view({static_cast<std::int64_t>(boxes.size()), t_points, x_points, order + 1}),
      boxes);
}

}  // namespace bhpm::model
