#include "cli/setting_flags.h"

#include <CLI/CLI.hpp>

#include "config/config_reader.h"

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

void add_override_option(CLI::App& command, std::vector<std::string>& overrides,
                         const std::string& help) {
  const CLI::Validator form(
      [](std::string& assignment) {
        const std::string error = config::ConfigReader::override_form_error(assignment);
        return error.rfind("--set ", 0) == 0 ? error.substr(6) : error;  // CLI11 names --set
      },
      "SECTION.KEY=VALUE");
  // Appended, not assigned: a flag such as --samples or --device adds its own setting to the
  // same list, which an assignment would drop.
  command
      .add_option_function<std::vector<std::string>>(
          "--set",
          [&overrides](const std::vector<std::string>& values) {
            overrides.insert(overrides.end(), values.begin(), values.end());
          },
          help)
      ->check(form);
}

}  // namespace bhpm::cli
