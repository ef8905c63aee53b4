#pragma once
/// How a right-hand side reads in messages and files: " 0.1 u_xx - u_x + (-u*u_x)" after
/// "u_t =", for one field's equation (pde/equation.h) and each field of a system
/// (pde/field_system.h).

#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace bhpm::pde {

/// Writes the terms c * name (zero coefficients skipped, |c| = 1 without a number, signs
/// between terms) and then "(nonlinear)" when it is not empty; " 0" when there is nothing.
void write_right_hand_side(std::ostream& out,
                           const std::vector<std::pair<double, std::string>>& linear_terms,
                           const std::string& nonlinear);

}  // namespace bhpm::pde
