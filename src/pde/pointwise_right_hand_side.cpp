#include "pde/pointwise_right_hand_side.h"

#include <stdexcept>
#include <string>

#include "pde/expression.h"

namespace bhpm::pde {

namespace {

/// The column of `inputs` that holds `partial`; throws naming it when none does.
std::size_t column_of(const FieldSystem& system, std::int64_t field,
                      const std::vector<Partial>& inputs, const Partial& partial) {
  const std::string name = system.name_of(partial);
  for (std::size_t d = 0; d < inputs.size(); ++d)
    if (system.name_of(inputs[d]) == name) return d;
  throw std::invalid_argument("the true " + system.fields[static_cast<std::size_t>(field)] +
                              "_t reads " + name + ", which is not among the inputs");
}

}  // namespace

std::vector<double> right_hand_side_at(const FieldSystem& system, std::int64_t field,
                                       const std::vector<Partial>& inputs,
                                       const std::vector<double>& v) {
  const std::size_t d = inputs.size();
  const std::size_t n = d == 0 ? 0 : v.size() / d;
  std::vector<double> result(n, 0.0);
  const FieldEquation& equation = system.equations[static_cast<std::size_t>(field)];
  for (const LinearTerm& term : equation.linear) {
    const std::size_t column = column_of(system, field, inputs, term.partial);
    for (std::size_t r = 0; r < n; ++r) result[r] += term.coefficient * v[r * d + column];
  }
  if (equation.nonlinear.empty()) return result;
  std::vector<std::string> names;
  for (const Partial& p : inputs) names.push_back(system.name_of(p));
  const std::string where =
      "system: " + system.fields[static_cast<std::size_t>(field)] + "_t's nonlinear part";
  Expression expression(equation.nonlinear, names, where);
  std::vector<std::vector<double>> columns(d, std::vector<double>(n));
  std::vector<const double*> pointers;
  for (std::size_t c = 0; c < d; ++c) {
    for (std::size_t r = 0; r < n; ++r) columns[c][r] = v[r * d + c];
    pointers.push_back(columns[c].data());
  }
  std::vector<double> nonlinear(n);
  expression.evaluate(pointers, n, nonlinear.data());
  for (std::size_t r = 0; r < n; ++r) result[r] += nonlinear[r];
  return result;
}

}  // namespace bhpm::pde
