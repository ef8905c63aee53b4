#pragma once
/// The files of a `bhpm run` folder, and what each stored output was made from: the
/// sections of the configuration it depends on and how to read the configuration stored
/// in it. `bhpm run` reuses an output only when those sections agree with its own.
///
///   RUN_DIR/run.toml                        the resolved configuration of the latest run
///   RUN_DIR/run.log                         what `bhpm run` printed (appended per run)
///   RUN_DIR/data.h5                         simulate (docs/dataset-format.md)
///   RUN_DIR/{leaves,exact_gp,joint}.ckpt, root.h5    train (docs/run-folder.md)
///   RUN_DIR/history-{leaves,exact_gp,joint}.csv      train: each phase's objective terms
///   RUN_DIR/system.ckpt                     train of a field system (docs/systems.md)
///   RUN_DIR/system-calibration.json         calibrate of a field system
///   RUN_DIR/metrics.json, metrics-train.json         evaluate (held-out / training grids)
///   RUN_DIR/distill.json                    distill (the learned operator as an equation)
///   RUN_DIR/prediction-test-<e>.h5          predict, one per run.predict_experiments
///   RUN_DIR/prediction-<stem>.h5            predict, one per run.predict_ic_files
///   RUN_DIR/prediction.h5                   bhpm predict's default output
///   RUN_DIR/refinement.h5                   refinement (Fig. 3 study)
///   RUN_DIR/report/                         report (index.html, figures)

#include <cstdint>
#include <string>
#include <vector>

namespace bhpm::config {

/// The one owner of a run folder's file names: every layer above config/ (report/,
/// cli/) takes its paths from here.
struct RunLayout {
  std::string dir;

  std::string file(const std::string& name) const;  ///< dir/name
  std::string config() const { return file("run.toml"); }
  std::string data() const { return file("data.h5"); }
  std::string root() const { return file("root.h5"); }
  std::string held_out_metrics() const { return file("metrics.json"); }
  std::string training_metrics() const { return file("metrics-train.json"); }
  std::string prediction(std::int64_t test_experiment) const;  ///< bhpm run's
  /// bhpm run's prediction from the initial-condition file <stem>.csv (run.predict_ic_files).
  std::string prediction_from_file(const std::string& initial_condition_stem) const;
  std::string prediction() const { return file("prediction.h5"); }  ///< bhpm predict's default
  /// Every existing dir/prediction*.h5 (bhpm run's and bhpm predict's), sorted by name.
  std::vector<std::string> predictions() const;
  std::string refinement() const { return file("refinement.h5"); }
  /// The model-discrepancy variance calibrated on the training experiments (`bhpm calibrate`).
  std::string discrepancy() const { return file("discrepancy.json"); }
  /// A field system's spread factors per field (`bhpm calibrate` on a system's run).
  std::string system_calibration() const { return file("system-calibration.json"); }
  /// The learned operator as an equation with intervals (`bhpm distill`).
  std::string distillation() const { return file("distill.json"); }
  std::string report() const { return file("report"); }
  /// Everything `bhpm run` printed, appended per invocation (cli/run_log.h); a sweep
  /// member's whole output.
  std::string log() const { return file("run.log"); }
  /// The training phases' checkpoints (model/bhpm_training.h).
  std::string leaves_checkpoint() const { return file("leaves.ckpt"); }
  std::string exact_gp_checkpoint() const { return file("exact_gp.ckpt"); }
  std::string joint_checkpoint() const { return file("joint.ckpt"); }
  /// A field system's leaves and roots (pipeline/trained_system.h).
  std::string system_model() const { return file("system.ckpt"); }
  /// leaves.ckpt, exact_gp.ckpt, joint.ckpt, in the order of the phases.
  std::vector<std::string> checkpoints() const;
  /// A training phase's history ("leaves", "exact_gp", "joint"): model/training_history.h.
  std::string history(const std::string& phase) const;
  /// history-leaves.csv, history-exact_gp.csv, history-joint.csv, in the order of the phases.
  std::vector<std::string> histories() const;
};

/// Sections a stored output depends on ("" = the top-level keys, i.e. the seed).
const std::vector<std::string>& data_sections();        ///< data.h5
const std::vector<std::string>& training_sections();    ///< checkpoints, root.h5
const std::vector<std::string>& prediction_sections();  ///< prediction files
/// system.ckpt: every section but [run]. A system's model keeps the settings of the steps
/// after training too ([predict], [distill]), so a system's run folder has one configuration.
const std::vector<std::string>& system_model_sections();
const std::vector<std::string>& refinement_sections();  ///< refinement.h5
/// distill.json: training, [predict] (its pathwise features) and [distill].
const std::vector<std::string>& distillation_sections();
/// The [predict] keys ("predict.key") that set how an ensemble is sampled and solved, on
/// which a calibrated discrepancy.json's fit to the ensembles' error depends: a prediction
/// with others is told (pipeline/run_folder.h, predictor_options).
const std::vector<std::string>& calibrated_solver_keys();

/// The resolved configuration stored in an HDF5 output (root attribute "config"; "" if
/// the file has none) or in a training checkpoint (its "config" string).
std::string stored_hdf5_config(const std::string& path);
std::string stored_checkpoint_config(const std::string& path);

/// The differences, on `sections`, between the configuration stored in `path` and
/// `current` (config_difference.h); empty when they agree.
std::vector<std::string> stored_differences(const std::string& path, const std::string& stored,
                                            const std::string& current,
                                            const std::vector<std::string>& sections);

/// Those differences as one line, "a; b".
std::string listed_differences(const std::vector<std::string>& differences);

/// True when `path` exists and was written no earlier than every file in `inputs`.
bool up_to_date(const std::string& path, const std::vector<std::string>& inputs);

}  // namespace bhpm::config
