#include "pde/equation.h"

#include <ATen/ATen.h>

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "pde/right_hand_side_text.h"
#include "util/name_list.h"
#include "util/number_format.h"
#include "util/option_check.h"

namespace bhpm::pde {

const std::vector<std::string>& equation_names() {
  static const std::vector<std::string> names = {"burgers", "kdv", "heat", "kuramoto_sivashinsky",
                                                 "general"};
  return names;
}

Equation make_equation(const EquationOptions& options) {
  const util::FieldNames& field = options.field_names;
  util::require_finite_number(options.nu, field("nu"));
  util::require_finite_number(options.delta, field("delta"));
  const auto advection = std::make_shared<AdvectionTerm>();
  const std::string& name = options.name;
  if (name == "burgers") return {name, {0.0, 0.0, options.nu}, advection};
  if (name == "kdv") return {name, {0.0, 0.0, 0.0, -options.delta}, advection};
  if (name == "heat") return {name, {0.0, 0.0, options.nu}, nullptr};
  if (name == "kuramoto_sivashinsky") return {name, {0.0, 0.0, -1.0, 0.0, -1.0}, advection};
  if (name == "general") {
    for (std::size_t m = 0; m < options.linear.size(); ++m)
      util::require_finite_number(options.linear[m],
                                  field("linear") + "[" + std::to_string(m) + "]");
    std::shared_ptr<const NonlinearTerm> nonlinear;
    if (!options.nonlinear.empty())
      nonlinear = std::make_shared<ExpressionTerm>(options.nonlinear, field("nonlinear"));
    if (options.linear.empty() && !nonlinear)
      throw std::invalid_argument(field("name") +
                                  ": a general equation needs linear coefficients, "
                                  "a nonlinear expression, or both");
    return {name, options.linear, nonlinear};
  }
  throw std::invalid_argument(field("name") + ": unknown equation '" + name +
                              "' (known: " + util::quoted_alternatives(equation_names()) + ")");
}

std::string Equation::describe() const {
  std::vector<std::pair<double, std::string>> terms;
  for (std::size_t m = 0; m < linear.size(); ++m)
    terms.emplace_back(linear[m], derivative_name(static_cast<int>(m)));
  std::ostringstream out;
  out << "u_t =";
  write_right_hand_side(out, terms, nonlinear ? nonlinear->describe() : std::string());
  return out.str();
}

int Equation::order() const {
  int order = nonlinear ? nonlinear->max_derivative() : 0;
  for (std::size_t m = 0; m < linear.size(); ++m)
    if (linear[m] != 0.0) order = std::max(order, static_cast<int>(m));
  return order;
}

at::Tensor Equation::right_hand_side(const at::Tensor& derivatives) const {
  return right_hand_side(derivatives, at::Tensor());
}

at::Tensor Equation::right_hand_side(const at::Tensor& derivatives, const at::Tensor& t) const {
  if (derivatives.dim() < 1 || derivatives.size(0) <= order())
    throw std::invalid_argument(
        "equation " + name + ": needs derivatives up to order " + std::to_string(order()) +
        " (got " + std::to_string(derivatives.dim() < 1 ? 0 : derivatives.size(0)) + " rows)");
  at::Tensor result = at::zeros_like(derivatives[0]);
  for (std::size_t m = 0; m < linear.size(); ++m)
    if (linear[m] != 0.0) result = result + linear[m] * derivatives[static_cast<std::int64_t>(m)];
  if (nonlinear)
    result = result + (t.defined() ? nonlinear->evaluate_at(derivatives, t)
                                   : nonlinear->evaluate(derivatives));
  return result;
}

}  // namespace bhpm::pde
