#pragma once
/// The file `bhpm predict` writes for a field system (docs/systems.md, "Predicting with a
/// system"; docs/run-folder.md), readable with h5py alone:
///   /            format = "bhpm-system-prediction", fields ("u,v"), dimensions, members
///                (that finished), dropped (one line per member dropped), linear_part (the
///                means' part treated exactly), mean_added_diffusion, initial_condition,
///                seconds, config (resolved TOML), created_by
///   /t [T], /x [n_x], /y [n_y] (2-D only), /member_index [S'], /added_diffusion [S']
///   /<field>/    mean_operator, mean, sd, lower, upper, truth (when known), each [T, n_x] or
///                [T, n_y, n_x]; with the truth, attributes mean_operator_error,
///                ensemble_mean_error, coverage, error_over_spread (pipeline/system_prediction.h)

#include <string>
#include <utility>
#include <vector>

#include "pde/periodic_box.h"
#include "pipeline/system_prediction.h"

namespace bhpm::pipeline {

struct SystemPredictionRecord {
  const SystemPrediction* prediction = nullptr;
  const SystemBand* band = nullptr;
  std::vector<std::string> fields;
  std::vector<double> truth;                                    ///< [T, q, points] or empty
  std::vector<SystemPredictionScore> scores;                    ///< per field, with the truth
  std::vector<std::pair<std::string, std::string>> attributes;  ///< written on /
};

/// Writes the record to `path` atomically.
void write_system_prediction(const std::string& path, const pde::PeriodicBox& box,
                             const SystemPredictionRecord& record);

}  // namespace bhpm::pipeline
