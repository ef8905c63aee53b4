#include "pde/boundary_conditions.h"

#include <cmath>
#include <stdexcept>
#include <utility>

#include "pde/nonlinear_term.h"
#include "util/number_format.h"

namespace bhpm::pde {

BoundaryCondition BoundaryCondition::dirichlet(BoundaryValue g, std::string text) {
  return derivative(0, std::move(g), std::move(text));
}

BoundaryCondition BoundaryCondition::neumann(BoundaryValue g, std::string text) {
  return derivative(1, std::move(g), std::move(text));
}

BoundaryCondition BoundaryCondition::robin(double alpha, double beta, BoundaryValue g,
                                           std::string text) {
  return {{alpha, beta}, std::move(g), std::move(text)};
}

BoundaryCondition BoundaryCondition::derivative(int order, BoundaryValue g, std::string text) {
  if (order < 0) throw std::invalid_argument("boundary condition: derivative order must be >= 0");
  std::vector<double> weights(static_cast<std::size_t>(order + 1), 0.0);
  weights.back() = 1.0;
  return {std::move(weights), std::move(g), std::move(text)};
}

int BoundaryCondition::order() const {
  for (int m = static_cast<int>(weights.size()) - 1; m >= 0; --m)
    if (weights[static_cast<std::size_t>(m)] != 0.0) return m;
  return -1;
}

std::string BoundaryCondition::describe() const {
  std::string left;
  for (std::size_t m = 0; m < weights.size(); ++m) {
    const double w = weights[m];
    if (w == 0.0) continue;
    if (!left.empty())
      left += w < 0 ? " - " : " + ";
    else if (w < 0)
      left += "-";
    if (std::abs(w) != 1.0) left += util::format_number(std::abs(w)) + " ";
    left += derivative_name(static_cast<int>(m));
  }
  return (left.empty() ? "0" : left) + " = " + (value_text.empty() ? "g(t)" : value_text);
}

std::string describe(const BoundaryConditions& conditions) {
  const auto end = [](const std::vector<BoundaryCondition>& side) {
    std::string text;
    for (const BoundaryCondition& c : side) text += (text.empty() ? "" : ", ") + c.describe();
    return text.empty() ? std::string("none") : text;
  };
  return "left: " + end(conditions.left) + "; right: " + end(conditions.right);
}

ConditionCount required_conditions(int order, double leading_left, double leading_right) {
  if (order < 0) throw std::invalid_argument("boundary conditions: order must be >= 0");
  if (order == 0) return {0, 0};
  const std::string term = derivative_name(order);
  if (order % 2 == 0) {
    const double damping = (order / 2) % 2 == 1 ? 1.0 : -1.0;  // (-1)^(K/2 + 1)
    for (const auto& [end, c] : {std::pair<const char*, double>{"left", leading_left},
                                 std::pair<const char*, double>{"right", leading_right}})
      if (!(damping * c > 0.0))
        throw std::invalid_argument(
            "boundary conditions: the coefficient of " + term + " is " + util::format_number(c) +
            " at the " + end + " end, the sign of backward diffusion (it must be " +
            (damping > 0 ? "> 0" : "< 0") + "): the problem is ill-posed on an interval");
    return {order / 2, order / 2};
  }
  const double sign = ((order + 1) / 2) % 2 == 1 ? -1.0 : 1.0;  // (-1)^((K+1)/2)
  const int more = (order + 1) / 2, fewer = (order - 1) / 2;
  return {sign * leading_left > 0.0 ? more : fewer, sign * leading_right < 0.0 ? more : fewer};
}

namespace {

void check_end(const std::vector<BoundaryCondition>& conditions, int required, int order,
               const std::string& end, const std::string& equation) {
  if (static_cast<int>(conditions.size()) != required)
    throw std::invalid_argument(
        "boundary conditions: " + equation + " (order " + std::to_string(order) + ") needs " +
        std::to_string(required) + " condition" + (required == 1 ? "" : "s") + " at the " + end +
        " end (docs/boundary-conditions.md, \"How many conditions\"); got " +
        std::to_string(conditions.size()));
  for (const BoundaryCondition& c : conditions) {
    for (double w : c.weights)
      if (!std::isfinite(w))
        throw std::invalid_argument("boundary conditions: a weight of " + c.describe() +
                                    " at the " + end + " end is not finite");
    if (c.order() < 0 || c.order() >= order)
      throw std::invalid_argument("boundary conditions: " + c.describe() + " at the " + end +
                                  " end must involve derivatives of order 0.." +
                                  std::to_string(order - 1) + " for a problem of order " +
                                  std::to_string(order));
    if (!c.value)
      throw std::invalid_argument("boundary conditions: " + c.describe() + " at the " + end +
                                  " end has no value g(t)");
  }
}

}  // namespace

void check_conditions(const BoundaryConditions& conditions, const ConditionCount& required,
                      int order, const std::string& equation) {
  check_end(conditions.left, required.left, order, "left", equation);
  check_end(conditions.right, required.right, order, "right", equation);
}

}  // namespace bhpm::pde
