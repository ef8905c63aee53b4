#pragma once
/// What the commands after `bhpm train` read from a run folder: the trained root and the
/// configuration that trained it (stored in RUN_DIR/joint.ckpt).

#include <string>
#include <vector>

#include "config/run_config.h"
#include "gp/sparse_variational_gp.h"

namespace bhpm::cli {

/// The trained root of a run folder; refuses a folder without a finished joint phase
/// ("RUN_DIR: no trained model (RUN_DIR/joint.ckpt is missing; run `bhpm train` first)").
gp::SparseVariationalGp trained_root(const std::string& run_dir);

/// The trained root and the configuration stored with it ("section.key=value" overrides
/// applied), from one read of RUN_DIR/joint.ckpt; same refusal as trained_root.
/// `config_path` non-empty: that configuration file instead of the stored one (`bhpm run`,
/// which has checked that its training sections agree with the checkpoint's).
struct TrainedRun {
  gp::SparseVariationalGp root;
  config::RunConfig config;
};
TrainedRun load_trained_run(const std::string& run_dir, const std::vector<std::string>& overrides,
                            const std::string& config_path = "");

}  // namespace bhpm::cli
