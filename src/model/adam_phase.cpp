#include "model/adam_phase.h"

#include <ATen/ATen.h>
#include <torch/nn/module.h>
#include <torch/optim/adam.h>

#include <cmath>
#include <filesystem>

#include "io/atomic_file.h"
#include "io/checkpoint.h"
#include "model/module_checkpoint.h"
#include "model/optimizer_state.h"
#include "util/error_message.h"
#include "util/learning_rate_schedule.h"
#include "util/number_format.h"
#include "util/option_check.h"

namespace bhpm::model {

namespace {

io::Checkpoint make_checkpoint(const AdamPhase& phase, torch::optim::Adam& adam,
                               std::int64_t iteration, const AdamSchedule& schedule,
                               const TrainingHistory& history) {
  io::Checkpoint checkpoint;
  history.store(checkpoint);
  store_parameters(*phase.module, "", checkpoint);
  checkpoint.tensors["optimizer"] = optimizer_state_bytes(adam);
  checkpoint.integers["iteration"] = iteration;
  checkpoint.strings["phase"] = phase.name;
  checkpoint.strings["config"] = schedule.config;
  for (const auto& [field, value] : phase.architecture) checkpoint.strings["arch/" + field] = value;
  if (phase.store_state) phase.store_state(checkpoint);
  return checkpoint;
}

/// Loads parameters, Adam's state and the history; returns the iteration the checkpoint
/// reached.
std::int64_t restore(const AdamPhase& phase, torch::optim::Adam& adam, const std::string& path,
                     TrainingHistory& history) {
  const io::Checkpoint checkpoint = io::load_checkpoint(path);
  const std::string& stored_phase = checkpoint.string("phase", path);
  if (stored_phase != phase.name)
    throw io::CheckpointError(path + ": checkpoint is of phase '" + stored_phase + "', not '" +
                              phase.name + "'");
  for (const auto& [field, value] : phase.architecture) {
    const std::string& stored = checkpoint.string("arch/" + field, path);
    if (stored != value)
      throw io::CheckpointError(path + ": checkpoint was made with " + field + " = " + stored +
                                ", the configuration asks for " + value);
  }
  load_parameters(*phase.module, "", checkpoint, path);
  load_optimizer_state(adam, checkpoint.tensor("optimizer", path));
  if (phase.load_state) phase.load_state(checkpoint, path);
  history = TrainingHistory::restore(checkpoint, path);
  const std::int64_t iteration = checkpoint.integer("iteration", path);
  history.truncate_after(iteration);
  return iteration;
}

void set_learning_rate(torch::optim::Adam& adam, double rate) {
  for (auto& group : adam.param_groups())
    static_cast<torch::optim::AdamOptions&>(group.options()).lr(rate);
}

std::string kept_checkpoint(const AdamSchedule& schedule) {
  return schedule.checkpoint_path.empty()
             ? std::string()
             : "; the last good checkpoint is kept at " + schedule.checkpoint_path;
}

/// The objective at `iteration`, its failures turned into TrainingError naming the phase.
PhaseObjective evaluate(const AdamPhase& phase, const AdamSchedule& schedule,
                        std::int64_t iteration) {
  const std::string where = "phase " + phase.name + ", iteration " + std::to_string(iteration + 1);
  PhaseObjective objective;
  try {
    objective = phase.objective(iteration);
  } catch (const std::exception& error) {
    throw TrainingError(where + ": " + util::error_message(error) + kept_checkpoint(schedule));
  }
  const double value = objective.loss.item<double>();
  if (!std::isfinite(value))
    throw TrainingError(where + ": the objective is not finite (" +
                        util::format_significant(value, 6) + ")" + kept_checkpoint(schedule));
  return objective;
}

/// A step can turn parameters non-finite while its loss was finite; such a state is never
/// written over the last good checkpoint.
void require_finite_parameters(const AdamPhase& phase, const AdamSchedule& schedule,
                               std::int64_t iteration) {
  for (const auto& item : phase.module->named_parameters())
    if (!at::isfinite(item.value()).all().item<bool>())
      throw TrainingError("phase " + phase.name + ", iteration " + std::to_string(iteration) +
                          ": parameter " + item.key() + " is not finite after the step" +
                          kept_checkpoint(schedule));
}

}  // namespace

void validate(const AdamSchedule& s, const std::string& phase) {
  const std::string owner = phase + " training";
  util::require_at_least(s.iterations, 0, owner, "iterations");
  util::require_positive(s.learning_rate, owner, "learning_rate");
  util::require_option(s.final_learning_rate < 0 ||
                           (s.final_learning_rate > 0 && std::isfinite(s.final_learning_rate)),
                       owner, "final_learning_rate", "must be > 0, or < 0 for a constant rate",
                       util::option_value(s.final_learning_rate));
  util::require_at_least(s.checkpoint_every, 1, owner, "checkpoint_every");
  util::require_at_least(s.report_every, 1, owner, "report_every");
  util::require_at_least(s.history_every, 1, owner, "history_every");
}

double learning_rate_at(const AdamSchedule& s, std::int64_t iteration) {
  return util::learning_rate_at({s.iterations, s.learning_rate, s.final_learning_rate}, iteration);
}

PhaseResult run_adam_phase(const AdamPhase& phase, const AdamSchedule& schedule,
                           const TrainingCallback& progress) {
  validate(schedule, phase.name);
  if (phase.module == nullptr || !phase.objective)
    throw std::invalid_argument(phase.name + " training: no module or objective");
  torch::optim::Adam adam(phase.module->parameters(),
                          torch::optim::AdamOptions(schedule.learning_rate));
  PhaseResult result;
  if (!schedule.checkpoint_path.empty() && std::filesystem::exists(schedule.checkpoint_path))
    result.resumed_from = restore(phase, adam, schedule.checkpoint_path, result.history);
  const auto write_history = [&] {
    if (!schedule.history_path.empty())
      io::write_text_atomically(schedule.history_path, result.history.csv());
  };

  const RateMeter meter(result.resumed_from);
  for (std::int64_t iteration = result.resumed_from; iteration < schedule.iterations;) {
    const PhaseObjective objective = evaluate(phase, schedule, iteration);
    adam.zero_grad();
    objective.loss.backward();
    set_learning_rate(adam, learning_rate_at(schedule, iteration));
    adam.step();
    ++iteration;
    result.final_loss = objective.loss.item<double>();
    if (iteration % schedule.history_every == 0 || iteration == schedule.iterations)
      result.history.append(iteration, learning_rate_at(schedule, iteration - 1), result.final_loss,
                            objective.terms ? objective.terms() : ProgressTerms{});
    if (progress && (iteration % schedule.report_every == 0 || iteration == schedule.iterations)) {
      TrainingProgress report{phase.name,
                              iteration,
                              schedule.iterations,
                              objective.terms ? objective.terms() : ProgressTerms{},
                              0,
                              0};
      meter.update(report);
      progress(report);
    }
    if (iteration == schedule.iterations && phase.finish) phase.finish();
    if (!schedule.checkpoint_path.empty() &&
        (iteration % schedule.checkpoint_every == 0 || iteration == schedule.iterations)) {
      require_finite_parameters(phase, schedule, iteration);
      io::save_checkpoint(schedule.checkpoint_path,
                          make_checkpoint(phase, adam, iteration, schedule, result.history));
      write_history();
    }
  }
  write_history();
  return result;
}

}  // namespace bhpm::model
