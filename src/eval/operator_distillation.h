#pragma once
/// The learned operator as an equation (docs/distillation.md, "Distilled equations"; the paper
/// leaves it as future work): S operator samples f_s ~ q(f), evaluated at points v_p where
/// the data inform f, are each fitted by a sparse regression on a library of monomials
/// (pde/term_library.h, eval/sparse_regression.h),
///   f_s(v_p) ~ sum_j xi_sj theta_j(v_p),
/// and the S coefficient vectors summarise the posterior over equations: per term its
/// inclusion probability (the fraction of samples that keep it), the median and the 2.5 and
/// 97.5 % quantiles of xi_sj over all samples (a sample that drops the term counts 0).
/// With DistillOptions::regression.resample_folds each sample is fitted on its own bootstrap
/// resample of the folds (eval/sparse_regression.h): `bhpm distill` resamples the training
/// experiments, whose leaves' errors are independent, so that the summary holds them too.
///
/// The distilled equation keeps the terms with inclusion > 1/2 at their medians; how much
/// of the posterior mean it explains on the points,
///   explained = 1 - sum_p (mean_p - eq(v_p))^2 / sum_p (mean_p - <mean>)^2,
/// says whether the posterior mean is, on the points, a polynomial of the library: below
/// 1 - max_unexplained the equation is flagged as an approximation not to be read as the
/// learned physics (the operator is outside the library, or the posterior carries structure
/// the equation leaves out).

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "eval/sparse_regression.h"
#include "gp/pathwise_samples.h"
#include "gp/sparse_variational_gp.h"
#include "pde/term_library.h"

namespace bhpm::eval {

/// What the samples say at the points (double tensors).
struct DistillationInputs {
  at::Tensor inputs;    ///< v [P, D]
  at::Tensor samples;   ///< f_s(v_p) [S, P], S >= 2
  at::Tensor mean;      ///< the posterior mean of f [P]
  at::Tensor variance;  ///< the posterior variance of f [P] (>= 0)
  at::Tensor fold;      ///< the cross-validation fold of each point [P] (int64)
  at::Tensor truth;     ///< the true operator [P] where it is known; undefined otherwise
};

struct DistillOptions {
  SparseRegressionOptions regression;
  /// Largest fraction of the posterior mean's variance the equation may leave unexplained
  /// before it is flagged (in (0, 1)). Even the true operator leaves 0.1-5 % of a trained
  /// root's posterior mean unexplained (the leaves' errors; docs/distillation.md, "Distilled
  /// equations"), so a stricter default would flag correct equations.
  double max_unexplained = 0.05;
};

/// Throws util::OptionError naming the field, its value and the rule.
void validate(const DistillOptions& options);

struct DistilledTerm {
  std::string name;
  double inclusion = 0;  ///< fraction of samples whose fit keeps the term
  double median = 0;     ///< of xi_sj over all samples
  double lower = 0;      ///< 2.5 % quantile
  double upper = 0;      ///< 97.5 % quantile
  /// Least-squares coefficient of the true operator (NaN: unknown).
  double truth = std::numeric_limits<double>::quiet_NaN();
  bool kept() const { return inclusion > 0.5; }
};

struct Distillation {
  pde::TermLibrary library;
  std::string left_hand_side = "u_t";  ///< what the equation gives ("v_t" for field v)
  std::vector<DistilledTerm> terms;    ///< [J], in the library's order
  at::Tensor coefficients;             ///< xi [S, J]
  std::vector<double> thresholds;      ///< lambda chosen per sample [S]
  double explained = 0;                ///< of the posterior mean's variance, by the equation
  double misfit_rms = 0;               ///< RMS_p (mean_p - eq(v_p))
  double posterior_std_rms = 0;        ///< RMS_p sqrt(variance_p)
  double max_unexplained = 0;          ///< the option it was judged by
  bool has_truth = false;
  /// Where the truth is known: the fraction of the posterior mean's variance that the true
  /// operator explains (what the equation could reach if the posterior mean were exact).
  double truth_explained = 0;
  /// The equation leaves more than max_unexplained of the posterior mean unexplained.
  bool too_little_explained() const { return 1.0 - explained > max_unexplained; }
};

/// The inputs from a trained root at points v [P, D] with folds [P]: `samples` (>= 2)
/// pathwise samples (gp/pathwise_samples.h) evaluated in chunks of points, and the
/// posterior mean and variance of f (without sigma_f^2); truth left undefined.
DistillationInputs root_distillation_inputs(const gp::SparseVariationalGpImpl& root,
                                            const at::Tensor& v, const at::Tensor& fold,
                                            std::int64_t samples,
                                            const gp::PathwiseOptions& pathwise);

/// Fits, summarises and scores. Throws std::invalid_argument naming the rule for shapes that
/// disagree, S < 2, non-finite samples or a bad max_unexplained.
Distillation distill_operator(const DistillationInputs& inputs, const pde::TermLibrary& library,
                              const DistillOptions& options);

/// One term's summary over the samples' coefficients `column` [S] (double): inclusion,
/// median and 2.5 / 97.5 % quantiles (a sample that drops the term counts 0); truth NaN.
DistilledTerm summarise_term(const std::string& name, const at::Tensor& column);

/// "u_t = -1.002 [-1.010, -0.995] u*u_x + 0.0998 [0.0991, 0.1006] u_xx": the kept terms,
/// median [2.5 %, 97.5 %]; a negative coefficient after the first term is written
/// "- |median| [|upper|, |lower|] term". "u_t = 0" when no term is kept. `left_hand_side`
/// names the time derivative ("v_t" for field v of a system).
std::string equation_text(const std::vector<DistilledTerm>& terms,
                          const std::string& left_hand_side = "u_t");
/// equation_text of the distillation's terms.
std::string distilled_equation(const Distillation& distillation);

/// A table of every term with inclusion > 0 (and every term with a nonzero truth, when
/// `has_truth`): name, inclusion, median, interval, truth when known.
std::string terms_table(const std::vector<DistilledTerm>& terms, bool has_truth);
/// terms_table of the distillation's terms.
std::string distillation_table(const Distillation& distillation);

/// The warning for an equation that explains too little, "" when it explains enough.
std::string distillation_warning(const Distillation& distillation);

}  // namespace bhpm::eval
