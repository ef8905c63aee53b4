#pragma once
/// distill.json (format "bhpm-distill", version 1; docs/run-folder.md, "distill.json"):
/// the distilled equation of `bhpm distill` with every term's inclusion probability,
/// median and 95 % interval, the library, the scores, the settings and the resolved
/// configuration; and the part of it that other commands read back.

#include <string>
#include <utility>
#include <vector>

#include "eval/operator_distillation.h"
#include "eval/weak_form_distillation.h"

namespace bhpm::eval {

/// How a distillation was made (stored under "settings").
struct DistillationSettings {
  std::string run_dir;
  std::string data;  ///< the dataset whose true operator gave "truth" ("" = none)
  std::string sampler = "pathwise";
  std::int64_t samples = 0;
  std::int64_t features = 0;
  std::int64_t points = 0;
  std::int64_t folds = 0;
  /// Each sample was fitted on its own bootstrap resample of the experiments (the folds).
  bool resampled = false;
  std::uint64_t seed = 0;
  std::int64_t weak_x_points = 0;  ///< the leaves' grid of the weak form (0: none fitted)
  std::int64_t weak_t_points = 0;
  std::string config;  ///< resolved TOML
};

/// The JSON text; "weak_form" holds `weak` (null when it is null).
std::string distillation_json(const Distillation& distillation,
                              const DistillationSettings& settings,
                              const WeakFormDistillation* weak = nullptr);

/// What `bhpm predict --operator distilled` and the report read back.
struct DistillationFile {
  std::vector<std::string> variables;        ///< the library's variables
  int degree = 0;                            ///< and degree
  std::vector<std::string> names;            ///< [J]
  std::vector<std::vector<double>> samples;  ///< xi [S][J], one row per operator sample
  std::vector<DistilledTerm> terms;          ///< [J]
  std::string equation;
  std::string weak_equation;            ///< the weak form's equation ("" when none was fitted)
  std::vector<std::string> weak_names;  ///< its terms [K] (eval/weak_form.h names)
  std::vector<std::vector<double>> weak_samples;  ///< its coefficient samples [S][K]
  double explained = 0;
  bool warning = false;
  std::string config;
};

/// Reads `path`; throws std::runtime_error naming the file and the field for a missing
/// file, another format or version, or arrays of inconsistent lengths.
DistillationFile read_distillation_file(const std::string& path);

/// A field system's distill.json (format "bhpm-system-distill", src/pipeline/
/// system_distillation.h): each field's name and distillation, by name; errors as
/// read_distillation_file's, naming the field.
std::vector<std::pair<std::string, DistillationFile>> read_system_distillation_file(
    const std::string& path);

}  // namespace bhpm::eval
