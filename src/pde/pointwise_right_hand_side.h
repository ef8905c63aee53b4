#pragma once
/// A field system's right-hand side at given values of the partials (docs/systems.md,
/// "Distilling a system"): for field i,
///   f_i(v) = sum_j L_ij v + N_i(v),
/// with v a row of named partials (pde/field_system.h's names). Where the values are the
/// exact partials of a state this is the operator the state evolves under; at any other
/// values (a leaf's partials, a root's inputs) it is the true operator that a learned one
/// is compared with.

#include <cstdint>
#include <vector>

#include "pde/field_system.h"

namespace bhpm::pde {

/// f_i at N rows v [N, D] (row-major), column d holding `inputs[d]`: [N]. Throws
/// std::invalid_argument naming the field and the partial when f_i reads a partial that is
/// not among `inputs` (a linear term of higher order than the inputs', say).
std::vector<double> right_hand_side_at(const FieldSystem& system, std::int64_t field,
                                       const std::vector<Partial>& inputs,
                                       const std::vector<double>& v);

}  // namespace bhpm::pde
