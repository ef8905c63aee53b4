#include "config/pipeline_config.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "util/name_list.h"

namespace bhpm::config {

const std::vector<std::string>& pipeline_stages() {
  static const std::vector<std::string> stages = {"simulate", "train",   "calibrate",  "evaluate",
                                                  "distill",  "predict", "refinement", "report"};
  return stages;
}

const std::vector<std::string>& system_pipeline_stages() {
  static const std::vector<std::string> stages = {"simulate", "train",   "calibrate", "evaluate",
                                                  "distill",  "predict", "report"};
  return stages;
}

bool PipelineConfig::runs(const std::string& stage) const {
  return std::find(stages.begin(), stages.end(), stage) != stages.end();
}

namespace {

/// The stages named in `requested`, in the order of `known`; refuses unknown or repeated
/// names.
std::vector<std::string> ordered_stages(ConfigSection& section,
                                        const std::vector<std::string>& requested,
                                        const std::vector<std::string>& known) {
  std::set<std::string> seen;
  for (const auto& name : requested) {
    section.require(std::count(known.begin(), known.end(), name) == 1, "stages",
                    "each stage must be one of " + util::quoted_alternatives(known),
                    "\"" + name + "\"");
    section.require(seen.insert(name).second, "stages", "lists a stage twice", "\"" + name + "\"");
  }
  section.require(!requested.empty(), "stages", "must name at least one stage", "[]");
  std::vector<std::string> ordered;
  for (const auto& name : known)
    if (seen.count(name)) ordered.push_back(name);
  return ordered;
}

std::string from_base(const std::string& path, const std::string& base_dir) {
  if (path.empty() || std::filesystem::path(path).is_absolute()) return path;
  return (std::filesystem::path(base_dir) / path).string();
}

/// [run] with its stages among `known`, `defaults` when none are named.
PipelineConfig read_run_section(ConfigReader& reader, const std::string& base_dir,
                                const std::vector<std::string>& known,
                                const std::vector<std::string>& defaults) {
  PipelineConfig config;
  ConfigSection section = reader.section("run");
  config.stages = ordered_stages(section, section.strings("stages", defaults), known);
  config.predict_experiments = section.integers("predict_experiments", {0});
  config.data = from_base(section.string("data", ""), base_dir);
  std::set<std::string> stems;
  for (const std::string& file : section.strings("predict_ic_files", {})) {
    const std::string stem = std::filesystem::path(file).stem().string();
    section.require(!stem.empty() && stems.insert(stem).second, "predict_ic_files",
                    "each file needs a name of its own (its stem names the prediction file)",
                    "\"" + file + "\"");
    section.require(stem.rfind("test-", 0) != 0, "predict_ic_files",
                    "a file's stem may not start with \"test-\" (prediction-test-<e>.h5 are the "
                    "held-out experiments' predictions)",
                    "\"" + file + "\"");
    config.predict_ic_files.push_back(from_base(file, base_dir));
  }
  std::set<std::int64_t> seen;
  for (const std::int64_t e : config.predict_experiments) {
    section.require(e >= 0, "predict_experiments", "indices must be >= 0", std::to_string(e));
    section.require(seen.insert(e).second, "predict_experiments", "lists an experiment twice",
                    std::to_string(e));
  }
  return config;
}

}  // namespace

PipelineConfig read_pipeline_config(ConfigReader& reader, const std::string& base_dir) {
  return read_run_section(reader, base_dir, pipeline_stages(),
                          {"simulate", "train", "calibrate", "evaluate", "predict", "report"});
}

PipelineConfig read_system_pipeline_config(ConfigReader& reader, const std::string& base_dir) {
  return read_run_section(reader, base_dir, system_pipeline_stages(), system_pipeline_stages());
}

}  // namespace bhpm::config
