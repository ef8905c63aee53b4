#pragma once
/// Predictions under the learned physics (paper section 2.3, Algorithm 1, Fig. 4): S
/// operator samples from the trained root, each IBVP solved from the same initial
/// condition, as one ensemble.
///
/// Samplers: "conditioned" is the paper's Algorithm 1 (the prior conditioned on the
/// inducing inputs with a draw of q(u), refined with conditioning points until
/// L_c < delta_c; solve/operator_refinement.h); "pathwise" draws whole functions at once
/// (gp/pathwise_samples.h), no refinement loop. Solvers: "spectral" (ETDRK4 on the
/// periodic grid, solve/spectral_ensemble.h) and "pinn" (appendix C, solve/pinn_solver.h).
/// Every sample carries the model discrepancy: a term of variance tau^2
/// (PredictorOptions::discrepancy_variance) or its spread about the posterior mean scaled
/// (PredictorOptions::spread_inflation; docs/calibration.md, "Model discrepancy"), and before each
/// solve every sample's linearisation about u0 is checked: ill-posed samples are repaired by
/// the least diffusion that makes them well-posed or rejected, never averaged in
/// (solve/well_posedness.h, PredictorOptions::ill_posed).

#include <ATen/core/Tensor.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gp/function_samples.h"
#include "gp/pathwise_samples.h"
#include "gp/sparse_variational_gp.h"
#include "pde/boundary_conditions.h"
#include "pde/bounded_solve.h"
#include "pde/chebyshev_grid.h"
#include "pde/periodic_grid.h"
#include "pde/periodic_solve.h"
#include "solve/ensemble_solution.h"
#include "solve/operator_refinement.h"
#include "solve/pinn_solver.h"
#include "solve/shifted_samples.h"

namespace bhpm::solve {

struct PredictorOptions {
  std::int64_t samples = 32;            ///< S (>= 1)
  std::string sampler = "conditioned";  ///< one of sampler_names()
  std::string solver = "spectral";      ///< one of solver_names()
  gp::PathwiseOptions pathwise;         ///< features (seed: taken from `seed`)
  RefinementOptions refinement;         ///< tolerance in units of f^2 (seed: from `seed`)
  PinnOptions pinn;                     ///< (seed: from `seed`)
  /// tau^2 >= 0: the variance of every sample's model-discrepancy term delta_s
  /// (gp/discrepancy_field.h; docs/calibration.md, "Model discrepancy"); 0: none.
  /// `bhpm calibrate` fits it on the training experiments.
  double discrepancy_variance = 0.0;
  /// T >= 0: delta_s decorrelates in time over T, in the problem's time units (0: it is
  /// constant in time). `bhpm calibrate` chooses it with tau^2.
  double discrepancy_timescale = 0.0;
  /// m >= 0: delta_s depends on u, u_x, .., d^m u/dx^m only, not on the higher derivatives
  /// of v. A random slope of delta_s along u_xx or a higher derivative would change the
  /// sample's principal part, and a negative one in u_xx is anti-diffusion: ill-posed
  /// (docs/calibration.md, "Model discrepancy"). `bhpm calibrate` fits tau^2 with it.
  std::int64_t discrepancy_order = 1;
  /// kappa > 0 (docs/calibration.md, "Spread inflation"); 1: none. kappa > 1 widens what the
  /// data inform: the samples are drawn from the posterior with q(u)'s covariance scaled by
  /// kappa, kappa times the posterior's variance where the data pin f down, the prior's far
  /// from them (gp/inflated_posterior.h). kappa < 1 narrows all of the spread: every
  /// sample's deviation from the posterior mean is scaled by sqrt(kappa), the prior's
  /// remainder given u included, which at the training rows is part of what was too wide
  /// (gp/inflated_samples.h). solve/operator_calibration.h fits kappa by the same rule. The other
  /// calibrated form of the model discrepancy: `bhpm calibrate` chooses this one or tau^2,
  /// never both (validate refuses kappa != 1 with tau^2 > 0).
  double spread_inflation = 1.0;
  /// Largest growth factor of the fastest resolved wave over the horizon, relative to the
  /// mean one, in a sample's linearisation about u0 (> 1); samples above it are rejected
  /// as ill-posed (solve/well_posedness.h).
  double max_amplification = 10.0;
  /// What becomes of an ill-posed sample: "repair" solves it with the least added diffusion
  /// that brings it within max_amplification (solve/stabilised_samples.h), "reject" leaves
  /// it out; both are counted per member (one of ill_posed_treatments()).
  std::string ill_posed = "repair";
  /// Spectral solver only: solve every sample's projection onto mean-conserving dynamics,
  /// u_t = f_s(v) - <f_s(v)>_x (solve/sampled_operator.h), for data whose spatial mean is
  /// conserved (docs/calibration.md, "Conserved mean"); the PINN solver ignores it.
  bool conserve_mean = false;
  /// g added to every sample after its spread is scaled (solve/shifted_samples.h): the
  /// equation terms' coefficients moved to another estimate's (pipeline/weak_form_shift.h);
  /// null: none. Also in the linear part that ETDRK4 treats exactly.
  std::shared_ptr<const OperatorShift> shift;
  std::uint64_t seed = 0;  ///< drives every draw
  /// This process draws and solves members first_member, .., first_member + member_count
  /// - 1 of the S (member_count 0: all from first_member on). Member s is drawn from its
  /// own seeds, and with the linear part split off by the posterior mean and steps of its own
  /// (fixed, or adaptive per member: pde/member_steps.h) it is solved apart from the others,
  /// so a share of the ensemble holds exactly the members of the whole (`mpirun -n P bhpm
  /// predict`, docs/parallel.md). A share needs the spectral solver and no time budget,
  /// without which a member would depend on the others in its batch.
  std::int64_t first_member = 0;
  std::int64_t member_count = 0;
};

/// The members this process solves: member_count, or S - first_member when it is 0.
std::int64_t members_solved(const PredictorOptions& options);

/// Throws util::OptionError naming the field (nested options as "pinn.iterations",
/// "pathwise.features", "refinement.max_rounds"), its value and the rule.
void validate(const PredictorOptions& options);

/// The samplers: "conditioned" (Algorithm 1) and "pathwise" (Wilson et al. 2020).
const std::vector<std::string>& sampler_names();
/// The solvers: "spectral" (ETDRK4) and "pinn" (appendix C).
const std::vector<std::string>& solver_names();
/// The treatments of ill-posed samples: "repair" and "reject".
const std::vector<std::string>& ill_posed_treatments();

/// The IBVP on an interval with boundary conditions (docs/boundary-conditions.md), solved by
/// solve/bounded_ensemble.h, by either sampler (Algorithm 1 refines on the root inputs along
/// the bounded solutions, solve::bounded_root_inputs) and one process. Ill-posed samples are
/// found as on a
/// periodic grid, by their frozen-coefficient symbol along u0 over the wavenumbers of the
/// window's length (solve/well_posedness.h), and repaired or rejected alike; at the ends the
/// bounded ensemble's count of conditions checks them (a member that needs another count is
/// dropped as ill-posed).
struct WindowProblem {
  pde::ChebyshevGrid grid{-1.0, 1.0, 2};
  at::Tensor u0;  ///< [n+1] on grid's points
  pde::BoundaryConditions conditions;
  pde::BoundedSolveOptions solve;

  /// [T] 0, output_dt, .., t_end: the times the ensemble is output at.
  at::Tensor output_times() const;
};

/// The IBVP: u(x, 0) = u0 on a periodic grid, solved to solve.t_end with snapshots every
/// solve.output_dt (spectral: also the time step solve.stepper.dt); or, when `window` is
/// set, that window's problem (grid, u0 and solve are then not used).
struct PredictionProblem {
  pde::PeriodicGrid grid{-1.0, 1.0, 4};
  at::Tensor u0;  ///< [n]
  pde::SolveOptions solve;
  std::shared_ptr<const WindowProblem> window;
};

/// Where Algorithm 1 left one member (solve/operator_refinement.h): plain numbers, which
/// the members of several processes can be gathered by.
struct MemberRefinement {
  std::int64_t conditioning_points = 0;  ///< |V_c| (inducing inputs included) when it stopped
  double expected_variance = NAN;        ///< its last L_c (NaN when none was measured)
  bool converged = false;                ///< L_c fell below the tolerance
  bool out_of_budget = false;            ///< stopped unconverged by the time budget
  bool out_of_reach = false;             ///< took the rounds left at once (tolerance out of reach)
};

struct Prediction {
  EnsembleSolution ensemble;
  std::vector<MemberRefinement> refinement;  ///< per member, sampler "conditioned" only
  double discrepancy_variance = 0;           ///< tau^2 of the samples' discrepancy term (0: none)
  double discrepancy_timescale = 0;          ///< its T (0: constant in time)
  std::int64_t discrepancy_order = 0;        ///< the highest derivative it depends on
  double spread_inflation = 1;               ///< kappa: the posterior spread's scale in variance
  bool conserve_mean = false;                ///< the samples were projected to conserve <u>_x
};

/// Progress lines for the user ("sample 3: L_c = 2.1e-7 with 128 conditioning points").
using PredictionProgress = std::function<void(const std::string&)>;

/// Draws the samples (options.first_member on, members_solved(options) of them) and solves;
/// the linear part treated exactly is the posterior mean's (gp/posterior_mean.h), so that
/// it is the same for every member and share. Throws std::invalid_argument for bad options or a u0
/// that does not fit the grid; diverged samples are marked in the ensemble, not thrown.
Prediction predict_ensemble(const gp::SparseVariationalGpImpl& root,
                            const PredictionProblem& problem, const PredictorOptions& options,
                            const PredictionProgress& progress = {});

/// Solves the IBVP under operator samples given whole (S = samples->count() members), with
/// options.solver and the same well-posedness check, no sampler and no model discrepancy
/// (options.samples, sampler and the discrepancy are ignored), on the periodic grid or the
/// problem's window: the distilled equation's coefficient samples
/// (solve/polynomial_samples.h, `bhpm predict --operator distilled`).
Prediction predict_with_samples(std::shared_ptr<const gp::FunctionSamples> samples,
                                const PredictionProblem& problem, const PredictorOptions& options,
                                const PredictionProgress& progress = {});

/// sqrt(var q(f(v))) [T, n] of the root's posterior along a solution u [T, n] (no
/// likelihood noise): large where the solution visits inputs the data did not cover.
at::Tensor operator_standard_deviation(const gp::SparseVariationalGpImpl& root,
                                       const pde::PeriodicGrid& grid, const at::Tensor& u);
/// The same along a solution u [T, n+1] on a window's Chebyshev grid.
at::Tensor operator_standard_deviation(const gp::SparseVariationalGpImpl& root,
                                       const pde::ChebyshevGrid& grid, const at::Tensor& u);
/// The same along a solution of `problem`: on its window's grid when it has one.
at::Tensor operator_standard_deviation(const gp::SparseVariationalGpImpl& root,
                                       const PredictionProblem& problem, const at::Tensor& u);

/// Where the data leave the operator open along a solution: the fraction of its grid
/// points (x, t) at which the root's posterior variance var q(f(v)) = operator_std^2
/// [T, n] exceeds a tenth of the kernel's prior variance s^2, i.e. the data have removed
/// less than 90 % of the prior's uncertainty about f there and the band rests largely on
/// the prior (docs/predictions.md, "Coverage of the data"). NaN entries count as outside.
double fraction_outside_coverage(const at::Tensor& operator_std, double prior_variance);

/// The largest fraction_outside_coverage of a path whose band rests on the data: above it
/// `bhpm predict` warns, and the discrepancy calibration leaves the time bin out of its fits
/// (solve/discrepancy_calibration.h, step 3).
constexpr double kCoveredPathTolerance = 0.01;

}  // namespace bhpm::solve
