#pragma once
/// The equation in weak form from the training experiments' fitted fields (docs/distillation.md,
/// "Weak-form distillation"), beside the root's pointwise distillation
/// (eval/operator_distillation.h): the weak systems of eval/weak_form.h over every
/// experiment, fitted by the same cross-validated sparse regression
/// (eval/sparse_regression.h, one fold per experiment), S times:
///
/// - Widths from the fields' own scales, never from a known answer: with
///   ell = RMS(u')/RMS(u_x) and tau = RMS(u')/RMS(u_t) (eval::field_scales), the test
///   functions' half-widths are a = c ell for each factor c of space_factors, and
///   b = min(time_factor tau, T_e / 2.2) in experiment e of duration T_e; test functions are
///   centred every a/8 by b/8 (at least a grid step; eval/weak_form.h). A test function a
///   few ell wide averages out a fitted field's small-scale errors, which the narrow ones
///   pick up, while keeping a column for the highest derivative, which the widest ones lose
///   (a wide bump's m-th derivative is small): the default factors 1.75, 2, 2.25 resample a
///   neighbourhood of a = 2 ell (docs/distillation.md, "Weak-form distillation", says why).
/// - Resampled: fit s uses the width c_(s mod W) and, with resample_experiments and at
///   least two experiments, its own bootstrap resample of the experiments. The S
///   coefficient vectors are summarised as the pointwise distillation's are (inclusion
///   probability, median, 95 % interval), so the intervals hold both how far the width
///   choice and how far each experiment's own errors move the equation.
///
/// A width is fitted only where it gives at least 4 J test functions (J library terms) in
/// at least two experiments (or in the only one); the resamples cycle over the widths that
/// do. With one experiment the two halves of its test functions' centres (by x) are the
/// folds.

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "eval/operator_distillation.h"
#include "eval/sparse_regression.h"
#include "eval/weak_form.h"
#include "pde/grid_field.h"

namespace bhpm::eval {

struct WeakFormOptions {
  std::vector<double> space_factors = {1.75, 2.0, 2.25};  ///< c (> 0): a = c ell
  double time_factor = 4.0;                               ///< b = min(time_factor tau, T / 2.2)
  std::int64_t samples = 64;                              ///< S (>= 2)
  bool resample_experiments = true;
  SparseRegressionOptions regression;  ///< resample_folds is set per the rule above
};

/// Throws util::OptionError naming the field, its value and the rule.
void validate(const WeakFormOptions& options);

/// One width of the resampling.
struct WeakFormWidth {
  double factor = 0;             ///< c
  double space = 0;              ///< a = c ell
  std::int64_t rows = 0;         ///< test functions over all experiments
  std::int64_t experiments = 0;  ///< experiments whose window holds at least one
  bool used = false;             ///< rows >= 4 J in >= 2 experiments (or the only one): fitted
};

struct WeakFormDistillation {
  std::vector<WeakTerm> library;  ///< one field's (empty for a system's, eval/system_weak_form.h)
  std::string left_hand_side = "u_t";  ///< what the equation gives ("v_t" for field v)
  std::vector<DistilledTerm> terms;    ///< [J], in the library's order
  at::Tensor coefficients;             ///< xi [S, J]
  FieldScales scales;
  double time_factor = 0;
  std::vector<WeakFormWidth> widths;
  bool resampled = false;  ///< the experiments were resampled
  bool has_truth = false;  ///< terms[j].truth is set
};

/// No width can be fitted: the windows are too short for the fields' own scales.
struct WeakFormUnfitted : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

/// Fits the weak form of `library` on `fields` (one per training experiment). Throws
/// WeakFormUnfitted when no width can be fitted, std::invalid_argument naming the rule for
/// bad options.
WeakFormDistillation weak_form_distillation(const std::vector<pde::GridField>& fields,
                                            const std::vector<WeakTerm>& library,
                                            const WeakFormOptions& options);

/// One experiment for fit_weak_systems: its duration T_e and its weak system at given
/// test-function widths.
struct WeakExperiment {
  double duration = 0;
  std::function<WeakSystem(const TestFunctionWidths&)> system;
};

/// The fit of weak_form_distillation on any experiments' weak systems whose columns are the
/// terms `names` [J], with the widths read from `scales`; the result's library is left
/// empty (weak_form_distillation sets it). Same errors.
WeakFormDistillation fit_weak_systems(const std::vector<WeakExperiment>& experiments,
                                      const std::vector<std::string>& names,
                                      const FieldScales& scales, const WeakFormOptions& options);

/// weak_form_distillation of the library of derivative order max_order and `degree`
/// (weak_library); none, with the reason in `why`, when no width can be fitted.
std::optional<WeakFormDistillation> fit_weak_form(const std::vector<pde::GridField>& fields,
                                                  int max_order, int degree,
                                                  const WeakFormOptions& options, std::string& why);

/// "64 fits on the 4 training leaves' u (256 x 128 grids over their windows), derivatives
/// moved onto test functions of half-width a = 1.75 ell (168 test functions in 4
/// experiment(s)), ... in x (ell = 2) and b = min(4 tau, T / 2.2) in t (tau = 4.46); ...":
/// the fit's settings for `experiments` leaves read on x_points x t_points grids.
std::string weak_form_settings(const WeakFormDistillation& weak, std::int64_t experiments,
                               std::int64_t x_points, std::int64_t t_points);

/// The true coefficient of each weak term from the pointwise distillation's truths: a weak
/// term takes the truth of the pointwise term of the same name. Sets has_truth only when
/// every pointwise term with a nonzero truth has a weak namesake (otherwise the truth is
/// not a combination of the weak library's terms by name, and it is left unknown).
void attach_truth(WeakFormDistillation& weak, const Distillation& pointwise);

}  // namespace bhpm::eval
