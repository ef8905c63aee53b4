// pipeline/: the rules the commands share about a run folder and its dataset, without a
// trained run: the refusal of a folder with no trained model, which calibration a dataset
// admits, and which dataset gives distill its truth column.

#include <ATen/ATen.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "pde/measured_dataset_file.h"
#include "pipeline/calibration_from_measurements.h"
#include "pipeline/distillation_inputs.h"
#include "pipeline/run_folder.h"

using ::testing::HasSubstr;

namespace {

/// A scratch folder of the test's own, emptied.
std::string scratch_folder(const std::string& name) {
  const std::filesystem::path path = std::filesystem::path(::testing::TempDir()) / name;
  std::filesystem::remove_all(path);
  std::filesystem::create_directories(path);
  return path.string();
}

/// One measured experiment of `points` rows on [0, 1] x [0, 1].
bhpm::pde::MeasuredExperiment experiment(const std::string& name, std::int64_t points) {
  bhpm::pde::MeasuredExperiment e;
  e.name = name;
  e.x = at::linspace(0.0, 0.9, points, at::kDouble);
  e.t = at::linspace(0.0, 1.0, points, at::kDouble);
  e.u = at::sin(e.x);
  e.window = {0.0, 1.0, 0.0, 1.0};
  return e;
}

/// A version 2 dataset (measurements only) with `train` training experiments at `path`.
std::string measured_dataset(const std::string& path, int train) {
  std::vector<bhpm::pde::MeasuredExperiment> experiments;
  for (int e = 0; e < train; ++e) experiments.push_back(experiment(std::to_string(e), 16));
  bhpm::pde::DatasetMetadata metadata;
  metadata.format_version = 2;
  bhpm::pde::write_measured_dataset(path, experiments, {}, metadata);
  return path;
}

}  // namespace

TEST(RunFolder, a_folder_without_a_trained_model_is_refused_with_the_next_step) {
  const std::string run = scratch_folder("untrained-run");
  try {
    bhpm::pipeline::trained_root(run);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr(run + ": no trained model"));
    EXPECT_THAT(e.what(), HasSubstr("joint.ckpt is missing; run `bhpm train` first"));
  }
  EXPECT_THROW(bhpm::pipeline::load_trained_run(run, {}), std::runtime_error);
}

TEST(RunFolder, measurements_only_admit_the_operator_calibration_with_two_experiments) {
  const std::string folder = scratch_folder("calibration-rules");
  const std::string two = measured_dataset(folder + "/two.h5", 2);
  const std::string one = measured_dataset(folder + "/one.h5", 1);
  EXPECT_EQ(bhpm::pipeline::resolved_calibration_method("auto", two), "operator");
  EXPECT_EQ(bhpm::pipeline::resolved_calibration_method("operator", two), "operator");
  try {
    bhpm::pipeline::resolved_calibration_method("trajectories", two);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("predict.calibration_method = \"trajectories\""));
    EXPECT_THAT(e.what(), HasSubstr(two + " holds measurements only"));
  }
  EXPECT_EQ(bhpm::pipeline::operator_calibration_refusal(two), "");
  EXPECT_THAT(bhpm::pipeline::operator_calibration_refusal(one),
              HasSubstr(one + ":/train holds 1 training experiment(s)"));
}

TEST(RunFolder, distill_takes_its_truth_from_data_given_else_from_a_simulated_run_dataset) {
  const std::string run = scratch_folder("truth-run");
  EXPECT_EQ(bhpm::pipeline::truth_dataset("given.h5", run), "given.h5");
  EXPECT_EQ(bhpm::pipeline::truth_dataset("", run), "");  // no RUN_DIR/data.h5
  measured_dataset(run + "/data.h5", 2);                  // imported: no equation stored
  EXPECT_EQ(bhpm::pipeline::truth_dataset("", run), "");
}
