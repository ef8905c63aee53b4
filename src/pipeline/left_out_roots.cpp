#include "pipeline/left_out_roots.h"

#include <ATen/ATen.h>

#include <cstdio>

#include "model/bhpm_model.h"
#include "model/leaf_data.h"
#include "pde/measured_experiment.h"

namespace bhpm::pipeline {

gp::SparseVariationalGp posterior_without(const TrainedRun& run, const model::LeafModel& leaves,
                                          const model::LeafData& data,
                                          const std::vector<std::int64_t>& left_out) {
  gp::SparseVariationalGp posterior = gp::copy_with_shared_prior(*run.root);
  const model::RootOptions& root = run.config.root.root;
  model::BhpmModel model(leaves, posterior, root.order, root.input_noise == "laplace");
  model->set_optimal_root_posterior(data, left_out);
  return posterior;
}

void attach_left_out_roots(const TrainedRun& run, const model::LeafModel& leaves,
                           const pde::ExperimentSet& set, const std::string& source, bool transfer,
                           std::vector<solve::CalibrationExperiment>& experiments) {
  const auto count = static_cast<std::int64_t>(experiments.size());
  if (count < 2) {
    std::printf(
        "calibration posterior: the trained one (leave-one-out needs 2 training "
        "experiments, the run has %lld)\n",
        static_cast<long long>(count));
    return;
  }
  const model::LeafData data = model::leaf_data_from_measurements(
      pde::measured_experiments(set), count, set.sample_u.size(1), source);
  for (std::int64_t e = 0; e < count; ++e) {
    solve::CalibrationExperiment& experiment = experiments[static_cast<std::size_t>(e)];
    experiment.leave_one_out_root = posterior_without(run, leaves, data, {e});
    if (transfer && count >= 3)
      experiment.leave_two_out_root = posterior_without(run, leaves, data, {e, (e + 1) % count});
  }
  std::printf(
      "calibration posterior: each training experiment's without its own rows "
      "(leave one out)\n");
  if (!transfer)
    std::printf("transfer check: off (predict.calibration_transfer = false)\n");
  else if (count < 3)
    std::printf(
        "transfer check: not done (it leaves out 2 of the training experiments and needs 3, "
        "the run has %lld)\n",
        static_cast<long long>(count));
}

}  // namespace bhpm::pipeline
