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

/// prod_k u_k^{e_k} of fields of one shape (ones for no exponent above 0; u_0^p alone is
/// u_0.pow(p)).
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
  return product_weak_system({field.x, field.t, at::Tensor()}, {field.u}, 0, products, widths);
}

namespace {

/// The test functions along one axis: their centres [N] and, for each derivative order
/// m <= max_order, the rows d^m/ds^m psi((s - s_c)/a) [N, n] on the axis's grid, each times
/// the grid step (the axis's share of the cell).
struct AxisBumps {
  at::Tensor centres;
  std::vector<at::Tensor> rows;
};

AxisBumps axis_bumps(const at::Tensor& grid, const std::string& name, double width, int power,
                     int max_order) {
  const double step = grid_spacing(grid, name);
  AxisBumps bumps;
  bumps.centres = lattice_centres(grid[0].item<double>(), grid[-1].item<double>(), width, step);
  for (int m = 0; m <= max_order; ++m)
    bumps.rows.push_back(step * bump_rows(grid, bumps.centres, width, power, m));
  return bumps;
}

/// sum over (t, y, x) of in_time[a, t] in_y[b, y] in_x[c, x] values[t, y, x], as [a b c].
at::Tensor contract(const at::Tensor& in_time, const at::Tensor& in_y, const at::Tensor& in_x,
                    const at::Tensor& values) {
  const at::Tensor over_time = at::tensordot(in_time, values, {1}, {0});  // [A, n_y, n]
  const at::Tensor over_y = at::tensordot(over_time, in_y, {1}, {1});     // [A, n, B]
  return at::tensordot(over_y, in_x, {1}, {1}).reshape({-1});             // [A, B, C]
}

}  // namespace

WeakSystem product_weak_system(const WeakGrids& grids, const std::vector<at::Tensor>& fields,
                               std::int64_t target, const std::vector<ProductWeakTerm>& library,
                               const TestFunctionWidths& widths) {
  const bool plane = grids.y.defined();
  grid_spacing(grids.x, "x");
  grid_spacing(grids.t, "t");
  if (plane) grid_spacing(grids.y, "y");
  const std::int64_t n = grids.x.size(0), times = grids.t.size(0);
  const std::int64_t n_y = plane ? grids.y.size(0) : 1;
  const std::string shape =
      plane ? "[T, n_y, n] = [" + std::to_string(times) + ", " + std::to_string(n_y) + ", " +
                  std::to_string(n) + "]"
            : "[T, n] = [" + std::to_string(times) + ", " + std::to_string(n) + "]";
  require_weak_form(target >= 0 && target < static_cast<std::int64_t>(fields.size()),
                    "the target must be one of the " + std::to_string(fields.size()) + " fields");
  std::vector<at::Tensor> volumes;  // [T, n_y, n] each
  for (const at::Tensor& u : fields) {
    require_weak_form(u.defined() && u.dim() == (plane ? 3 : 2) && u.size(0) == times &&
                          u.size(-1) == n && (!plane || u.size(1) == n_y),
                      "u must be " + shape);
    require_weak_form(at::isfinite(u).all().item<bool>(), "u is not finite everywhere");
    volumes.push_back(plane ? u : u.unsqueeze(1));
  }
  require_weak_form(widths.space > 0 && widths.time > 0, "the test functions' widths must be > 0");
  int max_order = 0, max_y_order = 0;
  for (const ProductWeakTerm& term : library) {
    max_order = std::max(max_order, term.order);
    max_y_order = std::max(max_y_order, term.y_order);
    require_weak_form(term.exponents.size() <= fields.size(),
                      "term " + term.name + " has more exponents than there are fields");
    require_weak_form(plane || term.y_order == 0,
                      "term " + term.name + " differentiates in y, and the fields lie on a line");
  }
  const int power = std::max(max_order, max_y_order) + 3;

  const AxisBumps in_x = axis_bumps(grids.x, "x", widths.space, power, max_order);
  const AxisBumps in_time = axis_bumps(grids.t, "t", widths.time, power, 1);
  // On a line the fields are [T, 1, n]: one y "centre" whose row is 1 at the only y.
  AxisBumps in_y{at::zeros({1}, at::kDouble), {at::ones({1, 1}, at::kDouble)}};
  if (plane) in_y = axis_bumps(grids.y, "y", widths.space, power, max_y_order);
  const std::int64_t rows = in_x.centres.size(0) * in_y.centres.size(0) * in_time.centres.size(0);
  WeakSystem system;
  system.target = at::zeros({rows}, at::kDouble);
  system.columns = at::zeros({rows, static_cast<std::int64_t>(library.size())}, at::kDouble);
  const std::vector<at::Tensor> mesh =
      at::meshgrid({in_time.centres, in_y.centres, in_x.centres}, "ij");
  system.centres =
      plane ? at::stack({mesh[2].reshape({-1}), mesh[1].reshape({-1}), mesh[0].reshape({-1})}, 1)
            : at::stack({mesh[2].reshape({-1}), mesh[0].reshape({-1})}, 1);
  if (rows == 0) return system;

  system.target = -contract(in_time.rows[1], in_y.rows[0], in_x.rows[0],
                            volumes[static_cast<std::size_t>(target)].to(at::kDouble));
  for (std::size_t j = 0; j < library.size(); ++j) {
    const ProductWeakTerm& term = library[j];
    const double sign = (term.order + term.y_order) % 2 == 0 ? 1.0 : -1.0;
    system.columns.select(1, static_cast<std::int64_t>(j))
        .copy_(sign * term.scale *
               contract(in_time.rows[0], in_y.rows[static_cast<std::size_t>(term.y_order)],
                        in_x.rows[static_cast<std::size_t>(term.order)],
                        product_of(volumes, term.exponents)));
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
  return field_scales(FieldSquares{deviation, slope, rate});
}

FieldScales field_scales(const FieldSquares& squares) {
  require_weak_form(squares.slope > 0 && squares.rate > 0,
                    "u_x or u_t is zero everywhere: the fields have no length or time scale");
  return {std::sqrt(squares.deviation / squares.slope),
          std::sqrt(squares.deviation / squares.rate)};
}

}  // namespace bhpm::eval
