#pragma once
/// The spread inflation kappa fitted on the training experiments' own trajectories, scored
/// at their measurements (docs/calibration.md, "Calibration on the experiments' windows";
/// `bhpm calibrate` with predict.calibration_method = "windows").
///
/// Each training experiment e is predicted on its own window from its leaf's u0 and
/// boundary data by the root's posterior without e's rows (pipeline/window_calibration.h),
/// S samples at kappa = 1. At e's measurements y_p the ensemble gives a mean m_p and a
/// sample variance V_p (S - 1 in the denominator); the error r_p = y_p - m_p holds the
/// prediction's error, the finite ensemble's (variance V_p / S at kappa = 1) and the
/// measurement's noise s_p^2. Samples drawn at kappa deviate sqrt(kappa) times as far from
/// the mean (exactly for kappa < 1, where every deviation is scaled; to first order in the
/// solve and through q(u)'s share of the spread for kappa > 1, solve/predictor.h). A
/// prediction's band is the t interval of its members (util/student_t.h): a truth
/// exchangeable with S members lies within m +- t_{S-1}((1 + p) / 2) sqrt(V (1 + 1/S)) with
/// probability p. At kappa the truth deviates from the members' centre by kappa V, and this
/// ensemble's mean from that centre by V / S, so the truth's band about m_p at level p is
/// +- q_p sqrt(V_p (kappa + 1/S)), q_p = t_{S-1}((1 + p) / 2), which keeps an ensemble of
/// few members from reading its noisy V_p as too narrow (for S = 6 and p = 0.95, q = 2.57
/// against the normal 1.96). The noise is known, not sampled, so its band is the normal
/// one, +- z_p s_p, and the measurement's band adds the two in quadrature:
///   r_p^2 <= q_p^2 V_p (kappa + 1/S) + z_p^2 s_p^2,
/// exact without noise and without spread, and within 15 % of kappa between them where the
/// noise's variance is at most the truth's (tests/solve/window_calibration_test.cpp). kappa
/// is the one at which the share of measurements held, each experiment weighted alike,
///   C_p(kappa) = mean_e mean_{p in e} 1[r_p^2 <= q_p^2 V_p (kappa + 1/S) + z_p^2 s_p^2],
/// is nearest the nominal levels: kappa minimises sum_{p in kCoverageLevels} (C_p(kappa) -
/// p)^2 over a grid of kGridPointsPerDecade points per decade in [1 / kLargestFactor,
/// kLargestFactor] (C_p is a step function; the middle of the first run of least misfit).
/// A measurement is covered at every kappa >= kappa_p = (r_p^2 - z_p^2 s_p^2) / (q_p^2 V_p) -
/// 1/S and none below, so each C_p is the weighted distribution function of the
/// kappa_p, evaluated by binary search. Unlike the operator route's cells
/// (solve/operator_calibration.h) this sees the spread a trajectory meets along its own path
/// and the error the dynamics keep, both of which the leaf rows cannot show.

#include <cstdint>
#include <vector>

#include "solve/operator_calibration.h"

namespace bhpm::solve {

/// Grid points per decade of kappa searched (0.5 % apart).
constexpr std::int64_t kGridPointsPerDecade = 200;

/// One training experiment's window prediction at its measurements.
struct WindowResiduals {
  std::int64_t experiment = 0;         ///< its index among the training experiments
  std::vector<double> error;           ///< [P] r_p = y_p - m_p
  std::vector<double> variance;        ///< [P] V_p >= 0, the members' sample variance
  std::vector<double> noise_variance;  ///< [P] s_p^2 >= 0
  std::int64_t members = 0;            ///< S >= 2 sound members
};

struct WindowExperimentFit {
  std::int64_t experiment = 0;  ///< its index among the training experiments
  std::int64_t points = 0;
  std::int64_t members = 0;
  double rmse = 0;               ///< sqrt(mean r_p^2)
  double spread = 0;             ///< sqrt(mean V_p)
  double noise = 0;              ///< sqrt(mean s_p^2)
  double factor = 1;             ///< kappa of this experiment alone
  std::vector<double> coverage;  ///< [levels] C_p(1) of this experiment alone
};

struct WindowCalibration {
  double factor = 1;                             ///< kappa > 0
  std::vector<double> coverage_before;           ///< [levels] C_p(1)
  std::vector<double> coverage_after;            ///< [levels] C_p(kappa)
  std::vector<WindowExperimentFit> experiments;  ///< [N] those fitted
  /// Training experiments left out of the fit: fewer than 2 sound members on their window.
  std::vector<std::int64_t> left_out;
};

/// C_p(kappa) over `experiments` (kappa > 0). Throws as fit_window_inflation.
double window_coverage(const std::vector<WindowResiduals>& experiments, double kappa,
                       const CoverageLevel& level);

/// kappa from one WindowResiduals per training experiment (N >= 1). Throws
/// std::invalid_argument naming the experiment and the rule for vectors of different
/// lengths or none, fewer than 2 members, or negative or non-finite values.
WindowCalibration fit_window_inflation(const std::vector<WindowResiduals>& experiments);

}  // namespace bhpm::solve
