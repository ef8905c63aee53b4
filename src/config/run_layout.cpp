#include "config/run_layout.h"

#include <algorithm>
#include <filesystem>

#include "config/config_difference.h"
#include "io/checkpoint.h"
#include "io/hdf5_file.h"

namespace bhpm::config {

std::string RunLayout::file(const std::string& name) const {
  return (std::filesystem::path(dir) / name).string();
}

std::string RunLayout::prediction(std::int64_t test_experiment) const {
  return file("prediction-test-" + std::to_string(test_experiment) + ".h5");
}

std::string RunLayout::prediction_from_file(const std::string& initial_condition_stem) const {
  return file("prediction-" + initial_condition_stem + ".h5");
}

std::string RunLayout::history(const std::string& phase) const {
  return file("history-" + phase + ".csv");
}

std::vector<std::string> RunLayout::histories() const {
  return {history("leaves"), history("exact_gp"), history("joint")};
}

std::vector<std::string> RunLayout::predictions() const {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && name.rfind("prediction", 0) == 0 &&
        entry.path().extension() == ".h5")
      files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<std::string> RunLayout::checkpoints() const {
  return {leaves_checkpoint(), exact_gp_checkpoint(), joint_checkpoint()};
}

const std::vector<std::string>& data_sections() {
  static const std::vector<std::string> sections = {
      "", "equation", "system", "domain", "solver", "initial_condition", "data"};
  return sections;
}

namespace {

std::vector<std::string> plus(std::vector<std::string> sections,
                              const std::vector<std::string>& more) {
  sections.insert(sections.end(), more.begin(), more.end());
  return sections;
}

}  // namespace

const std::vector<std::string>& training_sections() {
  static const std::vector<std::string> sections =
      plus(data_sections(), {"leaves", "train_leaves", "root", "train_root", "train_joint"});
  return sections;
}

const std::vector<std::string>& system_model_sections() {
  static const std::vector<std::string> sections =
      plus(data_sections(), {"leaves", "train_leaves", "root", "train_root", "predict", "distill"});
  return sections;
}

const std::vector<std::string>& prediction_sections() {
  static const std::vector<std::string> sections = plus(training_sections(), {"predict"});
  return sections;
}

const std::vector<std::string>& distillation_sections() {
  static const std::vector<std::string> sections =
      plus(training_sections(), {"predict", "distill"});
  return sections;
}

const std::vector<std::string>& calibrated_solver_keys() {
  static const std::vector<std::string> keys = {"predict.sampler",
                                                "predict.solver",
                                                "predict.relative_tolerance",
                                                "predict.new_points",
                                                "predict.monte_carlo_points",
                                                "predict.max_rounds",
                                                "predict.descent_steps",
                                                "predict.time_budget",
                                                "predict.features",
                                                "predict.dt",
                                                "predict.step_tolerance",
                                                "predict.max_interval_steps",
                                                "predict.max_amplification",
                                                "predict.ill_posed",
                                                "predict.conservation"};
  return keys;
}

const std::vector<std::string>& refinement_sections() {
  static const std::vector<std::string> sections = {"", "refinement_study"};
  return sections;
}

std::string stored_hdf5_config(const std::string& path) {
  const io::Hdf5Location file = io::Hdf5Location::open_file(path);
  return file.has_attribute("config") ? file.string_attribute("config") : "";
}

std::string stored_checkpoint_config(const std::string& path) {
  const io::Checkpoint checkpoint = io::load_checkpoint(path);
  return checkpoint.string("config", path);
}

std::vector<std::string> stored_differences(const std::string& path, const std::string& stored,
                                            const std::string& current,
                                            const std::vector<std::string>& sections) {
  if (stored.empty()) return {path + " stores no configuration"};
  return config::config_differences(stored, path, current, sections);
}

std::string listed_differences(const std::vector<std::string>& differences) {
  std::string listed;
  for (const std::string& difference : differences)
    listed += (listed.empty() ? "" : "; ") + difference;
  return listed;
}

bool up_to_date(const std::string& path, const std::vector<std::string>& inputs) {
  namespace fs = std::filesystem;
  if (!fs::exists(path)) return false;
  const auto written = fs::last_write_time(path);
  for (const auto& input : inputs)
    if (fs::exists(input) && fs::last_write_time(input) > written) return false;
  return true;
}

}  // namespace bhpm::config
