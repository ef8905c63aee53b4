#pragma once
/// Which imported experiments become the held-out ("test") set (`bhpm import --hold-out N`
/// or `--hold-out-names A,B`).

#include <cstdint>
#include <string>
#include <vector>

namespace bhpm::pde {

/// Per experiment of `names` [E] (in the file's order), whether it is held out: the last
/// `count`, or, when `chosen` is not empty, those it names. Throws std::invalid_argument
/// naming `source` when a chosen name is not among `names` or no experiment would remain
/// to train on.
std::vector<bool> held_out_experiments(const std::vector<std::string>& names, std::int64_t count,
                                       const std::vector<std::string>& chosen,
                                       const std::string& source);

}  // namespace bhpm::pde
