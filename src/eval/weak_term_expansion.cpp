#include "eval/weak_term_expansion.h"

#include <ATen/ATen.h>

#include <map>
#include <stdexcept>
#include <string>

namespace bhpm::eval {

namespace {

/// A polynomial in v: exponents e [D] -> coefficient.
using Polynomial = std::map<std::vector<int>, double>;

/// d/dx of `polynomial`, v_k -> v_{k+1}; throws when v_{D-1} would be differentiated.
Polynomial differentiate(const Polynomial& polynomial, const std::string& name) {
  Polynomial derivative;
  for (const auto& [exponents, coefficient] : polynomial) {
    for (std::size_t k = 0; k < exponents.size(); ++k) {
      if (exponents[k] == 0) continue;
      if (k + 1 == exponents.size())
        throw std::invalid_argument("weak term " + name + ": its pointwise form needs d^" +
                                    std::to_string(k + 1) +
                                    " u/dx^.., beyond the library's variables");
      std::vector<int> product = exponents;
      --product[k];
      ++product[k + 1];
      derivative[product] += coefficient * exponents[k];
    }
  }
  return derivative;
}

}  // namespace

at::Tensor pointwise_expansion(const WeakTerm& term, const pde::TermLibrary& library) {
  const std::size_t variables = library.variables.size();
  std::vector<int> power(variables, 0);
  if (variables > 0) power[0] = term.power;
  Polynomial polynomial{{power, term.scale}};
  for (int m = 0; m < term.order; ++m) polynomial = differentiate(polynomial, term.name);
  at::Tensor coefficients = at::zeros({library.size()}, at::kDouble);
  for (const auto& [exponents, coefficient] : polynomial) {
    std::int64_t column = -1;
    for (std::int64_t j = 0; j < library.size(); ++j)
      if (library.exponents[static_cast<std::size_t>(j)] == exponents) column = j;
    if (column < 0)
      throw std::invalid_argument("weak term " + term.name +
                                  ": a monomial of its pointwise form is not in the library of "
                                  "degree " +
                                  std::to_string(library.degree));
    coefficients[column] += coefficient;
  }
  return coefficients;
}

at::Tensor pointwise_expansions(const std::vector<WeakTerm>& terms,
                                const pde::TermLibrary& library) {
  std::vector<at::Tensor> rows;
  for (const WeakTerm& term : terms) rows.push_back(pointwise_expansion(term, library));
  if (rows.empty()) return at::zeros({0, library.size()}, at::kDouble);
  return at::stack(rows);
}

}  // namespace bhpm::eval
