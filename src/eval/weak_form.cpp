#include "eval/weak_form.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "pde/nonlinear_term.h"

namespace bhpm::eval {

namespace {

/// Test functions are centred every width / 8: overlapping supports, so each grid point of
/// the window enters many rows (Messenger and Bortz place theirs a few grid steps apart).
constexpr double kCentreSpacing = 0.125;

void require_weak_form(bool ok, const std::string& rule) {
  if (!ok) throw std::invalid_argument("weak form: " + rule);
}

std::string power_text(int power) { return power == 1 ? "u" : "u^" + std::to_string(power); }

std::string weak_term_name(int order, int power) {
  if (power == 1) return pde::derivative_name(order);
  if (order == 0) return power_text(power);
  if (order == 1) return power_text(power - 1) + "*u_x";
  return "(" + power_text(power) + ")" + pde::derivative_name(order).substr(1);
}

/// The grid spacing of `grid` [N]; throws unless it has >= 2 points, uniformly spaced.
double grid_spacing(const at::Tensor& grid, const std::string& name) {
  require_weak_form(grid.defined() && grid.dim() == 1 && grid.size(0) >= 2,
                    name + " must be a grid of at least 2 points");
  const at::Tensor steps = grid.diff();
  const double step = steps.mean().item<double>();
  require_weak_form(
      step > 0 && (steps - step).abs().max().item<double>() <= 1e-8 * std::abs(step) * grid.size(0),
      name + " must be uniform and ascending");
  return step;
}

/// Test-function centres from lo + width to hi - width every max(width / 8, step) [N] (N
/// may be 0).
at::Tensor lattice_centres(double lo, double hi, double width, double step) {
  const double first = lo + width, last = hi - width;
  if (last < first - 1e-12 * std::max(1.0, std::abs(hi - lo))) return at::zeros({0}, at::kDouble);
  const double spacing = std::max(width * kCentreSpacing, step);
  const auto count = static_cast<std::int64_t>(std::floor((last - first) / spacing + 1e-9)) + 1;
  return first + spacing * at::arange(count, at::kDouble);
}

/// d^m/dx^m psi((x - x_c)/a) [N, n] for centres [N] on the grid x [n].
at::Tensor bump_rows(const at::Tensor& grid, const at::Tensor& centre, double width, int power,
                     int m) {
  const at::Tensor s = (grid.unsqueeze(0) - centre.unsqueeze(1)) / width;
  return bump_derivative(s, power, m) / std::pow(width, m);
}

/// prod_k u_k^{e_k} [T, n] (ones for no exponent above 0; u_0^p alone is u_0.pow(p)).
at::Tensor product_of(const std::vector<at::Tensor>& fields, const std::vector<int>& exponents) {
  at::Tensor product;
  for (std::size_t k = 0; k < exponents.size(); ++k) {
    if (exponents[k] == 0) continue;
    const at::Tensor factor = fields[k].to(at::kDouble).pow(exponents[k]);
    product = product.defined() ? product * factor : factor;
  }
  return product.defined() ? product : at::ones_like(fields.front(), at::kDouble);
}

}  // namespace

std::vector<WeakTerm> weak_library(int max_order, int degree) {
  require_weak_form(max_order >= 1, "the largest derivative order must be >= 1 (got " +
                                        std::to_string(max_order) + ")");
  require_weak_form(degree >= 1 && degree <= 5,
                    "the degree must be in [1, 5] (got " + std::to_string(degree) + ")");
  std::vector<WeakTerm> library{{"1", 0, 0, 1.0}};
  for (int m = 0; m <= max_order; ++m)
    for (int p = 1; p <= degree; ++p)
      library.push_back({weak_term_name(m, p), m, p, m == 1 ? 1.0 / p : 1.0});
  return library;
}

at::Tensor bump_derivative(const at::Tensor& s, int power, int m) {
  // (1 - s^2)^q = sum_k C(q, k) (-1)^k s^(2k); its m-th derivative term by term.
  at::Tensor value = at::zeros_like(s, at::kDouble);
  double binomial = 1.0;
  for (int k = 0; k <= power; ++k) {
    if (k > 0) binomial *= static_cast<double>(power - k + 1) / k;
    const int exponent = 2 * k;
    if (exponent < m) continue;
    double falling = 1.0;  // exponent! / (exponent - m)!
    for (int i = 0; i < m; ++i) falling *= exponent - i;
    value += (k % 2 == 0 ? 1.0 : -1.0) * binomial * falling * s.pow(exponent - m);
  }
  return at::where(s.abs() < 1.0, value, at::zeros_like(value));
}

WeakSystem weak_system(const pde::GridField& field, const std::vector<WeakTerm>& library,
                       const TestFunctionWidths& widths) {
  std::vector<ProductWeakTerm> products;
  for (const WeakTerm& term : library)
    products.push_back({term.name, term.order, {term.power}, term.scale});
  return product_weak_system(field.x, field.t, {field.u}, 0, products, widths);
}

WeakSystem product_weak_system(const at::Tensor& x, const at::Tensor& t,
                               const std::vector<at::Tensor>& fields, std::int64_t target,
                               const std::vector<ProductWeakTerm>& library,
                               const TestFunctionWidths& widths) {
  const double dx = grid_spacing(x, "x"), dt = grid_spacing(t, "t");
  const std::int64_t n = x.size(0), times = t.size(0);
  require_weak_form(target >= 0 && target < static_cast<std::int64_t>(fields.size()),
                    "the target must be one of the " + std::to_string(fields.size()) + " fields");
  for (const at::Tensor& u : fields) {
    require_weak_form(
        u.defined() && u.dim() == 2 && u.size(0) == times && u.size(1) == n,
        "u must be [T, n] = [" + std::to_string(times) + ", " + std::to_string(n) + "]");
    require_weak_form(at::isfinite(u).all().item<bool>(), "u is not finite everywhere");
  }
  require_weak_form(widths.space > 0 && widths.time > 0, "the test functions' widths must be > 0");
  int max_order = 0;
  for (const ProductWeakTerm& term : library) {
    max_order = std::max(max_order, term.order);
    require_weak_form(term.exponents.size() <= fields.size(),
                      "term " + term.name + " has more exponents than there are fields");
  }
  const int power = max_order + 3;

  const at::Tensor space_centres =
      lattice_centres(x[0].item<double>(), x[-1].item<double>(), widths.space, dx);
  const at::Tensor time_centres =
      lattice_centres(t[0].item<double>(), t[-1].item<double>(), widths.time, dt);
  const std::int64_t rows = space_centres.size(0) * time_centres.size(0);
  WeakSystem system;
  system.target = at::zeros({rows}, at::kDouble);
  system.columns = at::zeros({rows, static_cast<std::int64_t>(library.size())}, at::kDouble);
  const std::vector<at::Tensor> mesh = at::meshgrid({time_centres, space_centres}, "ij");
  system.centres = at::stack({mesh[1].reshape({-1}), mesh[0].reshape({-1})}, 1);
  if (rows == 0) return system;

  const at::Tensor in_time = bump_rows(t, time_centres, widths.time, power, 0);
  const at::Tensor time_slope = bump_rows(t, time_centres, widths.time, power, 1);
  const double cell = dx * dt;
  const at::Tensor in_space_0 = bump_rows(x, space_centres, widths.space, power, 0);
  const at::Tensor u = fields[static_cast<std::size_t>(target)].to(at::kDouble);
  system.target = -cell * at::mm(at::mm(time_slope, u), in_space_0.t()).reshape({-1});
  for (std::size_t j = 0; j < library.size(); ++j) {
    const ProductWeakTerm& term = library[j];
    const at::Tensor in_space = bump_rows(x, space_centres, widths.space, power, term.order);
    const double sign = term.order % 2 == 0 ? 1.0 : -1.0;
    system.columns.select(1, static_cast<std::int64_t>(j))
        .copy_(sign * term.scale * cell *
               at::mm(at::mm(in_time, product_of(fields, term.exponents)), in_space.t())
                   .reshape({-1}));
  }
  return system;
}

FieldScales field_scales(const std::vector<pde::GridField>& fields) {
  require_weak_form(!fields.empty(), "no fields to read scales from");
  double deviation = 0, slope = 0, rate = 0;  // sums of squares over every grid point
  for (const pde::GridField& field : fields) {
    deviation += (field.u - field.u.mean(1, /*keepdim=*/true)).square().sum().item<double>();
    slope += field.u_x.square().sum().item<double>();
    rate += field.u_t.square().sum().item<double>();
  }
  require_weak_form(slope > 0 && rate > 0,
                    "u_x or u_t is zero everywhere: the fields have no length or time scale");
  return {std::sqrt(deviation / slope), std::sqrt(deviation / rate)};
}

}  // namespace bhpm::eval
