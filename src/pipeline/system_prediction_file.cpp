#include "pipeline/system_prediction_file.h"

#include "io/atomic_file.h"
#include "io/hdf5_file.h"
#include "pde/system_experiment_set.h"
#include "util/comma_list.h"

namespace bhpm::pipeline {

namespace {

/// Writes every array of field i ([T, q, points] -> [T, (n_y,) n_x]) with its scores.
void write_field(const io::Hdf5Location& file, const pde::PeriodicBox& box,
                 const SystemPredictionRecord& record, std::size_t i) {
  const std::string& field = record.fields[i];
  const io::Hdf5Location group = file.create_group(field);
  const std::int64_t q = static_cast<std::int64_t>(record.fields.size());
  const std::size_t times = record.prediction->t.size();
  const bool two = box.dimensions() == 2;
  const std::vector<std::size_t> shape =
      two ? std::vector<std::size_t>{times, static_cast<std::size_t>(box.ny()),
                                     static_cast<std::size_t>(box.nx())}
          : std::vector<std::size_t>{times, static_cast<std::size_t>(box.nx())};
  const std::string dims = two ? "t,y,x" : "t,x";
  const auto write = [&](const std::string& name, const std::vector<double>& u,
                         const std::string& what) {
    group.write_array(name,
                      pde::field_values(u, static_cast<std::int64_t>(i), q, box.points()).data(),
                      shape, {dims, field + " (nondimensional)", what});
  };
  const SystemBand& band = *record.band;
  write("mean_operator", record.prediction->mean_operator,
        "the solve under every root's posterior mean");
  write("mean", band.mean, "the members' mean");
  write("sd", band.sd, "the members' standard deviation");
  write("lower", band.lower, "mean - t_{m-1}(0.975) sqrt(1 + 1/m) sd");
  write("upper", band.upper, "mean + t_{m-1}(0.975) sqrt(1 + 1/m) sd");
  if (record.truth.empty()) return;
  write("truth", record.truth, "the true solution");
  const SystemPredictionScore& score = record.scores[i];
  group.set_attribute("mean_operator_error", score.mean_operator_error);
  group.set_attribute("ensemble_mean_error", score.ensemble_mean_error);
  group.set_attribute("coverage", score.coverage);
  group.set_attribute("error_over_spread", score.error_over_spread);
}

}  // namespace

void write_system_prediction(const std::string& path, const pde::PeriodicBox& box,
                             const SystemPredictionRecord& record) {
  io::AtomicFile output(path);
  {
    const io::Hdf5Location file = io::Hdf5Location::create_file(output.temporary_path());
    const SystemPrediction& prediction = *record.prediction;
    file.set_attribute("format", std::string("bhpm-system-prediction"));
    file.set_attribute("fields", util::join_with_commas(record.fields));
    file.set_attribute("dimensions", static_cast<std::int64_t>(box.dimensions()));
    file.set_attribute("members", static_cast<std::int64_t>(prediction.members.size()));
    std::string dropped;
    for (const std::string& line : prediction.failures) dropped += line + "\n";
    file.set_attribute("dropped", dropped);
    file.set_attribute("linear_part", prediction.linear_part.describe());
    file.set_attribute("mean_added_diffusion", prediction.mean_added_diffusion);
    file.write_array("added_diffusion", prediction.added_diffusion.data(),
                     {prediction.added_diffusion.size()},
                     {"member", "", "diffusion a added to each member (0: well-posed)"});
    file.write_array("member_index", prediction.member_index.data(),
                     {prediction.member_index.size()},
                     {"member", "", "the sample each member of the band is"});
    file.set_attribute("seconds", prediction.seconds);
    for (const auto& [name, value] : record.attributes) file.set_attribute(name, value);
    const std::vector<double> x = box.x(), y = box.y();
    file.write_array("t", prediction.t.data(), {prediction.t.size()},
                     {"t", "time (nondimensional)", "output times"});
    file.write_array("x", x.data(), {x.size()},
                     {"x", "length (nondimensional)", "periodic grid points"});
    if (box.dimensions() == 2)
      file.write_array("y", y.data(), {y.size()},
                       {"y", "length (nondimensional)", "periodic grid points"});
    for (std::size_t i = 0; i < record.fields.size(); ++i) write_field(file, box, record, i);
  }  // closes the file before the rename
  output.commit();
}

}  // namespace bhpm::pipeline
