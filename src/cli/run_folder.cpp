#include "cli/run_folder.h"

#include <filesystem>
#include <stdexcept>

#include "config/run_layout.h"
#include "io/checkpoint.h"
#include "model/root_gp.h"

namespace bhpm::cli {

namespace {

io::Checkpoint joint_checkpoint(const std::string& run_dir) {
  const std::string path = config::RunLayout{run_dir}.joint_checkpoint();
  if (!std::filesystem::exists(path))
    throw std::runtime_error(run_dir + ": no trained model (" + path +
                             " is missing; run `bhpm train` first)");
  return io::load_checkpoint(path);
}

}  // namespace

gp::SparseVariationalGp trained_root(const std::string& run_dir) {
  return model::sparse_root_from_checkpoint(joint_checkpoint(run_dir), "root.",
                                            config::RunLayout{run_dir}.joint_checkpoint());
}

TrainedRun load_trained_run(const std::string& run_dir, const std::vector<std::string>& overrides,
                            const std::string& config_path) {
  const std::string path = config::RunLayout{run_dir}.joint_checkpoint();
  const io::Checkpoint checkpoint = joint_checkpoint(run_dir);
  return {model::sparse_root_from_checkpoint(checkpoint, "root.", path),
          config_path.empty() ? config::read_run_config_text(checkpoint.string("config", path),
                                                             path + ":config", run_dir, overrides)
                              : config::read_run_config(config_path, overrides)};
}

}  // namespace bhpm::cli
