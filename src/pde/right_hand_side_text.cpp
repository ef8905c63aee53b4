#include "pde/right_hand_side_text.h"

#include <cmath>

namespace bhpm::pde {

void write_right_hand_side(std::ostream& out,
                           const std::vector<std::pair<double, std::string>>& linear_terms,
                           const std::string& nonlinear) {
  bool first = true;
  for (const auto& [c, name] : linear_terms) {
    if (c == 0.0) continue;
    out << (first ? (c < 0 ? " -" : " ") : (c < 0 ? " - " : " + "));
    if (std::abs(c) != 1.0) out << std::abs(c) << " ";
    out << name;
    first = false;
  }
  if (!nonlinear.empty()) out << (first ? " " : " + ") << "(" << nonlinear << ")";
  if (first && nonlinear.empty()) out << " 0";
}

}  // namespace bhpm::pde
