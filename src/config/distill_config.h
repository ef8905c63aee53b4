#pragma once
/// The [distill] section: how `bhpm distill` turns the trained root into an equation
/// (eval/operator_distillation.h; docs/distillation.md, "Distilled equations"). Keys and
/// defaults:
///   samples = 64            S operator samples (>= 2), pathwise (predict.features features)
///   degree = 3              the library's largest total degree of a monomial, in [1, 5]
///   max_points = 4096       root inputs the samples are fitted on, evenly spread over the
///                           training experiments' (0: all)
///   max_unexplained = 0.05  the equation is flagged when it leaves more than this fraction
///                           of the posterior mean's variance unexplained, in (0, 1)
///   resample_experiments = true  each sample is fitted on its own bootstrap resample of the
///                           training experiments (eval/sparse_regression.h), so that the
///                           intervals hold how far the experiments' own leaf errors move the
///                           equation; needs at least 2 experiments (ignored with one)
///   weak_form = true        also fit the equation in weak form on the training leaves' u
///                           (eval/weak_form_distillation.h), resampled like the above
///   weak_space_factors = [1.75, 2, 2.25]  the test functions' half-widths a = c ell in x, one
///                           per resample in turn (each > 0)
///   weak_time_factor = 4    their half-width b = min(weak_time_factor tau, T / 2.2) in t (> 0)
///   weak_grid = [256, 128]  the x and t points (each >= 16) of the grid each leaf is read
///                           on over its experiment's window (a system on a plane: the
///                           points along x and along y each, so n^2 T in all)

#include <cstdint>

#include "config/config_reader.h"
#include "eval/operator_distillation.h"
#include "eval/weak_form_distillation.h"

namespace bhpm::config {

struct DistillConfig {
  std::int64_t samples = 64;
  int degree = 3;
  std::int64_t max_points = 4096;
  bool resample_experiments = true;
  eval::DistillOptions options;
  bool weak_form = true;
  eval::WeakFormOptions weak;  ///< samples and resample_experiments as above
  std::int64_t weak_x_points = 256;
  std::int64_t weak_t_points = 128;
};

/// Reads samples, degree, resample_experiments and max_unexplained of a [distill] section
/// into `config` (its values are the defaults); the samples' rule is the caller's.
void read_equation_fit(ConfigSection& section, DistillConfig& config);

/// Reads weak_form, weak_space_factors, weak_time_factor and weak_grid of a [distill]
/// section into `config` (after read_equation_fit: the weak form takes its samples).
void read_weak_form(ConfigSection& section, DistillConfig& config);

/// Reads [distill]; throws ConfigError naming the field and the rule.
DistillConfig read_distill_config(ConfigReader& reader);

}  // namespace bhpm::config
