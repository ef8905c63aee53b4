// Chebyshev points and their calculus against mathematics: differentiation matrices of every
// order exact on polynomials of degree n, spectral convergence on a smooth field, barycentric
// interpolation exact on polynomials.

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "pde/chebyshev_grid.h"
#include "support/tensors.h"

using namespace bhpm::pde;
using bhpm::testing_support::max_abs;

namespace {

/// p(x) = sum_k c_k x^k and its m-th derivative at x [P].
at::Tensor monomial_sum(const std::vector<double>& c, const at::Tensor& x, int m) {
  at::Tensor value = at::zeros_like(x);
  for (std::size_t k = static_cast<std::size_t>(m); k < c.size(); ++k) {
    double falling = 1.0;
    for (int i = 0; i < m; ++i) falling *= static_cast<double>(k - static_cast<std::size_t>(i));
    value =
        value + c[k] * falling * at::pow(x, static_cast<double>(k - static_cast<std::size_t>(m)));
  }
  return value;
}

}  // namespace

TEST(ChebyshevGrid, differentiation_matrices_are_exact_on_polynomials_of_degree_n) {
  const ChebyshevGrid grid(-2.0, 3.0, 12);
  const at::Tensor x = grid.x();
  EXPECT_DOUBLE_EQ(x[0].item<double>(), -2.0);
  EXPECT_DOUBLE_EQ(x[12].item<double>(), 3.0);
  EXPECT_TRUE((x.diff() > 0).all().item<bool>());
  const std::vector<double> c = {0.3,   -1.0,  0.5,   0.2,     -0.1,   0.05,   0.01,
                                 -0.02, 0.004, 0.001, -0.0005, 0.0002, 0.00007};
  const at::Tensor u = monomial_sum(c, x, 0);
  for (int m = 1; m <= 4; ++m) {
    const at::Tensor exact = monomial_sum(c, x, m);
    const at::Tensor computed = at::matmul(grid.differentiation_matrix(m), u);
    EXPECT_LT(max_abs(computed - exact), 1e-9 * (1.0 + max_abs(exact))) << "order " << m;
    // Every row of D^(m) annihilates constants.
    EXPECT_LT(max_abs(grid.differentiation_matrix(m).sum(1)), 1e-9) << "order " << m;
  }
}

TEST(ChebyshevGrid, derivatives_of_a_smooth_field_converge_spectrally) {
  std::vector<double> errors;
  for (std::int64_t n : {8, 16, 24}) {
    const ChebyshevGrid grid(0.0, 2.0, n);
    const at::Tensor x = grid.x();
    const at::Tensor computed = at::matmul(grid.differentiation_matrix(2), at::sin(3.0 * x));
    errors.push_back(max_abs(computed + 9.0 * at::sin(3.0 * x)));
  }
  EXPECT_LT(errors[1], 1e-4 * errors[0]);
  EXPECT_LT(errors[2], 1e-8);
}

TEST(ChebyshevGrid, barycentric_interpolation_is_exact_on_polynomials) {
  const ChebyshevGrid grid(1.0, 4.0, 9);
  const std::vector<double> c = {1.0, -0.5, 0.25, 0.1, -0.03, 0.01, 0.002, -0.001, 0.0003, 0.0001};
  const at::Tensor points = at::linspace(1.0, 4.0, 31, at::kDouble);
  const at::Tensor values =
      at::matmul(grid.interpolation_matrix(points), monomial_sum(c, grid.x(), 0));
  EXPECT_LT(max_abs(values - monomial_sum(c, points, 0)), 1e-12);
  // The ends are nodes: their rows pick the node's value.
  EXPECT_DOUBLE_EQ(values[0].item<double>(), monomial_sum(c, grid.x(), 0)[0].item<double>());
  EXPECT_THROW(ChebyshevGrid(1.0, 1.0, 8), std::invalid_argument);
  EXPECT_THROW(ChebyshevGrid(0.0, 1.0, 1), std::invalid_argument);
}
