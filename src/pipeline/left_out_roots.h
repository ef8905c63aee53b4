#pragma once
/// Leave-one-out posteriors of the root for `bhpm calibrate`'s trajectory and window routes: the
/// trained root refitted without one (or two) training experiments' rows, at the trained
/// leaves and hyperparameters (model::BhpmModelImpl::set_optimal_root_posterior).

#include <string>
#include <vector>

#include "model/leaf_data.h"
#include "model/leaf_model.h"
#include "pde/experiment_set.h"
#include "pipeline/run_folder.h"
#include "solve/discrepancy_calibration.h"

namespace bhpm::pipeline {

/// The trained root's posterior refitted without the rows of the training experiments in
/// `left_out` (at the trained leaves and hyperparameters:
/// model::BhpmModelImpl::set_optimal_root_posterior); `data` the leaves' rows as in training.
gp::SparseVariationalGp posterior_without(const TrainedRun& run, const model::LeafModel& leaves,
                                          const model::LeafData& data,
                                          const std::vector<std::int64_t>& left_out);

/// Gives every training experiment e the root posterior fitted without its rows, so that
/// the calibration sees the errors of a new initial condition rather than those of a
/// trajectory the root was fitted along (needs 2 experiments), and, with `transfer` and 3
/// experiments or more, the one without its rows and those of experiment (e + 1) mod N
/// for the transfer check (solve/discrepancy_calibration.h, step 6). Says what it did.
/// `leaves` are the run's trained leaves, one per experiment of `set`.
void attach_left_out_roots(const TrainedRun& run, const model::LeafModel& leaves,
                           const pde::ExperimentSet& set, const std::string& source, bool transfer,
                           std::vector<solve::CalibrationExperiment>& experiments);

}  // namespace bhpm::pipeline
