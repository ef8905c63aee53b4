#include "pde/term_library.h"

#include <ATen/ATen.h>

#include <stdexcept>

namespace bhpm::pde {

namespace {

/// "u^2*u_xx" for exponents (2, 0, 1); "1" for the constant.
std::string monomial_name(const std::vector<std::string>& variables,
                          const std::vector<int>& exponents) {
  std::string name;
  for (std::size_t m = 0; m < exponents.size(); ++m) {
    if (exponents[m] == 0) continue;
    if (!name.empty()) name += "*";
    name += variables[m];
    if (exponents[m] > 1) name += "^" + std::to_string(exponents[m]);
  }
  return name.empty() ? "1" : name;
}

/// Appends the exponent vectors of total degree `degree` whose variable indices, listed
/// with repetition, are non-decreasing from `first` on (multisets of variable indices).
void append_monomials(int degree, std::size_t first, std::vector<int>& current,
                      std::vector<std::vector<int>>& out) {
  if (degree == 0) {
    out.push_back(current);
    return;
  }
  for (std::size_t m = first; m < current.size(); ++m) {
    ++current[m];
    append_monomials(degree - 1, m, current, out);
    --current[m];
  }
}

}  // namespace

TermLibrary make_term_library(const std::vector<std::string>& variables, int degree) {
  if (variables.empty()) throw std::invalid_argument("term library: needs at least one variable");
  if (degree < 1 || degree > 5)
    throw std::invalid_argument("term library: degree must be in [1, 5] (got " +
                                std::to_string(degree) + ")");
  TermLibrary library;
  library.variables = variables;
  library.degree = degree;
  std::vector<int> current(variables.size(), 0);
  for (int total = 0; total <= degree; ++total)
    append_monomials(total, 0, current, library.exponents);
  for (const auto& exponents : library.exponents)
    library.names.push_back(monomial_name(variables, exponents));
  return library;
}

at::Tensor TermLibrary::evaluate(const at::Tensor& v) const {
  const auto dimensions = static_cast<std::int64_t>(variables.size());
  if (v.dim() != 2 || v.size(1) != dimensions)
    throw std::invalid_argument("term library: v must be [P, " + std::to_string(dimensions) +
                                "] (got " + std::to_string(v.dim()) + " dimensions)");
  std::vector<at::Tensor> columns;
  columns.reserve(exponents.size());
  for (const auto& e : exponents) {
    at::Tensor column = at::ones({v.size(0)}, v.options());
    for (std::int64_t m = 0; m < dimensions; ++m)
      if (e[m] > 0) column = column * v.select(1, m).pow(e[m]);
    columns.push_back(column);
  }
  return at::stack(columns, 1);
}

std::int64_t TermLibrary::find(const std::string& name) const {
  for (std::size_t j = 0; j < names.size(); ++j)
    if (names[j] == name) return static_cast<std::int64_t>(j);
  return -1;
}

}  // namespace bhpm::pde
