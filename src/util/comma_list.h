#pragma once
/// Comma-separated lists as they appear in attributes ("u,u_x,u_xx"), CSV headers and
/// command-line values ("seed=1,2,3").

#include <string>
#include <vector>

namespace bhpm::util {

/// The parts of `text` between commas, in order: "a,b" -> {"a", "b"}, "a,,b" -> {"a", "",
/// "b"}, "" -> {}; a trailing comma adds no empty part ("a," -> {"a"}).
std::vector<std::string> split_at_commas(const std::string& text);

/// The inverse for parts without commas: {"a", "b"} -> "a,b".
std::string join_with_commas(const std::vector<std::string>& parts);

}  // namespace bhpm::util
