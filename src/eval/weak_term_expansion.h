#pragma once
/// A weak-form term as a polynomial in the root's inputs v = (u, u_x, .., d^K u/dx^K): the
/// pointwise meaning of theta = scale d^m (u^p)/dx^m (eval/weak_form.h) over the monomial
/// library of pde/term_library.h, by the product rule applied m times,
///   d/dx prod_k v_k^{e_k} = sum_k e_k v_k^{e_k - 1} v_{k+1} prod_{l != k} v_l^{e_l},
/// e.g. (u^2)_xx = 2 u_x^2 + 2 u u_xx and u*u_x = (u^2)_x / 2. This is how a weak-form
/// coefficient acts on the operator a spectral solve evaluates pointwise
/// (pipeline/weak_form_shift.h, pipeline/distilled_operator.h).

#include <ATen/core/Tensor.h>

#include <vector>

#include "eval/weak_form.h"
#include "pde/term_library.h"

namespace bhpm::eval {

/// The coefficients [J] (double) of `term` over `library` (J monomials of D variables).
/// Throws std::invalid_argument when the expansion needs a derivative beyond the library's
/// d^(D-1) u/dx^(D-1) or a monomial of higher degree than the library's.
at::Tensor pointwise_expansion(const WeakTerm& term, const pde::TermLibrary& library);

/// The expansions of `terms` as rows: [T, J].
at::Tensor pointwise_expansions(const std::vector<WeakTerm>& terms,
                                const pde::TermLibrary& library);

}  // namespace bhpm::eval
