#pragma once
/// Named alternatives (samplers, solvers, kernels, initialisations): each is listed in one
/// table by the code that implements it, and every check of a user's choice and every
/// "unknown name" error reads that table, so the error always lists the known names.

#include <string>
#include <vector>

namespace bhpm::util {

/// "\"a\"", "\"a\" or \"b\"", "\"a\", \"b\" or \"c\"".
std::string quoted_alternatives(const std::vector<std::string>& names);

/// Whether `name` is one of `names`.
bool is_listed(const std::string& name, const std::vector<std::string>& names);

/// Throws std::invalid_argument "<where>: <field> must be <alternatives> (got \"name\")"
/// when `name` is not one of `names`.
void require_listed(const std::string& name, const std::vector<std::string>& names,
                    const std::string& where, const std::string& field);

}  // namespace bhpm::util
