#include "pde/held_out_experiments.h"

#include <algorithm>
#include <stdexcept>

namespace bhpm::pde {

std::vector<bool> held_out_experiments(const std::vector<std::string>& names, std::int64_t count,
                                       const std::vector<std::string>& chosen,
                                       const std::string& source) {
  for (const std::string& name : chosen)
    if (std::find(names.begin(), names.end(), name) == names.end())
      throw std::invalid_argument(source + ": --hold-out-names: no experiment '" + name + "'");
  std::vector<bool> held_out(names.size());
  for (std::size_t e = 0; e < names.size(); ++e)
    held_out[e] = chosen.empty()
                      ? e + static_cast<std::size_t>(count) >= names.size()
                      : std::find(chosen.begin(), chosen.end(), names[e]) != chosen.end();
  const auto test = static_cast<std::size_t>(std::count(held_out.begin(), held_out.end(), true));
  if (test == names.size())
    throw std::invalid_argument(source + ": holding out " + std::to_string(test) + " of " +
                                std::to_string(names.size()) +
                                " experiments leaves none to train on");
  return held_out;
}

}  // namespace bhpm::pde
