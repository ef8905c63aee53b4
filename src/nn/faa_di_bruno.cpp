#include "nn/faa_di_bruno.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>

namespace bhpm::nn {

namespace {

/// Every partition of n into parts <= largest, each listed in decreasing order.
void partitions(int n, int largest, std::vector<int>& prefix, std::vector<std::vector<int>>& out) {
  if (n == 0) {
    out.push_back(prefix);
    return;
  }
  for (int part = std::min(n, largest); part >= 1; --part) {
    prefix.push_back(part);
    partitions(n - part, part, prefix, out);
    prefix.pop_back();
  }
}

double factorial(int n) {
  double value = 1.0;
  for (int i = 2; i <= n; ++i) value *= i;
  return value;
}

/// n! / prod_j (m_j! (j!)^m_j) for a partition of n (parts in decreasing order).
double bell_coefficient(int n, const std::vector<int>& parts) {
  double denominator = 1.0;
  std::size_t i = 0;
  while (i < parts.size()) {
    std::size_t same = i;
    while (same < parts.size() && parts[same] == parts[i]) ++same;
    const int multiplicity = static_cast<int>(same - i);
    for (int m = 0; m < multiplicity; ++m) denominator *= factorial(parts[i]);
    denominator *= factorial(multiplicity);
    i = same;
  }
  return factorial(n) / denominator;
}

}  // namespace

FaaDiBrunoTable::FaaDiBrunoTable(int max_order) : max_order_(max_order) {
  if (max_order < 0)
    throw std::invalid_argument("Faa di Bruno table: max_order must be >= 0 (got " +
                                std::to_string(max_order) + ")");
  std::map<std::vector<int>, int> index;
  terms_.resize(static_cast<std::size_t>(max_order) + 1);
  for (int n = 1; n <= max_order; ++n) {
    std::vector<std::vector<int>> all;
    std::vector<int> prefix;
    partitions(n, n, prefix, all);  // starts with {n}: the k = 1 term comes first
    for (const std::vector<int>& parts : all) {
      const std::vector<int> parent(parts.begin(), parts.end() - 1);
      monomials_.push_back({parent.empty() ? -1 : index.at(parent), parts.back(), n, parts});
      index[parts] = static_cast<int>(monomials_.size()) - 1;
      const int k = static_cast<int>(parts.size());
      // sin^(k)(z) = sin(z + k pi / 2): +cos, -sin, -cos, +sin for k = 1, 2, 3, 4 (mod 4).
      const double sign = (k % 4 == 1 || k % 4 == 0) ? 1.0 : -1.0;
      const double bell = bell_coefficient(n, parts);
      terms_[n].push_back({index[parts], k, bell, sign * bell, k % 2 == 1, {}});
      for (std::size_t i = 0; i < parts.size(); ++i) {
        if (i > 0 && parts[i] == parts[i - 1]) continue;  // once per distinct part
        std::vector<int> reduced = parts;
        reduced.erase(reduced.begin() + static_cast<std::ptrdiff_t>(i));
        const auto multiplicity = std::count(parts.begin(), parts.end(), parts[i]);
        terms_[n].back().reductions.push_back(
            {parts[i], static_cast<int>(multiplicity), reduced.empty() ? -1 : index.at(reduced)});
      }
    }
  }
}

std::vector<at::Tensor> FaaDiBrunoTable::monomials(
    const std::vector<at::Tensor>& z_derivatives) const {
  const int order = static_cast<int>(z_derivatives.size());
  if (order > max_order_)
    throw std::invalid_argument("Faa di Bruno table: order " + std::to_string(order) +
                                " exceeds max_order " + std::to_string(max_order_));
  // Monomials are ordered by weight: those of weight <= order form a prefix.
  std::vector<at::Tensor> monomial;
  for (const Monomial& m : monomials_) {
    if (m.weight > order) break;
    const at::Tensor& z = z_derivatives[static_cast<std::size_t>(m.factor - 1)];
    monomial.push_back(m.parent < 0 ? z : monomial[static_cast<std::size_t>(m.parent)] * z);
  }
  return monomial;
}

std::vector<at::Tensor> FaaDiBrunoTable::sine_derivatives(
    const at::Tensor& s, const at::Tensor& c, const std::vector<at::Tensor>& z_derivatives) const {
  const std::vector<at::Tensor> monomial = monomials(z_derivatives);
  std::vector<at::Tensor> y;
  for (std::size_t n = 1; n <= z_derivatives.size(); ++n) {
    const std::vector<Term>& terms = terms_[n];
    // The k = 1 term c z_n starts a new tensor; each further term is one fused update.
    at::Tensor sum = c * monomial[static_cast<std::size_t>(terms.front().monomial)];
    for (std::size_t i = 1; i < terms.size(); ++i)
      sum.addcmul_(terms[i].uses_cos ? c : s, monomial[static_cast<std::size_t>(terms[i].monomial)],
                   terms[i].coefficient);
    y.push_back(sum);
  }
  return y;
}

void FaaDiBrunoTable::sine_derivatives_into(const at::Tensor& s, const at::Tensor& c,
                                            const std::vector<at::Tensor>& z_derivatives,
                                            const std::vector<at::Tensor>& y) const {
  const std::vector<at::Tensor> monomial = monomials(z_derivatives);
  for (std::size_t n = 1; n <= z_derivatives.size(); ++n) {
    const std::vector<Term>& terms = terms_[n];
    at::Tensor out = y[n - 1];
    at::mul_out(out, c, z_derivatives[n - 1]);  // the k = 1 term
    for (std::size_t i = 1; i < terms.size(); ++i)
      out.addcmul_(terms[i].uses_cos ? c : s, monomial[static_cast<std::size_t>(terms[i].monomial)],
                   terms[i].coefficient);
  }
}

void FaaDiBrunoTable::sine_derivatives_backward(const at::Tensor& s, const at::Tensor& c,
                                                const std::vector<at::Tensor>& z_derivatives,
                                                const std::vector<at::Tensor>& g,
                                                at::Tensor& g_value,
                                                const std::vector<at::Tensor>& g_z) const {
  const std::vector<at::Tensor> monomial = monomials(z_derivatives);
  const auto at_index = [&](int i) { return monomial[static_cast<std::size_t>(i)]; };
  // The k = 1 term of order j, c z_j, starts dL/dz_j with g_j c.
  for (std::size_t j = 1; j <= z_derivatives.size(); ++j) {
    at::Tensor out = g_z[j - 1];
    at::mul_out(out, g[j - 1], c);
  }
  for (std::size_t n = 1; n <= z_derivatives.size(); ++n) {
    const std::vector<Term>& terms = terms_[n];
    for (std::size_t i = 0; i < terms.size(); ++i) {
      const Term& term = terms[i];
      // d/dz of +-cos z is -+sin z, of +-sin z is +-cos z.
      g_value.addcmul_(g[n - 1], (term.uses_cos ? s : c) * at_index(term.monomial),
                       term.uses_cos ? -term.coefficient : term.coefficient);
      if (i == 0) continue;  // k = 1: done above
      const at::Tensor& trig = term.uses_cos ? c : s;
      for (const Reduction& r : term.reductions)
        g_z[static_cast<std::size_t>(r.part - 1)].addcmul_(
            g[n - 1], r.reduced < 0 ? trig : trig * at_index(r.reduced),
            r.multiplicity * term.coefficient);
    }
  }
}

std::vector<std::pair<double, std::vector<int>>> FaaDiBrunoTable::bell_polynomial(int n,
                                                                                  int k) const {
  if (n < 1 || n > max_order_ || k < 1 || k > n)
    throw std::invalid_argument(
        "Faa di Bruno table: B_{n,k} needs 1 <= k <= n <= max_order (got n = " + std::to_string(n) +
        ", k = " + std::to_string(k) + ")");
  std::vector<std::pair<double, std::vector<int>>> polynomial;
  for (const Term& term : terms_[static_cast<std::size_t>(n)])
    if (term.parts == k)
      polynomial.push_back({term.bell, monomials_[static_cast<std::size_t>(term.monomial)].parts});
  return polynomial;
}

}  // namespace bhpm::nn
