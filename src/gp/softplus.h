#pragma once
/// The positivity transform of every constrained GP hyperparameter: a positive value
/// theta is stored as an unconstrained raw parameter r with theta = softplus(r) =
/// log(1 + e^r) (at::softplus), so Adam can move r freely (docs/training.md,
/// "Root"). This file holds the inverse map, which sets r from a value.

#include <ATen/core/Tensor.h>

namespace bhpm::gp {

/// r with softplus(r) = value, elementwise: value + log(1 - exp(-value)) (stable for
/// small and large values). Throws std::invalid_argument unless every value is finite
/// and > 0; `what` names the quantity in the message.
at::Tensor inverse_softplus(const at::Tensor& value, const char* what);
double inverse_softplus(double value, const char* what);

}  // namespace bhpm::gp
