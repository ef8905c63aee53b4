#include "pde/initial_condition.h"

#include <ATen/ATen.h>

#include <cmath>
#include <fstream>
#include <stdexcept>

#include "pde/expression.h"
#include "pde/periodicity.h"
#include "util/name_list.h"
#include "util/option_check.h"
#include "util/random.h"

namespace bhpm::pde {

namespace {

at::Tensor kernel_of_lag(const at::Tensor& lag, double period, const PeriodicGpOptions& o) {
  const at::Tensor s = at::sin(M_PI * lag / period);
  return o.amplitude * o.amplitude * at::exp(-2.0 * s * s / (o.length_scale * o.length_scale));
}

}  // namespace

void validate(const PeriodicGpOptions& options) {
  util::require_positive(options.amplitude, "periodic GP", "amplitude");
  util::require_option(
      options.length_scale >= kMinLengthScale && std::isfinite(options.length_scale), "periodic GP",
      "length_scale", "must be >= " + util::option_value(kMinLengthScale),
      util::option_value(options.length_scale));
}

at::Tensor periodic_kernel_matrix(const PeriodicGrid& grid, const PeriodicGpOptions& options) {
  validate(options);
  const at::Tensor x = grid.x();
  return kernel_of_lag(x.unsqueeze(1) - x.unsqueeze(0), grid.length(), options);
}

at::Tensor periodic_kernel_eigenvalues(const PeriodicGrid& grid, const PeriodicGpOptions& options) {
  validate(options);
  // k(d) = s^2 e^{-a} sum_p I_p(a) e^{2 pi i p d / L}, a = 1/l^2, so the circulant's
  // eigenvalues are lambda_j = n s^2 e^{-a} sum_{p = j mod n} I_|p|(a); I_p(a) decays
  // faster than geometrically in p, so three aliases either side are plenty.
  const double a = 1.0 / (options.length_scale * options.length_scale);
  const std::int64_t n = grid.points();
  at::Tensor eigenvalues = at::zeros({grid.modes()}, at::kDouble);
  double* lambda = eigenvalues.data_ptr<double>();
  for (std::int64_t j = 0; j < grid.modes(); ++j) {
    double sum = 0.0;
    for (std::int64_t q = -3; q <= 3; ++q)
      sum += std::exp(-a) * std::cyl_bessel_i(static_cast<double>(std::llabs(j + q * n)), a);
    lambda[j] = static_cast<double>(n) * options.amplitude * options.amplitude * sum;
  }
  return eigenvalues;
}

at::Tensor sample_periodic_gp(const PeriodicGrid& grid, const PeriodicGpOptions& options,
                              std::uint64_t seed) {
  const at::Tensor eigenvalues = periodic_kernel_eigenvalues(grid, options);
  util::Rng rng(seed);
  const at::Tensor noise = util::normal_tensor(rng, {grid.points()});
  return grid.to_physical(at::sqrt(eigenvalues) * grid.to_spectral(noise));
}

namespace {

/// u0 = the expression in x at `x` [n] (constants pi, L, x_min, x_max of [a, b]); refused
/// when not finite at every point.
at::Tensor expression_values(const at::Tensor& x, double a, double b, const std::string& text,
                             const std::string& field) {
  Expression expression(text, {"x"}, field, {{"L", b - a}, {"x_min", a}, {"x_max", b}});
  const at::Tensor points = x.contiguous();
  at::Tensor u0 = at::empty_like(points);
  expression.evaluate({points.data_ptr<double>()}, static_cast<std::size_t>(points.numel()),
                      u0.data_ptr<double>());
  if (!at::isfinite(u0).all().item<bool>())
    throw std::invalid_argument(field + ": expression '" + text +
                                "' is not finite at every grid point");
  return u0;
}

}  // namespace

at::Tensor initial_condition_from_expression(const PeriodicGrid& grid, const std::string& text,
                                             const std::string& field) {
  const at::Tensor u0 = expression_values(grid.x(), grid.x_min(), grid.x_max(), text, field);
  require_periodic_on_grid(grid, u0, field + " '" + text + "'");
  return u0;
}

at::Tensor initial_condition_from_expression(const ChebyshevGrid& grid, const std::string& text,
                                             const std::string& field) {
  return expression_values(grid.x(), grid.a(), grid.b(), text, field);
}

at::Tensor initial_condition_from_file(const PeriodicGrid& grid, const std::string& path,
                                       const std::string& field) {
  std::ifstream file(path);
  if (!file) throw std::invalid_argument(field + ": cannot open '" + path + "'");
  std::vector<double> values;
  std::string token;
  while (file >> token) {
    std::size_t used = 0;
    double value = 0;
    try {
      value = std::stod(token, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != token.size() || !std::isfinite(value))
      throw std::invalid_argument(field + ": '" + path + "': value " +
                                  std::to_string(values.size() + 1) + " ('" + token +
                                  "') is not a finite number");
    values.push_back(value);
  }
  if (static_cast<std::int64_t>(values.size()) != grid.points())
    throw std::invalid_argument(field + ": '" + path + "' holds " + std::to_string(values.size()) +
                                " values; the grid has " + std::to_string(grid.points()) +
                                " points (solver.modes)");
  const at::Tensor u0 = at::tensor(values, at::kDouble);
  require_periodic_on_grid(grid, u0, field + " '" + path + "'");
  return u0;
}

}  // namespace bhpm::pde

namespace bhpm::pde {

const std::vector<std::string>& initial_condition_kinds() {
  static const std::vector<std::string> kinds{"gp", "expression", "file"};
  return kinds;
}

at::Tensor make_initial_conditions(const PeriodicGrid& grid, const InitialConditionOptions& options,
                                   std::int64_t count, std::uint64_t seed,
                                   const std::string& stream) {
  if (options.kind == "gp") {
    std::vector<at::Tensor> samples;
    for (std::int64_t e = 0; e < count; ++e)
      samples.push_back(sample_periodic_gp(
          grid, options.gp, util::derive_seed(seed, stream, static_cast<std::uint64_t>(e))));
    return at::stack(samples);
  }
  at::Tensor u0;
  if (options.kind == "expression")
    u0 = initial_condition_from_expression(grid, options.expression,
                                           options.field_names("expression"));
  else if (options.kind == "file")
    u0 = initial_condition_from_file(grid, options.file, options.field_names("file"));
  else
    util::require_listed(options.kind, initial_condition_kinds(), "initial condition", "kind");
  return u0.unsqueeze(0).expand({count, grid.points()}).contiguous();
}

}  // namespace bhpm::pde
