#pragma once
/// The predict stage of `bhpm run`: `bhpm predict` for each held-out experiment of
/// run.predict_experiments (from its stored u0, or on a dataset of measurements only on its
/// own window, `--window-from test/E`) and each file of run.predict_ic_files.

#include "cli/pipeline_stages.h"

namespace bhpm::cli {

/// The predict stage: every run.predict_experiments and run.predict_ic_files prediction not
/// up to date (newer than its inputs, reading back, made by the same prediction settings).
void predict_stage(const Pipeline& p);

}  // namespace bhpm::cli
