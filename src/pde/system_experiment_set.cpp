#include "pde/system_experiment_set.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "pde/solution.h"
#include "util/random.h"

namespace bhpm::pde {

namespace {

/// Draws experiment e's points and noise into `set` (its u filled in).
void measure_experiment(SystemExperimentSet& set, const PeriodicBox& box, std::int64_t fields,
                        std::int64_t e, const MeasurementOptions& options, std::uint64_t seed) {
  const std::int64_t points = box.points(), times = static_cast<std::int64_t>(set.t.size());
  util::Rng rng(util::derive_seed(seed, set.name + "/measurements", static_cast<std::uint64_t>(e)));
  const std::vector<std::int64_t> chosen =
      rng.sample_without_replacement(times * points, options.n_st);
  const std::vector<double> x = box.x(), y = box.y();
  const double* u = set.u.data() + e * times * fields * points;
  for (std::int64_t j = 0; j < options.n_st; ++j) {
    const std::int64_t index = chosen[static_cast<std::size_t>(j)];
    const std::int64_t t_index = index / points, point = index % points;
    const std::size_t at = static_cast<std::size_t>(e * options.n_st + j);
    set.sample_index[at] = index;
    set.sample_t[at] = set.t[static_cast<std::size_t>(t_index)];
    set.sample_x[at] = x[static_cast<std::size_t>(point % box.nx())];
    set.sample_y[at] = y[static_cast<std::size_t>(point / box.nx())];
    for (std::int64_t i = 0; i < fields; ++i) {
      const std::size_t value = static_cast<std::size_t>((e * fields + i) * options.n_st + j);
      set.sample_u_clean[value] = u[(t_index * fields + i) * points + point];
      set.sample_u[value] = set.sample_u_clean[value] + options.noise * rng.normal();
    }
  }
}

}  // namespace

std::vector<double> field_values(const std::vector<double>& u, std::int64_t field,
                                 std::int64_t fields, std::int64_t points) {
  const std::int64_t snapshots = static_cast<std::int64_t>(u.size()) / (fields * points);
  std::vector<double> values;
  values.reserve(static_cast<std::size_t>(snapshots * points));
  for (std::int64_t s = 0; s < snapshots; ++s) {
    const auto begin = u.begin() + (s * fields + field) * points;
    values.insert(values.end(), begin, begin + points);
  }
  return values;
}

SystemExperimentSet simulate_system_set(const PeriodicBox& box, const FieldSystem& system,
                                        const SystemSetOptions& options,
                                        const SystemSetProgress& progress) {
  if (options.experiments < 1)
    throw std::invalid_argument("experiment set '" + options.name +
                                "': number of experiments must be >= 1");
  validate(options.solve);
  const std::int64_t times = std::llround(options.solve.t_end / options.solve.output_dt) + 1;
  validate(options.measurements, times * box.points());
  const std::int64_t q = system.size(), points = box.points(), n_st = options.measurements.n_st;
  std::vector<std::vector<double>> initial;  // every u0 first: bad expressions fail before work
  for (std::int64_t e = 0; e < options.experiments; ++e)
    initial.push_back(system_initial_condition(box, system, options.initial_condition, options.seed,
                                               options.name + "/initial_condition", e));
  SystemExperimentSet set;
  set.name = options.name;
  set.experiments = options.experiments;
  set.n_st = n_st;
  set.noise = options.measurements.noise;
  set.u.reserve(static_cast<std::size_t>(options.experiments * times * q * points));
  for (std::int64_t e = 0; e < options.experiments; ++e) {
    SystemSolution solution;
    try {
      solution =
          solve_field_system(box, system, initial[e], options.solve, [&](double t, double t_end) {
            if (progress) progress(options.name, e, t, t_end);
          });
    } catch (const SolverDivergence& error) {
      throw SolverDivergence("experiment set '" + options.name + "', experiment " +
                                 std::to_string(e) + ": " + error.what(),
                             error.time_reached());
    }
    set.t = solution.t;
    set.u.insert(set.u.end(), solution.u.begin(), solution.u.end());
    set.steps = std::max(set.steps, solution.steps);
    set.rejected_steps = std::max(set.rejected_steps, solution.rejected_steps);
  }
  const std::size_t samples = static_cast<std::size_t>(options.experiments * n_st);
  set.sample_index.resize(samples);
  for (auto* values : {&set.sample_x, &set.sample_y, &set.sample_t}) values->resize(samples);
  set.sample_u_clean.resize(samples * static_cast<std::size_t>(q));
  set.sample_u.resize(samples * static_cast<std::size_t>(q));
  for (std::int64_t e = 0; e < options.experiments; ++e)
    measure_experiment(set, box, q, e, options.measurements, options.seed);
  return set;
}

}  // namespace bhpm::pde
