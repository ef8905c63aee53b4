#pragma once
/// `bhpm import INPUT -o DATA.h5 [--type csv|npz|hdf5|netcdf] [--fields u,v]
///  [--column FIELD=NAME ...] [--hold-out N | --hold-out-names A,B]
///  [--attribute KEY=VALUE ...] [--seed S] [-q]`
///
/// A user's measurements (docs/importing-data.md) into a dataset (docs/dataset-format.md)
/// that `bhpm train` reads: experiments grouped from the experiment column, checked, each
/// point order shuffled from the seed, each window the points' bounding box; the last N
/// experiments (or those named) held out as "test". One field on a line makes version 2;
/// several fields, or a y column, a system's version 4.

#include <cstdint>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace bhpm::cli {

struct ImportOptions {
  std::string input_path;
  std::string output_path;
  std::string type;                         ///< empty: from the input's extension
  std::vector<std::string> fields = {"u"};  ///< [q] the measured fields' names
  std::vector<std::string> columns;         ///< "field=name": experiment, x, y, t, sigma or a field
  std::int64_t hold_out = 0;                ///< the last N experiments become the test set
  std::vector<std::string> hold_out_names;
  std::vector<std::string> attributes;  ///< "key=value" on every experiment
  std::uint64_t seed = 0;
  bool quiet = false;
};

/// Registers the subcommand.
void setup_import(CLI::App& app);

/// Reads, checks and writes; returns the exit code. Throws std::invalid_argument naming
/// the file, line, row or array and the rule for bad input; nothing is written then.
int run_import(const ImportOptions& options);

}  // namespace bhpm::cli
