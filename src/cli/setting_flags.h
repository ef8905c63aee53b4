#pragma once
/// Command-line flags that are shorthands for configuration settings: `--samples 8` on
/// `bhpm predict` is `--set predict.samples=8`. Each given value becomes an override
/// "section.key=value", applied after the --set ones, so that the configuration reader
/// checks it and names the setting in its error. `--set` itself is added here too.

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace bhpm::cli {

/// Adds `flag` (taking a value) to `command`; its value is appended to `overrides` as
/// "<setting>=<value>". `overrides` must outlive the command's parsing (it is a member of
/// the options object the command's callback owns).
void add_setting_flag(CLI::App& command, std::vector<std::string>& overrides,
                      const std::string& flag, const std::string& setting, const std::string& help);

/// Adds `--set section.key=value` (repeatable) to `command`, appending to `overrides`; a
/// value without that form is a usage error (exit 2) before any file is read.
void add_override_option(CLI::App& command, std::vector<std::string>& overrides,
                         const std::string& help);

}  // namespace bhpm::cli
