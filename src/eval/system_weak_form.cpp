#include "eval/system_weak_form.h"

#include <ATen/ATen.h>

#include <stdexcept>
#include <tuple>

#include "pde/field_system.h"
#include "pde/term_library.h"
#include "util/random.h"

namespace bhpm::eval {

std::vector<ProductWeakTerm> system_weak_library(const std::vector<std::string>& fields,
                                                 int max_order, int degree) {
  if (max_order < 1 || degree < 1 || degree > 5)
    throw std::invalid_argument(
        "weak form: the largest derivative order must be >= 1 and the "
        "degree in [1, 5]");
  const std::size_t q = fields.size();
  std::vector<ProductWeakTerm> library{{"1", 0, std::vector<int>(q, 0), 1.0}};
  for (std::size_t k = 0; k < q; ++k)
    for (int m = 0; m <= max_order; ++m) {
      std::vector<int> exponents(q, 0);
      exponents[k] = 1;
      library.push_back(
          {pde::partial_name(fields[k], {static_cast<std::int64_t>(k), m, 0}), m, exponents, 1.0});
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

/// Every field of every experiment as one GridField, for the pooled scales.
std::vector<pde::GridField> scale_fields(const std::vector<SystemGridFields>& experiments) {
  std::vector<pde::GridField> fields;
  for (const SystemGridFields& e : experiments)
    for (std::size_t k = 0; k < e.u.size(); ++k)
      fields.push_back({e.x, e.t, e.u[k], e.u_x[k], e.u_t[k]});
  return fields;
}

}  // namespace

std::optional<std::vector<WeakFormDistillation>> fit_system_weak_form(
    const std::vector<SystemGridFields>& experiments, const std::vector<std::string>& fields,
    int max_order, int degree, const WeakFormOptions& options, std::string& why) {
  for (const SystemGridFields& e : experiments)
    if (e.u.size() != fields.size() || e.u_x.size() != fields.size() ||
        e.u_t.size() != fields.size())
      throw std::invalid_argument("weak form: every experiment must hold the " +
                                  std::to_string(fields.size()) + " fields u, u_x and u_t");
  const std::vector<ProductWeakTerm> library = system_weak_library(fields, max_order, degree);
  std::vector<std::string> names;
  for (const ProductWeakTerm& term : library) names.push_back(term.name);
  const FieldScales scales = field_scales(scale_fields(experiments));
  std::vector<WeakFormDistillation> fits;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    std::vector<WeakExperiment> weak;
    for (const SystemGridFields& e : experiments)
      weak.push_back(
          {(e.t[-1] - e.t[0]).item<double>(), [&e, &library, i](const TestFunctionWidths& widths) {
             return product_weak_system(e.x, e.t, e.u, static_cast<std::int64_t>(i), library,
                                        widths);
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
    at::Tensor value = at::ones({v.size(0)}, at::kDouble);
    if (term.order > 0) {
      value = column(term.name);
    } else {
      for (std::size_t k = 0; k < term.exponents.size(); ++k)
        if (term.exponents[k] > 0) {
          const at::Tensor field = column(fields[k]);
          value = field.defined() ? value * field.pow(term.exponents[k]) : at::Tensor();
          if (!value.defined()) break;
        }
    }
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
