#include "cli/setting_flags.h"

#include <CLI/CLI.hpp>

namespace bhpm::cli {

void add_setting_flag(CLI::App& command, std::vector<std::string>& overrides,
                      const std::string& flag, const std::string& setting,
                      const std::string& help) {
  command.add_option_function<std::string>(
      flag,
      [&overrides, setting](const std::string& value) {
        overrides.push_back(setting + "=" + value);
      },
      help);
}

}  // namespace bhpm::cli
