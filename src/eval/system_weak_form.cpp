#include "eval/system_weak_form.h"

#include <ATen/ATen.h>

#include <stdexcept>
#include <tuple>

#include "pde/field_system.h"
#include "pde/term_library.h"
#include "util/random.h"

namespace bhpm::eval {

std::vector<ProductWeakTerm> system_weak_library(const std::vector<std::string>& fields,
                                                 int max_order, int degree, int dimensions) {
  if (max_order < 1 || degree < 1 || degree > 5 || (dimensions != 1 && dimensions != 2))
    throw std::invalid_argument(
        "weak form: the largest derivative order must be >= 1, the degree in [1, 5] and the "
        "space dimensions 1 or 2");
  const std::size_t q = fields.size();
  std::vector<ProductWeakTerm> library{{"1", 0, std::vector<int>(q, 0), 1.0}};
  for (std::size_t k = 0; k < q; ++k) {
    std::vector<int> exponents(q, 0);
    exponents[k] = 1;
    for (int total = 0; total <= max_order; ++total)
      for (int b = 0; b <= (dimensions == 2 ? total : 0); ++b) {
        const pde::Partial partial{static_cast<std::int64_t>(k), total - b, b};
        library.push_back({pde::partial_name(fields[k], partial), total - b, exponents, 1.0, b});
      }
    for (int power = 2; power <= degree; ++power)
      for (int b = 0; b < dimensions; ++b) {  // (u^p)_x / p = u^(p-1) u_x, and along y
        exponents[k] = power;
        const std::string slope =
            pde::partial_name(fields[k], {static_cast<std::int64_t>(k), 1 - b, b});
        const std::string factor =
            power == 2 ? fields[k] : fields[k] + "^" + std::to_string(power - 1);
        library.push_back({factor + "*" + slope, 1 - b, exponents, 1.0 / power, b});
      }
  }
  const pde::TermLibrary monomials = pde::make_term_library(fields, degree);
  for (std::int64_t j = 0; j < monomials.size(); ++j) {
    const std::vector<int>& exponents = monomials.exponents[static_cast<std::size_t>(j)];
    int total = 0;
    for (int e : exponents) total += e;
    if (total >= 2)
      library.push_back({monomials.names[static_cast<std::size_t>(j)], 0, exponents, 1.0});
  }
  return library;
}

namespace {

/// The sums of squares of eval::field_scales over every field of every experiment: u' is u
/// less its mean over space at each time, the slope the mean over the space directions.
FieldSquares pooled_squares(const std::vector<SystemGridFields>& experiments) {
  FieldSquares squares;
  for (const SystemGridFields& e : experiments)
    for (std::size_t k = 0; k < e.u.size(); ++k) {
      const at::Tensor u = e.u[k].reshape({e.u[k].size(0), -1});
      squares.deviation += (u - u.mean(1, /*keepdim=*/true)).square().sum().item<double>();
      double slope = e.u_x[k].square().sum().item<double>();
      if (!e.u_y.empty()) slope = 0.5 * (slope + e.u_y[k].square().sum().item<double>());
      squares.slope += slope;
      squares.rate += e.u_t[k].square().sum().item<double>();
    }
  return squares;
}

/// Throws std::invalid_argument unless every experiment holds q fields with their slopes and
/// rates (u_y on a plane only) and all lie on a line or all on a plane.
void require_fields(const std::vector<SystemGridFields>& experiments, std::size_t q) {
  const bool plane = !experiments.empty() && experiments.front().grids.y.defined();
  for (const SystemGridFields& e : experiments) {
    if (e.u.size() != q || e.u_x.size() != q || e.u_t.size() != q ||
        e.u_y.size() != (plane ? q : 0))
      throw std::invalid_argument("weak form: every experiment must hold the " + std::to_string(q) +
                                  " fields u, u_x, " + (plane ? "u_y " : "") + "and u_t");
    if (e.grids.y.defined() != plane)
      throw std::invalid_argument(
          "weak form: the experiments must all lie on a line or all on a plane");
  }
}

/// A term's pointwise value [P] at P root inputs, `column(name)` giving an input's [P] values
/// (undefined when absent): a field's partial is its column; (u_k^p)_x / p is u_k^(p-1) u_k,x
/// (and along y); a monomial the product of its fields' columns. Undefined where an input
/// is missing.
template <typename Column>
at::Tensor pointwise_value(const ProductWeakTerm& term, const std::vector<std::string>& fields,
                           const Column& column, std::int64_t points) {
  int degree = 0;
  for (int e : term.exponents) degree += e;
  const bool differentiated = term.order + term.y_order > 0;
  if (differentiated && degree == 1) return column(term.name);
  at::Tensor value = at::ones({points}, at::kDouble);
  for (std::size_t k = 0; k < term.exponents.size(); ++k) {
    if (term.exponents[k] == 0) continue;
    const at::Tensor field = column(fields[k]);
    if (!field.defined()) return at::Tensor();
    if (!differentiated) {
      value = value * field.pow(term.exponents[k]);
      continue;
    }
    const at::Tensor slope = column(
        pde::partial_name(fields[k], {static_cast<std::int64_t>(k), term.order, term.y_order}));
    if (!slope.defined()) return at::Tensor();
    value = value * field.pow(term.exponents[k] - 1) * slope;
  }
  return value;
}

}  // namespace

std::optional<std::vector<WeakFormDistillation>> fit_system_weak_form(
    const std::vector<SystemGridFields>& experiments, const std::vector<std::string>& fields,
    int max_order, int degree, const WeakFormOptions& options, std::string& why) {
  require_fields(experiments, fields.size());
  const bool plane = !experiments.empty() && experiments.front().grids.y.defined();
  const std::vector<ProductWeakTerm> library =
      system_weak_library(fields, max_order, degree, plane ? 2 : 1);
  std::vector<std::string> names;
  for (const ProductWeakTerm& term : library) names.push_back(term.name);
  const FieldScales scales = field_scales(pooled_squares(experiments));
  std::vector<WeakFormDistillation> fits;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    std::vector<WeakExperiment> weak;
    for (const SystemGridFields& e : experiments)
      weak.push_back({(e.grids.t[-1] - e.grids.t[0]).item<double>(),
                      [&e, &library, i](const TestFunctionWidths& widths) {
                        return product_weak_system(e.grids, e.u, static_cast<std::int64_t>(i),
                                                   library, widths);
                      }});
    WeakFormOptions field_options = options;
    field_options.regression.seed =
        util::derive_seed(options.regression.seed, "system_weak_form", i);
    try {
      fits.push_back(fit_weak_systems(weak, names, scales, field_options));
    } catch (const WeakFormUnfitted& error) {
      why = error.what();
      return std::nullopt;
    }
    fits.back().left_hand_side = fields[i] + "_t";
  }
  return fits;
}

void attach_system_truth(WeakFormDistillation& weak, const std::vector<ProductWeakTerm>& library,
                         const std::vector<std::string>& fields,
                         const std::vector<std::string>& input_names, const at::Tensor& v,
                         const at::Tensor& truth) {
  if (!truth.defined() || library.size() != weak.terms.size()) return;
  const auto column = [&](const std::string& name) -> at::Tensor {
    for (std::size_t d = 0; d < input_names.size(); ++d)
      if (input_names[d] == name) return v.select(1, static_cast<std::int64_t>(d));
    return at::Tensor();
  };
  std::vector<at::Tensor> columns;
  for (const ProductWeakTerm& term : library) {
    const at::Tensor value = pointwise_value(term, fields, column, v.size(0));
    if (!value.defined()) return;
    columns.push_back(value);
  }
  const at::Tensor theta = at::stack(columns, 1);
  const at::Tensor xi = std::get<0>(at::linalg_lstsq(theta, truth.unsqueeze(1))).squeeze(1);
  const double residual = (at::mv(theta, xi) - truth).square().mean().sqrt().item<double>();
  const double scale = truth.square().mean().sqrt().item<double>();
  if (!(residual <= 1e-6 * scale)) return;
  for (std::size_t j = 0; j < weak.terms.size(); ++j)
    weak.terms[j].truth = xi[static_cast<std::int64_t>(j)].item<double>();
  weak.has_truth = true;
}

}  // namespace bhpm::eval
