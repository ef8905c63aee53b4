#pragma once
/// Derivatives of y = sin(z(x)) from those of z (Faa di Bruno's formula):
///   d^n y / dx^n = sum_{k=1..n} sin^(k)(z) B_{n,k}(z_1, ..., z_{n-k+1}),
/// with z_j = d^j z / dx^j, sin^(k)(z) = sin(z + k pi/2) (so cos, -sin, -cos, sin, ...),
/// and the partial Bell polynomials
///   B_{n,k} = sum over partitions of n into k parts with m_j parts equal to j of
///             n! / prod_j (m_j! (j!)^m_j) prod_j z_j^m_j.
/// For example y_x = c z_x, y_xx = -s z_x^2 + c z_xx,
/// y_xxx = -c z_x^3 - 3 s z_x z_xx + c z_xxx (s = sin z, c = cos z).
///
/// The index structure (one term per partition of n = 1..max_order, 29 terms up to
/// order 6, and the monomials prod_j z_j^m_j, each the product of a smaller one and one
/// z_j) is built once; evaluating order K costs one multiplication per monomial and one
/// fused multiply-add per term, on tensors of any shape. The derivative of a monomial
/// with respect to z_j is m_j times a monomial of lower weight, also in the table, which
/// gives the backward pass.

#include <ATen/core/Tensor.h>

#include <utility>
#include <vector>

namespace bhpm::nn {

class FaaDiBrunoTable {
 public:
  /// Throws std::invalid_argument unless max_order >= 0.
  explicit FaaDiBrunoTable(int max_order);

  int max_order() const { return max_order_; }

  /// (d y/dx, ..., d^K y/dx^K) for y = sin(z), given s = sin z, c = cos z and
  /// z_derivatives = (z_1, ..., z_K), K <= max_order, all of one broadcastable shape.
  /// Differentiable by autograd (the reference for the two functions below).
  std::vector<at::Tensor> sine_derivatives(const at::Tensor& s, const at::Tensor& c,
                                           const std::vector<at::Tensor>& z_derivatives) const;

  /// The same values written into y[n-1] (n = 1..K), tensors of the full shape, e.g.
  /// slices of one output. Uses out= operations: call it with autograd off (inside a
  /// custom autograd function).
  void sine_derivatives_into(const at::Tensor& s, const at::Tensor& c,
                             const std::vector<at::Tensor>& z_derivatives,
                             const std::vector<at::Tensor>& y) const;

  /// Vector-Jacobian product of sine_derivatives: for g[n-1] = dL/dy_n, adds
  /// sum_n g_n dy_n/dz to g_value (z = z_0, the pre-activation) and writes
  /// dL/dz_j = sum_n g_n dy_n/dz_j into g_z[j-1]. With
  /// y_n = sum_terms a sin^(k)(z) prod_j z_j^m_j:
  ///   dy_n/dz   = sum_terms a sin^(k+1)(z) prod_j z_j^m_j,
  ///   dy_n/dz_j = sum_terms a sin^(k)(z) m_j z_j^(m_j - 1) prod_{i != j} z_i^m_i.
  /// Autograd off, as sine_derivatives_into.
  void sine_derivatives_backward(const at::Tensor& s, const at::Tensor& c,
                                 const std::vector<at::Tensor>& z_derivatives,
                                 const std::vector<at::Tensor>& g, at::Tensor& g_value,
                                 const std::vector<at::Tensor>& g_z) const;

  /// The partial Bell polynomial B_{n,k} as (coefficient, parts) pairs, parts listed in
  /// decreasing order (for tests and documentation): B_{3,2} = {(3, {2, 1})}.
  std::vector<std::pair<double, std::vector<int>>> bell_polynomial(int n, int k) const;

 private:
  /// prod_j z_j^m_j = monomial[parent] * z_factor (parent -1: the monomial is z_factor).
  struct Monomial {
    int parent;
    int factor;
    int weight;  // sum_j j m_j, the derivative order it contributes to
    std::vector<int> parts;
  };
  /// One partition of n into k parts: sign(k) n!/prod(m_j! (j!)^m_j) * monomial, times
  /// sin z (k even) or cos z (k odd); sign(k) makes sin^(k)(z) = +-sin z or +-cos z.
  /// d(monomial)/dz_part = multiplicity * monomial[reduced] (reduced -1: the constant 1).
  struct Reduction {
    int part;
    int multiplicity;
    int reduced;
  };
  struct Term {
    int monomial;
    int parts;           // k
    double bell;         // n! / prod_j (m_j! (j!)^m_j) > 0
    double coefficient;  // sign(k) bell
    bool uses_cos;
    std::vector<Reduction> reductions;  // one per distinct part
  };

  /// The monomials of weight <= K = z_derivatives.size() (throws if K > max_order).
  std::vector<at::Tensor> monomials(const std::vector<at::Tensor>& z_derivatives) const;

  int max_order_;
  std::vector<Monomial> monomials_;       // ordered by weight, so parents come first
  std::vector<std::vector<Term>> terms_;  // terms_[n], n = 1..max_order; k = 1 first
};

}  // namespace bhpm::nn
